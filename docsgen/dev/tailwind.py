"""docsgen dev: a page, snippet or component edit that brings new Tailwind classes compiles them (cached) into
the stylesheet the pages already link, and the browser loads it anew; no full rebuild."""

from __future__ import annotations

from typing import Any

from docsgen.engine.cachedir import cache_dir
from docsgen.outputs.tailwind import CACHE_FOLDER, compile_site_css
from docsgen.render import SiteContext
from docsgen.render.context import site_tailwind
from docsgen.render.tailwind_input import STYLESHEET
from docsgen.site.read import Site


def refresh_tailwind(ctx: SiteContext, site: Site, files: dict[str, Any]) -> str:
    """After sources changed: "" when the site's classes are the same; the stylesheet's URL when it was compiled
    anew into `files`; "full" when pages must gain or lose its link (or it could not be made: the full build
    reports why)."""
    new = site_tailwind(site, ctx.theme)
    if (new.key if new else "") == (ctx.tailwind.key if ctx.tailwind else ""):
        return ""
    if new is None or not ctx.tailwind_href:
        return "full"
    css, _ = compile_site_css(new, cache_dir(site.docs_dir) / CACHE_FOLDER)
    if css is None:
        return "full"
    files[STYLESHEET] = css.encode("utf-8")
    ctx.tailwind = new
    return "/" + STYLESHEET
