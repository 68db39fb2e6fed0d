"""Template helpers for the site-wide navigation: `navigation.global` links, directory listings on group root
pages, navbar link kinds (github, discord) and docs.json colours (anchor `color`, `banner.color`).

Registered as template globals (dg_*), so themes call them with the `site` and `page` they already have.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup

from docsgen.common.theme import register_template_globals
from docsgen.config.model import LANGUAGE_NAMES
from docsgen.config.safety import is_unsafe_url

GLOBAL_KINDS = {  # navigation.global key -> (label field, switcher kind)
    "tabs": ("tab", "tab"),
    "dropdowns": ("dropdown", "dropdown"),
    "languages": ("language", "language"),
    "versions": ("version", "version"),
    "products": ("product", "product"),
}
LISTING_MODES = ("accordion", "card", "none")
_COLOR = re.compile(r"#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]+\)|[a-zA-Z]{3,20}")
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
_NO_GLOBAL: dict = {}  # a site without `global` (never changed)


def _global_of(site: Any, page: Any) -> dict:
    """Return the page's `global` object: its language's own when it has one, else navigation.global."""
    place = site.nav.placements.get(page.key) if page is not None else None
    for section in place.section.chain() if place else []:
        own = section.fields.get("global") if section.kind == "language" else None
        if isinstance(own, dict):
            return own
    nav = site.config.raw.get("navigation")
    value = nav.get("global") if isinstance(nav, dict) else None
    return value if isinstance(value, dict) else _NO_GLOBAL


def global_nav(site: Any, page: Any) -> dict[str, list[dict]]:
    """Return the `navigation.global` links of a page by switcher kind: {"tab": [...], "version": [...], ...}.

    Each entry carries label, url (external, or a site page mapped by page_link), icon, description, tag. Made
    once per `global` object and navigation (the header and the phone sidebar of every page ask; templates only
    read it; a new navigation, as `docsgen dev` makes on an edit, makes them anew); the object is held with its
    answer, so its id cannot be reused while remembered.
    """
    page_link = site.helpers.get("page_link") if isinstance(site.helpers, dict) else None
    found = _global_of(site, page)
    memo = site.__dict__.setdefault("_dg_global_nav", {})
    known = memo.get(id(found))
    if known is not None and known[0] is found and known[1] is page_link and known[2] is site.nav:
        return known[3]
    out = _global_links(found, page_link)
    if len(memo) >= 64:
        memo.clear()
    memo[id(found)] = (found, page_link, site.nav, out)
    return out


def _global_links(found: dict, page_link: Any) -> dict[str, list[dict]]:
    """Return the links of a `global` object by switcher kind (see global_nav)."""
    out: dict[str, list[dict]] = {}
    for key, (label_field, kind) in GLOBAL_KINDS.items():
        entries = []
        for item in found.get(key) or []:
            if not isinstance(item, dict) or item.get("hidden") is True:
                continue
            href, label = item.get("href"), item.get(label_field)
            if not isinstance(href, str) or not href.strip() or is_unsafe_url(href) or not label:
                continue
            external = bool(_EXTERNAL.match(href)) or href.startswith("//")
            url = href if external or page_link is None else page_link(href)
            if kind == "language":
                label = LANGUAGE_NAMES.get(str(label), str(label))
            entries.append(
                {
                    "label": str(label),
                    "code": str(item.get(label_field)),
                    "url": url,
                    "external": external,
                    "icon": item.get("icon"),
                    "icon_type": item.get("iconType"),
                    "description": item.get("description")
                    if isinstance(item.get("description"), str)
                    else "",
                    "tag": item.get("tag") if isinstance(item.get("tag"), str) else "",
                }
            )
        if entries:
            out[kind] = entries
    return out


def _color(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and _COLOR.fullmatch(value.strip()) else None


def color_style(value: Any, prop: str) -> Markup:
    """Return ` style="--prop: light; --prop-dark: dark"` for a docs.json colour (string, or {light, dark}).

    Only #hex, rgb()/hsl() and colour names pass: the value goes into an attribute read as CSS.
    """
    if isinstance(value, dict):
        light, dark = _color(value.get("light")), _color(value.get("dark"))
        light = light or dark
        dark = dark or light
    else:
        light = dark = _color(value)
    if not light:
        return Markup("")
    return Markup(' style="--{0}: {1}; --{0}-dark: {2}"').format(prop, light, dark)


def section_color(site: Any, kind: str, code: str) -> Any:
    """Return the `color` of the navigation section of this kind and label (anchors), None when unset."""
    for section in site.nav.sections:
        if section.kind == kind and section.label == code and section.fields.get("color"):
            return section.fields["color"]
    return None


def directory(site: Any, page: Any) -> dict | None:
    """Return the directory listing of a group whose root page this is: {"mode", "entries"} (None: no listing)."""
    found = getattr(site.nav, "directories", {}).get(page.key)
    if found is None:
        return None
    mode, group = found

    def entry(item: Any, depth: int) -> dict | None:  # a NavLink or a NavGroup (docsgen.nav.tree)
        if not hasattr(item, "children"):
            if item.key == page.key:
                return None
            other = site.pages.get(item.key) if item.key else None
            return {
                "kind": "page",
                "title": item.label,
                "url": item.url,
                "external": item.external,
                "icon": item.icon,
                "description": other.description if other is not None else "",
            }
        children = [e for e in (entry(c, depth + 1) for c in item.children[:200]) if e] if depth < 6 else []
        root = item.root
        return {
            "kind": "group",
            "title": item.label,
            "url": root.url if root and root.key != page.key else None,
            "icon": item.icon,
            "children": children,
        }

    items = [e for e in (entry(c, 0) for c in group.children[:500]) if e]
    return {"mode": mode, "entries": items} if items else None


register_template_globals(
    {
        "dg_global_nav": global_nav,
        "dg_color_style": color_style,
        "dg_section_color": section_color,
        "dg_directory": directory,
    }
)
