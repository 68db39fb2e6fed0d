"""The compact search input of generated API pages: headings with their ids and first-level fields only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from docsgen.openapi.render import ApiSettings, render_operation, render_schema_page, render_webhook
from docsgen.openapi.render.search_record import MAX_BRIEF
from docsgen.render import render_page, site_context
from docsgen.site.read import read_site
from tests.htmldom import parse

SPECS = Path(__file__).parents[1] / "openapi_render_specs"
MD = MarkdownIt("commonmark", {"html": False}).render


@pytest.fixture(scope="module")
def spec30() -> dict:
    return yaml.safe_load((SPECS / "features-3.0.yaml").read_text(encoding="utf-8"))


def headings(html: str) -> dict[str, str]:
    root = parse(html)
    return {
        h.attrs["id"]: " ".join(h.text.split())
        for h in root.iter()
        if h.tag in ("h2", "h3") and "id" in h.attrs
    }


def codes(html: str) -> list[str]:
    return [c.text for c in parse(html).find_all("code")]


def test_search_html_has_section_headings_with_the_pages_ids(spec30):
    page = render_operation(spec30, "get", "/pets/{petId}", settings=ApiSettings(), markdown=MD)
    found = headings(page.search_html)
    assert found == {
        "api-authorizations": "Authorizations",
        "api-path-parameters": "Path Parameters",
        "api-query-parameters": "Query Parameters",
        "api-header-parameters": "Header Parameters",
        "api-cookie-parameters": "Cookie Parameters",
        "api-response": "Response",
    }
    page_ids = {n.attrs["id"] for n in parse(page.html).iter() if "id" in n.attrs}
    assert set(found) <= page_ids  # search sub-results link to anchors that exist on the page
    assert "<script>" not in page.search_html and "<b>" not in page.search_html  # spec text stays escaped
    assert "&lt;b&gt;" in page.search_html


def test_search_html_names_the_operation_as_readers_type_it(spec30):
    page = render_operation(spec30, "get", "/pets/{petId}", settings=ApiSettings(), markdown=MD)
    paragraphs = [" ".join(p.text.split()) for p in parse(page.search_html).find_all("p")]
    assert paragraphs[0] == "GET /pets/{petId}"
    assert paragraphs[1].startswith("getPet getPet")  # the operationId, then its words
    weighted = {
        n.text: n.attrs["data-pagefind-weight"]
        for n in parse(page.search_html).iter()
        if "data-pagefind-weight" in n.attrs
    }
    assert weighted == {"GET": "7", "/pets/{petId}": "10"}  # a typed method and path find the page first
    text = parse(page.search_html).text
    # The description is the record's meta description (record_for): not repeated, and no later paragraph.
    assert "Returns one pet." not in text and "Second paragraph." not in text
    assert "The pet's <b>id</b>" in text  # a parameter's description (its first sentence), as text


def test_search_html_lists_parameters_and_first_level_names_of_successful_responses(spec30):
    page = render_operation(spec30, "get", "/pets/{petId}", settings=ApiSettings(), markdown=MD)
    names = codes(page.search_html)
    assert names == ["getPet", "Authorization", "petId", "fields", "X-Trace", "session"] + [
        "id",
        "name",
        "nickname",
        "kind",
        "owner",
        "tags",
        "attributes",
    ]
    assert "message" not in names  # the 404's error body: on every page of a spec, searched on none
    assert "email" not in names and "city" not in names and "label" not in names  # nested rows
    assert "password" not in names  # writeOnly: not in responses
    html = page.search_html
    assert "curl" not in html and "requests" not in html and "Rex" not in html  # no samples, no examples
    assert "Calls left" not in html and "A dog" not in html  # no response headers or examples
    assert "Show child attributes" not in html and "dg-api-field" not in html
    assert len(html) < len(page.html) / 8
    shapes = render_operation(spec30, "post", "/shapes", settings=ApiSettings(), markdown=MD)
    body = shapes.search_html.split('id="api-body">Body</h2>')[1].split("<h2")[0]
    assert codes(body) == ["shape", "radius", "side"]  # alternatives' first-level fields, once each


def test_first_level_names_of_a_shared_schema_are_the_same_on_every_page_that_uses_it():
    """The names are remembered per schema and direction: each page gets them all, in order, and its own list."""
    from docsgen.openapi.render.context import RenderContext
    from docsgen.openapi.render.params import top_fields
    from docsgen.openapi.render.schema_tree import TreeRenderer

    pet = {
        "type": "object",
        "properties": {"id": {"type": "integer"}, "secret": {"type": "string", "writeOnly": True}},
    }
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "components": {"schemas": {"Pet": pet}},
        "paths": {
            f"/{name}": {
                "post": {
                    "requestBody": {
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}
                    },
                    "responses": {
                        "200": {
                            "description": "OK",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}},
                        }
                    },
                }
            }
            for name in ("a", "b")
        },
    }
    pages = [
        render_operation(spec, "post", path, settings=ApiSettings(), markdown=MD) for path in ("/a", "/b")
    ]
    for page in pages:
        body = page.search_html.split('id="api-body">Body</h2>')[1].split("<h2")[0]
        assert codes(body) == ["id", "secret"]  # a request sends writeOnly fields
        response = page.search_html.split('id="api-response">Response</h2>')[1]
        assert codes(response) == ["id"]  # and a response never shows them
    ctx = RenderContext(spec, ApiSettings(), MD)
    first = top_fields(ctx, TreeRenderer(ctx, "response"), pet)
    first.append(("changed", ""))  # a caller's list is its own
    assert top_fields(ctx, TreeRenderer(ctx, "response"), pet) == [("id", "")]
    assert [n for n, _ in top_fields(ctx, TreeRenderer(ctx, "request"), pet)] == ["id", "secret"]


def test_parameter_descriptions_keep_their_first_sentence_only():
    long = "Word " * 60
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/items": {
                "get": {
                    "operationId": "items/list-for-org",
                    "tags": ["items", "orgs"],
                    "parameters": [
                        {
                            "name": "per_page",
                            "in": "query",
                            "description": "Results per page (max 100). See [paging](https://x.test/p).",
                        },
                        {"name": "q", "in": "query", "description": long},
                    ],
                    "responses": {
                        "200": {
                            "description": "OK",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "object",
                                        "properties": {"total_count": {"type": "integer"}},
                                    }
                                }
                            },
                        },
                        "default": {
                            "description": "Error",
                            "content": {
                                "application/json": {
                                    "schema": {"type": "object", "properties": {"errors": {"type": "array"}}}
                                }
                            },
                        },
                    },
                }
            }
        },
    }
    html = render_operation(spec, "get", "/items", settings=ApiSettings(), markdown=MD).search_html
    rows = {
        p.find("code").text: " ".join(p.text.split()) for p in parse(html).find_all("p") if p.find("code")
    }
    assert rows["per_page"] == "per_page Results per page (max 100)."
    assert len(rows["q"]) <= len("q ") + MAX_BRIEF and rows["q"].startswith("q Word Word")
    assert "paging" not in html and "x.test" not in html
    text = " ".join(parse(html).text.split())
    assert "items/list-for-org items list for org · items · orgs" in text
    assert codes(html)[-1] == "total_count"  # the successful response's names; not the default's
    assert "errors" not in codes(html)


def test_webhook_and_schema_pages_have_search_html():
    spec = json.loads((SPECS / "features-3.1.json").read_text(encoding="utf-8"))
    hook = render_webhook(spec, next(iter(spec["webhooks"])), settings=ApiSettings(), markdown=MD)
    assert headings(hook.search_html)["api-body"] == "Payload" and codes(hook.search_html)
    name = next(iter(spec["components"]["schemas"]))
    model = render_schema_page(spec, name, settings=ApiSettings(), markdown=MD)
    assert headings(model.search_html) == {"api-schema": name} and codes(model.search_html)


def test_generated_pages_carry_search_html_with_their_mdx(make_site):
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "summary": "Get A",
                    "x-svc": {"content": "Written **zebra** intro."},
                    "parameters": [{"name": "q", "in": "query", "description": "Query text"}],
                    "responses": {"200": {"description": "OK"}},
                }
            }
        },
    }
    docs = make_site(
        {
            "docs.json": json.dumps(
                {
                    "theme": "mint",
                    "name": "T",
                    "colors": {"primary": "#112233"},
                    "navigation": {"groups": [{"group": "API", "openapi": "openapi.json"}]},
                }
            ),
            "openapi.json": json.dumps(spec),
        }
    )
    site = read_site(docs)
    page = site.pages["api-reference/get-a"]
    content = render_page(site_context(site), page).content
    assert page.content is None  # the renderer does not change the page
    search = content.search_html
    assert "<strong>zebra</strong>" in search and "<code>q</code> Query text" in search
    assert headings(search) == {"api-query-parameters": "Query Parameters", "api-response": "Response"}
    assert "curl" not in search and "curl" in content.aside_html
