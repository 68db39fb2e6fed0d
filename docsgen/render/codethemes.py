"""docs.json `styling.codeblocks`: code block colour themes (Shiki names mapped to Pygments styles) and
`languages.custom` (TextMate grammars, run by docsgen.mdx.grammars; their scopes get Pygments token classes).

docsgen highlights at build time with Pygments, so a Shiki theme name is mapped to the closest Pygments style
(a Pygments style name is accepted as is). The site's `_static/highlight.css` is generated from the chosen pair.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from markupsafe import Markup
from pygments.formatters import HtmlFormatter
from pygments.styles import get_all_styles, get_style_by_name
from pygments.token import Text
from pygments.util import ClassNotFound

from docsgen.common import contrast
from docsgen.common.errors import Diagnostic, warning
from docsgen.common.theme import register_template_globals
from docsgen.common.urls import content_hash
from docsgen.config import SiteConfig
from docsgen.config.analytics import where_in_config
from docsgen.mdx import grammars
from docsgen.mdx.code import DARK_STYLE, LIGHT_STYLE, code_scope

# Shiki theme names (https://shiki.style/themes) -> the closest Pygments style.
SHIKI_TO_PYGMENTS = {
    "github-light": "default", "github-light-default": "default", "github-light-high-contrast": "default",
    "github-dark": "github-dark", "github-dark-default": "github-dark", "github-dark-dimmed": "github-dark",
    "github-dark-high-contrast": "github-dark", "dracula": "dracula", "dracula-soft": "dracula",
    "monokai": "monokai", "nord": "nord", "one-dark-pro": "one-dark", "one-light": "default",
    "solarized-light": "solarized-light", "solarized-dark": "solarized-dark", "material-theme": "material",
    "material-theme-darker": "material", "material-theme-ocean": "material", "material-theme-palenight": "material",
    "material-theme-lighter": "default", "gruvbox-dark-hard": "gruvbox-dark", "gruvbox-dark-medium": "gruvbox-dark",
    "gruvbox-dark-soft": "gruvbox-dark", "gruvbox-light-hard": "gruvbox-light", "gruvbox-light-medium": "gruvbox-light",
    "gruvbox-light-soft": "gruvbox-light", "light-plus": "vs", "dark-plus": "native", "vitesse-light": "default",
    "vitesse-dark": "native", "vitesse-black": "native", "min-light": "default", "min-dark": "native",
    "night-owl": "night-owl", "catppuccin-latte": "default", "catppuccin-frappe": "one-dark",
    "catppuccin-macchiato": "one-dark", "catppuccin-mocha": "one-dark", "tokyo-night": "one-dark",
    "rose-pine": "one-dark", "rose-pine-moon": "one-dark", "rose-pine-dawn": "default", "slack-dark": "native",
    "slack-ochin": "default", "snazzy-light": "default", "ayu-dark": "native", "everforest-dark": "gruvbox-dark",
    "everforest-light": "gruvbox-light", "houston": "one-dark", "kanagawa-wave": "one-dark", "laserwave": "one-dark",
    "poimandres": "one-dark", "red": "monokai", "synthwave-84": "one-dark", "vesper": "native", "andromeeda": "one-dark",
    "aurora-x": "one-dark", "plastic": "one-dark", "one-dark": "one-dark",
}  # fmt: skip


def _style(name: Any) -> str | None:
    """Return the Pygments style for a Shiki (or Pygments) theme name, None when neither knows it."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    if key in SHIKI_TO_PYGMENTS:
        return SHIKI_TO_PYGMENTS[key]
    return key if key in set(get_all_styles()) else None


def code_styles(config: SiteConfig) -> tuple[tuple[str, str], list[Diagnostic]]:
    """Return the (light, dark) Pygments styles docs.json asks for, and warnings for names not known."""
    value = (
        config.raw.get("styling", {}).get("codeblocks")
        if isinstance(config.raw.get("styling"), dict)
        else None
    )
    light, dark = LIGHT_STYLE, DARK_STYLE
    out: list[Diagnostic] = []
    if value is None or value == "system":
        return (light, dark), out
    if value == "dark":
        return (dark, dark), out
    theme = value.get("theme") if isinstance(value, dict) else value
    path = ("styling", "codeblocks") + (("theme",) if isinstance(value, dict) else ())
    if theme is None:
        return (light, dark), out
    names = theme if isinstance(theme, dict) else {"light": theme, "dark": theme}
    chosen = {}
    for mode in ("light", "dark"):
        wanted = names.get(mode)
        style = _style(wanted)
        if style is None and wanted is not None and (mode == "light" or isinstance(theme, dict)):
            where = path + ((mode,) if isinstance(theme, dict) else ())
            out.append(
                warning(
                    "styling.codeblocks-theme",
                    f"code block theme {str(wanted)[:60]!r} is not known: the default {mode} colours are used",
                    *where_in_config(config, where),
                    json_path=".".join(where),
                    hint="use a Shiki theme name (github-light, dracula, nord...) or a Pygments style name",
                )
            )
        chosen[mode] = style
    return (chosen["light"] or light, chosen["dark"] or dark), out


_COLOR = re.compile(r"(?<![-\w])color: (#[0-9a-fA-F]{3,8})")


def _readable(color: str, background: str, dark: bool) -> str:
    """Return a token colour as is when it reads on the code background, else the nearest shade that does."""
    rgb = contrast.parse_color(color)
    if rgb is None:
        return color
    bg = contrast.parse_color(background) or (255.0, 255.0, 255.0)
    if contrast.ratio(rgb, bg) >= contrast.TEXT_CONTRAST + 0.1:
        return color
    return contrast.to_hex(
        contrast.readable(rgb, (background,), dark=dark, target=contrast.TEXT_CONTRAST + 0.1)
    )


def _readable_match(m: re.Match[str], *, background: str, dark: bool) -> str:
    return "color: " + _readable(m[1], background, dark)


def highlight_css(light: str, dark: str) -> str:
    """Return highlight.css for a (light, dark) pair: token colours plus each style's background and text."""
    from docsgen.mdx.code import highlight_css as default_css

    if (light, dark) == (LIGHT_STYLE, DARK_STYLE):
        return default_css()
    out = [
        f"/* Generated by docsgen.render.codethemes: code block themes light={light}, dark={dark} (Pygments). */"
    ]
    for style, dark_scheme in ((light, False), (dark, True)):
        scope = code_scope(dark_scheme)
        try:
            pygments_style = get_style_by_name(style)
        except ClassNotFound:  # (names come from get_all_styles or the table above)
            continue
        background = pygments_style.background_color
        bg = contrast.parse_color(background) or (255.0, 255.0, 255.0)
        dark_bg = contrast.luminance(bg) < 0.2
        text = (pygments_style.styles.get(Text) or "").split()
        color = _readable(next((w for w in text if w.startswith("#")), ""), background, dark_bg)
        fg = contrast.parse_color(color) or ((230.0, 230.0, 230.0) if dark_bg else (30.0, 30.0, 30.0))
        muted = _readable(contrast.to_hex(contrast.mix(fg, bg, 0.7)), background, dark_bg)
        # --dg-muted: the code header's title and buttons sit on this background too
        out.append(
            # the API pages' samples (pre.dg-api-code > code.dg-code) take the same background; their cards' tab
            # bars and buttons keep the site's colours
            f"{scope},{code_scope(dark_scheme, '.dg-api-code')}"
            f"{{--dg-code-bg:{background};background:{background};--dg-muted:{muted}"
            + (f";color:{color}" if color else "")
            + "}"
        )
        for line in HtmlFormatter(style=style, classprefix="").get_style_defs(scope).splitlines():
            if line.startswith(scope + " .") and not any(
                k in line for k in (" .hll ", " .err ", "linenos", "pre ")
            ):
                # token colours adjusted, only when needed, to read on the style's background (WCAG AA)
                out.append(
                    _COLOR.sub(functools.partial(_readable_match, background=background, dark=dark_bg), line)
                )
    return "\n".join(out) + "\n"


def custom_languages(config: SiteConfig, docs_dir: Path) -> tuple[dict[str, str], list[Diagnostic]]:
    """Return `styling.codeblocks.languages.custom` as {language name: grammar file}, with the located
    diagnostics of reading and compiling the grammars (docsgen.mdx.grammars: loaded once, kept per process)."""
    languages = grammars.custom_languages(config, docs_dir)
    return dict(languages.files), list(languages.diagnostics)


def code_theme_version(site: Any) -> str:
    """Return a suffix for highlight.css's ?v= that changes with the code block theme ("" for the default)."""
    (light, dark), _ = code_styles(site.config)
    if (light, dark) == (LIGHT_STYLE, DARK_STYLE):
        return ""
    return "-" + content_hash(f"{light}/{dark}")


def theme_highlight_css(config: SiteConfig) -> str | None:
    """Return highlight.css for the site's `styling.codeblocks` themes, or None for the theme's own file."""
    (light, dark), _ = code_styles(config)
    return None if (light, dark) == (LIGHT_STYLE, DARK_STYLE) else highlight_css(light, dark)


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
