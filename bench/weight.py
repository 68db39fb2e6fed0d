"""Page weight: what one built page costs a reader (HTML, the JavaScript it loads, gzip-compressed)."""

from __future__ import annotations

import gzip
import posixpath
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path


class _Scripts(HTMLParser):
    """Collect <script src> URLs, inline script text and the sidebar fragment a page loads."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []
        self.inline: list[str] = []
        self.fragments: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script":
            if values.get("src"):
                self.sources.append(values["src"] or "")
            elif (values.get("type") or "text/javascript") in ("text/javascript", "module"):
                self._in_script = True
        for value in values.values():
            if value and "_nav/" in value and ".html" in value:
                self.fragments.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.inline.append(data)


def gz(data: bytes) -> int:
    """Return the gzip-compressed size (level 6, what web servers use by default)."""
    return len(gzip.compress(data, compresslevel=6, mtime=0))


def _local(site: Path, page_rel: str, url: str) -> Path | None:
    """Map a URL found in a page to a file of the built site (None for external URLs)."""
    if re.match(r"^[a-z]+:|^//", url):
        return None
    url = url.split("?")[0].split("#")[0]
    rel = (
        url.lstrip("/")
        if url.startswith("/")
        else posixpath.normpath(posixpath.join(posixpath.dirname(page_rel), url))
    )
    path = site / rel
    return path if path.is_file() else None


@dataclass
class PageWeight:
    """The weight of one page of a built site."""

    page: str
    html_bytes: int
    html_gzip: int
    js_gzip: int  # every script the page loads plus inline scripts, each compressed
    js_files: list[str] = field(default_factory=list)
    nav_gzip: int = 0  # the shared sidebar fragment the page fetches (cached across pages)


def page_weight(site: Path, page_rel: str) -> PageWeight:
    """Measure a page of a built site: its HTML, and the JavaScript it loads (static <script src> and inline)."""
    html = (site / page_rel).read_bytes()
    parser = _Scripts()
    parser.feed(html.decode("utf-8", "replace"))
    js_total = sum(gz(text.encode()) for text in parser.inline if text.strip())
    files = []
    for src in dict.fromkeys(parser.sources):
        path = _local(site, page_rel, src)
        if path is not None:
            js_total += gz(path.read_bytes())
            files.append(path.relative_to(site).as_posix())
    nav = 0
    for fragment in dict.fromkeys(parser.fragments):
        path = _local(site, page_rel, fragment)
        if path is not None:
            nav += gz(path.read_bytes())
    return PageWeight(page_rel, len(html), gz(html), js_total, files, nav)
