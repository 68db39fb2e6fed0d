"""The compact search input of generated API pages: headings with their ids and first-level fields only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from docsgen.openapi.render import ApiSettings, render_operation, render_schema_page, render_webhook
from docsgen.render import render_page, site_context
from docsgen.site import read_site
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
        "response-200": "200",
        "response-404": "404",
    }
    page_ids = {n.attrs["id"] for n in parse(page.html).iter() if "id" in n.attrs}
    assert set(found) <= page_ids  # search sub-results link to anchors that exist on the page
    text = parse(page.search_html).text
    assert "Returns one pet." in text and "Second paragraph." in text and "The pet's <b>id</b>" in text
    assert "<script>" not in page.search_html  # spec text stays escaped


def test_search_html_lists_first_level_fields_only(spec30):
    page = render_operation(spec30, "get", "/pets/{petId}", settings=ApiSettings(), markdown=MD)
    names = codes(page.search_html)
    assert names == ["Authorization", "petId", "fields", "X-Trace", "session"] + [
        "id",
        "name",
        "nickname",
        "kind",
        "owner",
        "tags",
        "attributes",
        "message",
    ]
    assert "email" not in names and "city" not in names and "label" not in names  # nested rows
    assert "password" not in names  # writeOnly: not in responses
    html = page.search_html
    assert "curl" not in html and "requests" not in html and "Rex" not in html  # no samples, no examples
    assert "Show child attributes" not in html and "dg-api-field" not in html
    assert len(html) < len(page.html) / 4
    shapes = render_operation(spec30, "post", "/shapes", settings=ApiSettings(), markdown=MD)
    body = shapes.search_html.split('id="api-body">Body</h2>')[1].split("<h2")[0]
    assert codes(body) == ["shape", "radius", "side"]  # alternatives' first-level fields, once each


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
    assert "<strong>zebra</strong>" in search and "<code>q</code> <p>Query text</p>" in search
    assert headings(search) == {
        "api-query-parameters": "Query Parameters",
        "api-response": "Response",
        "response-200": "200",
    }
    assert "curl" not in search and "curl" in content.aside_html
