"""A page's Markdown twin (`/guides/setup.md`): what agents read instead of the HTML."""

from __future__ import annotations

from collections.abc import Callable

from docsgen.common.urls import is_external
from docsgen.config import SiteConfig
from docsgen.mdx import MdxResult
from docsgen.pages.markdown_export import page_markdown_of, rewrite_links
from docsgen.pages.page import Page
from docsgen.render.context import SiteContext


def instructions(config: SiteConfig) -> str:
    """Return docs.json `markdown.instructions` as text (appended to every agent file)."""
    markdown = config.raw.get("markdown")
    value = markdown.get("instructions") if isinstance(markdown, dict) else None
    if isinstance(value, list):
        value = "\n".join(str(v) for v in value if isinstance(v, str | int | float))
    return value.strip() if isinstance(value, str) else ""


def page_body_markdown(ctx: SiteContext, page: Page, content: MdxResult | None) -> str:
    """Return a page's content as Markdown: from its MDX source, or as its renderer wrote it when generated."""
    if content is not None and isinstance(content.markdown, str):  # generated API pages: made with the page
        return rewrite_links(content.markdown, _link_resolver(ctx, page))
    if page.generate is not None or page.source is None:
        return ""
    body = page_markdown_of(page.body, ctx.site.docs_dir, ctx.config.variables, page.source)
    return rewrite_links(body, _link_resolver(ctx, page))


def _link_resolver(ctx: SiteContext, page: Page) -> Callable[[str], str]:
    """Return a function making a page's links independent of where its twin lives (absolute or root-based)."""
    base = ctx.public_url or ""

    def resolve(href: str) -> str:
        if not href or href.startswith("#") or is_external(href):
            return href
        url, suffix = ctx.links.target(page, href)
        return href if url is None else f"{base}/{url}{suffix}"

    return resolve


def page_markdown(ctx: SiteContext, page: Page, content: MdxResult | None) -> str:
    """Return the complete Markdown twin of a page: title, description, body, site instructions."""
    head = f"# {page.title}\n\n"
    if page.description:
        head += f"> {' '.join(page.description.split())}\n\n"
    text = head + page_body_markdown(ctx, page, content).strip() + "\n"
    extra = instructions(ctx.config)
    return text + (f"\n---\n\n{extra}\n" if extra else "")
