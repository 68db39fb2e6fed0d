"""The contract between the page stage and the MDX reader: what goes in, what comes out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsgen.common.errors import Diagnostic


@dataclass(frozen=True)
class TocItem:
    """One heading for the right-hand table of contents."""

    level: int  # 2..4
    id: str  # anchor id, unique within the page
    title: str  # plain text


@dataclass
class MdxContext:
    """Everything the MDX reader needs to know about the page and the site."""

    docs_dir: Path
    source: str  # page path relative to docs_dir, posix (e.g. "guides/setup.mdx")
    line_offset: int = 0  # lines before the body (frontmatter), so diagnostics name file lines
    variables: dict[str, Any] = field(default_factory=dict)  # docs.json `variables`
    # Map an href as written in the page to the final URL ("/quickstart" -> "/quickstart/",
    # "../a.mdx#x" -> "/a/#x"); external and anchor-only links come back unchanged.
    resolve_link: Callable[[str], str] = lambda href: href
    # Map an asset path as written (images, videos: "/images/a.png", "img/b.png") to its URL.
    resolve_asset: Callable[[str], str] = lambda src: src
    icon_library: str = "fontawesome"  # docs.json icons.library
    config: Any = None  # the typed site config (docsgen.config.model.SiteConfig) when available
    frontmatter: dict[str, Any] = field(default_factory=dict)
    strict: bool = False
    # True when rendering for `docsgen dev`: a missing piece (snippet) shows a visible note instead of nothing.
    dev: bool = False
    # the page's interface words in its language (themes/base/strings.json and docs.json `strings`); None: English
    words: Mapping[str, str] | None = None


@dataclass
class MdxResult:
    """A rendered page body."""

    html: str
    toc: list[TocItem] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    dependencies: set[str] = field(default_factory=set)  # snippet files used, relative posix paths
    assets: set[str] = field(default_factory=set)  # front-end features the page needs: "tabs", "mermaid", ...
    icons: set[str] = field(default_factory=set)  # icon names used (so only those ship)
    classes: set[str] = field(default_factory=set)  # class names React components wrote (for Tailwind)
    panel_html: str = ""  # <Panel> content, replacing the right-hand TOC
    aside_html: str = ""  # RequestExample/ResponseExample content for the right-hand column of API pages
    text_html: str | None = (
        None  # the body before agent-only content was removed, when that differs from html
    )
    markdown: str | None = None  # generated API pages: the body of their Markdown twin, made with the page
    search_html: str | None = None  # generated API pages: compact HTML for the search index
    changelog: list[Any] = field(default_factory=list)  # <Update> entries (docsgen.mdx.changelog), for feeds
    api_data: dict[str, Any] | None = None  # API pages: the playground's data (a JSON block in the page)

    @property
    def text_source(self) -> str:
        """The HTML the plain text is made from: text_html when agent-only content made it differ, else html."""
        return self.text_html if self.text_html is not None else self.html

    @property
    def text(self) -> str:
        """Plain text of the body (agent-only content in, human-only out): made when asked, as builds never ask."""
        from docsgen.mdx.text import html_to_text

        return html_to_text(self.text_source)
