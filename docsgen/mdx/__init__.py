"""The MDX reader: MDX/Markdown body -> HTML, table of contents and diagnostics."""

from __future__ import annotations

from docsgen.mdx.types import MdxContext, MdxResult, TocItem

__all__ = ["MdxContext", "MdxResult", "TocItem", "render_mdx"]


def render_mdx(body: str, ctx: MdxContext) -> MdxResult:
    """Render one page body (frontmatter already removed)."""
    from docsgen.mdx.page_body import render

    return render(body, ctx)
