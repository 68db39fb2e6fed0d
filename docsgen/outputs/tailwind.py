"""The site's Tailwind stylesheet: compiled once per set of classes by Tailwind's own compiler, cached, shipped
once (`_static/tailwind.css`, linked from every page); a compiler that cannot run is a warning, never a failure."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docsgen.common import contrast
from docsgen.common.errors import Diagnostic, warning
from docsgen.engine.cachedir import cache_dir
from docsgen.engine.write import SiteFiles
from docsgen.mdx import MdxResult
from docsgen.render import SiteContext
from docsgen.render.tailwind_input import STYLESHEET, TailwindInput

CACHE_FOLDER = "tailwind"
FORMAT = 2  # of what is cached besides the compiler's output (readable_text): a new one compiles anew
KEEP = 4  # stylesheets kept per site (the sources' classes, with the components' own, an edit or two back)
OWNER = "Tailwind classes of the site's pages"
# a rule whose text colour Tailwind wrote as `color: rgb(r g b / ...)`
# a selector starts after a brace (else each of its characters started a scan to the next brace)
_TEXT_RULE = re.compile(
    r"(?<![^{}])([^{}]+)\{([^{}]*?(?:^|[;{\s])color:\s*rgb\((\d+) (\d+) (\d+)[^{}]*)\}", re.M
)
MEANT_FOR_PAGE = 2.0  # a text colour this close to the page background is meant for another surface: kept


def readable_text(css: str) -> str:
    """Make the site's text colours read on the theme's backgrounds (WCAG AA), as the theme does for the accent:
    a `dark:` colour that reads under 4.5:1 on the dark backgrounds is lightened; any other text colour that reads
    under 4.5:1 on the light ones gets a darker twin for light mode (`text-gray-400` is 2.5:1 on white). Colours
    nearer the background than 2:1 (white text, meant for a coloured button) are the site's, untouched."""

    def fix(m: re.Match[str]) -> str:
        selector = m.group(1).strip()
        rgb = (float(m.group(3)), float(m.group(4)), float(m.group(5)))
        dark = ":is(.dark *)" in selector
        backgrounds = contrast.DARK_BACKGROUNDS if dark else contrast.LIGHT_BACKGROUNDS
        ratios = [contrast.ratio(rgb, contrast.parse_color(bg) or rgb) for bg in backgrounds]
        if min(ratios) >= contrast.TEXT_CONTRAST or min(ratios) < MEANT_FOR_PAGE or "::" in selector:
            return m.group(0)
        better = " ".join(str(round(c)) for c in contrast.readable(rgb, backgrounds, dark=dark, target=4.6))
        rule, start, end = m.group(0), m.start(3) - m.start(0), m.end(5) - m.start(0)
        if dark:  # the variant's own colour, lightened
            return rule[:start] + better + rule[end:]
        return f"{rule}\n{selector}:not(.dark *) {{ color: rgb({better} / var(--tw-text-opacity, 1)); }}"

    return _TEXT_RULE.sub(fix, css)


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


def compile_css(config: dict[str, Any], content: str) -> str:
    """Tailwind's compiler (docsgen.mdx.react.tailwind_compiler), its modules (QuickJS, the component server) imported only to
    compile: a site without Tailwind classes never loads them (40 ms of every build's start-up otherwise)."""
    from docsgen.mdx.react.tailwind_compiler import compile_css as compile_with_tailwind

    return compile_with_tailwind(config, content)


def compile_site_css(tw: TailwindInput, folder: Path) -> tuple[str | None, str]:
    """Return (the stylesheet, "") from the cache or the compiler, or (None, why it could not be made)."""
    key = f"{tw.key}-{FORMAT}"
    css = cached_css(folder, key)
    if css is not None:
        return css, ""
    from docsgen.mdx.react.js_engine import EngineUnavailable, JsError  # (see compile_css)

    try:
        css = compile_css(tw.config(), tw.content)
    except EngineUnavailable as exc:
        return None, str(exc)
    except JsError as exc:
        return None, f"Tailwind's compiler stopped: {exc.message}"
    css = readable_text(css)
    store_css(folder, key, css)
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


def add_component_classes(ctx: SiteContext, bodies: Iterable[MdxResult], files: SiteFiles) -> None:
    """Once pages rendered: when React components wrote class names their code does not show whole (built at
    run time), compile the site's classes with those (cached too) into the stylesheet pages link."""
    tw = ctx.tailwind
    if tw is None or not ctx.tailwind_href:
        return
    wrote: set[str] = set()
    for body in bodies:
        wrote |= body.classes
    full = tw.including(wrote)
    if full is tw:
        return
    css, why = compile_site_css(full, cache_dir(ctx.site.docs_dir) / CACHE_FOLDER)
    if css is None:
        files.diagnostics.append(tailwind_warning(full, why))
        return
    files.replace(STYLESHEET, css, OWNER)
