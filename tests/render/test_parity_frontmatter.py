"""Frontmatter parity: {{variables}} in titles, `related`, `hideApiMarker`, `groups`."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.build import build
from tests.htmldom import parse


def _site(make_site, pages: dict[str, str], nav: list, **extra) -> Path:
    config = {"name": "Acme", "theme": "mint", "colors": {"primary": "#0a7"}, "navigation": {"pages": nav}}
    return make_site({"docs.json": json.dumps({**config, **extra}), **pages})


def test_variables_fill_title_and_description(make_site, tmp_path):
    root = _site(
        make_site,
        {
            "index.mdx": "---\ntitle: Home {{product-name}}\ndescription: About {{product-name}} {{nope}}\n---\nHi\n",
        },
        ["index"],
        variables={"product-name": "Rocket"},
    )
    result = build(root, tmp_path / "out")
    doc = parse((tmp_path / "out" / "index.html").read_text(encoding="utf-8"))
    assert doc.find("title").text.startswith("Home Rocket")
    assert doc.find("h1").text.strip() == "Home Rocket"
    assert doc.find("meta", name="description").attrs["content"] == "About Rocket {{nope}}"
    unknown = [d for d in result.diagnostics if d.code == "page.unknown-variable"]
    assert len(unknown) == 1 and unknown[0].path == "index.mdx" and "nope" in unknown[0].message


def test_related_pages_listed_with_titles_and_missing_ones_warned(make_site, tmp_path):
    root = _site(
        make_site,
        {
            "index.mdx": "---\ntitle: Home\nrelated:\n  - /guide\n  - Spec: https://oauth.net/2/\n"
            "  - /missing\n  - javascript:alert(1)\n---\nHi\n",
            "guide.mdx": "---\ntitle: The guide\nrelated: false\n---\nG\n",
        },
        ["index", "guide"],
    )
    result = build(root, tmp_path / "out")
    doc = parse((tmp_path / "out" / "index.html").read_text(encoding="utf-8"))
    box = doc.find("nav", cls="dg-related")
    links = [(a.text, a.attrs["href"]) for a in box.find_all("a")]
    assert links == [("The guide", "guide/"), ("Spec", "https://oauth.net/2/")]
    warned = [d for d in result.diagnostics if d.code == "page.related"]
    assert len(warned) == 2 and all(d.path == "index.mdx" for d in warned)
    guide = parse((tmp_path / "out" / "guide" / "index.html").read_text(encoding="utf-8"))
    assert guide.find("nav", cls="dg-related") is None


def test_hide_api_marker_drops_the_method_badge_in_the_sidebar(make_site, tmp_path):
    spec = {
        "openapi": "3.0.0",
        "info": {"title": "A", "version": "1"},
        "paths": {"/a": {"get": {"summary": "Get A", "responses": {"200": {"description": "ok"}}}}},
    }
    root = _site(
        make_site,
        {
            "openapi.json": json.dumps(spec),
            "a.mdx": "---\ntitle: Get A\nopenapi: GET /a\nhideApiMarker: true\n---\n",
            "b.mdx": "---\ntitle: Get B\nopenapi: GET /a\n---\n",
        },
        ["a", "b"],
        api={"openapi": "openapi.json"},
    )
    build(root, tmp_path / "out")
    sidebars = list((tmp_path / "out").glob("_nav/*.html")) or list((tmp_path / "out").rglob("*nav*.html"))
    html = "".join(p.read_text(encoding="utf-8") for p in sidebars)
    nav = parse(html)
    a = nav.find("a", data_key="a")
    b = nav.find("a", data_key="b")
    assert a is not None and b is not None
    assert a.find("span", cls="dg-method") is None
    assert b.find("span", cls="dg-method") is not None


def test_group_restricted_page_is_built_but_listed_nowhere(make_site, tmp_path):
    root = _site(
        make_site,
        {
            "index.mdx": "---\ntitle: Home\n---\nHi\n",
            "secret.mdx": "---\ntitle: Secret\ngroups: [admin]\n---\nTop secret words\n",
        },
        ["index", "secret"],
    )
    result = build(root, tmp_path / "out", site_url="https://d.example")
    out = tmp_path / "out"
    page = parse((out / "secret" / "index.html").read_text(encoding="utf-8"))
    assert page.find("meta", name="robots").attrs["content"].startswith("noindex")
    sidebars = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*.html") if "secret" not in str(p))
    assert 'data-key="secret"' not in sidebars
    assert "secret" not in (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "Secret" not in (out / "llms.txt").read_text(encoding="utf-8")
    assert "Top secret" not in (out / "llms-full.txt").read_text(encoding="utf-8")
    notes = [d for d in result.diagnostics if d.code == "page.groups"]
    assert len(notes) == 1 and notes[0].path == "secret.mdx" and "admin" in notes[0].message
