"""Render pages with the theme's Jinja2 templates: pure functions of (page, navigation, site) -> HTML."""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from markupsafe import Markup

from docsgen import analytics, contrast, seo, thumbnails
from docsgen.config.model import LANGUAGE_NAMES, RTL_LANGUAGES, SiteConfig
from docsgen.nav import Navigation, Section
from docsgen.pages import Page
from docsgen.theme import Theme, environment

_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)


def relative_url(from_output: str, to_url: str) -> str:
    """Return the link from an output file to a site-relative URL ('' is the home page)."""
    base = posixpath.dirname(from_output)
    depth = len([p for p in base.split("/") if p])
    prefix = "../" * depth
    return (prefix + to_url) or "./"


def root_of(output: str) -> str:
    """Return the relative path from an output file to the site root ('./' at the top)."""
    return relative_url(output, "")


def is_external(href: str) -> bool:
    """Tell whether a link leaves the site."""
    return bool(_EXTERNAL.match(href))


@dataclass
class SiteContext:
    """What every page template needs about the site, computed once per build."""

    config: SiteConfig
    theme: Theme
    nav: Navigation
    pages: dict[str, Page]
    breadcrumbs: bool
    drilldown: bool
    nav_files: dict[str, str] = field(default_factory=dict)  # section id -> "_nav/<id>.html?v=<hash>"
    static_version: str = ""
    helpers: dict[str, Any] = field(default_factory=dict)  # template_globals(), set once per build
    links: Any = None  # docsgen.links.LinkResolver for this build
    site_url: str | None = None  # public site URL, when known (docsgen.seo)

    @property
    def feedback(self) -> dict | None:
        """Return docs.json `feedback` (used by the feedback widget partial); None under telemetry.enabled false."""
        return self.config.feedback if analytics.telemetry_enabled(self.config) else None

    def color_css(self) -> Markup:
        """Return the CSS custom properties carrying docs.json colors, safe inside a <style> element.

        --dg-primary is the site's accent of each mode (colors.primary in light mode, colors.light in dark
        mode); --dg-primary-text is the same hue adjusted, only when needed, to read as text (WCAG AA).
        """
        colors = self.config.colors
        primary = _css_color(colors.get("primary"), "#0D9373")
        light = _css_color(colors.get("light"), primary)
        dark = _css_color(colors.get("dark"), primary)
        light_text = _text_color(primary, dark=False)
        dark_text = _text_color(light, dark=True)
        css = (
            f":root{{--dg-primary:{primary};--dg-primary-light:{light};--dg-primary-dark:{dark};"
            f"--dg-primary-text:{light_text};--dg-primary-button:{_button_color(primary)}}}"
            f'html[data-theme="dark"]{{--dg-primary:{light};--dg-primary-text:{dark_text};'
            f"--dg-primary-button:{_button_color(light)}}}"
        )
        return Markup(style_text(css))


def style_text(css: str) -> str:
    """Make CSS safe as the text of a <style> element: no HTML escaping (quotes stay quotes), no `</` breakout."""
    return css.replace("<", "\\3c ")


def _css_color(value: Any, default: str) -> str:
    """Return a docs.json colour when it parses as a CSS colour (docsgen.contrast), else the default."""
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


def section_link(section: Section) -> str | None:
    """Return where selecting a section leads: its external href or its first page's URL."""
    if section.href and not section.sections and not section.items:
        return section.href
    first = section.first_page()
    return first.url if first else section.href


def _keys_by_language(site: SiteContext) -> dict[str, set[str]]:
    """Return {language section id: page keys placed under it}, computed once per build."""
    cached = site.__dict__.get("_dg_language_keys")
    if cached is None:
        cached = {}
        for key, place in site.nav.placements.items():
            for s in place.section.chain():
                if s.kind == "language":
                    cached.setdefault(s.id, set()).add(key)
        site.__dict__["_dg_language_keys"] = cached
    return cached


def translated_page(site: SiteContext, page_key: str, current: Section, other: Section) -> str | None:
    """Return the URL of the same page in another language (fr/guide <-> guide <-> ja/guide), when it exists."""
    keys = _keys_by_language(site)
    prefix = current.label + "/"
    rel = page_key[len(prefix) :] if page_key.startswith(prefix) else page_key
    for candidate in (f"{other.label}/{rel}", rel, f"{other.label}/{rel}/index"):
        if candidate in keys.get(other.id, ()) and candidate in site.pages:
            return site.pages[candidate].url
    return None


def switchers(site: SiteContext, section: Section | None, page_key: str | None = None) -> dict[str, dict]:
    """Return the dropdowns, tabs and anchors around a page's section, keyed by kind.

    A language entry leads to the same page in that language when it exists, else to the language's first page.
    """
    out: dict[str, dict] = {}
    chain = section.chain() if section else site.nav.default_section_path()
    for current in chain:
        parent = current.parent
        if parent is None:
            continue
        entries = []
        for sibling in parent.sections:
            if sibling.hidden and sibling is not current:
                continue
            target = section_link(sibling)
            label = sibling.label
            if sibling.kind == "language":
                label = LANGUAGE_NAMES.get(sibling.label, sibling.label)
                if page_key and sibling is current and page_key in site.pages:
                    target = site.pages[page_key].url
                elif page_key:
                    target = translated_page(site, page_key, current, sibling) or target
            entries.append(
                {
                    "label": label,
                    "code": sibling.label,
                    "url": target or "",
                    "external": bool(target and is_external(target)),
                    "current": sibling is current,
                    "icon": sibling.fields.get("icon"),
                    "tag": sibling.fields.get("tag"),
                    "description": sibling.fields.get("description"),
                    "default": sibling.is_default,
                }
            )
        out[current.kind] = {"entries": entries, "current": next((e for e in entries if e["current"]), None)}
    return out


def language_of(section: Section | None) -> str | None:
    """Return the language code of a section chain, if the site is multilingual."""
    for s in section.chain() if section else []:
        if s.kind == "language":
            return s.label
    return None


def language_settings(site: SiteContext, section: Section | None) -> dict[str, Any]:
    """Return banner, footer and navbar, with a language's own values winning."""
    settings = {"banner": site.config.banner, "footer": site.config.footer, "navbar": site.config.navbar}
    for s in section.chain() if section else []:
        if s.kind == "language":
            for key in settings:
                if isinstance(s.fields.get(key), dict):
                    settings[key] = s.fields[key]
    return settings


def global_anchors(site: SiteContext, section: Section | None) -> tuple[dict, ...]:
    """Return the anchors shown on every page: the page's language's own `global`, else navigation.global."""
    for s in section.chain() if section else []:
        own = s.fields.get("global") if s.kind == "language" else None
        if isinstance(own, dict) and isinstance(own.get("anchors"), list):
            return tuple(a for a in own["anchors"] if isinstance(a, dict) and a.get("href"))
    return site.config.global_anchors


def page_html(site: SiteContext, page: Page, *, root: str | None = None) -> str:
    """Render one page to a complete HTML document."""
    env = environment(site.theme.name)
    template = env.get_template("page.html")
    place = site.nav.placements.get(page.key)
    section = place.section if place else None
    root = root if root is not None else root_of(page.output)
    prev_key, next_key = site.nav.neighbours(page.key)
    content = page.content
    lang = language_of(section) or (
        site.config.raw.get("language") if isinstance(site.config.raw.get("language"), str) else None
    )

    def link(url: str) -> str:
        return url if is_external(url) else (root + url if root != "./" else url or "./")

    def neighbour(key: str | None) -> dict | None:
        if not key:
            return None
        other = site.pages[key]
        return {"title": other.sidebar_title, "url": link(other.url)}

    sidebar_sid = (
        section.id if section else (site.nav.leaf_sections()[0].id if site.nav.leaf_sections() else None)
    )
    context = {
        **site.helpers,
        "site": site,
        "config": site.config,
        "page": page,
        "content": Markup(content.html) if content else Markup(""),
        "panel": Markup(content.panel_html) if content and content.panel_html else None,
        "aside": Markup(content.aside_html) if content and content.aside_html else None,
        "toc": content.toc if content else [],
        "assets": sorted(content.assets) if content else [],
        "root": root,
        "link": link,
        "lang": lang or "en",
        "dir": "rtl" if lang in RTL_LANGUAGES else "ltr",
        "breadcrumbs": site.nav.breadcrumbs(page.key) if site.breadcrumbs else [],
        "eyebrow": (site.nav.breadcrumbs(page.key) or [""])[-1] if not site.breadcrumbs else "",
        "prev": None if page.meta.get("hideFooterPagination") else neighbour(prev_key),
        "next": None if page.meta.get("hideFooterPagination") else neighbour(next_key),
        "switchers": switchers(site, section, page.key),
        "global_anchors": global_anchors(site, section),
        "settings": language_settings(site, section),
        "sidebar_src": site.nav_files.get(sidebar_sid or "", ""),
        "sidebar_key": page.key,
        "drilldown": site.drilldown,
        "meta_tags": meta_tags(site, page),
        "head_html": seo.head_html(site, page, root),
        "api_data": Markup(_script_json(page.meta.get("__api_data")))
        if page.meta.get("__api_data")
        else None,
    }
    return template.render(context)


def _script_json(data: Any) -> str:
    """Serialise data for a <script type=application/json> block without letting it close the tag."""
    text = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def meta_tags(site: SiteContext, page: Page) -> list[tuple[str, str, str]]:
    """Return (attribute, name, content) for the page's meta tags: description, og:*, twitter:*, seo.metatags."""
    tags: dict[tuple[str, str], str] = {}
    for name, value in (site.config.seo.get("metatags") or {}).items():
        if isinstance(value, str | int | float):
            tags[("property" if name.startswith("og:") else "name", name)] = str(value)
    description = page.meta_description or site.config.description
    if description:
        tags[("name", "description")] = description
        tags[("property", "og:description")] = description
    tags[("property", "og:title")] = page.title
    tags[("property", "og:type")] = "website"
    tags[("property", "og:site_name")] = site.config.name
    for name, value in (site.config.seo.get("metatags") or {}).items():  # site-wide og:* beat page defaults
        if name.startswith(("og:", "twitter:")) and isinstance(value, str | int | float):
            tags[("property" if name.startswith("og:") else "name", name)] = str(value)
    for name, value in page.meta.items():
        if (name.startswith("og:") or name.startswith("twitter:")) and isinstance(value, str | int | float):
            tags[("property" if name.startswith("og:") else "name", name)] = str(value)
    if page.noindex:
        tags[("name", "robots")] = "noindex"
    thumbnails.add_image_tags(site, page, tags)
    seo.adjust_meta_tags(site, page, tags)
    return [(attr, name, value) for (attr, name), value in sorted(tags.items())]


def sidebar_html(site: SiteContext, section: Section) -> str:
    """Render a section's sidebar once, as a standalone document shared by every page of the section."""
    env = environment(site.theme.name)
    return env.get_template("sidebar.html").render(
        **site.helpers,
        site=site,
        config=site.config,
        section=section,
        items=section.items,
        drilldown=site.drilldown,
        root="../",
    )


def content_hash(text: str) -> str:
    """Return a short stable hash for cache-busting query strings."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


_SOCIAL_ALIASES = {
    "x": "x-twitter",  # the X logo (Font Awesome's plain "x" is the letter)
    "twitter": "x-twitter",
    "hacker-news": "y-combinator",
    "website": "globe",
    "earth-americas": "globe",
}
_ASSET_JS = {"mermaid": "mermaid-init"}
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

    def banner_key(banner: dict) -> str:
        return content_hash(json.dumps(banner, sort_keys=True))

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

    return {
        "asset_js": asset_js,
        "page_link": page_link,
        "has_static": lambda name: name in static,
        "icon": icon,
        "social_icon": social_icon,
        "asset_css": asset_css,
        "banner_key": banner_key,
        "inline_markdown": inline_markdown,
        "method_label": method_label,
        "is_external": is_external,
    }
