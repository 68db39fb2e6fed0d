"""schemas/docs.schema.json: a valid 2020-12 schema that accepts real sites and rejects typos with useful errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

REPO = Path(__file__).resolve().parents[2]
SCHEMA_FILE = REPO / "schemas" / "docs.schema.json"
CORPUS = REPO / "fixtures" / "mintlify-docs"

SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)

MINIMAL = {
    "$schema": "https://mintlify.com/docs.json",
    "theme": "mint",
    "name": "Acme",
    "colors": {"primary": "#0D9373"},
    "navigation": {"groups": [{"group": "Start", "pages": ["index"]}]},
}


def resolve_refs(node: object, base: Path) -> object:
    """Merge `$ref` includes the simple way (siblings over the referenced object), as the loader does."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = (base / node["$ref"]).resolve()
            data = resolve_refs(json.loads(target.read_text(encoding="utf-8")), target.parent)
            rest = {k: resolve_refs(v, base) for k, v in node.items() if k != "$ref"}
            return {**data, **rest} if isinstance(data, dict) else data
        return {k: resolve_refs(v, base) for k, v in node.items()}
    if isinstance(node, list):
        return [resolve_refs(v, base) for v in node]
    return node


def errors(doc: dict) -> list[tuple[str, str]]:
    return sorted((e.json_path, e.message) for e in VALIDATOR.iter_errors(doc))


def test_schema_is_valid_2020_12():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(SCHEMA["required"]) == {"theme", "name", "colors", "navigation"}
    assert SCHEMA["properties"]["colors"]["required"] == ["primary"]
    assert SCHEMA["additionalProperties"] is False


def test_minimal_config_with_dollar_schema_is_valid():
    assert errors(MINIMAL) == []


def test_corpus_docs_json_with_refs_validates():
    raw = json.loads((CORPUS / "docs.json").read_text(encoding="utf-8"))
    assert any("$ref" in lang for lang in raw["navigation"]["languages"])  # the test really merges includes
    doc = resolve_refs(raw, CORPUS)
    assert [lang["language"] for lang in doc["navigation"]["languages"]] == ["en", "fr", "es", "zh"]
    assert isinstance(doc["redirects"], list) and len(doc["redirects"]) > 10
    assert errors(doc) == []
    assert jsonschema_rs.Draft202012Validator(SCHEMA).is_valid(doc)


def kitchen_sink() -> dict:
    """A docs.json using every field the compatibility reference lists."""
    nav_fields = {
        "icon": "book",
        "iconType": "duotone",
        "hidden": False,
        "openapi": {"source": "openapi.json", "directory": "api", "overlays": ["overlay.yaml"]},
        "asyncapi": ["asyncapi.yaml"],
        "directory": "card",
        "searchable": True,
        "public": True,
        "boost": 1.5,
    }
    group = {
        "group": "Guides",
        "root": "guides/index",
        "tag": "NEW",
        "expanded": True,
        "icon": "book",
        "hidden": False,
        "public": True,
        "boost": 2,
        "searchable": True,
        "openapi": "openapi.yaml",
        "pages": [
            "guides/one",
            "GET /users",
            "openapi.yaml POST /users",
            "openapi.yaml webhook user.created",
            {"group": "Nested", "expanded": False, "pages": ["guides/nested"]},
            {"group": "Generated", "openapi": ["a.json", "b.json"]},
            {"group": "GraphQL", "graphql": "schema.graphql"},
            {"group": "SDK", "sdk": {"format": "typedoc", "source": "typedoc.json", "directory": "sdk"}},
        ],
    }
    menu = [
        {"item": "API", "icon": "rocket", "description": "Endpoints", "groups": [group]},
        {"item": "Blog", "href": "https://example.com/blog"},
        {"item": "Versions", "versions": [{"version": "v1", "pages": ["v1/index"]}]},
    ]
    tabs = [
        {"tab": "Docs", "align": "start", **nav_fields, "groups": [group]},
        {"tab": "More", "align": "end", "menu": menu},
        {"tab": "Blog", "href": "https://example.com/blog"},
        {
            "tab": "Anchored",
            "anchors": [{"anchor": "A", "color": {"light": "#fff", "dark": "#000"}, "pages": ["a"]}],
        },
        {
            "tab": "Dropped",
            "dropdowns": [{"dropdown": "D", "description": "d", "color": "#abc", "pages": ["d"]}],
        },
    ]
    navbar = {
        "links": [
            {"label": "Support", "href": "mailto:help@example.com", "icon": "envelope"},
            {"type": "github", "href": "https://github.com/acme/acme"},
        ],
        "primary": {"type": "button", "label": "Sign up", "href": "https://example.com"},
    }
    footer = {
        "socials": {
            "x": "https://x.com/acme",
            "github": "https://github.com/acme",
            "hacker-news": "https://news",
        },
        "links": [{"header": "Company", "items": [{"label": "About", "href": "/about"}]}],
    }
    banner = {
        "content": "**New** [release](/changelog)",
        "dismissible": True,
        "type": "warning",
        "color": {"light": "#ff0000", "dark": "#00ff00"},
    }
    return {
        "$schema": "https://mintlify.com/docs.json",
        "theme": "willow",
        "variations": {"options": [{"id": "py", "label": "Python"}, {"id": "js", "label": "JavaScript"}]},
        "name": "Acme",
        "description": "Acme docs",
        "public": True,
        "colors": {"primary": "#0D9373", "light": "#07C983", "dark": "#0D9373"},
        "logo": {"light": "/logo/light.svg", "dark": "/logo/dark.svg", "href": "https://acme.com"},
        "favicon": {"light": "/favicon.png", "dark": "/favicon-dark.png"},
        "appearance": {"default": "dark", "strict": True},
        "background": {
            "decoration": "grid",
            "color": {"light": "#ffffff", "dark": "#000000"},
            "image": {"light": "/bg.png", "dark": "/bg-dark.png"},
        },
        "fonts": {
            "heading": {"family": "Inter", "weight": 550},
            "body": {"family": "Mine", "source": "/f.woff2", "format": "woff2"},
        },
        "icons": {"library": "lucide"},
        "styling": {
            "eyebrows": "breadcrumbs",
            "latex": True,
            "codeblocks": {
                "theme": {"light": "github-light", "dark": "github-dark"},
                "languages": {"custom": ["grammars/x.tmLanguage.json"]},
            },
        },
        "thumbnails": {"appearance": "dark", "background": "/thumb.png", "fonts": {"family": "Inter"}},
        "navbar": navbar,
        "footer": footer,
        "banner": banner,
        "navigation": {
            "global": {
                "tabs": [{"tab": "Status", "href": "https://status.acme.com"}],
                "anchors": [
                    {
                        "anchor": "Changelog",
                        "icon": "list",
                        "href": "/changelog",
                        "color": {"light": "#fff", "dark": "#000"},
                    }
                ],
                "dropdowns": [{"dropdown": "Blog", "href": "https://blog"}],
                "languages": [{"language": "de", "href": "https://de.acme.com"}],
                "versions": [{"version": "v0", "href": "https://v0.acme.com"}],
                "products": [{"product": "Other", "description": "x", "href": "https://other"}],
            },
            "products": [
                {
                    "product": "Core",
                    "description": "Core API",
                    "icon": "api",
                    "color": "#123456",
                    "languages": [
                        {
                            "language": "en",
                            "default": True,
                            "banner": banner,
                            "footer": footer,
                            "navbar": navbar,
                            "versions": [
                                {"version": "v2", "default": True, "tag": "Latest", "tabs": tabs},
                                {"version": "v1", "tag": "Deprecated", "groups": [group]},
                            ],
                        },
                        {"language": "zh-Hans", "pages": ["zh/index"]},
                    ],
                },
                {"product": "Mobile", "href": "https://mobile.acme.com"},
                {"product": "Menu product", "menu": menu},
            ],
        },
        "redirects": [{"source": "/old/:slug*", "destination": "/new/:slug*", "permanent": False}],
        "errors": {"404": {"redirect": False, "title": "Lost?", "description": "Try [home](/)."}},
        "contextual": {
            "options": [
                "copy",
                "view",
                "chatgpt",
                "windsurf",
                {
                    "title": "Ask",
                    "description": "Ask us",
                    "icon": "x",
                    "href": {"base": "https://ask", "query": [{"key": "q", "value": "$page"}]},
                },
            ],
            "display": "toc",
        },
        "api": {
            "openapi": ["openapi.json", "https://example.com/spec.yaml"],
            "asyncapi": "asyncapi.yaml",
            "playground": {"display": "auth", "proxy": False, "credentials": True},
            "params": {"expanded": "all", "post": ["format"]},
            "url": "full",
            "examples": {
                "languages": ["bash", "python"],
                "defaults": "required",
                "prefill": True,
                "autogenerate": False,
            },
            "mdx": {"auth": {"method": "key", "name": "X-API-Key"}, "server": ["https://api.acme.com"]},
        },
        "seo": {
            "indexing": "all",
            "metatags": {"og:site_name": "Acme"},
            "paths": [{"path": "/api", "metatags": {"robots": "noindex"}}],
            "organization": {
                "id": "#org",
                "name": "Acme",
                "legalName": "Acme Inc",
                "url": "https://acme.com",
                "logo": "https://acme.com/logo.png",
                "sameAs": ["https://x.com/acme"],
            },
            "trailingSlash": True,
        },
        "search": {"prompt": "Search Acme"},
        "feedback": {"thumbsRating": True, "suggestEdit": True, "raiseIssue": False},
        "integrations": {
            "ga4": {"measurementId": "G-XXXX"},
            "posthog": {"apiKey": "phc_x", "sessionRecording": True},
            "mixpanel": {"projectToken": "t", "region": "eu"},
            "telemetry": {"enabled": False},
            "cookies": {"key": "k", "value": "v"},
            "plausible": {"domain": "acme.com"},
        },
        "interaction": {"drilldown": True},
        "metadata": {"timestamp": True},
        "variables": {"product-name": "Acme", "version_2": "2.0"},
        "markdown": {"schema": False, "instructions": ["Be kind."]},
    }


def test_every_documented_field_is_accepted():
    assert errors(kitchen_sink()) == []
    assert jsonschema_rs.Draft202012Validator(SCHEMA).is_valid(kitchen_sink())


@pytest.mark.parametrize(
    "theme", ["mint", "maple", "palm", "willow", "linden", "almond", "aspen", "luma", "sequoia"]
)
def test_every_theme_name_is_accepted(theme):
    assert errors({**MINIMAL, "theme": theme}) == []


@pytest.mark.parametrize(
    "code",
    [
        "ja",
        "zh",
        "zh-CN",
        "zh-TW",
        "uk",
        "da",
        "fi",
        "ua",
        "jp",
        "cn",
        "pt-BR",
        "fr-ca",
        "ja-jp",
        "zh-Hans",
        "zh-Hant",
        "en",
    ],
)
def test_language_codes_real_sites_use_are_accepted(code):
    doc = {**MINIMAL, "navigation": {"languages": [{"language": code, "pages": ["index"]}]}}
    assert errors(doc) == []


def _set(path: str, value: object):
    """Return a patch setting a dotted path (numeric parts index lists) in a copy of MINIMAL."""

    def patch(doc: dict) -> None:
        parts = [int(p) if p.isdigit() else p for p in path.split(".")]
        node = doc
        for part in parts[:-1]:
            node = node[part]
        if value is _DELETE:
            del node[parts[-1]]
        else:
            node[parts[-1]] = value

    return patch


_DELETE = object()
NAV_TAB_NO_NAME = {"tabs": [{"groups": [{"group": "G", "pages": ["a"]}]}]}

# (case id, patch, expected JSON path of the best error, expected message fragment)
INVALID = [
    ("missing-name", _set("name", _DELETE), "$", "'name' is a required property"),
    ("missing-theme", _set("theme", _DELETE), "$", "'theme' is a required property"),
    ("missing-navigation", _set("navigation", _DELETE), "$", "'navigation' is a required property"),
    ("missing-primary", _set("colors", {"light": "#ffffff"}), "$.colors", "'primary' is a required property"),
    ("unknown-theme", _set("theme", "venus"), "$.theme", "'venus' is not one of"),
    ("bad-hex", _set("colors.primary", "green"), "$.colors.primary", "does not match"),
    ("top-level-typo", _set("navbarr", {}), "$", "('navbarr' was unexpected)"),
    (
        "tab-without-name",
        _set("navigation", NAV_TAB_NO_NAME),
        "$.navigation.tabs[0]",
        "'tab' is a required property",
    ),
    (
        "tab-field-typo",
        _set("navigation", {"tabs": [{"tab": "T", "gruops": []}]}),
        "$.navigation.tabs[0]",
        "('gruops' was unexpected)",
    ),
    (
        "group-without-pages",
        _set("navigation", {"groups": [{"group": "G"}]}),
        "$.navigation.groups[0]",
        "'pages' is a required property",
    ),
    (
        "nested-group-without-name",
        _set("navigation.groups.0.pages", ["a", {"pages": ["b"]}]),
        "$.navigation.groups[0].pages[1]",
        "'group' is a required property",
    ),
    (
        "page-not-a-string",
        _set("navigation.groups.0.pages", ["a", 42]),
        "$.navigation.groups[0].pages[1]",
        "42 is not of type 'string'",
    ),
    (
        "empty-page-path",
        _set("navigation.groups.0.pages", [""]),
        "$.navigation.groups[0].pages[0]",
        "should be non-empty",
    ),
    (
        "unknown-language",
        _set("navigation", {"languages": [{"language": "xx", "pages": ["a"]}]}),
        "$.navigation.languages[0].language",
        "'xx' is not one of",
    ),
    (
        "version-default-not-bool",
        _set("navigation", {"versions": [{"version": "v1", "default": "yes", "pages": ["a"]}]}),
        "$.navigation.versions[0].default",
        "'yes' is not of type 'boolean'",
    ),
    (
        "expanded-not-bool",
        _set("navigation.groups.0.expanded", "yes"),
        "$.navigation.groups[0].expanded",
        "'yes' is not of type 'boolean'",
    ),
    (
        "menu-item-without-name",
        _set("navigation", {"tabs": [{"tab": "T", "menu": [{"pages": ["a"]}]}]}),
        "$.navigation.tabs[0].menu[0]",
        "'item' is a required property",
    ),
    (
        "global-anchor-without-href",
        _set("navigation.global", {"anchors": [{"anchor": "A"}]}),
        "$.navigation.global.anchors[0]",
        "'href' is a required property",
    ),
    (
        "tab-align",
        _set("navigation", {"tabs": [{"tab": "T", "align": "middle", "pages": ["a"]}]}),
        "$.navigation.tabs[0].align",
        "'middle' is not one of",
    ),
    ("logo-object-half", _set("logo", {"light": "/l.svg"}), "$.logo", "'dark' is a required property"),
    ("logo-number", _set("logo", 3), "$.logo", "3 is not of type 'string', 'object'"),
    (
        "openapi-object-without-source",
        _set("api", {"openapi": {"directory": "x"}}),
        "$.api.openapi",
        "'source' is a required property",
    ),
    (
        "openapi-list-item",
        _set("api", {"openapi": ["a.json", 3]}),
        "$.api.openapi[1]",
        "3 is not of type 'string'",
    ),
    (
        "playground-display",
        _set("api", {"playground": {"display": "show"}}),
        "$.api.playground.display",
        "'show' is not one of",
    ),
    ("api-url", _set("api", {"url": "relative"}), "$.api.url", "'relative' is not one of ['full']"),
    (
        "mdx-auth-method",
        _set("api", {"mdx": {"auth": {"method": "oauth"}}}),
        "$.api.mdx.auth.method",
        "'oauth' is not one of",
    ),
    ("variations-need-willow", _set("variations", {"options": []}), "$.theme", "'willow' was expected"),
    (
        "contextual-unknown-option",
        _set("contextual", {"options": ["copy", "fax"]}),
        "$.contextual.options[1]",
        "'fax' is not one of",
    ),
    (
        "navbar-button-without-label",
        _set("navbar", {"primary": {"type": "button", "href": "/x"}}),
        "$.navbar.primary",
        "'label' is a required property",
    ),
    (
        "navbar-link-without-label",
        _set("navbar", {"links": [{"href": "/x"}]}),
        "$.navbar.links[0]",
        "'label' is a required property",
    ),
    (
        "footer-unknown-social",
        _set("footer", {"socials": {"myspace": "https://myspace.com"}}),
        "$.footer.socials",
        "'myspace' is not one of",
    ),
    ("footer-five-columns", _set("footer", {"links": [{"items": []}] * 5}), "$.footer.links", "is too long"),
    (
        "banner-without-content",
        _set("banner", {"dismissible": True}),
        "$.banner",
        "'content' is a required property",
    ),
    (
        "banner-type",
        _set("banner", {"content": "x", "type": "success"}),
        "$.banner.type",
        "'success' is not one of",
    ),
    (
        "redirect-without-destination",
        _set("redirects", [{"source": "/a"}]),
        "$.redirects[0]",
        "'destination' is a required property",
    ),
    ("eyebrows", _set("styling", {"eyebrows": "path"}), "$.styling.eyebrows", "'path' is not one of"),
    (
        "drilldown-not-bool",
        _set("interaction", {"drilldown": "yes"}),
        "$.interaction.drilldown",
        "'yes' is not of type 'boolean'",
    ),
    ("seo-indexing", _set("seo", {"indexing": "none"}), "$.seo.indexing", "'none' is not one of"),
    ("variable-name", _set("variables", {"bad name": "x"}), "$.variables", "does not match"),
    (
        "appearance-default",
        _set("appearance", {"default": "auto"}),
        "$.appearance.default",
        "'auto' is not one of",
    ),
]


@pytest.mark.parametrize(
    ("patch", "where", "fragment"), [c[1:] for c in INVALID], ids=[c[0] for c in INVALID]
)
def test_invalid_snippet_reports_located_error(patch, where, fragment):
    doc = copy.deepcopy(MINIMAL)
    patch(doc)
    found = errors(doc)
    assert found, "expected the snippet to be rejected"
    best = best_match(VALIDATOR.iter_errors(doc))
    assert (best.json_path, fragment in best.message) == (where, True), found
    # the fast validator agrees that the document is invalid
    assert not jsonschema_rs.Draft202012Validator(SCHEMA).is_valid(doc)


def _walk_properties(node: object, path: str, out: list[str]) -> None:
    """Collect the paths of property schemas that have no description."""
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            if isinstance(sub, dict) and not sub.get("description"):
                out.append(f"{path}.properties.{name}")
        for key, sub in node.items():
            _walk_properties(sub, f"{path}.{key}", out)
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            _walk_properties(sub, f"{path}[{i}]", out)


def test_every_property_has_a_description():
    missing: list[str] = []
    _walk_properties(SCHEMA, "#", missing)
    assert missing == []
    for name, sub in SCHEMA["$defs"].items():
        assert sub.get("description"), name
    text = SCHEMA_FILE.read_text(encoding="utf-8")
    assert "markdownDescription" not in text and "`" not in text  # plain English for every editor


def _flag(path: str) -> bool:
    from docsgen.config.honoured import IGNORED, classify

    status = classify(path)
    assert status is not None, path
    return status[0] == IGNORED


@pytest.mark.parametrize(
    "path",
    ["variations", "public", "#sdk"],
)
def test_fields_docsgen_does_not_act_on_are_marked_ignored(path):
    assert _flag(path)


@pytest.mark.parametrize(
    "path",
    [
        "appearance",
        "errors",
        "seo",
        "navigation",
        "api",
        "api.openapi",
        "colors",
        "banner",
        "background",
        "fonts",
        "contextual",
        "markdown",
        "integrations.ga4",
        "integrations.intercom",
        "integrations.cookies",
        "integrations.telemetry",
        "thumbnails",
        "styling.codeblocks",
        "styling.latex",
        "styling.codeblocks.languages.custom",
        "favicon.dark",
        "#asyncapiSource",
    ],
)
def test_fields_docsgen_uses_are_not_marked_ignored(path):
    assert not _flag(path)


def test_navigation_nodes_mark_unsupported_generators_ignored():
    for node in ("tab", "anchor", "dropdown", "product", "version", "language", "menuItem", "group"):
        assert _flag(f"#{node}.graphql") and not _flag(f"#{node}.public")  # the site gate honours it
        assert not _flag(f"#{node}.openapi") and not _flag(f"#{node}.asyncapi")
    assert "x-docsgen-ignored" not in SCHEMA_FILE.read_text(encoding="utf-8")  # one table, not two
