"""OpenAPI features through `docsgen build`: enum descriptions and names, response links."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.build import build
from tests.htmldom import parse
from tests.nav.test_build_nav import sidebar

STATUS = {
    "type": "string",
    "enum": ["available", "sold", "pending"],
    "x-enumDescriptions": {"available": "Can be **adopted**", "sold": "Has a home <b>"},
    "x-enum-varnames": ["AVAILABLE", "SOLD", "PENDING"],
}
SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Pets", "version": "1"},
    "paths": {
        "/pets": {
            "post": {
                "operationId": "createPet",
                "summary": "Create a pet",
                "parameters": [{"name": "status", "in": "query", "schema": STATUS}],
                "responses": {
                    "201": {
                        "description": "Created",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                        "links": {
                            "GetPetById": {
                                "operationId": "getPet",
                                "parameters": {"petId": "$response.body#/id"},
                                "description": "The `id` returned can be used to fetch the pet.",
                            },
                            "Elsewhere": {"operationRef": "https://example.com/spec#/paths/~1x/get"},
                        },
                    }
                },
            }
        },
        "/pets/{petId}": {
            "get": {
                "operationId": "getPet",
                "summary": "Get a pet",
                "parameters": [
                    {"name": "petId", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "ok"}},
            }
        },
    },
}


def _build(make_site, tmp_path) -> Path:
    config = {
        "name": "T",
        "theme": "mint",
        "colors": {"primary": "#112233"},
        "navigation": {"groups": [{"group": "API", "openapi": "spec.json"}]},
    }
    docs = make_site({"docs.json": json.dumps(config), "spec.json": json.dumps(SPEC)})
    out = tmp_path / "o"
    result = build(docs, out)
    assert result.warnings == [], [d.format() for d in result.warnings]
    return out


def _page(out: Path, title: str) -> tuple[Path, object]:
    path = next(p for p in out.rglob("index.html") if f"<title>{title}" in p.read_text())
    return path, parse(path.read_text())


def test_enum_values_with_descriptions_and_names(make_site, tmp_path):
    out = _build(make_site, tmp_path)
    _, dom = _page(out, "Create a pet")
    enum = dom.find("div", cls="dg-api-enum")
    assert enum is not None
    rows = enum.find_all("li")
    assert [r.find("code").text for r in rows] == ["available", "sold", "pending"]
    assert [r.find("span", cls="dg-api-enum-name").text for r in rows] == ["AVAILABLE", "SOLD", "PENDING"]
    assert rows[0].find("strong").text == "adopted"  # descriptions are Markdown
    assert "Has a home <b>" in rows[1].text and rows[1].find("b") is None  # and escaped
    assert rows[2].find("div", cls="dg-api-enum-desc") is None
    twin = next(out.rglob("create-a-pet.md")).read_text()
    assert "`available` (AVAILABLE): Can be **adopted**" in twin


def test_response_links_point_at_the_target_operation_page(make_site, tmp_path):
    out = _build(make_site, tmp_path)
    path, dom = _page(out, "Create a pet")
    links = dom.find("ul", cls="dg-api-links")
    assert links is not None
    items = [li for li in links.children if getattr(li, "tag", "") == "li"]
    assert [li.find("span", cls="dg-api-link-name").text for li in items] == ["GetPetById", "Elsewhere"]
    anchor = items[0].find("a")
    target = (path.parent / anchor.attrs["href"]).resolve()
    target = target / "index.html" if target.is_dir() else target
    assert "<title>Get a pet" in target.read_text()  # the link leads to getPet's generated page
    assert "petId" in items[0].text and "$response.body#/id" in items[0].text
    assert "https://example.com/spec#/paths/~1x/get" in items[1].text


def test_x_group_names_the_tag_group_and_the_url_keeps_the_tag(make_site, tmp_path):
    spec = {
        **SPEC,
        "tags": [{"name": "pet-ops", "x-group": "Pet Operations"}, {"name": "plain"}],
        "paths": {
            "/pets": {
                "get": {
                    "tags": ["pet-ops"],
                    "summary": "List pets",
                    "responses": {"200": {"description": "ok"}},
                }
            },
            "/toys": {
                "get": {
                    "tags": ["plain"],
                    "summary": "List toys",
                    "responses": {"200": {"description": "ok"}},
                }
            },
        },
    }
    config = {
        "name": "T",
        "theme": "mint",
        "colors": {"primary": "#112233"},
        "navigation": {"tabs": [{"tab": "API", "openapi": "spec.json"}]},
    }
    docs = make_site({"docs.json": json.dumps(config), "spec.json": json.dumps(spec)})
    out = tmp_path / "o"
    build(docs, out)
    page = out / "api-reference" / "pet-ops" / "list-pets" / "index.html"
    assert page.exists()  # the URL uses the tag name
    side = sidebar(out, parse(page.read_text()))
    titles = [p.text.strip() for p in side.find_all("p", cls="dg-nav-group-title")]
    assert titles == ["Pet Operations", "plain"]


def test_x_mint_pre_and_post_pills_and_api_params_post(make_site, tmp_path):
    user = {
        "type": "object",
        "properties": {
            "email": {
                "type": "string",
                "nullable": True,
                "x-internal": "admin",
                "x-mint": {"pre": ["PII"], "post": ["indexed", "unique <i>"]},
            },
            "name": {"type": "string", "nullable": False},
        },
    }
    spec = {
        **SPEC,
        "paths": {
            "/users": {
                "post": {
                    "summary": "Create user",
                    "requestBody": {"content": {"application/json": {"schema": user}}},
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    config = {
        "name": "T",
        "theme": "mint",
        "colors": {"primary": "#112233"},
        "api": {"params": {"post": ["nullable", "x-internal"]}},
        "navigation": {"groups": [{"group": "API", "openapi": "spec.json"}]},
    }
    docs = make_site({"docs.json": json.dumps(config), "spec.json": json.dumps(spec)})
    out = tmp_path / "o"
    result = build(docs, out)
    assert result.warnings == [], [d.format() for d in result.warnings]
    _, dom = _page(out, "Create user")
    rows = {a.text: a.parent for a in dom.find_all("a", cls="dg-api-name")}
    email = [s.text for s in rows["email"].find_all("span", cls="dg-api-pill-custom")]
    assert email == ["PII", "nullable", "admin", "indexed", "unique <i>"]
    names = [c.attrs.get("class") for c in rows["email"].children if getattr(c, "tag", None)]
    assert names.index("dg-api-pill dg-api-pill-custom") < names.index("dg-api-name")  # pre pill first
    assert rows["name"].find("span", cls="dg-api-pill-custom") is None  # nullable: false shows nothing


def test_markdown_schema_false_leaves_the_reference_out_of_the_twin(make_site, tmp_path):
    twins = {}
    for flag in (True, False):
        config = {
            "name": "T",
            "theme": "mint",
            "colors": {"primary": "#112233"},
            "markdown": {"schema": flag},
            "navigation": {"groups": [{"group": "API", "openapi": "spec.json"}]},
        }
        docs = make_site({"docs.json": json.dumps(config), "spec.json": json.dumps(SPEC)}, name=f"d{flag}")
        out = tmp_path / f"o{flag}"
        result = build(docs, out)
        assert result.warnings == [], [d.format() for d in result.warnings]
        twins[flag] = next(out.rglob("create-a-pet.md")).read_text()
        html = next(p for p in out.rglob("index.html") if "<title>Create a pet" in p.read_text()).read_text()
        assert "GetPetById" in html  # the page itself is the same
    assert "GetPetById" in twins[True] and "available" in twins[True]
    assert "GetPetById" not in twins[False] and "available" not in twins[False]
    assert "Create a pet" in twins[False]


def test_multipart_encoding_is_listed(make_site, tmp_path):
    body = {
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "properties": {"photo": {"type": "string", "format": "binary"}, "meta": {"type": "object"}},
            },
            "encoding": {
                "photo": {
                    "contentType": "image/png, image/jpeg",
                    "headers": {
                        "X-Rate-Limit": {"description": "Calls <per> hour", "schema": {"type": "integer"}}
                    },
                },
                "meta": {"contentType": "application/json", "style": "form", "explode": True},
            },
        }
    }
    spec = {
        **SPEC,
        "paths": {
            "/up": {
                "post": {
                    "summary": "Upload",
                    "requestBody": {"content": body},
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    config = {
        "name": "T",
        "theme": "mint",
        "colors": {"primary": "#112233"},
        "navigation": {"groups": [{"group": "API", "openapi": "spec.json"}]},
    }
    docs = make_site({"docs.json": json.dumps(config), "spec.json": json.dumps(spec)})
    out = tmp_path / "o"
    build(docs, out)
    _, dom = _page(out, "Upload")
    items = dom.find("ul", cls="dg-api-encoding").find_all("li")
    assert (
        items[0].text == "photo: content type image/png, image/jpeg, header X-Rate-Limit (Calls <per> hour)"
    )
    assert items[1].text == "meta: content type application/json, style form, explode true"
    twin = next(out.rglob("upload.md")).read_text()
    assert "`photo`: content type `image/png, image/jpeg`" in twin


def test_info_and_tag_descriptions_become_overview_pages(make_site, tmp_path):
    spec = {
        **SPEC,
        "info": {
            "title": "Pet Store",
            "version": "2.1",
            "description": "Welcome to the **Pet Store** API. [Their guide](./guide/)",
        },
        "tags": [
            {"name": "pets", "description": "Everything about *pets*", "x-group": "Pets"},
            {"name": "toys"},
        ],
        "paths": {
            "/pets": {
                "get": {"tags": ["pets"], "summary": "List pets", "responses": {"200": {"description": "ok"}}}
            },
            "/toys": {
                "get": {"tags": ["toys"], "summary": "List toys", "responses": {"200": {"description": "ok"}}}
            },
        },
    }
    config = {
        "name": "T",
        "theme": "mint",
        "colors": {"primary": "#112233"},
        "navigation": {"tabs": [{"tab": "API", "openapi": "spec.json"}]},
    }
    docs = make_site({"docs.json": json.dumps(config), "spec.json": json.dumps(spec)})
    out = tmp_path / "o"
    result = build(docs, out)
    assert result.warnings == [], [d.format() for d in result.warnings]
    root = out / "api-reference" / "index.html"
    html = root.read_text()
    assert 'http-equiv="refresh"' not in html  # was a redirect to the first endpoint
    dom = parse(html)
    body = dom.find("div", cls="dg-api-overview")
    assert body.find("strong").text == "Pet Store"
    assert (
        "Their guide" in body.text and body.find("a", href="./guide/") is None
    )  # the vendor's relative link: text kept, unlinked
    assert [h.text for h in body.find_all("h2")] == ["Pets", "toys"]
    for anchor in body.find_all("a"):
        target = (root.parent / anchor.attrs["href"]).resolve()
        assert (target / "index.html" if target.is_dir() else target).is_file(), anchor.attrs["href"]
    tag = parse((out / "api-reference" / "pets" / "index.html").read_text())
    assert tag.find("div", cls="dg-api-overview").find("em").text == "pets"
    assert "List pets" in tag.find("ul", cls="dg-api-overview-list").text
    assert (
        'http-equiv="refresh"' in (out / "api-reference" / "toys" / "index.html").read_text()
    )  # no description
    assert "Welcome to the **Pet Store** API." in (out / "api-reference.md").read_text()  # its Markdown twin
