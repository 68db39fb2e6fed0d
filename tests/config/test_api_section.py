"""docs.json `api` read once into a typed view (docsgen.config.api_section), which the API settings read."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from docsgen.config import load_config
from docsgen.config.api_section import ApiSection
from docsgen.openapi.pages import api_settings


def _site(tmp_path: Path, api: dict) -> Path:
    config = {
        "name": "Shop",
        "theme": "mint",
        "colors": {"primary": "#0D9373"},
        "navigation": {"pages": ["index"]},
    }
    (tmp_path / "docs.json").write_text(json.dumps({**config, "api": api}), encoding="utf-8")
    (tmp_path / "index.mdx").write_text("# Home\n", encoding="utf-8")
    return tmp_path


def test_docs_json_api_is_read_into_named_fields(tmp_path):
    api = {
        "openapi": ["openapi.json", "admin.yaml"],
        "playground": {"display": "simple", "proxy": False, "credentials": True},
        "examples": {
            "languages": ["curl", "py"],
            "defaults": "required",
            "prefill": True,
            "autogenerate": False,
        },
        "params": {"expanded": "all", "post": ["format", "pattern"]},
        "url": "full",
        "mdx": {
            "server": ["https://api.shop.example", "https://eu.shop.example"],
            "auth": {"method": "key", "name": "X-Key"},
        },
    }
    config, diagnostics = load_config(_site(tmp_path, api))
    assert config is not None, diagnostics
    section = config.api
    assert isinstance(section, ApiSection)
    assert section.openapi == api["openapi"]
    assert (section.playground.display, section.playground.proxy, section.playground.credentials) == (
        "simple",
        False,
        True,
    )
    assert section.examples.languages == ("curl", "py") and section.examples.defaults == "required"
    assert section.examples.prefill and not section.examples.autogenerate
    assert section.params_expanded and section.params_post == ("format", "pattern") and section.url_full
    assert section.mdx.servers == ("https://api.shop.example", "https://eu.shop.example")
    assert section.mdx.auth == {"method": "key", "name": "X-Key"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        section.url_full = False  # type: ignore[misc]
    settings = api_settings(config, {"playground": "none"})
    assert (settings.base_url_display, settings.playground_display, settings.proxy) == ("full", "none", False)
    assert settings.languages == ("bash", "python") and settings.params_post == ("format", "pattern")
    assert api_settings(config).playground_display == "simple"  # the page's frontmatter wins when it has one


def test_defaults_and_mintlifys_older_keys():
    empty = ApiSection.from_json(None)
    assert empty == ApiSection() and empty.display() == "interactive" and empty.mdx.auth is None
    assert empty.playground.proxy and empty.examples.autogenerate and empty.examples.defaults == "all"
    older = ApiSection.from_json({"baseUrl": ["https://a.example", 3], "playground": {"mode": "simple"}})
    assert older.base_urls == ("https://a.example",) and not older.url_full
    assert older.display() == "simple" and older.display({"playground": "bogus"}) == "interactive"
    assert ApiSection.from_json({"baseUrl": "full"}).url_full
    assert ApiSection.from_json(
        {"mdx": {"server": "https://one.example", "auth": {"method": "bearer"}}}
    ).mdx == (
        ApiSection.from_json({"mdx": {"server": ["https://one.example"], "auth": {"method": "bearer"}}}).mdx
    )
