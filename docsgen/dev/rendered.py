"""One page rendered for `docsgen dev`: the HTML and twin written to the page store, and the little dev keeps.

What dev keeps of a render (PageResult) is small and the same wherever the page rendered (the server's
process, a render process of the background pass): the files written, the diagnostics, the snippets and
vendored bundles the body uses, the page's search record, and the body itself only for changelog pages (their
RSS feed needs it). Nothing else of the render stays in memory.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from docsgen.common.errors import Diagnostic, error
from docsgen.dev.pagestore import PageStore
from docsgen.mdx import MdxResult
from docsgen.mdx.changelog import changelog_entries
from docsgen.outputs.pagefind import SearchRecord
from docsgen.outputs.search import record_for
from docsgen.pages.page import Page
from docsgen.render import SiteContext, render_page
from docsgen.site.read import Site

VENDORED = ("mermaid", "react")  # asset names whose bundles are shipped only when a page uses them


@dataclass
class PageResult:
    """What dev keeps of one page's render (sent back by render processes: plain, picklable data)."""

    key: str
    html: Path | None  # the store file holding the HTML; None when the render failed
    twin: Path | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    dependencies: frozenset[str] = frozenset()  # snippets and components the body imports
    vendor: frozenset[str] = frozenset()  # VENDORED names the page uses
    record: SearchRecord | None = None  # its search index entry (None: not searchable)
    search_folder: str = ""  # the bundle the record goes to (docsgen.site.policies: pagefind/<group> or one)
    changelog: MdxResult | None = None  # the body of a page with <Update> entries (RSS feed)


def batch_renderer(
    site: Site, ctx: SiteContext, store: PageStore
) -> Callable[[list[str], str], list[PageResult]]:
    """Return the work of the engine's render processes (docsgen.engine.pool) for dev: render each page of a
    batch into the store, its files named after the worker (the site, context and store: as at the fork)."""

    def render_batch(keys: list[str], worker: str) -> list[PageResult]:
        pages = [page for key in keys if (page := site.pages.get(key)) is not None]
        return [
            render_result(ctx, page, store, prefix=worker, searchable=site.policy(page).searchable)
            for page in pages
        ]

    return render_batch


def render_result(
    ctx: SiteContext, page: Page, store: PageStore, *, prefix: str = "m", searchable: bool = False
) -> PageResult:
    """Render a page with docsgen.render.render_page, write its HTML and twin; a crash becomes a page error.

    The page is left as it was (its content is not kept): the body is rendered from the source every time.
    """
    try:
        rendered = render_page(ctx, page)
    except Exception as exc:  # noqa: BLE001 - a bug: shown on that page, the server keeps serving
        traceback.print_exc()
        where = page.source or page.key
        return PageResult(
            page.key,
            None,
            None,
            [error("dev.internal", f"internal error while rendering this page: {exc}", where)],
        )
    content = rendered.content
    record, folder = None, ""
    if searchable:
        before, page.content = page.content, content
        try:
            policy = ctx.site.policy(page)
            record = record_for(ctx, ctx.site, page, policy)
            folder = ctx.site.policies().search_folder(policy)
        finally:
            page.content = before
    return PageResult(
        page.key,
        store.write(rendered.html, ".html", prefix),
        store.write(rendered.twin, ".md", prefix),
        rendered.diagnostics,
        frozenset(content.dependencies),
        frozenset(name for name in VENDORED if any(a.startswith(name) for a in content.assets)),
        record,
        folder,
        content if changelog_entries(content) else None,
    )
