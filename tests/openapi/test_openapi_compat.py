"""Specs real sites publish: OpenAPI 3.2, specs split over files, overlays; a spec problem never fails the site."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.build import build
from tests.htmldom import parse

BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}

SPEC_32 = """openapi: 3.2.0
info: {title: Pets, version: "1"}
tags:
  - {name: animals, summary: Animals}
  - {name: pets, parent: animals, kind: nav}
paths:
  /pets:
    get:
      tags: [pets]
      summary: List pets
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "schemas/pet.yaml#/Pet"}
    query:
      tags: [pets]
      summary: Search pets
      requestBody:
        content:
          application/json:
            schema: {$ref: "./schemas/pet.yaml#/Query"}
      responses:
        "200": {description: ok}
"""
PET = """Pet:
  type: object
  properties:
    name: {type: string, description: The pet name}
    owner: {$ref: "#/Owner"}
Owner:
  type: object
  properties:
    email: {type: string, description: Owner email address}
Query:
  type: object
  properties:
    species: {type: string, description: Species to find}
    secret: {$ref: "../../outside.yaml#/Secret"}
    remote: {$ref: "https://example.invalid/x.yaml#/X"}
"""
OVERLAY = """overlay: 1.0.0
info: {title: o, version: "1"}
actions:
  - target: $.paths['/pets'].get
    update: {description: Overlaid description of listing.}
  - target: $.paths.*.get.responses[?(@.description == 'ok')]
    update: {description: Filtered answer}
  - target: $..properties.name
    remove: true
  - target: $.paths[?(@.bad
    update: {}
"""


def _site(make_site, tmp_path: Path, version: str = "3.2.0") -> Path:
    (tmp_path / "outside.yaml").write_text("Secret: {type: string, description: OUTSIDE-MARKER}\n")
    nav = {
        "tabs": [
            {"tab": "Home", "pages": ["index"]},
            {"tab": "API", "openapi": {"source": "api.yaml", "overlays": ["overlay.yaml"]}},
        ]
    }
    return make_site(
        {
            "docs.json": json.dumps({**BASE, "navigation": nav}),
            "index.mdx": "# Home\n",
            "api.yaml": SPEC_32.replace("3.2.0", version),
            "schemas/pet.yaml": PET,
            "overlay.yaml": OVERLAY,
        }
    )


def test_openapi_32_split_spec_with_overlay_builds_every_page(make_site, tmp_path):
    out = tmp_path / "out"
    result = build(_site(make_site, tmp_path), out)
    assert not [d for d in result.diagnostics if d.is_error]
    problems = sorted((d.code, d.path, d.line) for d in result.diagnostics if d.code.startswith("openapi"))
    assert problems == [
        ("openapi.external-ref", "schemas/pet.yaml", 14),
        ("openapi.external-ref", "schemas/pet.yaml", 15),
        ("openapi.overlay", "overlay.yaml", 10),
    ]
    listing = (out / "api-reference/pets/list-pets/index.html").read_text()
    assert "Overlaid description of listing." in listing
    assert "The pet name" in listing  # bundled (overlays apply to the document as written: not removed)
    search = (out / "api-reference/pets/search-pets/index.html").read_text()
    assert "QUERY" in search and "Species to find" in search
    assert "Filtered answer" in listing and "Owner email address" in listing
    assert not any("OUTSIDE-MARKER" in p.read_text(errors="ignore") for p in out.rglob("*") if p.is_file())
    nav = parse(
        next((out / "_nav").glob("*.html")).read_text()
        + "".join(p.read_text() for p in (out / "_nav").glob("*.html"))
    )
    titles = [p.text.strip() for p in nav.find_all("p", cls="dg-nav-group-title")]
    assert "Animals" in titles and [s.text.strip() for s in nav.find_all("summary")] == ["pets"]


def test_unsupported_spec_version_is_a_located_warning_and_the_site_builds(make_site, tmp_path):
    out = tmp_path / "out"
    result = build(_site(make_site, tmp_path, version="4.0.0"), out)
    (problem,) = [d for d in result.diagnostics if d.code == "openapi.unsupported-version"]
    assert not problem.is_error and (problem.path, problem.line) == ("api.yaml", 1)
    assert (out / "index.html").is_file()
