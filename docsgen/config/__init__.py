"""Configuration stage: docs.json -> validated against the schema and the navigation rules -> SiteConfig."""

from __future__ import annotations

from pathlib import Path

from docsgen.common.errors import Diagnostic, has_errors
from docsgen.config.api_section import ApiSection
from docsgen.config.contextual_check import check_contextual
from docsgen.config.load import RawConfig, load_raw_config
from docsgen.config.model import NavEntry, NavNode, SiteConfig, ThemeChoice
from docsgen.config.rules import build_navigation
from docsgen.config.safety import check_redirect_sources, remove_unsafe_urls
from docsgen.config.schema import ignored_fields, validate_schema
from docsgen.config.sections import Appearance, Banner, Footer, Navbar, NotFoundPage, Search, Seo

__all__ = ["NavEntry", "NavNode", "SiteConfig", "load_config", "THEME_MAP"]

# Mintlify's nine theme names, each a docsgen theme of the same name (themes/<name>/theme.json).
THEME_MAP = {
    name: name for name in ("mint", "maple", "palm", "willow", "linden", "almond", "aspen", "sequoia", "luma")
}


def load_config(docs_dir: Path, *, verbose: bool = False) -> tuple[SiteConfig | None, list[Diagnostic]]:
    """Read, validate and type docs.json; return None with the diagnostics when it has errors."""
    raw, diags = load_raw_config(docs_dir)
    if raw is None:
        return None, diags
    if raw.main_file == "mint.json":
        raw, more = _from_mint_json(raw)
        diags += more
    diags += validate_schema(raw)
    diags += check_redirect_sources(raw)
    diags += remove_unsafe_urls(raw)
    navigation, more = build_navigation(raw)
    diags += more
    diags += check_contextual(raw)
    if verbose:
        diags += ignored_fields(raw)
    if has_errors(diags):
        return None, diags
    return to_model(raw, navigation), diags


def _from_mint_json(raw: RawConfig) -> tuple[RawConfig, list[Diagnostic]]:
    """Read a legacy mint.json through its conversion to the docs.json model."""
    from docsgen.config.legacy import convert_mint_json

    converted, diags = convert_mint_json(raw.data, raw.main_file)
    return RawConfig(
        data=converted, main_file=raw.main_file, origins={}, indexes=raw.indexes, files=raw.files
    ), diags


def to_model(raw: RawConfig, navigation: NavNode) -> SiteConfig:
    """Turn schema-valid docs.json data into the typed SiteConfig."""
    d = raw.data
    requested = d.get("theme", "mint")
    logo = d.get("logo") or {}
    if isinstance(logo, str):
        logo = {"light": logo, "dark": logo}
    favicon = d.get("favicon") or {}
    if isinstance(favicon, str):
        favicon = {"light": favicon, "dark": favicon}
    nav = d.get("navigation") or {}
    global_nav = nav.get("global") or {}
    styling = d.get("styling") or {}
    interaction = d.get("interaction") or {}
    redirects = d.get("redirects") or []
    return SiteConfig(
        name=d.get("name", ""),
        theme=ThemeChoice(requested, THEME_MAP.get(requested, "mint")),
        colors=dict(d.get("colors") or {}),
        navigation=navigation,
        global_anchors=tuple(
            a for a in global_nav.get("anchors", []) if isinstance(a, dict) and a.get("href")
        ),
        logo=dict(logo),
        favicon=dict(favicon),
        description=d.get("description", ""),
        navbar=Navbar.from_json(d.get("navbar")),
        footer=Footer.from_json(d.get("footer")),
        banner=Banner.from_json(d.get("banner")),
        eyebrows=styling.get("eyebrows"),
        drilldown=interaction.get("drilldown"),
        appearance=Appearance.from_json(d.get("appearance")),
        icons_library=(d.get("icons") or {}).get("library", "fontawesome"),
        api=ApiSection.from_json(d.get("api")),
        redirects=tuple(r for r in redirects if isinstance(r, dict)),
        seo=Seo.from_json(d.get("seo")),
        search=Search.from_json(d.get("search")),
        feedback=d.get("feedback"),
        metadata=dict(d.get("metadata") or {}),
        variables=dict(d.get("variables") or {}),
        not_found=NotFoundPage.from_json(d.get("errors")),
        raw=d,
        files=tuple(raw.files),
        locate=raw.locate,
    )
