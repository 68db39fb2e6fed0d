"""OpenAPI page generation through `docsgen build`: every rule of spec section 2.5, checked in the emitted HTML."""

from __future__ import annotations

import functools
import json
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from docsgen.build import build
from docsgen.cli import main
from docsgen.common.errors import DocsgenError
from tests.conftest import FIXTURES
from tests.htmldom import parse
from tests.nav.test_build_nav import assert_links_resolve, sidebar

BASE = {"theme": "mint", "name": "API", "colors": {"primary": "#112233"}}


@pytest.fixture(scope="module")
def api_site(tmp_path_factory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("api") / "site"
    return out, build(FIXTURES / "api-site", out)


def read(out: Path, rel: str):
    return parse((out / rel / "index.html").read_text(encoding="utf-8"))


def test_openapi_tab_generates_one_page_per_operation_grouped_by_tag(api_site):
    out, result = api_site
    assert not result.warnings, [d.format() for d in result.warnings]
    generated = sorted(
        p.parent.relative_to(out / "api-reference").as_posix()
        for p in (out / "api-reference").rglob("index.html")
        if 'http-equiv="refresh"' not in p.read_text()
    )
    assert generated == [
        ".",  # the spec's overview: info and tags
        "get-inventory",
        "internal-metrics",  # x-hidden: built, out of the navigation
        "orders/list-orders",
        "orders/place-an-order",
        "pet-adopted",  # Mintlify: no tag, no tag folder (webhooks too)
        "pets",  # the tag's description and its operations
        "pets/create-a-pet",
        "pets/delete-a-pet",
        "pets/get-a-pet",
        "pets/list-pets",
    ]
    doc = read(out, "api-reference/pets/list-pets")
    side = sidebar(out, doc)
    assert [p.text.strip() for p in side.find_all("p", cls="dg-nav-group-title")] == ["pets", "Webhooks"]
    methods = [s.text for s in side.find_all("span", cls="dg-method")]
    assert methods == ["GET", "POST", "GET", "DEL", "HOOK"]
    assert assert_links_resolve(out) > 20


def test_x_hidden_operation_has_a_page_out_of_the_navigation(api_site):
    out, _ = api_site
    hidden = [p for p in out.rglob("index.html") if "<title>Internal metrics" in p.read_text()]
    assert len(hidden) == 1  # reachable by URL (Mintlify's x-hidden)
    dom = parse(hidden[0].read_text())
    assert dom.find("meta", name="robots").attrs["content"].startswith("noindex")
    side = sidebar(out, read(out, "api-reference/pets/list-pets"))
    assert "Internal metrics" not in side.text


def test_title_description_and_deprecated_defaults(api_site):
    out, _ = api_site
    doc = read(out, "api-reference/pets/list-pets")
    assert doc.find("h1").text.strip() == "List pets"
    assert doc.find("meta", name="description").attrs["content"] == "Returns all pets, newest first."
    deleted = read(out, "api-reference/pets/delete-a-pet")
    assert "Deprecated" in deleted.find("h1").text
    side = sidebar(out, deleted)
    assert "Deprecated" in side.find("a", data_key="api-reference/pets/delete-a-pet").text


def test_x_svc_metadata_and_content(api_site):
    out, _ = api_site
    doc = read(out, "api-reference/pets/create-a-pet")
    assert doc.find("h1").text.strip() == "Add a pet"
    prose = doc.find("div", cls="dg-prose")
    assert "Pets are created in the" in prose.text
    assert prose.text.index("Pets are created") < prose.text.index("Authorizations")


def test_full_base_url_and_playground_data(api_site):
    out, _ = api_site
    doc = read(out, "api-reference/pets/list-pets")
    assert "https://api.petstore.example/v1" in doc.find("div", cls="dg-prose").text
    data = json.loads(doc.find("script", id="dg-api").text)
    urls = [s["url"] for s in data["servers"]]
    assert urls == ["https://api.petstore.example/v1", "https://{region}.petstore.example/v1"]
    assert data["method"] == "GET" and data["path"] == "/pets"


def test_untrusted_descriptions_are_escaped(api_site):
    out, _ = api_site
    html = (out / "api/pet-model/index.html").read_text()
    # HTML in a description renders as MDX does, sanitised (docsgen.openapi.descriptions): never a script
    assert "<script>alert(1)</script>" not in html and "<script>alert" not in html


def test_frontmatter_openapi_webhook_and_schema_pages(api_site):
    out, _ = api_site
    find = read(out, "api/find-pet")
    assert find.find("h1").text.strip() == "Get a pet"
    hook = read(out, "api/adoption")
    assert hook.find("h1").text.strip() == "Adoption webhook"
    assert "We call your endpoint" in hook.find("div", cls="dg-prose").text
    model = read(out, "api/pet-model")
    assert model.find("h1").text.strip() == "Pet"
    prose = model.find("div", cls="dg-prose")
    ids = [n.attrs["id"] for n in prose.iter() if n.attrs.get("id") and n is not prose]
    assert ids == [
        "api-schema",
        "id",
        "name",
        "tag",
        "owner",
        "owner.name",
        "owner.pets",
    ]  # nested anchors: parent.child


def test_specs_in_the_docs_folder_are_downloadable(api_site):
    out, _ = api_site
    assert (out / "petstore.yaml").read_bytes() == (FIXTURES / "api-site/petstore.yaml").read_bytes()
    assert (out / "store.json").is_file()


def test_unknown_operation_is_a_located_error_with_suggestions(make_site, tmp_path):
    spec = (FIXTURES / "api-site/store.json").read_text()
    docs = {
        **BASE,
        "navigation": {"groups": [{"group": "API", "openapi": "store.json", "pages": ["GET /order"]}]},
    }
    site = make_site({"docs.json": json.dumps(docs, indent=2), "store.json": spec})
    result = CliRunner().invoke(main, ["build", str(site), "-o", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert (
        "docs.json:13:11: error: operation 'GET /order' is not in store.json (at navigation.groups[0].pages[0])"
        in result.output
    )
    assert "did you mean: GET /orders" in result.output
    assert not (tmp_path / "o").exists()


def test_missing_spec_and_swagger_are_clear_errors(make_site, tmp_path):
    docs = {
        **BASE,
        "navigation": {"tabs": [{"tab": "A", "openapi": "nope.json"}, {"tab": "B", "openapi": "old.json"}]},
    }
    site = make_site(
        {
            "docs.json": json.dumps(docs, indent=2),
            "old.json": json.dumps({"swagger": "2.0", "info": {}, "paths": {}}),
        }
    )
    # a spec's problems concern its pages only: located warnings, the rest built; --strict fails
    result = build(site, tmp_path / "o")
    messages = " | ".join(d.format() for d in result.diagnostics if d.code.startswith("openapi"))
    assert "nope.json" in messages and "2.0" in messages and "error" not in messages
    with pytest.raises(DocsgenError) as exc:
        build(site, tmp_path / "strict", strict=True)
    assert "2.0" in " | ".join(d.format() for d in exc.value.diagnostics)


@pytest.fixture
def spec_server():
    folder = FIXTURES / "api-site"

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_spec_by_url(make_site, tmp_path, spec_server):
    docs = {**BASE, "navigation": {"groups": [{"group": "Store", "openapi": f"{spec_server}/store.json"}]}}
    site = make_site({"docs.json": json.dumps(docs, indent=2)})
    result = build(site, tmp_path / "o")
    assert result.pages == 4  # home, two operations, the spec's overview (api-reference/)
    assert (tmp_path / "o/api-reference/get-inventory/index.html").is_file()
    docs["navigation"]["groups"][0]["openapi"] = f"{spec_server}/missing.json"
    (site / "docs.json").write_text(json.dumps(docs, indent=2))
    # A spec that cannot be fetched (and was never fetched before): a located warning, its pages left out ...
    result = build(site, tmp_path / "o2")
    (problem,) = [d for d in result.warnings if d.code == "openapi.http-status"]
    assert "404" in problem.message and (problem.path, problem.line) == ("docs.json", 9)
    assert problem.json_path == "navigation.groups[0]"
    assert (tmp_path / "o2/index.html").is_file() or result.pages == 0
    # ... and an error under --strict.
    with pytest.raises(DocsgenError) as exc:
        build(site, tmp_path / "o3", strict=True)
    assert any("404" in d.message for d in exc.value.diagnostics)


def test_directory_and_x_mint_alias(make_site, tmp_path):
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "summary": "Alpha",
                    "x-mint": {"href": "/custom/alpha"},
                    "responses": {"200": {"description": "ok"}},
                }
            },
            "/b": {
                "get": {"summary": "Beta", "x-excluded": True, "responses": {"200": {"description": "ok"}}}
            },
            "/c": {"get": {"summary": "Gamma", "responses": {"200": {"description": "ok"}}}},
        },
    }
    docs = {
        **BASE,
        "navigation": {
            "groups": [{"group": "API", "openapi": {"source": "spec.json", "directory": "reference/v1"}}]
        },
    }
    site = make_site({"docs.json": json.dumps(docs), "spec.json": json.dumps(spec)})
    build(site, tmp_path / "o")
    assert (tmp_path / "o/custom/alpha/index.html").is_file()
    assert (tmp_path / "o/reference/v1/gamma/index.html").is_file()
    assert not list((tmp_path / "o").rglob("beta"))
