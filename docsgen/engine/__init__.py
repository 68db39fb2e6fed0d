"""How pages get rendered: serially or on a process pool, each body reused from the page cache when unchanged.

The engine takes a render function (docsgen.render.render_page) and a job; it never decides what a page looks
like, and it writes only through the writer the build gives it (docsgen.write.PageWriter).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from docsgen.engine.cache import PageCache
from docsgen.engine.pool import Job, Rendered, fewer_collections, render_pages, worker_count
from docsgen.engine.reuse import OutputReuse, site_fingerprint
from docsgen.render import SiteContext
from docsgen.render.custom import timestamps
from docsgen.site import Site
from docsgen.write import SiteFiles

__all__ = [
    "Job",
    "PageCache",
    "Rendered",
    "OutputReuse",
    "finish_output_reuse",
    "fewer_collections",
    "finish_page_cache",
    "forget_output_reuse",
    "keep_site_wide_files",
    "open_output_reuse",
    "open_page_cache",
    "render_pages",
    "worker_count",
]

CACHE_ENV = "DOCSGEN_CACHE"  # "0" / "off": no page cache


def open_page_cache(site: Site, *, strict: bool, cache: bool | None) -> PageCache | None:
    """Return the build's PageCache unless caching is off (cache=False, or $DOCSGEN_CACHE=0 when None)."""
    if cache is None:
        cache = os.environ.get(CACHE_ENV, "").strip().lower() not in ("0", "off", "false", "no")
    return PageCache(site, strict=strict) if cache else None


def finish_page_cache(cache: PageCache | None, rendered: list[Rendered]) -> None:
    """Record which cache entries this build used (the rest is deleted)."""
    if cache is not None:
        cache.finish({r.cache_key: r.cache_pack for r in rendered if r.cache_key and r.cache_pack})


def open_output_reuse(ctx: SiteContext, cache: PageCache | None, out_dir: Path) -> OutputReuse | None:
    """Return what lets unchanged pages keep the previous build's files (with the page cache only). The dates
    pages show are read here, once, before render workers fork (they inherit them)."""
    if cache is None:
        return None
    fingerprint = site_fingerprint(ctx.site, cache.fingerprint, ctx.static_version, timestamps(ctx))
    return OutputReuse(ctx.site, out_dir, fingerprint)


def keep_site_wide_files(reuse: OutputReuse | None, rendered: list[Rendered], files: SiteFiles) -> None:
    """When every page kept its files, keep the previous build's files made of all of them (llms-full.txt)."""
    if reuse is not None and rendered and all(r.reused for r in rendered):
        reuse.keep_site_wide(files)


def forget_output_reuse(reuse: OutputReuse | None) -> None:
    """Drop the previous build's manifest before the output folder changes (finish_output_reuse writes the new)."""
    if reuse is not None:
        reuse.forget()


def finish_output_reuse(
    reuse: OutputReuse | None, rendered: list[Rendered], search: dict[str, list[Any]], nav: dict[str, str]
) -> None:
    """Record, once the new folder is in place, which files each page's body key made, and the search bundles
    (SiteSearch.bundles), for the next build."""
    if reuse is not None:
        reuse.save(
            {
                r.page.key: (r.cache_key, r.sizes)
                for r in rendered
                if r.written and r.twin_written and r.cache_key and r.cache_pack and r.sizes
            },
            search,
            nav,
        )
