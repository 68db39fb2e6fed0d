"""The first build of `docsgen dev` on the process pool of `docsgen build`, with Pagefind indexing as pages come.

Only the first build, and only when no other thread runs before it starts: the render workers are forked, and a
fork taken while the HTTP server or the watcher runs could copy a lock one of their threads holds. (Pagefind's
feeding threads, started just before the fork, are the ones `docsgen build` forks beside too: the workers never
touch Pagefind.) Later full rebuilds (a docs.json edit) happen on the watcher's thread and render serially, as they
always did. Any failure of the pool leaves the serial path to render the site (and to report a broken page on
that page).
"""

from __future__ import annotations

import multiprocessing
import threading
import traceback
from dataclasses import dataclass, field

from docsgen.engine import Job, render_pages, worker_count
from docsgen.outputs import SiteSearch
from docsgen.pages import Page
from docsgen.render import RenderedPage, SiteContext
from docsgen.site import Site

_running = False  # render_on_pool is waiting for its workers (in the main process)
_stopping = False  # stop_render_workers() killed them


@dataclass
class PoolRender:
    """What the pool rendered (each page's render, by key), the workers used, the search index on its way."""

    search: SiteSearch
    rendered: dict[str, RenderedPage] = field(default_factory=dict)
    workers: int = 1


def may_use_pool(pages: int) -> int:
    """Return how many render processes the first build may use (1: render serially in this process)."""
    if threading.active_count() > 1:
        return 1
    return worker_count(pages)


def render_on_pool(ctx: SiteContext, site: Site, pages: list[Page]) -> PoolRender | None:
    """Render the pages as `docsgen build` does; None when the pool is not worth it or failed (render serially).

    Each page's content is set (the engine applies its render); the renders come back by page key.
    """
    global _running, _stopping
    workers = may_use_pool(len(pages))
    if workers <= 1:
        return None
    search = SiteSearch(ctx, site)
    _running, _stopping = True, False
    try:
        results = render_pages(Job(ctx, pages), workers=workers, on_rendered=search.add_pages)
        if _stopping:
            raise KeyboardInterrupt
    except BaseException as exc:
        search.cancel()
        if _stopping:  # stop_render_workers() broke the pool: stop as Ctrl-C stops a serial build
            raise KeyboardInterrupt from None
        if not isinstance(exc, Exception):
            raise
        traceback.print_exc()  # a bug in some page: the serial path renders again and shows it on that page
        return None
    finally:
        _running = False
    search.start()  # Pagefind finishes the index while the rest of the site is made
    return PoolRender(search, {page.key: r.page for page, r in zip(pages, results, strict=True)}, workers)


def stop_render_workers() -> bool:
    """Kill the render workers of a first build in progress (Ctrl-C, kill); tell whether there were any.

    When this returns True the caller must not raise: the pool ends with BrokenProcessPool and render_on_pool
    raises KeyboardInterrupt. Raising now instead would cancel the pool's pending work while it breaks, which
    Python 3.11's pool reports with a traceback. Without the kill, stopping would wait for every page already
    handed to the workers.
    """
    global _stopping
    if not _running:
        return False
    children = multiprocessing.active_children()
    if not children:  # the first page renders here before the pool forks: stop as usual
        return False
    _stopping = True
    for child in children:
        child.kill()
    return True
