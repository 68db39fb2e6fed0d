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
