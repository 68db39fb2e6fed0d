"""Navigation parity: navigation.global tabs/dropdowns/languages/versions/products, `directory` listings on group
root pages, navbar github/discord links and icons, tab-menu item icons, anchor `color`, `banner.color`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docsgen.build import build
from docsgen.render.site_nav import color_style
from tests.htmldom import parse
from tests.readers_sites import axe_source, serve

SPEC = {
    "openapi": "3.0.0",
    "info": {"title": "A", "version": "1"},
    "paths": {"/a": {"get": {"summary": "Get A", "responses": {"200": {"description": "ok"}}}}},
}
PAGES = ["index", "g/index", "g/a", "g/b", "g/c", "h/index", "h/a", "api"]


def _config(**extra) -> dict:
    return {
        "name": "S",
        "theme": "mint",
        "colors": {"primary": "#0a7"},
        "navbar": {
            "links": [
                {"label": "Blog", "href": "https://b.example", "icon": "book"},
                {"type": "github", "href": "https://github.com/x/y"},
                {"type": "discord", "href": "https://discord.gg/x"},
            ],
            "primary": {"type": "github", "href": "https://github.com/x/y"},
        },
        "banner": {"content": "Hi", "color": {"light": "#123456", "dark": "#654321"}},
        "navigation": {
            "global": {
                "tabs": [{"tab": "Blog", "href": "https://blog.example", "icon": "pen"}],
                "anchors": [
                    {"anchor": "Forum", "href": "https://f.example", "icon": "comments", "color": "#ff0000"}
                ],
                "versions": [{"version": "v1 (legacy)", "href": "https://v1.example"}],
                "languages": [{"language": "fr", "href": "https://fr.example"}],
                "products": [{"product": "Other", "href": "https://o.example", "description": "Another one"}],
                "dropdowns": [
                    {"dropdown": "Ext", "href": "https://e.example"},
                    {"dropdown": "Gone", "href": "/x", "hidden": True},
                ],
            },
            "tabs": [
                {
                    "tab": "Guides",
                    "directory": "accordion",
                    "menu": [
                        {"item": "One", "icon": "rocket", "pages": ["index", "api"]},
                        {
                            "item": "Two",
                            "icon": "book",
                            "groups": [
                                {
                                    "group": "G",
                                    "root": "g/index",
                                    "directory": "card",
                                    "pages": ["g/a", "g/b", {"group": "Sub", "pages": ["g/c"]}],
                                },
                                {
                                    "group": "H",
                                    "root": "h/index",
                                    "pages": ["h/a", {"group": "Deep", "pages": ["g/c"]}],
                                },
                            ],
                        },
                    ],
                }
            ],
        },
        **extra,
    }


def _build(make_site, tmp_path: Path, config: dict) -> Path:
    files = {f"{p}.mdx": f"---\ntitle: T {p}\ndescription: D {p}\n---\nbody {p}\n" for p in PAGES}
    files["openapi.json"] = json.dumps(SPEC)
    root = make_site({"docs.json": json.dumps(config), **files})
    build(root, tmp_path / "out")
    return tmp_path / "out"


def _doc(out: Path, rel: str):
    return parse((out / rel).read_text(encoding="utf-8"))


def test_global_navigation_entries_appear_on_every_page(make_site, tmp_path):
    out = _build(make_site, tmp_path, _config())
    for rel in ("index.html", "g/a/index.html"):
        doc = _doc(out, rel)
        tabs = doc.find("nav", cls="dg-tabs")
        blog = tabs.find("a", href="https://blog.example")
        assert blog is not None and blog.find("svg") is not None and "Blog" in blog.text
        header = doc.find("header", cls="dg-header")
        version = header.find("details", cls="dg-switch-version")
        assert version.find("a", href="https://v1.example").text == "v1 (legacy)"
        language = header.find("details", cls="dg-switch-language")
        french = language.find("a", href="https://fr.example")
        assert french.text == "Français" and french.attrs["hreflang"] == "fr"
        sidebar = doc.find("aside", cls="dg-sidebar")
        product = sidebar.find("details", cls="dg-switch-product").find("a", href="https://o.example")
        assert "Another one" in product.text
        dropdown = sidebar.find("details", cls="dg-switch-dropdown")
        assert dropdown.find("a", href="https://e.example") is not None
        assert "Gone" not in dropdown.text  # hidden


def test_a_language_own_global_replaces_navigation_global(make_site, tmp_path):
    config = _config()
    nav = config["navigation"]
    config["navigation"] = {
        "global": nav["global"],
        "languages": [
            {"language": "en", "pages": ["index"]},
            {
                "language": "de",
                "global": {"tabs": [{"tab": "Blogde", "href": "https://blog.de"}]},
                "pages": ["g/a"],
            },
        ],
    }
    out = _build(make_site, tmp_path, config)
    assert _doc(out, "index.html").find("a", href="https://blog.example") is not None
    german = _doc(out, "g/a/index.html")
    assert german.find("a", href="https://blog.de") is not None
    assert german.find("a", href="https://blog.example") is None


def test_navbar_kinds_icons_and_menu_item_icons(make_site, tmp_path):
    out = _build(make_site, tmp_path, _config())
    doc = _doc(out, "index.html")
    navbar = doc.find("nav", cls="dg-navbar")
    github = navbar.find("a", cls="dg-navbar-github")
    assert github.text.strip() == "GitHub" and "github" in github.find("svg").attrs["data-icon"]
    discord = navbar.find("a", cls="dg-navbar-discord")
    assert discord.text.strip() == "Discord" and "discord" in discord.find("svg").attrs["data-icon"]
    assert "book" in navbar.find("a", href="https://b.example").find("svg").attrs["data-icon"]
    primary = navbar.find("a", cls="dg-navbar-primary")
    assert primary.text.strip() == "GitHub" and primary.find("svg") is not None
    menu = doc.find("details", cls="dg-switch-menu")
    icons = [a.find("svg").attrs["data-icon"] for a in menu.find("ul").find_all("a")]
    assert icons == ["fontawesome:solid:rocket", "fontawesome:solid:book"]


def test_anchor_and_banner_colours(make_site, tmp_path):
    config = _config()
    config["navigation"]["anchors"] = [
        {
            "anchor": "Docs",
            "icon": "book",
            "color": {"light": "#00aa00", "dark": "#003300"},
            "pages": ["index"],
        },
        {"anchor": "Plain", "icon": "book", "pages": ["g/a"]},
    ]
    del config["navigation"]["tabs"]
    out = _build(make_site, tmp_path, config)
    doc = _doc(out, "index.html")
    anchors = doc.find("ul", cls="dg-anchors")
    forum = anchors.find("a", href="https://f.example")
    assert forum.attrs["style"] == "--dg-anchor-color: #ff0000; --dg-anchor-color-dark: #ff0000"
    docs = next(a for a in anchors.find_all("a") if "Docs" in a.text)
    assert docs.attrs["style"] == "--dg-anchor-color: #00aa00; --dg-anchor-color-dark: #003300"
    plain = next(a for a in anchors.find_all("a") if "Plain" in a.text)
    assert "style" not in plain.attrs
    banner = doc.find("div", cls="dg-banner")
    assert banner.attrs["style"] == "--dg-banner-bg: #123456; --dg-banner-bg-dark: #654321"


def test_directory_listings_on_group_root_pages(make_site, tmp_path):
    out = _build(make_site, tmp_path, _config())
    cards = _doc(out, "g/index.html").find("nav", cls="dg-directory")
    assert "dg-directory-card" in cards.attrs["class"]
    listed = [(a.find("strong").text, a.attrs["href"]) for a in cards.find_all("a", cls="dg-directory-card")]
    assert listed == [("T g/a", "../g/a/"), ("T g/b", "../g/b/"), ("Sub", "../g/c/")]
    assert "D g/a" in cards.text
    accordion = _doc(out, "h/index.html").find("nav", cls="dg-directory")  # inherited from the tab
    assert "dg-directory-accordion" in accordion.attrs["class"]
    assert accordion.find("a", href="../h/a/").text == "T h/a"
    deep = accordion.find("details", cls="dg-directory-group")
    assert deep.find("summary").text == "Deep" and deep.find("a", href="../g/c/") is not None
    assert _doc(out, "g/a/index.html").find("nav", cls="dg-directory") is None  # not a root page


def test_directory_none_overrides_and_is_not_an_openapi_folder(make_site, tmp_path):
    config = _config()
    groups = config["navigation"]["tabs"][0]["menu"][1]["groups"]
    groups[1]["directory"] = "none"
    config["navigation"]["tabs"].append({"tab": "API", "openapi": "openapi.json", "directory": "accordion"})
    out = _build(make_site, tmp_path, config)
    assert _doc(out, "h/index.html").find("nav", cls="dg-directory") is None
    assert not (out / "accordion").exists()  # a listing layout, not the folder of the generated API pages
    assert (out / "api-reference" / "get-a" / "index.html").is_file()


def test_colour_values_that_are_not_colours_never_reach_the_style_attribute():
    assert color_style("red;}body{display:none", "x") == ""
    assert color_style({"light": "url(javascript:1)"}, "x") == ""
    assert color_style({"dark": "#abc"}, "x") == ' style="--x: #abc; --x-dark: #abc"'


@pytest.mark.browser
def test_banner_colour_follows_the_theme_in_a_browser(browser, make_site, tmp_path):
    out = _build(make_site, tmp_path, _config())
    server, url = serve(out)
    try:
        page = browser.new_page()
        page.goto(url)
        background = "getComputedStyle(document.querySelector('.dg-banner')).backgroundColor"
        assert page.evaluate(background) == "rgb(18, 52, 86)"
        page.click(".dg-theme-toggle")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert page.evaluate(background) == "rgb(101, 67, 33)"
        page.close()
    finally:
        server.shutdown()


_AXE = """() => axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")}`))"""


@pytest.mark.browser
def test_new_navigation_parts_pass_axe_in_both_modes(browser, make_site, tmp_path):
    config = _config(contextual={"options": ["copy", "mcp", "download-pdf"], "display": "toc"})
    files = {f"{p}.mdx": f"---\ntitle: T {p}\ndescription: D {p}\n---\n## A\n\nbody {p}\n" for p in PAGES}
    files["g/index.mdx"] = "---\ntitle: G\nrelated: [/g/a, /h/a]\n---\n## A\n\nText\n"
    files["openapi.json"] = json.dumps(SPEC)
    root = make_site({"docs.json": json.dumps(config), **files})
    build(root, tmp_path / "out")
    server, url = serve(tmp_path / "out")
    problems = []
    try:
        page = browser.new_page()
        for path in ("g/", "h/"):
            page.goto(url + path)
            for mode in ("light", "dark"):
                if page.evaluate("document.documentElement.dataset.theme") != mode:
                    page.click(".dg-theme-toggle")
                page.add_script_tag(content=axe_source())
                problems += [f"{path} {mode}: {v}" for v in page.evaluate(_AXE)]
        page.close()
    finally:
        server.shutdown()
    assert problems == []
