"""Typed views of the docs.json sections the renderer reads (`appearance`, `seo`, `banner`, `footer`,
`navbar`, `search`, `errors.404`): made
once from the validated JSON, so render code reads named fields instead of looking keys up in raw dicts and
checking their types."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from docsgen.common.urls import content_hash


@dataclass(frozen=True)
class Appearance:
    """docs.json `appearance`: the colour mode a reader starts in and whether they may switch it."""

    default: str = "system"  # "system", "light" or "dark", as docs.json writes it
    strict: bool = False  # the toggle is hidden and the default mode always applies

    @classmethod
    def from_json(cls, value: Any) -> Appearance:
        raw = value if isinstance(value, dict) else {}
        default = raw.get("default")
        return cls(default if isinstance(default, str) and default else "system", bool(raw.get("strict")))


@dataclass(frozen=True)
class SeoPathRule:
    """One `seo.paths` entry: meta tags for the pages under a folder."""

    path: str  # the folder, without slashes at either end ("" matches no page)
    metatags: Mapping[str, str]  # name -> content, in docs.json order (numbers written as text)

    def applies_to(self, key: str) -> bool:
        return bool(self.path) and (key == self.path or key.startswith(self.path + "/"))


@dataclass(frozen=True)
class Seo:
    """docs.json `seo`: site-wide meta tags, per-folder meta tags, indexing, URL form, the organization."""

    metatags: Mapping[str, Any] = field(default_factory=dict)  # name -> content (`canonical` is the site URL)
    paths: tuple[SeoPathRule, ...] = ()
    indexing: str | None = None  # "all": hidden pages are indexed too; else only the navigable ones
    trailing_slash: bool = True  # False: absolute URLs drop the slash of pretty URLs
    organization: Mapping[str, Any] | None = None  # the JSON-LD Organization, when given and not empty

    @property
    def index_all(self) -> bool:
        return self.indexing == "all"

    @classmethod
    def from_json(cls, value: Any) -> Seo:
        raw = value if isinstance(value, dict) else {}
        metatags = raw.get("metatags")
        organization = raw.get("organization")
        indexing = raw.get("indexing")
        return cls(
            metatags=dict(metatags) if isinstance(metatags, dict) else {},
            paths=tuple(_path_rules(raw.get("paths"))),
            indexing=indexing if isinstance(indexing, str) else None,
            trailing_slash=raw.get("trailingSlash") is not False,
            organization=dict(organization) if isinstance(organization, dict) and organization else None,
        )


def _path_rules(value: Any) -> list[SeoPathRule]:
    rules = []
    for rule in value if isinstance(value, list) else []:
        if not isinstance(rule, dict) or not isinstance(rule.get("metatags"), dict):
            continue
        tags = {str(k): str(v) for k, v in rule["metatags"].items() if isinstance(v, str | int | float)}
        rules.append(SeoPathRule(str(rule.get("path", "")).strip("/"), tags))
    return rules


@dataclass(frozen=True)
class Banner:
    """docs.json `banner` (or a language's own): the announcement above every page."""

    content: str  # Markdown (links and emphasis)
    kind: str = "info"  # its `type`
    dismissible: bool = False
    color: Any = None  # a colour, or {light, dark} (docsgen.render.site_nav)
    key: str = ""  # a hash of the whole banner: a reader who dismissed it sees it again once it changes

    @classmethod
    def from_json(cls, value: Any) -> Banner | None:
        """Return the banner, or None when there is none (no content)."""
        if not isinstance(value, dict) or not value.get("content"):
            return None
        kind = value.get("type")
        return cls(
            str(value["content"]),
            kind if isinstance(kind, str) and kind else "info",
            bool(value.get("dismissible")),
            value.get("color"),
            content_hash(json.dumps(value, sort_keys=True)),
        )


@dataclass(frozen=True)
class NotFoundPage:
    """docs.json `errors.404`: whether the 404 page sends readers home, and its own title and text."""

    redirect: bool = True  # no matching redirect: go to the home page
    title: str | None = None  # None: the interface's words
    description: str | None = None  # None: the interface's words ("" shows no text)

    @classmethod
    def from_json(cls, errors: Any) -> NotFoundPage:
        raw = errors.get("404") if isinstance(errors, dict) else None
        raw = raw if isinstance(raw, dict) else {}
        title, description = raw.get("title"), raw.get("description")
        return cls(
            raw.get("redirect") is not False,
            title if isinstance(title, str) and title else None,
            description if isinstance(description, str) else None,
        )


@dataclass(frozen=True)
class FooterLink:
    label: str
    href: str


@dataclass(frozen=True)
class FooterColumn:
    header: str  # "": none
    items: tuple[FooterLink, ...]  # those with an href


@dataclass(frozen=True)
class Footer:
    """docs.json `footer` (or a language's own): link columns and social profiles."""

    columns: tuple[FooterColumn, ...] = ()  # the first MAX_COLUMNS
    socials: tuple[tuple[str, str], ...] = ()  # (network, URL), by network (case-insensitive)

    MAX_COLUMNS = 4

    @classmethod
    def from_json(cls, value: Any) -> Footer:
        raw = value if isinstance(value, dict) else {}
        columns, socials = raw.get("links"), raw.get("socials")
        columns = columns[: cls.MAX_COLUMNS] if isinstance(columns, list) else []
        pairs = [(str(k), str(v)) for k, v in socials.items()] if isinstance(socials, dict) else []
        return cls(
            tuple(_footer_column(c) for c in columns if isinstance(c, dict)),
            tuple(sorted(pairs, key=lambda kv: kv[0].lower())),
        )


def _footer_column(column: dict) -> FooterColumn:
    items = column.get("items")
    links = tuple(
        FooterLink("" if item.get("label") is None else str(item["label"]), str(item["href"]))
        for item in (items if isinstance(items, list) else [])
        if isinstance(item, dict) and item.get("href")
    )
    header = column.get("header")
    return FooterColumn(str(header) if header else "", links)


# navbar link `type` -> (its label when it has none, its brand logo and class)
NAVBAR_KINDS = {"github": ("GitHub", "github"), "discord": ("Discord", "discord")}


@dataclass(frozen=True)
class NavbarLink:
    """A navbar link or the primary button; github/discord links get their logo."""

    label: str
    href: str
    icon: Any = None  # an icon name, or {name, style}
    icon_type: Any = None
    brand: str | None = None  # "github", "discord"

    @classmethod
    def from_json(cls, link: Any) -> NavbarLink | None:
        """Return the link, or None when it has no href to go to."""
        if not isinstance(link, dict) or not isinstance(link.get("href"), str) or not link["href"].strip():
            return None
        kind = link.get("type")
        default_label, brand = NAVBAR_KINDS.get(kind, ("", None)) if isinstance(kind, str) else ("", None)
        label = (
            link.get("label") if isinstance(link.get("label"), str) and link.get("label") else default_label
        )
        if not label and isinstance(kind, str) and kind != "button":
            label = kind.capitalize()
        icon = link.get("icon") or (brand and {"name": brand, "style": "brands"})
        return cls(str(label), link["href"], icon, link.get("iconType"), brand)


@dataclass(frozen=True)
class Navbar:
    """docs.json `navbar` (or a language's own): the links at the top and the primary button."""

    links: tuple[NavbarLink, ...] = ()
    primary: NavbarLink | None = None

    @classmethod
    def from_json(cls, value: Any) -> Navbar:
        raw = value if isinstance(value, dict) else {}
        links = raw.get("links") if isinstance(raw.get("links"), list) else []
        made = (NavbarLink.from_json(link) for link in links or [])
        return cls(tuple(link for link in made if link is not None), NavbarLink.from_json(raw.get("primary")))


@dataclass(frozen=True)
class Search:
    """docs.json `search`: the search field's placeholder."""

    prompt: str | None = None  # None: the interface's words

    @classmethod
    def from_json(cls, value: Any) -> Search:
        prompt = value.get("prompt") if isinstance(value, dict) else None
        return cls(prompt if isinstance(prompt, str) and prompt else None)
