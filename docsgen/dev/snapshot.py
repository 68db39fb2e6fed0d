"""What a dev rebuild hands to the server: the complete build to serve, and what changed for the browsers."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from docsgen.common.errors import Diagnostic
from docsgen.engine.write import Claimed, Content, Copied, Made


@dataclass(frozen=True)
class OnRequest:
    """A file made when it is first asked for, or by the background pass: llms.txt and its twin under
    .well-known (a pass over every page of a big site, needed by no page)."""

    what: str  # what makes it ("agents")


Served = bytes | Path | Claimed | OnRequest  # what a snapshot holds for a path


def servable(content: Content) -> bytes | Path | None:
    """Return what the dev server holds of a build's output: made bytes, or the file a copy is made from (None:
    any other kind of content)."""
    if isinstance(content, Made):
        return content.data
    if isinstance(content, Copied):
        return content.source
    return None


RebuildKind = Literal["full", "page", "nav", "snippet", "css", "static", "none"]


@dataclass(frozen=True)
class Change:
    """What edited files needed: the kind of rebuild, the URLs browsers reload (None: every page), and the
    stylesheets they swap in place."""

    kind: RebuildKind
    reload: frozenset[str] | None = frozenset()
    css: tuple[str, ...] = ()


FULL = Change("full", None)  # everything read and rendered again


class BuildCancelled(BaseException):
    """The dev server is stopping: the build in progress is abandoned (a BaseException: no handler keeps it)."""


@dataclass(frozen=True)
class Snapshot:
    """One complete build as served: files by output path, plus the errors that replace pages.

    A page not rendered yet is Claimed (by its page key): the server has it rendered when it is asked for, and
    its file (in the page store) and its errors are then added to the snapshot in place.
    """

    generation: int
    files: dict[str, Served]
    page_errors: dict[str, list[Diagnostic]] = field(default_factory=dict)  # output path -> errors
    site_errors: list[Diagnostic] = field(default_factory=list)  # config errors: every page shows them
    nav_versions: dict[str, str] = field(default_factory=dict)  # "_nav/<id>.html" -> current hash
    static_version: str = ""  # the ?v= the pages were rendered with
    asset_version: str = ""  # the ?v= served pages carry: changes with every stylesheet edit


@dataclass
class Update:
    """What one rebuild did: which URLs a browser must reload (None: all), which stylesheets to swap."""

    generation: int
    kind: RebuildKind
    reload: set[str] | None = field(default_factory=set)  # URL paths ("/guides/a/"); None means every page
    css: list[str] = field(default_factory=list)  # stylesheet URL paths to swap in place
    rendered: list[str] = field(default_factory=list)  # page keys rendered by this update
    seconds: float = 0.0
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    pending: int = 0  # pages left to render (when asked for, or in the background)

    def describe(self) -> str:
        """Return the one line printed in the terminal after a rebuild."""
        state = f", {len(self.errors)} error(s)" if self.errors else ""
        line = f"{self.kind}: rendered {len(self.rendered)} page(s) in {self.seconds * 1000:.0f} ms{state}"
        if self.pending:
            line += f"; {self.pending} page(s) render when first asked for, the rest in the background"
        return line
