"""docs.json `appearance`, `seo`, `banner` and `errors.404` reach the renderer as typed views (docsgen.config.sections), read once."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.build import build
from docsgen.common.urls import content_hash
from docsgen.config import load_config
from docsgen.config.sections import (
    Appearance,
    Banner,
    Footer,
    FooterColumn,
    FooterLink,
    Navbar,
    NavbarLink,
    NotFoundPage,
    Search,
    Seo,
    SeoPathRule,
)
from tests.conftest import write_tree
from tests.htmldom import parse


def _config(tmp_path: Path, **sections: object):
    docs = {
        "theme": "mint",
        "name": "S",
        "colors": {"primary": "#112233"},
        "navigation": {"pages": ["index"]},
    }
    write_tree(tmp_path, {"docs.json": json.dumps({**docs, **sections}), "index.mdx": "# Home\n"})
    config, diagnostics = load_config(tmp_path)
    assert config is not None, diagnostics
    return config


def test_appearance_and_seo_are_typed_fields(tmp_path):
    config = _config(
        tmp_path,
        appearance={"default": "dark", "strict": True},
        seo={
            "indexing": "all",
            "metatags": {"canonical": "https://docs.example.com", "og:site_name": "S"},
            "paths": [{"path": "/guides/", "metatags": {"robots": "noindex", "rating": "general"}}],
        },
    )
    assert config.appearance == Appearance("dark", True)
    assert config.seo.index_all and config.seo.trailing_slash
    assert config.seo.metatags["canonical"] == "https://docs.example.com"
    assert config.seo.paths == (SeoPathRule("guides", {"robots": "noindex", "rating": "general"}),)
    assert config.seo.paths[0].applies_to("guides/setup") and not config.seo.paths[0].applies_to("guidesx")


def test_missing_sections_give_the_defaults(tmp_path):
    config = _config(tmp_path)
    assert config.appearance == Appearance("system", False)
    assert config.seo == Seo() and not config.seo.index_all and config.seo.organization is None


def test_shapes_the_renderer_cannot_use_are_left_out():
    seo = Seo.from_json(
        {
            "metatags": ["not", "a", "mapping"],
            "paths": [
                7,
                {"path": "a", "metatags": "x"},
                {"path": "b", "metatags": {"k": {"n": 1}, "n": 5, "ok": "y"}},
            ],
            "trailingSlash": False,
            "organization": {},
        }
    )
    assert seo.metatags == {} and seo.paths == (SeoPathRule("b", {"n": "5", "ok": "y"}),)
    assert not seo.trailing_slash and seo.organization is None
    assert Appearance.from_json({"default": 3, "strict": 1}) == Appearance("system", True)


def test_banner_and_the_404_page_are_typed_fields(tmp_path):
    banner = {"content": "New: [v2](/v2)", "type": "warning", "dismissible": True, "color": "#ff0000"}
    config = _config(tmp_path, banner=banner, errors={"404": {"redirect": False, "description": ""}})
    assert config.banner == Banner(
        "New: [v2](/v2)", "warning", True, "#ff0000", content_hash(json.dumps(banner, sort_keys=True))
    )
    assert config.not_found == NotFoundPage(redirect=False, title=None, description="")
    bare = _config(tmp_path)
    assert bare.banner is None and bare.not_found == NotFoundPage(True, None, None)
    assert Banner.from_json({"content": ""}) is None and Banner.from_json("news") is None


def test_the_banner_and_404_texts_reach_the_pages(tmp_path):
    """The page's language's own banner wins; the 404 page's empty description shows no text (absent: the
    interface's words), its title is the site's."""
    docs = {
        "theme": "mint",
        "name": "S",
        "colors": {"primary": "#112233"},
        "banner": {"content": "Site-wide news"},
        "errors": {"404": {"title": "Lost?", "description": ""}},
        "navigation": {
            "languages": [
                {"language": "en", "pages": ["index"]},
                {
                    "language": "fr",
                    "banner": {"content": "Nouvelles", "type": "warning"},
                    "pages": ["fr/index"],
                },
            ]
        },
    }
    files = {"docs.json": json.dumps(docs), "index.mdx": "# Home\n", "fr/index.mdx": "# Accueil\n"}
    write_tree(tmp_path / "docs", files)
    build(tmp_path / "docs", tmp_path / "out")
    en, fr = (parse((tmp_path / "out" / p).read_text()) for p in ("index.html", "fr/index.html"))
    assert en.find(id="banner").text.strip() == "Site-wide news"
    assert "dg-banner-info" in str(en.find(id="banner").attrs["class"])
    assert fr.find(id="banner").text.strip() == "Nouvelles"
    assert "dg-banner-warning" in str(fr.find(id="banner").attrs["class"])
    assert en.find(id="banner").attrs["data-key"] != fr.find(id="banner").attrs["data-key"]
    not_found = parse((tmp_path / "out" / "404.html").read_text())
    assert not_found.find("title").text.startswith("Lost?")
    assert not_found.find(id="banner") is None
    assert not_found.find(cls="dg-notfound-title").text == "Lost?"
    assert (
        not_found.find(id="content").text == ""
    )  # an empty description: no text (absent: the default words)


def test_the_footer_is_a_typed_field_and_a_language_may_have_its_own(tmp_path):
    columns = [{"header": f"C{i}", "items": [{"label": f"L{i}", "href": f"/p{i}"}]} for i in range(4)]
    socials = {"x": "https://x.com/a", "github": "https://github.com/a", "discord": "https://discord.gg/a"}
    config = _config(tmp_path, footer={"links": columns, "socials": socials})
    assert config.footer == Footer(
        tuple(FooterColumn(f"C{i}", (FooterLink(f"L{i}", f"/p{i}"),)) for i in range(4)),
        (("discord", socials["discord"]), ("github", socials["github"]), ("x", socials["x"])),
    )
    docs = {
        "theme": "mint",
        "name": "S",
        "colors": {"primary": "#112233"},
        "footer": {"links": columns, "socials": socials},
        "navigation": {
            "languages": [
                {"language": "en", "pages": ["index"]},
                {"language": "fr", "footer": {"socials": {"x": "https://x.com/fr"}}, "pages": ["fr/index"]},
            ]
        },
    }
    files = {"docs.json": json.dumps(docs), "index.mdx": "# Home\n", "fr/index.mdx": "# Accueil\n"}
    write_tree(tmp_path / "site", files)
    build(tmp_path / "site", tmp_path / "out")
    en, fr = (parse((tmp_path / "out" / p).read_text()) for p in ("index.html", "fr/index.html"))
    assert [h.text for h in en.find_all(cls="dg-footer-header")] == ["C0", "C1", "C2", "C3"]
    assert [a.text for a in en.find(cls="dg-footer-links").find_all("a")] == ["L0", "L1", "L2", "L3"]
    assert [a.attrs["aria-label"] for a in en.find(cls="dg-socials").find_all("a")] == [
        "discord",
        "github",
        "x",
    ]
    assert fr.find(cls="dg-footer-links") is None
    assert [a.attrs["href"] for a in fr.find(cls="dg-socials").find_all("a")] == ["https://x.com/fr"]


def test_the_navbar_is_a_typed_field(tmp_path):
    navbar = {
        "links": [
            {"type": "github", "href": "https://github.com/a"},
            {"label": "Blog", "href": "https://b.example"},
        ],
        "primary": {"type": "button", "label": "Sign up", "href": "https://example.com/signup"},
    }
    config = _config(tmp_path, navbar=navbar)
    github = {"name": "github", "style": "brands"}
    assert config.navbar == Navbar(
        (
            NavbarLink("GitHub", "https://github.com/a", github, None, "github"),
            NavbarLink("Blog", "https://b.example"),
        ),
        NavbarLink("Sign up", "https://example.com/signup"),
    )
    assert NavbarLink.from_json({"label": "Nowhere", "href": "  "}) is None
    assert Navbar.from_json({"links": "not a list"}) == Navbar() == _config(tmp_path).navbar


def test_the_search_prompt_is_a_typed_field_and_fills_the_search_field(tmp_path):
    out = tmp_path / "out"
    tmp_path = tmp_path / "docs"
    assert _config(tmp_path).search == Search(None) == Search.from_json({"prompt": ""})
    build(tmp_path, out / "default")
    assert _config(tmp_path, search={"prompt": "Ask the docs"}).search == Search("Ask the docs")
    build(tmp_path, out / "prompt")
    placeholders = [
        parse((out / name / "index.html").read_text()).find(id="search-input").attrs["placeholder"]
        for name in ("default", "prompt")
    ]
    assert placeholders == ["Search the docs...", "Ask the docs"]  # the interface's words, the site's
