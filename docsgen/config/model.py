"""The typed view of docs.json used by every later stage (the JSON Schema stays the users' contract)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docsgen.common.jsonpos import JsonPath
from docsgen.config.api_section import ApiSection
from docsgen.config.sections import Appearance, Banner, Footer, Navbar, NotFoundPage, Search, Seo

# Navigation levels, outermost first, and the label field each entry carries.
SECTION_KEYS = ("products", "languages", "versions", "dropdowns", "tabs", "anchors", "menu")
CHILD_KEYS = (*SECTION_KEYS, "groups", "pages")
LABEL_KEY = {
    "products": "product",
    "languages": "language",
    "versions": "version",
    "tabs": "tab",
    "anchors": "anchor",
    "dropdowns": "dropdown",
    "menu": "item",
    "groups": "group",
}

# Mintlify's language codes that are not BCP 47 tags (`cn` is China, `jp` Japan, `ua` Ukraine: countries):
# written as valid tags in `lang` and `hreflang`; URLs keep the codes as the site wrote them.
BCP47_TAGS = {"cn": "zh-Hans", "jp": "ja", "ua": "uk"}


def bcp47(code: str) -> str:
    """Return the BCP 47 language tag for a docs.json language code (`cn` -> `zh-Hans`, `jp` -> `ja`)."""
    return BCP47_TAGS.get(code, code)


LANGUAGE_NAMES = {
    "ar": "العربية", "ca": "Català", "cs": "Čeština", "cn": "简体中文", "zh": "中文", "zh-CN": "简体中文",
    "zh-Hans": "简体中文", "zh-Hant": "繁體中文", "zh-TW": "繁體中文", "nl": "Nederlands", "en": "English",
    "fr": "Français", "fr-CA": "Français (Canada)", "fr-ca": "Français (Canada)", "de": "Deutsch", "he": "עברית",
    "hi": "हिन्दी", "hu": "Magyar", "id": "Bahasa Indonesia", "it": "Italiano", "jp": "日本語", "ja": "日本語",
    "ja-JP": "日本語", "ja-jp": "日本語", "ko": "한국어", "lv": "Latviešu", "no": "Norsk", "pl": "Polski",
    "pt": "Português", "pt-BR": "Português (Brasil)", "ro": "Română", "ru": "Русский", "es": "Español",
    "sv": "Svenska", "tr": "Türkçe", "ua": "Українська", "uk": "Українська", "uz": "Oʻzbek", "vi": "Tiếng Việt",
    "da": "Dansk", "fi": "Suomi",
}  # fmt: skip
RTL_LANGUAGES = frozenset({"ar", "he"})


@dataclass(frozen=True)
class NavEntry:
    """A page entry as written in navigation: a page path, `METHOD /path`, or `spec METHOD /path`."""

    value: str
    json_path: JsonPath


@dataclass(frozen=True)
class NavNode:
    """One navigation element (root, product, language, version, dropdown, tab, anchor, menu item or group)."""

    kind: str  # "root", "product", "language", ..., "group"
    label: str
    json_path: JsonPath
    fields: dict[
        str, Any
    ]  # every other field as written: icon, href, tag, root, expanded, hidden, openapi ...
    children: tuple[NavNode | NavEntry, ...] = ()
    child_key: str | None = None  # which array the children came from ("tabs", "groups", "pages", ...)

    def get(self, name: str, default: Any = None) -> Any:
        """Return a field of this element."""
        return self.fields.get(name, default)


@dataclass(frozen=True)
class ThemeChoice:
    """The theme docs.json asked for and the docsgen theme that renders it."""

    requested: str
    name: str  # a folder under themes/


@dataclass(frozen=True)
class SiteConfig:
    """Validated docs.json."""

    name: str
    theme: ThemeChoice
    colors: dict[str, str]
    navigation: NavNode
    global_anchors: tuple[dict, ...] = ()
    logo: dict[str, str] = field(default_factory=dict)  # light, dark, href
    favicon: dict[str, str] = field(default_factory=dict)  # light, dark
    description: str = ""
    navbar: Navbar = field(default_factory=Navbar)
    footer: Footer = field(default_factory=Footer)
    banner: Banner | None = None
    eyebrows: str | None = None  # "section" | "breadcrumbs" | None (theme default)
    drilldown: bool | None = None  # None: theme default
    appearance: Appearance = field(default_factory=Appearance)
    icons_library: str = "fontawesome"
    api: ApiSection = field(default_factory=ApiSection)
    redirects: tuple[dict, ...] = ()
    seo: Seo = field(default_factory=Seo)
    search: Search = field(default_factory=Search)
    feedback: dict[str, Any] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    variables: dict[str, Any] = field(default_factory=dict)
    not_found: NotFoundPage = field(default_factory=NotFoundPage)  # errors.404
    raw: dict[str, Any] = field(default_factory=dict)
    files: tuple[str, ...] = ()  # config files read (docs.json and its $refs)
    # (json path) -> (file, line, column) in the file that holds it; for located diagnostics in later stages
    locate: Callable[[tuple], tuple[str, int, int]] | None = field(default=None, compare=False, repr=False)
