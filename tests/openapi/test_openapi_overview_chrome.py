"""Generated overview pages (the spec's info, each tag) get the chrome of their section like every page."""

from __future__ import annotations

import json

from docsgen.build import build
from tests.htmldom import parse

SPEC = """openapi: 3.1.0
info: {title: Pets, version: "1", description: The pets API intro.}
tags:
  - {name: pets, description: All about pets.}
paths:
  /pets:
    get:
      tags: [pets]
      summary: List pets
      responses: {"200": {description: ok}}
"""


def test_overview_pages_get_the_language_global_anchors_and_their_tab(make_site, tmp_path):
    language = {
        "language": "en",
        "global": {"anchors": [{"anchor": "Forum EN", "href": "https://forum.example/en"}]},
        "tabs": [{"tab": "Home", "pages": ["index"]}, {"tab": "API", "openapi": "api.yaml"}],
    }
    other = {"language": "fr", "tabs": [{"tab": "Accueil", "pages": ["fr/index"]}]}
    docs = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}
    site = make_site(
        {
            "docs.json": json.dumps({**docs, "navigation": {"languages": [language, other]}}),
            "index.mdx": "# Home\n",
            "fr/index.mdx": "# Accueil\n",
            "api.yaml": SPEC,
        }
    )
    out = tmp_path / "out"
    build(site, out)
    for rel in ("api-reference/pets/list-pets", "api-reference", "api-reference/pets"):
        doc = parse((out / rel / "index.html").read_text())
        anchors = [a.text.strip() for a in doc.find("ul", cls="dg-anchors").find_all("a")]
        assert anchors == ["Forum EN"], rel
        current = [
            a.text.strip() for a in doc.find("nav", cls="dg-tabs").find_all("a") if "aria-current" in a.attrs
        ]
        assert current == ["API"], rel


def test_a_spec_shown_by_two_languages_in_their_own_folders_gets_pages_and_sections_in_each(
    make_site, tmp_path
):
    """Each language's `directory` holds its own copy of the reference: endpoint pages, overview pages in that
    language's API tab, and description links to the copy of the same folder (the second language got none of its
    own endpoint pages, and its overview pages no section)."""
    spec = SPEC.replace("All about pets.", '"All about pets: see [the list](#operation/listPets)."').replace(
        "summary: List pets", "summary: List pets\n      operationId: listPets"
    )

    site = _two_language_site(make_site, spec, ("en", "Home", "API"), ("fr", "Accueil", "API FR"))
    out = tmp_path / "out"
    build(site, out)
    for code, tab in (("en", "API"), ("fr", "API FR")):
        for rel in (f"{code}/api/pets/list-pets", f"{code}/api", f"{code}/api/pets"):
            doc = parse((out / rel / "index.html").read_text())
            links = doc.find("nav", cls="dg-tabs").find_all("a")
            assert [a.text.strip() for a in links if "aria-current" in a.attrs] == [tab], rel
            assert doc.find("html").attrs.get("lang") == code, rel
        tag_page = parse((out / code / "api" / "pets" / "index.html").read_text())
        hrefs = [a.attrs.get("href") for a in tag_page.find("div", cls="dg-api-overview").find_all("a")]
        want = f"../../../{code}/api/pets/list-pets/"  # the copy of the same folder
        assert hrefs == [want, want], (code, hrefs)  # the description's link and the listing's


def test_the_overview_page_says_version_in_its_language(make_site, tmp_path):
    """The spec's overview page labels info.version with the page language's word (page and Markdown twin)."""
    site = _two_language_site(make_site, SPEC, ("en", "Home", "API"), ("pl", "Start", "API"))
    out = tmp_path / "out"
    build(site, out)
    labels = {}
    for code in ("en", "pl"):
        doc = parse((out / code / "api" / "index.html").read_text())
        labels[code] = doc.find("p", cls="dg-api-version").text.strip()
        assert f"{labels[code].split()[0]}: `1`" in (out / code / "api.md").read_text()
    assert labels == {"en": "Version 1", "pl": "Wersja 1"}


def _two_language_site(make_site, spec: str, *languages: tuple[str, str, str]):
    """A site whose languages (code, home tab, API tab) each show the spec in their own `<code>/api` folder."""
    nav = {
        "languages": [
            {
                "language": code,
                "tabs": [
                    {"tab": home, "pages": [f"{code}/index"]},
                    {"tab": tab, "openapi": {"source": "api.yaml", "directory": f"{code}/api"}},
                ],
            }
            for code, home, tab in languages
        ]
    }
    files = {f"{code}/index.mdx": f"# {home}\n" for code, home, _ in languages}
    docs = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}, "navigation": nav}
    return make_site({"docs.json": json.dumps(docs), **files, "api.yaml": spec})
