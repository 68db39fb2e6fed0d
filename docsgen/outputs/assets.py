"""Files of the site besides its pages: theme assets, sidebars, the docs folder's own files, 404 and home."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from pathlib import Path

from docsgen.common.google_fonts import LocalFont
from docsgen.common.theme import environment
from docsgen.common.urls import content_hash, relative_url
from docsgen.config.model import RTL_LANGUAGES, bcp47
from docsgen.engine.write import Linked, SiteFiles
from docsgen.mdx import MdxResult
from docsgen.nav.tree import Section
from docsgen.pages.page import Page
from docsgen.render import SiteContext, codethemes, sidebar_html
from docsgen.render.custom import google_fonts
from docsgen.render.hooks import add_hooks
from docsgen.render.strings import interface_strings
from docsgen.render.stylesheet import PAGE_CSS, page_css, page_css_parts
from docsgen.site.read import Site


def add_theme_assets(ctx: SiteContext, files: SiteFiles) -> None:
    """Copy the theme's static files to _static/ (vendored bundles only when a page needs them); highlight.css
    is made from docs.json `styling.codeblocks` when it names themes."""
    code_css = codethemes.theme_highlight_css(ctx.config)
    static = ctx.theme.static_files()
    for rel, path in static.items():
        if rel == "highlight.css" and code_css is not None:
            files.add(f"_static/{rel}", code_css, "styling.codeblocks")
        elif not rel.startswith("vendor/"):
            files.add(f"_static/{rel}", path, f"theme {ctx.theme.name}")
    if page_css_parts(static):  # the one stylesheet pages link (docsgen/render/stylesheet.py)
        replaced = {"highlight.css": code_css} if code_css is not None else None
        files.add(f"_static/{PAGE_CSS}", page_css(static, replaced), f"theme {ctx.theme.name}")


def add_sidebars(
    ctx: SiteContext, site: Site, files: SiteFiles, kept: Mapping[str, tuple[Path, str, int]] | None = None
) -> None:
    """Render each section's sidebar once, as the shared file its pages load; `kept`: sidebars the previous
    build wrote from the same site (section id -> (its file, its hash, its size)), linked instead of rendered."""
    for section in site.nav.leaf_sections():
        rel = f"_nav/{section.id}.html"
        if kept and section.id in kept:
            path, digest, size = kept[section.id]
            fallback = functools.partial(_sidebar_bytes, ctx, section)
            files.add(rel, Linked(path, size, fallback), "navigation")
        else:
            html = sidebar_html(ctx, section)
            files.add(rel, html, "navigation")
            digest = content_hash(html)
        ctx.nav_files[section.id] = f"{rel}?v={digest}"


def _sidebar_bytes(ctx: SiteContext, section: Section) -> bytes:
    return sidebar_html(ctx, section).encode("utf-8")


def add_vendor_assets(ctx: SiteContext, bodies: Iterable[MdxResult], files: SiteFiles) -> None:
    """Ship vendored bundles (mermaid 5 MB, preact 15 kB) only with sites whose pages' bodies use them."""
    assets = {asset for body in bodies for asset in body.assets}
    for asset, prefix in (("mermaid", "vendor/mermaid"), ("react", "vendor/preact.")):
        if any(a.startswith(asset) for a in assets):
            for rel, path in ctx.theme.static_files().items():
                if rel.startswith(prefix):
                    files.add(f"_static/{rel}", path, f"theme {ctx.theme.name}", on_clash="yield")


def add_static_files(site: Site, files: SiteFiles) -> None:
    """Copy the docs folder's own files (images, specs, downloads) to the same paths."""
    for rel in site.sources.static:
        if rel in site.config.files:
            continue  # docs.json and its $ref parts are configuration, not content
        files.add(rel, site.docs_dir / rel, rel, on_clash="keep")  # a page of that path wins, with a warning


def default_language_words(ctx: SiteContext) -> tuple[str | None, dict[str, str]]:
    """Return the site's default language and its interface words (pages no language owns: 404, redirects)."""
    raw_lang = ctx.config.raw.get("language")
    lang = next((s.label for s in ctx.nav.default_section_path() if s.kind == "language"), None) or (
        raw_lang if isinstance(raw_lang, str) else None
    )
    return lang, interface_strings(lang, ctx.config.raw.get("strings"))


def add_special_pages(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write the 404 page and, when the site has no index page, a home page that opens the first page."""
    env = environment(ctx.theme.name)
    not_found = ctx.config.not_found
    lang, words = default_language_words(ctx)  # the 404 page speaks the default language
    page = Page(
        "404",
        "404.html",
        "404.html",
        meta={"title": not_found.title or words["not_found"], "noindex": True},
    )
    html = env.get_template("404.html").render(
        **ctx.helpers,
        site=ctx,
        config=ctx.config,
        page=page,
        content=words["not_found_text"] if not_found.description is None else not_found.description,
        root="/",
        link=lambda url: url if "://" in url else "/" + url.lstrip("/"),
        lang=bcp47(lang) if lang else "en",
        dir="rtl" if lang in RTL_LANGUAGES else "ltr",
        t=words,
        assets=[],
        meta_tags=[("name", "robots", "noindex")],
        switchers={},
        settings={"banner": None, "footer": ctx.config.footer, "navbar": ctx.config.navbar},
    )
    files.add(
        "404.html", add_hooks(html), "the generated 404 page", on_clash="keep"
    )  # the docs folder's 404.html wins
    if not files.has("index.html"):  # no home page: one that opens the first page
        path = site.nav.default_section_path()
        first = path[-1].first_page() if path else site.nav.root.first_page()
        url = first.url if first is not None else None
        if url is None and site.nav.order:
            url = site.pages[site.nav.order[0]].url
        if url is not None:
            target = relative_url("index.html", url)
            files.add(
                "index.html",
                env.get_template("redirect.html").render(
                    target=target, t=words, lang=bcp47(lang) if lang else "en"
                ),
                "home redirect",
            )


def add_google_fonts(ctx: SiteContext, files: SiteFiles) -> None:
    """Download the Google fonts docs.json names (once: cached) and add their files under _fonts/, before pages
    render so that they link the site's own copies."""
    for font in google_fonts(ctx).values():
        if isinstance(font, LocalFont):
            for name, path in font.files.items():
                files.add(f"_fonts/{name}", path, f"Google font {font.family}", on_clash="keep")
