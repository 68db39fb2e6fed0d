"""Changelog entries collected from <Update> components, for the page's RSS feed (`rss: true`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from docsgen.mdx.types import MdxResult


@dataclass(frozen=True)
class ChangelogEntry:
    """One <Update>: anchor id, label, description, tags, RSS overrides and its rendered body."""

    id: str
    label: str
    description: str = ""
    tags: tuple[str, ...] = ()
    rss_title: str = ""  # <Update rss={{title}}>, else the label
    rss_description: str = ""  # <Update rss={{description}}>, else the description
    html: str = ""
    text: str = ""
    line: int = 0
    extra: dict = field(default_factory=dict, compare=False)


def changelog_entries(result: MdxResult) -> list[ChangelogEntry]:
    """Return the <Update> entries of a rendered page, in page order (empty when it has none)."""
    return list(getattr(result, "changelog", []))
