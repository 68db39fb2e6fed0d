"""Changelog entries collected from <Update> components, for the page's RSS feed (`rss: true`)."""

from __future__ import annotations

import re
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
    markdown: str = ""  # the entry's Markdown: no components, HTML or code (what Mintlify's feed items carry)
    sections: tuple[tuple[str, str, str], ...] = ()  # (heading, its anchor, its Markdown) per heading inside
    rss_set: bool = False  # the `rss` prop was given: one feed item with its title and description
    extra: dict = field(default_factory=dict, compare=False)


def changelog_entries(result: MdxResult) -> list[ChangelogEntry]:
    """Return the <Update> entries of a rendered page, in page order (empty when it has none)."""
    return list(getattr(result, "changelog", []))


_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[ \t]*$\n?", re.M | re.S)
_COMMENT = re.compile(r"\{/\*.*?\*/\}", re.S)
_COMPONENT_TAG = re.compile(r"<(/?)([A-Z][\w.]*)\b(?:[^<>{}]|\{[^{}]*\})*?(/?)>")


def _without_components(text: str) -> str:
    """Remove every component with what it holds (one pass pairing open and close tags: linear time)."""
    keep: list[str] = []
    depth, last = 0, 0
    for m in _COMPONENT_TAG.finditer(text):
        closing, self_closing = m.group(1), m.group(3)
        if depth == 0:
            keep.append(text[last : m.start()])
        if self_closing and not closing:
            pass
        elif closing:
            depth = max(depth - 1, 0)
        else:
            depth += 1
        last = m.end()
    if depth == 0:
        keep.append(text[last:])
    return "".join(keep)


_TAG = re.compile(r"</?[A-Za-z][\w.:-]*(?:\s(?:[^<>{}]|\{[^{}]*\})*)?/?>")
_CODE_SPAN = re.compile(r"(`+)[^`\n]*?\1")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)
_HEADING_ID = re.compile(r'<h[1-6][^>]*\sid="([^"]+)"')


def pure_markdown(source: str) -> str:
    """Return an entry's Markdown as a feed carries it: components, HTML tags, code and comments left out."""
    text = _FENCE.sub("", source[:200_000])
    text = _COMMENT.sub("", text)
    text = _without_components(text)  # a component and what it holds
    text = _TAG.sub("", text)  # an HTML element's tags (its text stays)
    text = _CODE_SPAN.sub("", text)
    lines = [line.strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def heading_sections(markdown: str, body_html: str) -> tuple[tuple[str, str, str], ...]:
    """Split an entry's Markdown at its headings: (heading text, the anchor it got in the page, its Markdown)."""
    found = list(_HEADING.finditer(markdown))
    if not found:
        return ()
    ids = _HEADING_ID.findall(body_html)
    out = []
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(markdown)
        start = 0 if i == 0 else m.start()  # text before the first heading belongs to the first item
        body = re.sub(
            r"\n{3,}", "\n\n", markdown[start : m.start()] + "\n\n" + markdown[m.end() : end]
        ).strip()
        out.append((m.group(2).strip(), ids[i] if i < len(ids) else "", body))
    return tuple(out)
