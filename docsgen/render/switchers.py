"""The dropdowns around a page (versions, languages, products, dropdowns, tabs, menus, anchors) and their lists.

A site of many versions draws the same version list on every page of a version, twice (header and phone
sidebar). The entries of every switcher but the language one depend only on the page's section, so they are
made once per section; the theme draws their lists once per section and page depth (theme.FragmentCache). The
language entries lead to the same page in each language, so they are made for every page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from docsgen.common.theme import register_template_globals
from docsgen.common.urls import is_external
from docsgen.config.model import LANGUAGE_NAMES, bcp47
from docsgen.nav.tree import Navigation, Section

if TYPE_CHECKING:
    from docsgen.render.context import SiteContext


def section_link(section: Section) -> str | None:
    """Return where selecting a section leads: its external href or its first page's URL."""
    if section.href and not section.sections and not section.items:
        return section.href
    first = section.first_page()
    return first.url if first else section.href


@dataclass(eq=False)  # hashed by identity: it names a generation of cached fragments
class SwitcherCache:
    """What the switchers of one navigation compute once: kept on the site context while its navigation is the
    site's (docsgen dev builds a new one when the navigation changes)."""

    nav: Navigation
    kinds: dict[str, dict] = field(default_factory=dict)  # section id -> the switcher it is current in
    language_keys: dict[str, set[str]] | None = None  # language section id -> page keys placed under it
    # language section id -> its switcher's (sibling, label, where it leads) before the page's own targets
    siblings: dict[str, list[tuple[Section, str, str | None]]] = field(default_factory=dict)


def _cache(site: SiteContext) -> SwitcherCache:
    if site.switcher_cache is None or site.switcher_cache.nav is not site.nav:
        site.switcher_cache = SwitcherCache(site.nav)
    return site.switcher_cache


def fragment_generation(site: SiteContext) -> object:
    """Return what the theme's cached fragments of pages belong to: this navigation's cache (see
    theme.FragmentCache); a new navigation makes a new one."""
    return _cache(site)


def _keys_by_language(site: SiteContext) -> dict[str, set[str]]:
    """Return {language section id: page keys placed under it}, computed once per navigation."""
    cache = _cache(site)
    if cache.language_keys is None:
        keys: dict[str, set[str]] = {}
        for key, place in site.nav.placements.items():
            for s in place.section.chain():
                if s.kind == "language":
                    keys.setdefault(s.id, set()).add(key)
        cache.language_keys = keys
    return cache.language_keys


# What translated_page found while one page is rendered: its switcher and its hreflang links ask the same.
Translations = dict[tuple[str, str, str], str | None]


def translated_page(
    site: SiteContext, page_key: str, current: Section, other: Section, memo: Translations | None = None
) -> str | None:
    """Return the URL of the same page in another language (fr/guide <-> guide <-> ja/guide, and with the language
    further down the path: v2/fr/guide <-> v2/ja/guide), when it exists. `memo`: one page render's answers."""
    if memo is None:
        return _translated_page(site, page_key, current, other)
    key = (page_key, current.id, other.id)
    if key not in memo:
        memo[key] = _translated_page(site, page_key, current, other)
    return memo[key]


def _translated_page(site: SiteContext, page_key: str, current: Section, other: Section) -> str | None:
    keys = _keys_by_language(site)
    prefix = current.label + "/"
    rel = page_key[len(prefix) :] if page_key.startswith(prefix) else page_key
    candidates = [f"{other.label}/{rel}", rel, f"{other.label}/{rel}/index"]
    segments = page_key.split("/")
    if current.label in segments[1:]:  # the language's folder inside another (a version's)
        at = segments.index(current.label, 1)
        candidates.insert(0, "/".join([*segments[:at], other.label, *segments[at + 1 :]]))
    for candidate in candidates:
        if candidate in keys.get(other.id, ()) and candidate in site.pages:
            return site.pages[candidate].url
    return None


def _entry(sibling: Section, current: Section, label: str, target: str | None) -> dict[str, Any]:
    return {
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


def _switcher(
    site: SiteContext, current: Section, page_key: str | None, memo: Translations | None = None
) -> dict[str, Any]:
    """Return {"entries", "current"} of the switcher among `current`'s siblings."""
    entries = []
    for sibling, label, target in _siblings(site, current):
        if sibling.kind == "language":
            if page_key and sibling is current and page_key in site.pages:
                target = site.pages[page_key].url
            elif page_key:
                target = translated_page(site, page_key, current, sibling, memo) or target
        entries.append(_entry(sibling, current, label, target))
    return {"entries": entries, "current": next((e for e in entries if e["current"]), None)}


def _siblings(site: SiteContext, current: Section) -> list[tuple[Section, str, str | None]]:
    """Return (sibling, label, where it leads) of the entries of `current`'s switcher, made once per section:
    the language switcher is made for every page, its siblings' names and first pages are the same."""
    cache = _cache(site).siblings
    found = cache.get(current.id)
    if found is None:
        assert current.parent is not None
        found = cache[current.id] = [
            (
                sibling,
                LANGUAGE_NAMES.get(sibling.label, sibling.label)
                if sibling.kind == "language"
                else sibling.label,
                section_link(sibling),
            )
            for sibling in current.parent.sections
            if not sibling.hidden or sibling is current
        ]
    return found


def switchers(
    site: SiteContext, section: Section | None, page_key: str | None = None, memo: Translations | None = None
) -> dict[str, dict]:
    """Return the dropdowns, tabs and anchors around a page's section, keyed by kind.

    A language entry leads to the same page in that language when it exists, else to the language's first page.
    """
    cache = _cache(site).kinds
    out: dict[str, dict] = {}
    chain = section.chain() if section else site.nav.default_section_path()
    for current in chain:
        if current.parent is None:
            continue
        if current.kind == "language" and page_key:
            out[current.kind] = _switcher(site, current, page_key, memo)
            continue
        if current.id not in cache:
            cache[current.id] = _switcher(site, current, None)
        out[current.kind] = cache[current.id]
    return out


_BADGE = '<span class="dg-badge">{}</span>'


def _items(
    kind: str, local: list[dict], extra: list[dict], link: Callable[[str], str], badges: bool
) -> Markup:  # badges: the header's copy, whose current language is Mintlify's #localization-select-item
    """Return the `<li>` links of a version or language dropdown: its entries, then navigation.global's."""
    out: list[str] = []
    for number, e in enumerate([*local, *extra]):
        attrs = ' aria-current="true"' if number < len(local) and e["current"] else ""
        if attrs and badges and kind == "language":
            attrs += ' id="localization-select-item"'
        if number >= len(local):
            attrs = ' class="dg-global"'
        if kind == "language":
            code = escape(bcp47(e["code"]))
            attrs += f' hreflang="{code}" lang="{code}"'
        tag = " " + _BADGE.format(escape(e["tag"])) if badges and e.get("tag") else ""
        out.append(f'<li><a href="{escape(link(e["url"]))}"{attrs}>{escape(e["label"])}{tag}</a></li>')
    return Markup("".join(out))


def switch_items(
    link: Callable[[str], str], kind: str, switch: Any, extra: list[dict], place: str = "header"
) -> Markup:
    """Return the `<li>` list of a version or language dropdown, its URLs made by the page's `link`; place
    "header" shows the entries' tags as badges, "sidebar" (the phone sidebar's copy) does not."""
    local = switch["entries"] if switch else []
    return _items(kind, local, extra, link, place == "header")


register_template_globals({"dg_switch_items": switch_items})
