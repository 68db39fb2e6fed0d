"""What every template needs about the site (computed once per build), and the helpers templates call."""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from markupsafe import Markup

from docsgen.common import contrast
from docsgen.common.theme import Theme, environment, load_theme
from docsgen.common.urls import _EXTERNAL, content_hash, is_external
from docsgen.config import analytics
from docsgen.config.model import SiteConfig
from docsgen.nav.tree import Navigation
from docsgen.openapi.playground_auth import AUTH_ASSET, PLAYGROUND_ASSETS
from docsgen.pages.page import Page

# Template helpers these modules register (dg_contextual, dg_global_nav, dg_directory, ...).
from docsgen.render import codethemes, contextual, site_nav  # noqa: F401
from docsgen.render.edit_links import Repository, find_repository
from docsgen.render.stylesheet import PAGE_CSS, page_css_parts
from docsgen.render.switchers import SwitcherCache
from docsgen.render.tailwind_input import TailwindInput, tailwind_input
from docsgen.site.link_resolver import LinkResolver
from docsgen.site.policies import PagePolicy, site_url
from docsgen.site.read import Site
from docsgen.site.url_targets import link_targets


@dataclass
class SiteContext:
    """What every page template needs about the site, computed once per build."""

    site: Site
    theme: Theme
    breadcrumbs: bool
    drilldown: bool
    links: LinkResolver  # resolves the links and assets pages name
    nav_files: dict[str, str] = field(default_factory=dict)  # section id -> "_nav/<id>.html?v=<hash>"
    static_version: str = ""
    helpers: dict[str, Any] = field(default_factory=dict)  # template_globals(), set once per build
    # what the switchers compute once per navigation (docsgen.render.switchers), made when first asked
    switcher_cache: SwitcherCache | None = field(default=None, repr=False)
    timestamps: dict[str, datetime] | None = field(default=None, repr=False)  # source -> last change (custom)
    tailwind: TailwindInput | None = field(
        default=None, repr=False
    )  # the site's classes (None: it uses none)
    tailwind_href: str = ""  # "_static/tailwind.css?v=<key>" once compiled (docsgen.outputs.tailwind)
    repository: Repository | None = None  # where "Edit this page" and "Report an issue" lead (edit_links)

    @property
    def config(self) -> SiteConfig:
        return self.site.config

    @property
    def nav(self) -> Navigation:
        return self.site.nav

    @property
    def pages(self) -> dict[str, Page]:
        return self.site.pages

    @property
    def site_url(self) -> str | None:
        """The public site URL given to the build (--site-url), when any (see docsgen.site.policies.site_url)."""
        return self.site.site_url

    @property
    def public_url(self) -> str | None:
        """The public site URL from --site-url, $DOCSGEN_SITE_URL or seo.metatags.canonical, when known."""
        return site_url(self.site)

    def knows(self, page: Page) -> bool:
        """Tell whether a page is one of the site's (the generated 404 page is not)."""
        return self.pages.get(page.key) is page

    def policy(self, page: Page) -> PagePolicy:
        """Return a page's policy (pages the site does not know, like 404, are never indexed)."""
        if not self.knows(page):
            return PagePolicy(False, False, False, True)
        return self.site.policy(page)

    @property
    def feedback(self) -> dict | None:
        """Return docs.json `feedback` (used by the feedback widget partial); None under telemetry.enabled false."""
        return self.config.feedback if analytics.telemetry_enabled(self.config) else None

    def color_css(self) -> Markup:
        """Return the CSS custom properties carrying docs.json colors, safe inside a <style> element.

        --dg-primary is the site's accent of each mode (colors.primary in light mode, colors.light in dark
        mode); --dg-primary-text is the same hue adjusted, only when needed, to read as text (WCAG AA);
        --dg-primary-button is colors.dark (else primary) in both modes, as Mintlify uses it for buttons.
        """
        colors = self.config.colors
        primary = _css_color(colors.get("primary"), "#0D9373")
        light = _css_color(colors.get("light"), primary)
        dark = _css_color(colors.get("dark"), primary)
        return _color_css(primary, light, dark)

    def theme_css(self) -> Markup:
        """Return the theme's font stacks (theme.json `fonts`) as CSS custom properties."""
        return Markup(style_text(self.theme.font_css()))


@functools.lru_cache(maxsize=64)
def _color_css(primary: str, light: str, dark: str) -> Markup:
    """Return the color custom properties of these accents (the same for every page: computed once)."""
    light_text = _text_color(primary, dark=False)
    dark_text = _text_color(light, dark=True)
    css = (
        f":root{{--dg-primary:{primary};--dg-primary-light:{light};--dg-primary-dark:{dark};"
        f"--dg-primary-text:{light_text};--dg-primary-button:{_button_color(dark)}}}"
        f'html[data-theme="dark"]{{--dg-primary:{light};--dg-primary-text:{dark_text}}}'
        # the API pages' example column is dark in both schemes (api.css), as on Mintlify
        f".dg-api-aside{{--dg-primary:{light};--dg-primary-text:{dark_text}}}"
    )
    return Markup(style_text(css))


def style_text(css: str) -> str:
    """Make CSS safe as the text of a <style> element: no HTML escaping (quotes stay quotes), no `</` breakout."""
    return css.replace("<", "\\3c ")


def _css_color(value: Any, default: str) -> str:
    """Return a docs.json colour when it parses as a CSS colour (docsgen.common.contrast), else the default."""
    return value.strip() if contrast.parse_color(value) is not None else default


def _button_color(color: str) -> str:
    """Return the accent as the background of white button text (banner, CTA): darkened only when needed."""
    rgb = contrast.parse_color(color)
    if rgb is None or contrast.ratio(rgb, (255.0, 255.0, 255.0)) >= contrast.TEXT_CONTRAST:
        return color
    return contrast.to_hex(
        contrast.readable(rgb, ("#ffffff",), dark=False, target=contrast.TEXT_CONTRAST + 0.1)
    )


def _text_color(color: str, *, dark: bool) -> str:
    """Return the accent as readable text on the theme backgrounds of a mode (the colour itself when it reads)."""
    rgb = contrast.parse_color(color)
    if rgb is None:
        return color
    base = contrast.DARK_BACKGROUNDS if dark else contrast.LIGHT_BACKGROUNDS
    # The current sidebar item and selected rows put the accent's own 10-12% tint behind it.
    tints = tuple(contrast.to_hex(contrast.mix(rgb, contrast.parse_color(bg) or rgb, 0.12)) for bg in base)
    backgrounds = base + tints
    if all(
        contrast.ratio(rgb, contrast.parse_color(bg) or rgb) >= contrast.TEXT_CONTRAST for bg in backgrounds
    ):
        return color
    return contrast.to_hex(
        contrast.readable(rgb, backgrounds, dark=dark, target=contrast.TEXT_CONTRAST + 0.1)
    )


def site_context(site: Site) -> SiteContext:
    """Return what every template needs about the site: theme, defaults, helpers (computed once per build)."""
    config = site.config
    theme = load_theme(config.theme.name)
    breadcrumbs = config.eyebrows == "breadcrumbs" if config.eyebrows else theme.breadcrumbs
    drilldown = config.drilldown if config.drilldown is not None else theme.drilldown
    resolver = LinkResolver(site.docs_dir, site.pages, set(site.sources.static), link_targets(site))
    ctx = SiteContext(site, theme, breadcrumbs, drilldown, resolver)
    static = theme.static_files()
    ctx.tailwind = site_tailwind(site, theme)
    # a new set of classes is a new stylesheet: every page links it anew
    stamp = ctx.tailwind.key if ctx.tailwind else ""
    ctx.static_version = content_hash("".join(f"{k}:{_file_digest(p)}" for k, p in static.items()) + stamp)
    ctx.helpers = template_globals(ctx)
    feedback = config.feedback if isinstance(config.feedback, dict) else {}
    if feedback.get("suggestEdit") is True or feedback.get("raiseIssue") is True:
        ctx.repository = find_repository(site.docs_dir, feedback)
    codethemes.custom_languages(config, site.docs_dir)  # grammars compiled here, before the render pool forks
    return ctx


TAILWIND_BUNDLE = "vendor/tailwind.min.js"


def site_tailwind(site: Site, theme: Theme) -> TailwindInput | None:
    """Return the site's Tailwind classes and configuration, keyed with the theme's compiler (None: no class)."""
    bundle = theme.static_files().get(TAILWIND_BUNDLE)
    return tailwind_input(site, _file_digest(bundle) if bundle else "")


def _file_digest(path: Path) -> str:
    """Return a file's content hash (cached by size and mtime): asset URLs change only when content does."""
    stat = path.stat()
    return _digest_of(str(path), stat.st_size, stat.st_mtime_ns)


@functools.cache
def _digest_of(path: str, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


_SOCIAL_ALIASES = {
    "x": "x-twitter",  # the X logo (Font Awesome's plain "x" is the letter)
    "twitter": "x-twitter",
    "hacker-news": "y-combinator",
    "website": "globe",
    "earth-americas": "globe",
}
_ASSET_JS = {"mermaid": "mermaid-init"}
LAZY_ASSETS = PLAYGROUND_ASSETS | {AUTH_ASSET}  # the playground's scripts: js/playground-loader.js loads them
_ASSET_CSS = {"api-reference": "api.css", "feedback": "feedback.css"}


@cache
def _inline_md():
    """Return a Markdown renderer for short trusted-shape strings (banner): links and emphasis, no raw HTML."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    md.options["html"] = False
    return md


def icon_parts(value: Any, library: str) -> tuple[str, str | None, str]:
    """Return (name, style or None, library) of an icon written as a string or as {name, style, library}."""
    if isinstance(value, dict):
        name, style, lib = value.get("name"), value.get("style"), value.get("library")
        return (
            name.strip() if isinstance(name, str) else "",
            style if isinstance(style, str) and style else None,
            lib if isinstance(lib, str) and lib else library,
        )
    return (value.strip() if isinstance(value, str) else ""), None, library


def template_globals(site: SiteContext) -> dict[str, Any]:
    """Return the helper functions every template may call."""
    from docsgen.mdx import icons as icon_lib

    library = site.config.icons_library
    static = site.theme.static_files()
    environment(site.theme.name)  # compiled once here, before render workers fork

    def icon(value: Any, icon_type: Any = None) -> Markup:
        """Draw an icon given as a name (any capitalisation), an image path/URL or {name, style, library}."""
        name, style, lib = icon_parts(value, library)
        if not name:
            return Markup("")
        if name.startswith(("/", "http://", "https://", "./")) or name.endswith((".svg", ".png")):
            if _EXTERNAL.match(name) and not name.lower().startswith(("http://", "https://", "//")):
                return Markup("")  # javascript:, data: ... never become an image source
            return Markup('<img class="dg-icon" src="{}" alt="">').format(name)
        style = style or (icon_type if isinstance(icon_type, str) and icon_type else None)
        svg = icon_lib.icon_svg(name, lib, style) or icon_lib.icon_svg(name.lower(), lib, style)
        return Markup(svg) if svg else Markup("")

    def social_icon(network: str) -> Markup:
        name = _SOCIAL_ALIASES.get(network, network)
        svg = icon_lib.icon_svg(name, "fontawesome", "brands") or icon_lib.icon_svg(name, "fontawesome")
        return Markup(svg) if svg else Markup("<span>{}</span>").format(network)

    def asset_css(asset: str) -> str | None:
        name = _ASSET_CSS.get(asset, f"{asset}.css")
        return name if name in static else None

    def inline_markdown(text: str) -> Markup:
        return Markup(_inline_md().renderInline(str(text)))

    def method_label(method: str) -> str:
        return {"DELETE": "DEL", "OPTIONS": "OPT", "WEBHOOK": "HOOK"}.get(method.upper(), method.upper())

    def page_link(href: str) -> str:
        """Map a docs.json link ("/status", "https://...") to a site-relative URL."""
        if is_external(href):
            return href
        key = href.split("#")[0].strip("/") or "index"
        page = site.pages.get(key) or site.pages.get(key + "/index")
        return page.url if page else href.lstrip("/")

    def asset_js(asset: str) -> str | None:
        name = f"js/{_ASSET_JS.get(asset, asset)}.js"
        return name if name in static else None

    policies = site.site.policies()

    def access_mark(keys: Any) -> Markup:
        """Return ` data-access="[labels]"` for an entry naming only pages some readers may not read (a link,
        or a sidebar group by every page inside it), '' otherwise: `docsgen server`'s gate cuts marked entries
        out of shared files (sidebars, pagination) for readers who may read none of them."""
        if not policies.access_marked:
            return Markup("")
        labels = set()
        for key in [keys] if isinstance(keys, str) or keys is None else keys:
            page = site.pages.get(key) if key else None
            if page is None:
                return Markup("")  # an external link, or a page the site does not know: nothing to guard
            labels.add(site.policy(page).access.label)
        if not labels or "public" in labels:
            return Markup("")
        return Markup(' data-access="{}"').format(json.dumps(sorted(labels)))

    return {
        "asset_js": asset_js,
        "access_mark": access_mark,
        "page_link": page_link,
        "has_static": lambda name: name in static,
        "page_css": PAGE_CSS if page_css_parts(static) else "",
        "lazy_assets": LAZY_ASSETS,  # loaded by js/playground-loader.js when the reader opens the playground
        "icon": icon,
        "social_icon": social_icon,
        "asset_css": asset_css,
        "inline_markdown": inline_markdown,
        "method_label": method_label,
        "is_external": is_external,
    }
