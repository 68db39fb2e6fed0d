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
from docsgen.common.urls import twin_path
from docsgen.dev.pagestore import PageStore
from docsgen.engine.rendering import Job, render_one
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
    # what the files made of every page read of its body (docsgen.engine.rendering.body_facts)
    body: MdxResult = field(default_factory=lambda: MdxResult(""))
    record: SearchRecord | None = None  # its search index entry (None: not searchable)
    search_folder: str = ""  # the bundle the record goes to (docsgen.site.policies: pagefind/<group> or one)

    @property
    def vendor(self) -> frozenset[str]:
        """The VENDORED names the page uses."""
        return frozenset(name for name in VENDORED if any(a.startswith(name) for a in self.body.assets))


class StoreWriter:
    """The engine's page writer (docsgen.engine.rendering.Writer) for dev: a page's HTML and twin go to the page
    store, each a new file named after who rendered it (a render process's files never collide)."""

    def __init__(self, store: PageStore, prefix: str) -> None:
        self.store, self.prefix = store, prefix
        self.files: dict[str, Path] = {}  # site path -> the store file written for it

    def __call__(self, path: str, text: str, key: str) -> bool:
        self.files[path] = self.store.write(text, ".md" if path.endswith(".md") else ".html", self.prefix)
        return True


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
    """Render a page as a build's render processes do (docsgen.engine.rendering.render_one: render_page, its
    search record, what the site's files read of its body), its HTML and twin into the store; a crash becomes a
    page error. searchable: make its search record (None for a page the site leaves out of search).

    The page is left as it was: the body is rendered from the source every time (no page cache in dev).
    """
    writer = StoreWriter(store, prefix)
    index = record_maker(ctx, ctx.site) if searchable else None
    job = Job(ctx, [page], render=render_page, write=writer, index=index)
    try:
        done = render_one(job, page)
    except Exception as exc:  # noqa: BLE001 - a bug: shown on that page, the server keeps serving
        traceback.print_exc()
        for path in writer.files.values():
            store.discard(path)
        message = f"internal error while rendering this page: {exc}"
        return PageResult(page.key, None, None, (error("dev.internal", message, page.source or page.key),))
    folder = ctx.site.policies().search_folder(ctx.site.policy(page)) if done.record is not None else ""
    html, twin = writer.files.get(page.output), writer.files.get(twin_path(page.url))
    return PageResult(page.key, html, twin, done.render.diagnostics, done.render.body, done.record, folder)
