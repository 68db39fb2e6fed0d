"""Site-wide branding outputs: the code block theme's highlight.css, custom-language notes and Open Graph
thumbnails. One call from docsgen/features.py; the logic lives in codethemes.py and thumbnails.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from markupsafe import Markup

from docsgen import codethemes, thumbnails
from docsgen.render import SiteContext, content_hash
from docsgen.theme import register_template_globals
from docsgen.write import SiteFiles

if TYPE_CHECKING:
    from docsgen.build import Site

HIGHLIGHT = "_static/highlight.css"


def code_theme_version(site: SiteContext) -> str:
    """Return a suffix for highlight.css's ?v= that changes with the code block theme ("" for the default)."""
    (light, dark), _ = codethemes.code_styles(site.config)
    if (light, dark) == (codethemes.LIGHT_STYLE, codethemes.DARK_STYLE):
        return ""
    return "-" + content_hash(f"{light}/{dark}")


def add_branding_files(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write the site's highlight.css (when styling.codeblocks picks themes) and its thumbnails."""
    from docsgen.build import pages_to_render  # (build imports the features that import this module)

    (light, dark), problems = codethemes.code_styles(ctx.config)
    site.diagnostics.extend(problems)
    if (light, dark) != (codethemes.LIGHT_STYLE, codethemes.DARK_STYLE) and HIGHLIGHT in files.files:
        # The theme's file is replaced in place: every page already links it.
        files.files[HIGHLIGHT] = codethemes.highlight_css(light, dark).encode("utf-8")
        files.owners[HIGHLIGHT] = "styling.codeblocks"
    _, notes = codethemes.custom_languages(ctx.config, site.docs_dir)
    site.diagnostics.extend(notes)
    site.diagnostics.extend(thumbnails.add_thumbnails(ctx, pages_to_render(site), site.docs_dir, files))


def markdown_html(text: str) -> Markup:
    """Render short docs.json Markdown (errors.404.description): CommonMark, raw HTML escaped, safe links only."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False})
    return Markup(md.render(str(text)[:20_000]))


register_template_globals(
    {
        "dg_code_theme_version": lambda site: Markup(code_theme_version(site)),
        "dg_markdown": markdown_html,
    }
)
