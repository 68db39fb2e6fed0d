"""`docsgen validate`: read the site and render every page's body as a build does, writing nothing."""

from __future__ import annotations

from docsgen.common.errors import Diagnostic, sort_diagnostics
from docsgen.render import render_body, site_context
from docsgen.site.read import Site


def check_pages(site: Site) -> list[Diagnostic]:
    """Return the site's diagnostics with those of every written page's MDX body, rendered as a build does
    (without templates, search or files). Generated API pages are not rendered: their problems are the spec's,
    reported when it was loaded."""
    ctx = site_context(site)
    diagnostics = list(site.diagnostics)
    for page in site.pages_to_render():
        if page.generate is None and page.source is not None:
            diagnostics += render_body(ctx, page, diagnostics).diagnostics
    return sort_diagnostics(diagnostics)
