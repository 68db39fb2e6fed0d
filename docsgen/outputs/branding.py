"""Site-wide branding outputs: notes on the code block themes and custom languages, and Open Graph thumbnails.

The code block theme's highlight.css is a theme asset (docsgen.outputs.assets); the logic lives in
docsgen/render/codethemes.py and docsgen/render/thumbnails.py.
"""

from __future__ import annotations

from docsgen.engine.write import SiteFiles
from docsgen.pages.page import Page
from docsgen.render import SiteContext, codethemes, thumbnails


def add_branding_files(
    ctx: SiteContext,
    pages: list[Page],
    files: SiteFiles,
    *,
    with_thumbnails: bool = True,
    drawn: thumbnails.Drawn | None = None,
) -> None:
    """Add the pages' thumbnails (with_thumbnails=False: left to add_thumbnail_files, as `docsgen dev` does so
    its first page does not wait for a thousand images; `drawn`: those the render workers drew); report code
    block themes and custom languages that cannot be used."""
    files.diagnostics.extend(codethemes.code_styles(ctx.config)[1])
    files.diagnostics.extend(codethemes.custom_languages(ctx.config, ctx.site.docs_dir)[1])
    if with_thumbnails:
        add_thumbnail_files(ctx, pages, files, drawn)


def add_thumbnail_files(
    ctx: SiteContext, pages: list[Page], files: SiteFiles, drawn: thumbnails.Drawn | None = None
) -> None:
    """Add the pages' Open Graph thumbnails (`_og/`): those not `drawn` already are drawn here."""
    found = thumbnails.add_thumbnails(ctx, pages, ctx.site.docs_dir, files, drawn=drawn)
    files.diagnostics.extend(found)
