"""What kind of file changed, for `docsgen dev`: configuration, theme, page, snippet, static, or ignored."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from docsgen.common.resources import themes_dir
from docsgen.render import SiteContext
from docsgen.sources.walk import IGNORED_DIRS, PAGE_SUFFIXES, is_ignored

if TYPE_CHECKING:
    from docsgen.dev.incremental import DevSite

CONFIG_NAMES = frozenset({"docs.json", "mint.json", ".mintignore", ".docsgenignore"})


def classify(dev: DevSite, path: Path) -> str:
    """Name the kind of a changed file: config, theme, theme-css, page, snippet, static, ignored."""
    theme_root = themes_dir().resolve()
    if path.is_relative_to(theme_root):
        return "theme-css" if path.suffix == ".css" and "static" in path.parts else "theme"
    config_files = set(dev.site.config.files) if dev.site else set()
    rel = path.relative_to(dev.docs_dir).as_posix() if path.is_relative_to(dev.docs_dir) else None
    if rel is None:
        # $ref'd config parts may live outside the docs folder
        outside = {(dev.docs_dir / f).resolve() for f in config_files}
        return "config" if path in outside else "ignored"
    if dev.out_dir and path.is_relative_to(dev.out_dir):
        return "ignored"
    parts = rel.split("/")
    if any(p in IGNORED_DIRS for p in parts[:-1]):
        return "ignored"
    if rel in CONFIG_NAMES or rel in config_files or rel in dev.spec_paths:
        return "config"
    if dev.ignore_patterns and is_ignored(rel, dev.ignore_patterns):
        return "ignored"  # .mintignore / .docsgenignore: not part of the site
    if path.suffix.lower() in PAGE_SUFFIXES:
        if rel.startswith(("snippets/", "_snippets/")) or "/snippets/" in rel:
            return "snippet"
        return "page"
    if any(p.startswith(".") for p in parts):
        return "ignored"
    return "static"


def theme_css_urls(ctx: SiteContext | None, path: Path) -> list[str]:
    """Return the served URL of a theme stylesheet."""
    if ctx is None:
        return []
    for folder in ctx.theme.folders:
        static = (folder / "static").resolve()
        if path.is_relative_to(static):
            return ["/_static/" + path.relative_to(static).as_posix()]
    return []


def theme_css_changed(ctx: SiteContext | None, files: dict, path: Path) -> list[str]:
    """Return the served URLs a changed theme stylesheet affects; when it is part of the page stylesheet, that
    one is joined anew into `files` (pages link it, not the part)."""
    from docsgen.render import codethemes
    from docsgen.render.stylesheet import PAGE_CSS, page_css, page_css_parts

    urls = theme_css_urls(ctx, path)
    if ctx is None or not urls:
        return urls
    static = ctx.theme.static_files()
    if urls[0].removeprefix("/_static/") not in page_css_parts(static):
        return urls
    code_css = codethemes.theme_highlight_css(ctx.config)
    files[f"_static/{PAGE_CSS}"] = page_css(
        static, {"highlight.css": code_css} if code_css is not None else None
    )
    return [*urls, f"/_static/{PAGE_CSS}"]
