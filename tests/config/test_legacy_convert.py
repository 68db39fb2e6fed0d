"""mint.json -> docs.json conversion: the Mintlify upgrade semantics, a warning per key left behind, schema-valid output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from docsgen.common.errors import Severity
from docsgen.config.legacy import convert_mint_config, convert_mint_json

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "schemas" / "docs.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)

BASE = {
    "name": "Acme",
    "colors": {"primary": "#0D9373"},
    "navigation": [
        {"group": "Start", "pages": ["introduction", "quickstart"]},
        {
            "group": "API",
            "pages": ["api/overview", "api/users", {"group": "Admin", "pages": ["api/admin/keys"]}],
        },
        {"group": "Mixed", "pages": ["guides/one", "api/mixed"]},
    ],
}


def convert(**changes) -> tuple[dict, list]:
    data = {**json.loads(json.dumps(BASE)), **changes}
    out, diags = convert_mint_json(data)
    assert [e.message for e in VALIDATOR.iter_errors(out)] == [], json.dumps(out, indent=1)
    return out, diags


def codes(diags) -> list[str]:
    return [d.code for d in diags]


def named(diags, key: str) -> list:
    return [d for d in diags if f"'{key}'" in d.message]


def test_groups_only_become_navigation_groups():
    out, diags = convert()
    assert out["theme"] == "mint"
    assert out["name"] == "Acme"
    assert out["colors"] == {"primary": "#0D9373"}
    assert out["navigation"] == {
        "groups": [
            {"group": "Start", "pages": ["introduction", "quickstart"]},
            {
                "group": "API",
                "pages": ["api/overview", "api/users", {"group": "Admin", "pages": ["api/admin/keys"]}],
            },
            {"group": "Mixed", "pages": ["guides/one", "api/mixed"]},
        ]
    }
    assert diags == []


def test_tabs_take_the_pages_under_their_url_and_the_rest_go_to_the_primary_tab():
    out, _ = convert(tabs=[{"name": "API reference", "url": "api"}])
    tabs = out["navigation"]["tabs"]
    assert [t["tab"] for t in tabs] == ["Documentation", "API reference"]
    assert tabs[0]["groups"] == [
        {"group": "Start", "pages": ["introduction", "quickstart"]},
        {"group": "Mixed", "pages": ["guides/one"]},
    ]
    # page by page: a group spread over two tabs appears in both with its own pages
    assert tabs[1]["groups"] == [
        {
            "group": "API",
            "pages": ["api/overview", "api/users", {"group": "Admin", "pages": ["api/admin/keys"]}],
        },
        {"group": "Mixed", "pages": ["api/mixed"]},
    ]


def test_primary_tab_name_and_longest_url_prefix_win():
    out, _ = convert(
        primaryTab={"name": "Guides"},
        tabs=[{"name": "API", "url": "/api/"}, {"name": "Admin", "url": "api/admin"}],
    )
    tabs = out["navigation"]["tabs"]
    assert [t["tab"] for t in tabs] == ["Guides", "API", "Admin"]
    assert tabs[2]["groups"] == [{"group": "API", "pages": [{"group": "Admin", "pages": ["api/admin/keys"]}]}]
    assert "api/admin/keys" not in json.dumps(tabs[1])


def test_external_and_hidden_tabs():
    out, _ = convert(
        tabs=[
            {"name": "Blog", "url": "https://acme.example.com/blog"},
            {"name": "API", "url": "api", "isDefaultHidden": True},
        ]
    )
    tabs = out["navigation"]["tabs"]
    assert tabs[1] == {"tab": "Blog", "href": "https://acme.example.com/blog"}
    assert tabs[2]["tab"] == "API" and tabs[2]["hidden"] is True


def test_external_anchors_become_global_anchors_and_folder_anchors_split_the_sidebar():
    out, _ = convert(
        topAnchor={"name": "Guides", "icon": "book"},
        anchors=[
            {"name": "Community", "icon": "discord", "url": "https://discord.gg/acme"},
            {"name": "API", "icon": "code", "url": "api", "color": {"from": "#112233", "to": "#445566"}},
        ],
    )
    nav = out["navigation"]
    assert nav["global"] == {
        "anchors": [{"anchor": "Community", "icon": "discord", "href": "https://discord.gg/acme"}]
    }
    assert [a["anchor"] for a in nav["anchors"]] == ["Guides", "API"]
    assert nav["anchors"][0]["icon"] == "book"
    assert nav["anchors"][1]["color"] == {"light": "#112233", "dark": "#445566"}
    assert nav["anchors"][1]["groups"][0]["group"] == "API"
    assert nav["anchors"][0]["groups"][1] == {"group": "Mixed", "pages": ["guides/one"]}


def test_only_external_anchors_leave_plain_groups():
    out, _ = convert(
        anchors=[{"name": "Status", "url": "https://status.acme.example.com", "color": "#ff0000"}]
    )
    assert "groups" in out["navigation"]
    assert out["navigation"]["global"]["anchors"][0]["color"] == {"light": "#ff0000", "dark": "#ff0000"}


def test_tabs_with_anchors_nest_anchors_inside_the_tab_that_holds_their_pages():
    out, _ = convert(tabs=[{"name": "API", "url": "api"}], anchors=[{"name": "Admin", "url": "api/admin"}])
    tabs = out["navigation"]["tabs"]
    assert "groups" in tabs[0]  # the Documentation tab has no anchor pages: plain groups
    assert [a["anchor"] for a in tabs[1]["anchors"]] == ["Documentation", "Admin"]
    assert tabs[1]["anchors"][1]["groups"] == [
        {"group": "API", "pages": [{"group": "Admin", "pages": ["api/admin/keys"]}]}
    ]


def test_section_matching_no_page_is_dropped_with_a_warning():
    out, diags = convert(tabs=[{"name": "SDKs", "url": "sdks"}])
    assert "tabs" not in out["navigation"] or all(t["tab"] != "SDKs" for t in out["navigation"]["tabs"])
    assert any("'sdks' matches no page" in d.message for d in diags)


def test_versions_filter_groups_by_their_version():
    nav = [
        {"group": "Start", "pages": ["introduction"]},
        {"group": "V2 API", "version": "v2", "pages": ["v2/api"]},
        {
            "group": "V1 API",
            "version": "v1",
            "pages": ["v1/api", {"group": "Old", "version": "v2", "pages": ["x"]}],
        },
    ]
    out, _ = convert(versions=["v2", "v1"], navigation=nav)
    versions = out["navigation"]["versions"]
    assert [v["version"] for v in versions] == ["v2", "v1"]
    assert [g["group"] for g in versions[0]["groups"]] == ["Start", "V2 API"]
    assert versions[1]["groups"][1] == {"group": "V1 API", "pages": ["v1/api"]}


def test_version_fields_without_versions_warn():
    _, diags = convert(navigation=[{"group": "A", "version": "v1", "pages": ["a"]}])
    assert "legacy.version" in codes(diags)


def test_topbar_becomes_navbar():
    out, diags = convert(
        topbarLinks=[
            {"name": "Support", "url": "mailto:help@acme.example.com"},
            {"type": "github", "url": "https://github.com/acme/acme"},
            {"url": "https://nameless.example.com"},
        ],
        topbarCtaButton={"type": "github", "url": "https://github.com/acme/acme", "arrow": True},
    )
    assert out["navbar"] == {
        "links": [
            {"label": "Support", "href": "mailto:help@acme.example.com"},
            {"type": "github", "href": "https://github.com/acme/acme"},
        ],
        "primary": {"type": "github", "href": "https://github.com/acme/acme"},
    }
    assert any("without a 'name'" in d.message for d in diags)
    assert named(diags, "topbarCtaButton.arrow")


def test_cta_button_becomes_primary_button():
    out, _ = convert(topbarCtaButton={"name": "Sign up", "url": "https://acme.example.com/signup"})
    assert out["navbar"]["primary"] == {
        "type": "button",
        "label": "Sign up",
        "href": "https://acme.example.com/signup",
    }


@pytest.mark.parametrize(
    "socials",
    [
        {
            "x": "https://x.com/acme",
            "github": "https://github.com/acme",
            "myspace": "https://myspace.com/acme",
        },
        [
            {"type": "x", "url": "https://x.com/acme"},
            {"type": "github", "url": "https://github.com/acme"},
            {"type": "myspace", "url": "https://myspace.com/acme"},
        ],
    ],
    ids=["object", "array"],
)
def test_footer_socials_object_or_array(socials):
    out, diags = convert(footerSocials=socials)
    assert out["footer"] == {"socials": {"x": "https://x.com/acme", "github": "https://github.com/acme"}}
    assert named(diags, "myspace")


def test_footer_link_columns():
    footer = {
        "links": [{"title": "Company", "links": [{"label": "About", "url": "https://acme.example.com"}]}]
    }
    out, _ = convert(footer=footer)
    assert out["footer"]["links"] == [
        {"header": "Company", "items": [{"label": "About", "href": "https://acme.example.com"}]}
    ]


@pytest.mark.parametrize("links", [None, "About", 5])
def test_footer_column_whose_links_are_not_an_array_warns(links):
    out, diags = convert(
        footer={"links": [{"title": "Company", "links": links}, {"title": "More", "links": []}]}
    )
    assert out["footer"]["links"] == [{"header": "Company", "items": []}, {"header": "More", "items": []}]
    assert [(d.code, d.json_path) for d in diags if d.code == "legacy.footer"] == [
        ("legacy.footer", "footer.links[0].links")
    ]


def test_api_settings():
    out, diags = convert(
        openapi=["openapi.json", "https://acme.example.com/spec.yaml"],
        api={
            "baseUrl": ["https://api.acme.example.com", "https://sandbox.acme.example.com"],
            "auth": {"method": "key", "name": "X-API-Key", "inputPrefix": "Key"},
            "playground": {"mode": "hide", "disableProxy": True},
            "request": {"example": {"languages": ["bash", "python"]}},
            "paramFields": {"expanded": "topLevel"},
        },
    )
    assert out["api"] == {
        "openapi": ["openapi.json", "https://acme.example.com/spec.yaml"],
        "mdx": {
            "server": ["https://api.acme.example.com", "https://sandbox.acme.example.com"],
            "auth": {"method": "key", "name": "X-API-Key"},
        },
        "playground": {"display": "none", "proxy": False},
        "examples": {"languages": ["bash", "python"]},
        "params": {"expanded": "closed"},
    }
    assert named(diags, "api.auth.inputPrefix")


@pytest.mark.parametrize(
    ("mode", "display"), [("show", "interactive"), ("simple", "simple"), ("hide", "none")]
)
def test_playground_modes(mode, display):
    out, _ = convert(api={"playground": {"mode": mode}})
    assert out["api"]["playground"]["display"] == display


def test_appearance_background_fonts_and_styling():
    out, _ = convert(
        modeToggle={"default": "dark", "isHidden": True},
        backgroundImage="/images/bg.png",
        background={"style": "grid"},
        colors={"primary": "#0D9373", "background": {"light": "#ffffff", "dark": "#0f1117"}},
        font={
            "headings": {"family": "Inter", "weight": 600},
            "body": {"family": "Mine", "url": "/f.woff2", "format": "woff2"},
        },
        codeBlock={"mode": "dark"},
    )
    assert out["appearance"] == {"default": "dark", "strict": True}
    assert out["background"] == {
        "color": {"light": "#ffffff", "dark": "#0f1117"},
        "image": "/images/bg.png",
        "decoration": "grid",
    }
    assert out["fonts"] == {
        "heading": {"family": "Inter", "weight": 600},
        "body": {"family": "Mine", "source": "/f.woff2", "format": "woff2"},
    }
    assert out["styling"] == {"codeblocks": "dark"}


def test_seo_metadata_search_feedback_redirects():
    out, diags = convert(
        seo={"indexHiddenPages": True},
        metadata={"og:image": "https://acme.example.com/og.png", "robots-count": 3},
        search={"prompt": "Search Acme"},
        feedback={"thumbsRating": True, "raiseIssue": False, "ratings": True},
        redirects=[{"source": "/old", "destination": "/new"}, {"source": "/broken"}],
    )
    assert out["seo"] == {
        "indexing": "all",
        "metatags": {"og:image": "https://acme.example.com/og.png", "robots-count": "3"},
    }
    assert out["search"] == {"prompt": "Search Acme"}
    assert out["feedback"] == {"thumbsRating": True, "raiseIssue": False}
    assert out["redirects"] == [{"source": "/old", "destination": "/new"}]
    assert named(diags, "feedback.ratings")
    assert "legacy.redirect" in codes(diags)


def test_analytics_and_integrations_become_integrations():
    out, diags = convert(
        analytics={
            "ga4": {"measurementId": "G-1"},
            "posthog": {"apiKey": "phc_1", "apiHost": "https://ph"},
            "foo": {},
        },
        integrations={"intercom": "abc123", "frontchat": "def456"},
    )
    assert out["integrations"] == {
        "ga4": {"measurementId": "G-1"},
        "posthog": {"apiKey": "phc_1", "apiHost": "https://ph"},
        "intercom": {"appId": "abc123"},
        "frontchat": {"snippetId": "def456"},
    }
    assert named(diags, "analytics.foo")


def test_logo_favicon_and_legacy_theme():
    out, diags = convert(logo={"light": "/logo.svg"}, favicon="/favicon.png", theme="prism")
    assert out["logo"] == {"light": "/logo.svg", "dark": "/logo.svg"}
    assert out["favicon"] == "/favicon.png"
    assert out["theme"] == "mint"
    assert any("theme 'prism'" in d.message for d in diags)


def test_every_unknown_or_unsupported_key_is_named_in_a_warning():
    out, diags = convert(
        layout="sidenav", rounded="sharp", isWhiteLabeled=True, mysteryKey=1, sidebar={"items": "card"}
    )
    for key in ("layout", "rounded", "isWhiteLabeled", "mysteryKey", "sidebar"):
        found = named(diags, key)
        assert found and found[0].severity is Severity.WARNING and found[0].json_path == key
        assert key not in out


def test_bad_colours_fall_back_with_warnings():
    out, diags = convert(colors={"primary": "green", "light": "#12345", "dark": "#123456"})
    assert out["colors"] == {"primary": "#16A34A", "dark": "#123456"}
    assert [d.json_path for d in diags if d.code == "legacy.color"] == [
        "colors.primary",
        "colors.light",
        "colors",
    ]


def test_missing_name_and_stray_pages_are_repaired_with_warnings():
    out, diags = convert(name=None, navigation=["index", {"group": "A", "pages": ["a", 3]}])
    assert out["name"] == "Documentation"
    assert out["navigation"]["groups"] == [
        {"group": "Pages", "pages": ["index"]},
        {"group": "A", "pages": ["a"]},
    ]
    assert {"legacy.name", "legacy.nav-page", "legacy.page"} <= set(codes(diags))


def test_missing_navigation_is_an_error():
    out, diags = convert_mint_json({"name": "Acme", "colors": {"primary": "#000000"}})
    assert [d for d in diags if d.is_error][0].code == "legacy.navigation"
    assert out["navigation"] == {"groups": []}


def test_not_an_object_is_an_error():
    out, diags = convert_mint_json([])  # type: ignore[arg-type]
    assert out == {} and diags[0].is_error


def test_origins_map_converted_paths_back_to_mint_json():
    data = {**BASE, "tabs": [{"name": "API", "url": "api"}]}
    result = convert_mint_config(data)
    assert result.origins[("navigation", "tabs", 1)] == ("mint.json", ("tabs", 0))
    assert result.origins[("navigation", "tabs", 1, "groups", 1, "pages", 0)] == (
        "mint.json",
        ("navigation", 2, "pages", 1),
    )
    assert result.origins[("navigation", "tabs", 0, "groups", 1)] == ("mint.json", ("navigation", 2))
