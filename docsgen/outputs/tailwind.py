"""The site's Tailwind stylesheet: compiled once per set of classes by Tailwind's own compiler, cached, shipped
once (`_static/tailwind.css`, linked from every page); a compiler that cannot run is a warning, never a failure."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from docsgen.cachedir import cache_dir
from docsgen.errors import Diagnostic, warning
from docsgen.pages import Page
from docsgen.react.engine import EngineUnavailable, JsError
from docsgen.react.tailwind import compile_css
from docsgen.render import SiteContext
from docsgen.render.tailwind_input import STYLESHEET, TailwindInput
from docsgen.write import SiteFiles

CACHE_FOLDER = "tailwind"
KEEP = 4  # stylesheets kept per site (the sources' classes, with the components' own, an edit or two back)
OWNER = "Tailwind classes of the site's pages"


def cached_css(folder: Path, key: str) -> str | None:
    """Return the stylesheet compiled for `key` before, or None."""
    path = folder / f"{key}.css"
    try:
        css = path.read_text(encoding="utf-8")
        os.utime(path)  # recently used: kept (store_css drops the oldest)
        return css
    except (OSError, UnicodeDecodeError):
        return None


def store_css(folder: Path, key: str, css: str) -> None:
    """Keep the stylesheet of `key` (written whole, then renamed) and drop all but the KEEP last used."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(css)
        os.replace(tmp, folder / f"{key}.css")
        kept = sorted(folder.glob("*.css"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in kept[KEEP:] + [p for p in folder.iterdir() if p.suffix == ".tmp"]:
            with contextlib.suppress(OSError):
                old.unlink()
    except OSError:
        pass  # a cache that cannot be written costs the next build a compile, nothing else


def compile_site_css(tw: TailwindInput, folder: Path) -> tuple[str | None, str]:
    """Return (the stylesheet, "") from the cache or the compiler, or (None, why it could not be made)."""
    css = cached_css(folder, tw.key)
    if css is not None:
        return css, ""
    try:
        css = compile_css(tw.config(), tw.content)
    except EngineUnavailable as exc:
        return None, str(exc)
    except JsError as exc:
        return None, f"Tailwind's compiler stopped: {exc.message}"
    store_css(folder, tw.key, css)
    return css, ""


def add_tailwind_css(ctx: SiteContext, files: SiteFiles) -> None:
    """Compile (or reuse) the site's Tailwind stylesheet and add it; pages then link it (ctx.tailwind_href)."""
    tw = ctx.tailwind
    ctx.tailwind_href = ""
    if tw is None:
        return
    css, why = compile_site_css(tw, cache_dir(ctx.site.docs_dir) / CACHE_FOLDER)
    if css is None:
        files.diagnostics.append(tailwind_warning(tw, why))
        return
    files.add(STYLESHEET, css, OWNER)
    ctx.tailwind_href = f"{STYLESHEET}?v={tw.key}"


def tailwind_warning(tw: TailwindInput, why: str) -> Diagnostic:
    """The warning of a site whose Tailwind classes stay unstyled, located at the first class it uses."""
    path, line, column = tw.first_use
    return warning(
        "tailwind.unavailable",
        f"the site's Tailwind classes ({len(tw.candidates)} names) are left unstyled: {why}",
        path,
        line,
        column,
        hint="install docsgen's JavaScript engine (`pip install quickjs`) to style them",
    )


def add_component_classes(ctx: SiteContext, pages: list[Page], files: SiteFiles) -> None:
    """Once pages rendered: when React components wrote class names their code does not show whole (built at
    run time), compile the site's classes with those (cached too) into the stylesheet pages link."""
    tw = ctx.tailwind
    if tw is None or not ctx.tailwind_href:
        return
    wrote: set[str] = set()
    for page in pages:
        if page.content is not None:
            wrote |= page.content.classes
    full = tw.including(wrote)
    if full is tw:
        return
    css, why = compile_site_css(full, cache_dir(ctx.site.docs_dir) / CACHE_FOLDER)
    if css is None:
        files.diagnostics.append(tailwind_warning(full, why))
        return
    files.replace(STYLESHEET, css, OWNER)
