"""Render one page: `render_page(ctx, page) -> RenderedPage`, a pure function of the site context and the page.

The page is not changed: its body (MDX rendered, or generated from a spec), full HTML document, Markdown twin,
diagnostics and the link resolutions made on the way all come back in the RenderedPage. Whoever renders pages
(docsgen.engine, the dev server) applies the result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from docsgen.common.errors import Diagnostic
from docsgen.mdx import MdxContext, MdxResult, render_mdx
from docsgen.pages.page import Page
from docsgen.render.context import SiteContext, site_context
from docsgen.render.html import page_html, page_words, sidebar_html
from docsgen.render.twin import page_markdown

__all__ = [
    "LinkCall",
    "RenderedPage",
    "SiteContext",
    "page_html",
    "page_markdown",
    "render_body",
    "render_page",
    "sidebar_html",
    "site_context",
]

LinkCall = tuple[str, str, str]  # ("link" | "asset", href as written, URL it resolved to)


@dataclass
class RenderedPage:
    """What rendering a page produced."""

    key: str
    html: str  # the complete HTML document
    twin: str  # the page's Markdown twin
    content: MdxResult  # the body: HTML, TOC, assets, snippets used, search and playground data
    diagnostics: list[Diagnostic] = field(default_factory=list)  # the body's and its links' problems
    links: list[LinkCall] = field(
        default_factory=list
    )  # links resolved while rendering the body (page cache)


def render_page(
    ctx: SiteContext, page: Page, *, strict: bool = False, body: MdxResult | None = None
) -> RenderedPage:
    """Render a page; `body`: its body already rendered (from the page cache), else page.content or a new render."""
    diagnostics: list[Diagnostic] = []
    calls: list[LinkCall] = []
    content = body or page.content or render_body(ctx, page, diagnostics, calls, strict=strict)
    diagnostics.extend(content.diagnostics)
    html = page_html(ctx, page, content)
    return RenderedPage(page.key, html, page_markdown(ctx, page, content), content, diagnostics, calls)


def render_body(
    ctx: SiteContext,
    page: Page,
    diagnostics: list[Diagnostic],
    calls: list[LinkCall] | None = None,
    *,
    strict: bool = False,
) -> MdxResult:
    """Render a page's body (MDX, or generated from its spec); link problems go to `diagnostics`, and each link
    resolved is noted in `calls`."""
    mdx_ctx = MdxContext(
        docs_dir=ctx.site.docs_dir,
        source=page.source or page.key,
        line_offset=page.body_line - 1,
        variables=ctx.config.variables,
        resolve_link=_noted("link", ctx.links.for_page(page, diagnostics), calls),
        resolve_asset=_noted("asset", ctx.links.asset_for_page(page, diagnostics), calls),
        icon_library=ctx.config.icons_library,
        config=ctx.config,
        frontmatter=page.meta,
        strict=strict,
        dev=ctx.site.dev,
        words=page_words(ctx, page),
    )
    return page.generate(page, mdx_ctx) if page.generate else render_mdx(page.body, mdx_ctx)


def _noted(kind: str, resolve: Callable[[str], str], calls: list[LinkCall] | None) -> Callable[[str], str]:
    """Return the resolver, noting each answer in `calls` (the page cache replays them to check an entry)."""
    if calls is None:
        return resolve

    def noted(href: str) -> str:
        url = resolve(href)
        calls.append((kind, href, url))
        return url

    return noted
