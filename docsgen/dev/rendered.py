"""One page rendered for `docsgen dev`: the HTML and twin written to the page store, and the little dev keeps.

What dev keeps of a render (PageResult, immutable) is small and the same wherever the page rendered (the
server's process, a render process of the engine's RenderPool): the files written, the diagnostics, what the
files made of every page read of its body (docsgen.engine.rendering.body_facts, as a build keeps: assets,
snippets used, classes, changelog entries) and its search record (made as a build makes it,
docsgen.outputs.search.record_maker). Nothing else of the render stays in memory.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from docsgen.common.errors import Diagnostic, error
from docsgen.dev.pagestore import PageStore
from docsgen.engine.rendering import body_facts
from docsgen.mdx import MdxResult
from docsgen.outputs.pagefind import SearchRecord
from docsgen.outputs.search import record_maker
from docsgen.pages.page import Page
from docsgen.render import SiteContext, render_page
from docsgen.site.read import Site

VENDORED = ("mermaid", "react")  # asset names whose bundles are shipped only when a page uses them


@dataclass(frozen=True)
class PageResult:
    """What dev keeps of one page's render (sent back by render processes: plain, picklable data)."""

    key: str
    html: Path | None  # the store file holding the HTML; None when the render failed
    twin: Path | None
    diagnostics: tuple[Diagnostic, ...] = ()
    body: MdxResult = field(
        default_factory=lambda: MdxResult("")
    )  # what the files made of every page read of its body (body_facts)
    record: SearchRecord | None = None  # its search index entry (None: not searchable)
    search_folder: str = ""  # the bundle the record goes to (docsgen.site.policies: pagefind/<group> or one)

    @property
    def vendor(self) -> frozenset[str]:
        """The VENDORED names the page uses."""
        return frozenset(name for name in VENDORED if any(a.startswith(name) for a in self.body.assets))


def batch_renderer(
    site: Site, ctx: SiteContext, store: PageStore
) -> Callable[[list[str], str], list[PageResult]]:
    """Return the work of the engine's render processes (docsgen.engine.pool) for dev: render each page of a
    batch into the store, its files named after the worker (the site, context and store: as at the fork)."""

    def render_batch(keys: list[str], worker: str) -> list[PageResult]:
        pages = [page for key in keys if (page := site.pages.get(key)) is not None]
        return [render_result(ctx, page, store, prefix=worker, searchable=True) for page in pages]

    return render_batch


def render_result(
    ctx: SiteContext, page: Page, store: PageStore, *, prefix: str = "m", searchable: bool = False
) -> PageResult:
    """Render a page with docsgen.render.render_page, write its HTML and twin; a crash becomes a page error.
    searchable: make its search record (None for a page the site leaves out of search).

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
            (error("dev.internal", f"internal error while rendering this page: {exc}", where),),
        )
    content = rendered.content
    record = record_maker(ctx, ctx.site)(page, content) if searchable else None  # None: not searchable
    folder = ctx.site.policies().search_folder(ctx.site.policy(page)) if record is not None else ""
    return PageResult(
        page.key,
        store.write(rendered.html, ".html", prefix),
        store.write(rendered.twin, ".md", prefix),
        tuple(rendered.diagnostics),
        body_facts(content),
        record,
        folder,
    )
