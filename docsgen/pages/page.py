"""Pages: frontmatter and body read from disk (or generated), then rendered to HTML by the MDX reader."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsgen.common.errors import Diagnostic, warning
from docsgen.mdx import MdxContext, MdxResult
from docsgen.mdx.files import read_source_bytes
from docsgen.mdx.frontmatter import load_frontmatter
from docsgen.sources.walk import PageFile

_OPENING = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n")
_FRONTMATTER = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n(.*?)(?:\r?\n)?^---[ \t]*(?:\r?\n|\Z)", re.S | re.M)


@dataclass
class Page:
    """One page of the site, from a file or generated (OpenAPI endpoints, schemas)."""

    key: str  # navigation path ("guides/setup")
    url: str  # site-relative pretty URL ("guides/setup/")
    output: str  # output file ("guides/setup/index.html")
    source: str | None = None  # docs-relative source file; None when generated
    meta: dict[str, Any] = field(default_factory=dict)  # frontmatter (or generated metadata)
    body: str = ""
    body_line: int = 1  # file line where the body starts
    # For generated pages (and MDX pages documenting an API): produce the rendered body, once, at render time.
    generate: Callable[[Page, MdxContext], MdxResult] | None = None
    content: MdxResult | None = None
    kind: str = "page"  # "page", "endpoint", "webhook", "schema"
    method: str | None = None  # HTTP method for endpoint pages (sidebar badge)
    spec: str | None = None  # API pages: the source of the spec documenting them (path or URL)
    api_path: str | None = None  # endpoint pages: the operation's path in that spec
    api_tag: str | None = None  # generated endpoint pages: the tag grouping them in the navigation
    api_tag_parents: tuple[str, ...] = ()  # OpenAPI 3.2 tag hierarchy above api_tag, outermost first
    summary: str = ""  # API pages: a description made from the spec, when the page has none of its own
    related: list[dict[str, Any]] | None = None  # frontmatter `related`, resolved to {title, url, external}

    @property
    def title(self) -> str:
        """Return the page title: frontmatter, else derived from the file name."""
        title = self.meta.get("title")
        if isinstance(title, str | int | float) and str(title).strip():
            return str(title).strip()
        stem = self.key.rsplit("/", 1)[-1]
        if stem == "index" and "/" in self.key:
            stem = self.key.rsplit("/", 2)[-2]
        return stem.replace("-", " ").replace("_", " ").strip().capitalize() or "Home"

    @property
    def sidebar_title(self) -> str:
        """Return the label shown in the navigation."""
        label = self.meta.get("sidebarTitle")
        return str(label) if label else self.title

    @property
    def description(self) -> str:
        value = self.meta.get("description")
        return str(value) if value else ""

    @property
    def meta_description(self) -> str:
        """Return the description for <meta> tags: the page's own, else one generated (API pages)."""
        return self.description or self.summary

    @property
    def hidden(self) -> bool:
        return bool(self.meta.get("hidden"))

    @property
    def noindex(self) -> bool:
        return (
            bool(self.meta.get("noindex"))
            or self.hidden
            or str(self.meta.get("robots", "")).find("noindex") >= 0
        )

    @property
    def deprecated(self) -> bool:
        return bool(self.meta.get("deprecated"))

    @property
    def mode(self) -> str:
        mode = self.meta.get("mode")
        return mode if mode in ("wide", "center", "custom", "frame", "default", "assistant") else "default"


def split_frontmatter(text: str, source: str) -> tuple[dict[str, Any], str, int, list[Diagnostic]]:
    """Split YAML frontmatter from the body; return (meta, body, body start line, diagnostics)."""
    m = _FRONTMATTER.match(text)
    if not m:
        if _OPENING.match(text):
            return (
                {},
                text,
                1,
                [
                    warning(
                        "page.frontmatter",
                        "frontmatter opened with `---` on line 1 is never closed by a `---` line: read as page text",
                        source,
                        1,
                        1,
                    )
                ],
            )
        return {}, text, 1, []
    body = text[m.end() :]
    body_line = text.count("\n", 0, m.end()) + 1
    yaml_text = m.group(1)
    if not yaml_text.strip():
        return {}, body, body_line, []
    meta, diags = load_frontmatter(yaml_text, source, 2)
    return meta or {}, body, body_line, diags


def read_page(docs_dir: Path, file: PageFile) -> tuple[Page, list[Diagnostic]]:
    """Read a page's frontmatter and body (rendering comes later, once the navigation exists).

    Only a regular file no larger than MAX_PAGE_BYTES is read; text that is not UTF-8 or holds NUL
    characters is repaired (U+FFFD) with a located warning, so the page still builds.
    """
    empty = Page(file.key, file.url, file.output, file.source)
    data, problem = read_source_bytes(docs_dir / file.source)
    if data is None:
        return empty, [warning("page.unreadable", f"page not read: {problem}", file.source)]
    diags: list[Diagnostic] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _byte_location(data, exc.start)
        diags.append(
            warning(
                "page.encoding",
                f"page is not UTF-8 text (byte 0x{data[exc.start]:02x}): each undecodable byte is shown as U+FFFD (replacement character)",
                file.source,
                line,
                col,
            )
        )
        text = data.decode("utf-8", errors="replace")
    if "\x00" in text:
        pos = text.index("\x00")
        line = text.count("\n", 0, pos) + 1
        diags.append(
            warning(
                "page.encoding",
                f"page holds {text.count(chr(0))} NUL character(s): each is shown as U+FFFD (replacement character)",
                file.source,
                line,
                pos - (text.rfind("\n", 0, pos) + 1) + 1,
            )
        )
        text = text.replace("\x00", "\ufffd")
    meta, body, body_line, more = split_frontmatter(text, file.source)
    return Page(file.key, file.url, file.output, file.source, meta, body, body_line), diags + more


def _byte_location(data: bytes, offset: int) -> tuple[int, int]:
    """Return the 1-based (line, column) of a byte offset."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1
