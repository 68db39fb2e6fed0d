"""API reference HTML: anchors, schema trees, alternatives, auth, parameters, bodies, responses, pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from docsgen.openapi.render import (
    ApiSettings,
    RenderedApi,
    render_operation,
    render_schema_page,
    render_webhook,
)
from tests.htmldom import Node, parse

SPECS = Path(__file__).parents[1] / "openapi_render_specs"
MD = MarkdownIt("commonmark", {"html": False}).render  # raw HTML in descriptions is escaped, as in the build


def load(name: str) -> dict:
    text = (SPECS / name).read_text(encoding="utf-8")
    return yaml.safe_load(text) if name.endswith(".yaml") else json.loads(text)


@pytest.fixture(scope="module")
def spec30() -> dict:
    return load("features-3.0.yaml")


@pytest.fixture(scope="module")
def spec31() -> dict:
    return load("features-3.1.json")


def op(data: dict, method: str, path: str, **settings) -> RenderedApi:
    return render_operation(data, method, path, settings=ApiSettings(**settings), markdown=MD)


def ids_of(root: Node) -> list[str]:
    return [n.attrs["id"] for n in root.iter() if n.attrs.get("id") is not None]


def field_ids(html: str) -> set[str]:
    return {n.attrs["id"] for n in parse(html).find_all(cls="dg-api-field")}


def assert_anchors_sound(html: str) -> None:
    """Ids are valid (non-empty, no whitespace) and unique; every in-page link has a target."""
    root = parse(html)
    ids = ids_of(root)
    assert all(i and not re.search(r"\s", i) for i in ids), ids
    dupes = {i for i in ids if ids.count(i) > 1}
    assert not dupes, dupes
    for a in root.find_all("a"):
        href = a.attrs.get("href") or ""
        if href.startswith("#"):
            assert href[1:] in ids, href


# -- anchors ---------------------------------------------------------------------------------------------
def test_nested_anchors_present_unique_and_linked(spec30):
    page = op(spec30, "put", "/pets/{petId}")
    assert_anchors_sound(page.html)
    ids = field_ids(page.html)
    # parameters by name, nested body properties by their parent path (spec section 2.4)
    assert {"petId", "X-Trace", "name", "owner", "owner.email", "owner.address", "owner.address.city"} <= ids
    assert {"tags.label", "attributes.additionalProperties"} <= ids
    # the response tree has its own prefix so it never collides with the body
    assert {"response-200.name", "response-200.owner.email"} <= ids


def test_every_page_of_the_fixture_specs_has_sound_anchors(spec30, spec31):
    for data in (spec30, spec31):
        for path, item in data["paths"].items():
            for method in item:
                if method in ("get", "put", "post", "delete", "patch"):
                    assert_anchors_sound(op(data, method, path).html)


def test_name_clash_between_parameter_and_body_gets_a_distinct_anchor():
    data = {
        "openapi": "3.0.0",
        "paths": {
            "/a/{id}": {
                "post": {
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                        {"name": "id", "in": "header", "schema": {"type": "string"}},
                    ],
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": {"properties": {"id": {"type": "string"}}}}
                        }
                    },
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    page = op(data, "post", "/a/{id}")
    assert_anchors_sound(page.html)
    assert {"id", "header.id", "body.id"} <= field_ids(page.html)


# -- readOnly / writeOnly -----------------------------------------------------------------------------------
def test_read_only_hidden_in_requests_and_write_only_hidden_in_responses(spec30):
    page = op(spec30, "put", "/pets/{petId}")
    ids = field_ids(page.html)
    assert "password" in ids and "id" not in ids  # request body: writeOnly shown, readOnly hidden
    assert "response-200.id" in ids and "response-200.password" not in ids
    sample = page.playground["body"]["contents"][0]["example"]
    assert "id" not in sample and "password" in sample


# -- alternatives -----------------------------------------------------------------------------------------
def alt_titles(html: str) -> list[list[str]]:
    return [
        [
            a.attrs["data-title"]
            for a in box.children
            if isinstance(a, Node) and "dg-api-alt" in a.attrs.get("class", "").split()
        ]
        for box in parse(html).find_all(cls="dg-api-alts")
        if box.attrs.get("data-kind") in ("oneOf", "anyOf")
    ]


def test_discriminator_with_explicit_mapping_labels_alternatives_by_mapping_key(spec30):
    page = op(spec30, "post", "/shapes")
    titles = alt_titles(page.html)
    assert ["round", "boxy"] in titles
    assert "by <code>shape</code>" in page.html
    # the generated example is the first alternative, tagged with its discriminator value
    assert page.playground["body"]["contents"][0]["example"] == {"shape": "round", "radius": 1.0}
    ids = field_ids(page.html)
    # both alternatives define `shape`: each gets its own anchor segment
    assert {"round.shape", "round.radius", "boxy.shape", "boxy.side"} <= ids
    assert_anchors_sound(page.html)


def test_discriminator_without_mapping_uses_schema_names(spec30):
    page = op(spec30, "post", "/shapes")
    assert ["Car", "Bike"] in alt_titles(page.html)


def test_any_of_titles_and_null_members(spec31):
    page = op(spec31, "post", "/items")
    assert ["Text", "Structured"] in alt_titles(page.html)
    types = {
        f.attrs["id"]: f.find(cls="dg-api-type").text for f in parse(page.html).find_all(cls="dg-api-field")
    }
    assert types["note"] == "string | null"  # anyOf [string, null]
    assert types["price"] == "number | null"  # 3.1 type array
    assert types["file"] == "file"  # contentMediaType
    assert "Allowed value: <code>&quot;item&quot;</code>" in page.html  # const
    assert "&quot;widget&quot;" in page.html and "&quot;gadget&quot;" in page.html  # 3.1 examples


def test_all_of_is_merged(spec30):
    ids = field_ids(op(spec30, "put", "/pets/{petId}").html)
    assert {"owner.email", "owner.address", "owner.since"} <= ids


def test_nullable_30(spec30):
    root = parse(op(spec30, "put", "/pets/{petId}").html)
    nick = root.find(id="nickname")
    assert nick.find(cls="dg-api-type").text == "string | null"


# -- recursion and size ---------------------------------------------------------------------------------------
def test_circular_schema_is_a_label_not_an_infinite_tree(spec30):
    page = op(spec30, "get", "/tree")
    ids = field_ids(page.html)
    assert {"response-200.value", "response-200.children", "response-200.parent"} <= ids
    assert "Recursive: Node" in page.html
    example = json.loads(parse(page.aside_html).find(cls="dg-api-panel", data_label="200").find("code").text)
    assert example == {"value": "<string>", "children": [], "parent": {}}
    assert len(page.html) < 20_000
    example = json.dumps(page.playground)
    assert len(example) < 10_000


def test_highly_connected_schemas_stay_bounded():
    # 40 schemas, each referencing the next 6 (a dense DAG like GitHub's): the full tree would be astronomical.
    schemas = {
        f"S{i}": {
            "type": "object",
            "properties": {
                **{f"f{j}": {"$ref": f"#/components/schemas/S{j}"} for j in range(i + 1, min(i + 7, 40))},
                "name": {"type": "string", "description": f"field of S{i}"},
            },
        }
        for i in range(40)
    }
    data = {
        "openapi": "3.0.0",
        "paths": {
            "/x": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}},
                        }
                    }
                }
            }
        },
        "components": {"schemas": schemas},
    }
    page = op(data, "get", "/x")
    assert_anchors_sound(page.html)
    assert page.html.count('class="dg-api-field"') <= 1200
    assert len(page.html) < 1_500_000
    assert "nested fields not shown" in page.html


# -- escaping ----------------------------------------------------------------------------------------------
def test_untrusted_text_is_escaped(spec30):
    page = op(spec30, "get", "/pets/{petId}")
    assert "<script>" not in page.html + page.aside_html
    assert "&lt;script&gt;" in page.html
    assert "<b>" not in page.html
    hostile = {
        "openapi": "3.0.0",
        "paths": {
            "/h": {
                "post": {
                    "summary": "<img src=x onerror=alert(1)>",
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "properties": {
                                        '"><script>x()</script>': {"type": "string", "enum": ["<script>"]},
                                        "ok": {
                                            "type": "string",
                                            "default": "</code><script>",
                                            "pattern": "<b>",
                                        },
                                    }
                                }
                            }
                        }
                    },
                    "x-codeSamples": [
                        {"lang": "<script>", "source": "</code></pre><script>alert(1)</script>"}
                    ],
                    "responses": {"200": {"description": "<script>alert(2)</script>"}},
                }
            }
        },
    }
    page = op(hostile, "post", "/h")
    combined = page.html + page.aside_html
    assert "<script" not in combined and "<img" not in combined and "<b>" not in combined
    assert_anchors_sound(page.html)


# -- parameters ---------------------------------------------------------------------------------------------
def test_parameters_grouped_with_type_constraints_and_flags(spec30):
    page = op(spec30, "get", "/pets/{petId}")
    headings = [h.text for h in parse(page.html).find_all("h2")]
    assert headings == [
        "Authorizations",
        "Path Parameters",
        "Query Parameters",
        "Header Parameters",
        "Cookie Parameters",
        "Response",
    ]
    root = parse(page.html)
    pet = root.find(id="petId")
    assert pet.find(cls="dg-api-type").text == "integer<int64>"
    assert pet.find(cls="dg-api-required") is not None
    assert "1 &lt;= x &lt;= 1000000" in page.html and "Example: <code>42</code>" in page.html
    fields = root.find(id="fields")
    assert fields.find(cls="dg-api-deprecated") is not None
    assert "Items must be unique" in page.html
    assert "Pattern: <code>^[a-f0-9]{16}$</code>" in page.html
    assert "Required string length: <code>8 - 64</code>" in page.html
    assert [t.title for t in page.toc][:5] == [
        "Authorizations",
        "Path Parameters",
        "Query Parameters",
        "Header Parameters",
        "Cookie Parameters",
    ]


def test_operation_parameters_override_path_item_parameters():
    data = {
        "openapi": "3.0.0",
        "paths": {
            "/p": {
                "parameters": [
                    {"name": "q", "in": "query", "description": "from path", "schema": {"type": "string"}}
                ],
                "get": {
                    "parameters": [
                        {"name": "q", "in": "query", "description": "from op", "schema": {"type": "integer"}},
                        {"name": "Accept", "in": "header", "schema": {"type": "string"}},
                    ],
                    "responses": {"200": {"description": "ok"}},
                },
            }
        },
    }
    page = op(data, "get", "/p")
    assert "from op" in page.html and "from path" not in page.html
    assert [p["schema"]["type"] for p in page.playground["parameters"]] == ["integer"]  # Accept is ignored


# -- security ----------------------------------------------------------------------------------------------
def test_security_inherited_overridden_and_disabled(spec30):
    get = op(spec30, "get", "/pets/{petId}")
    assert "Bearer authentication header" in get.html and parse(get.html).find(id="Authorization")
    put = op(spec30, "put", "/pets/{petId}")
    assert [
        a.attrs["data-title"]
        for a in parse(put.html).find_all(cls="dg-api-alt")
        if a.parent.attrs.get("data-kind") == "security"
    ] == ["apiKey", "basicAuth"]
    delete = op(spec30, "delete", "/pets")
    assert "Authorizations" not in delete.html
    assert delete.playground["security"]["requirements"] == []
    assert "Authorization" not in delete.aside_html


# -- bodies ------------------------------------------------------------------------------------------------
def test_multipart_binary_and_form_bodies(spec30):
    post = op(spec30, "post", "/pets")
    root = parse(post.html)
    assert root.find(id="photo").find(cls="dg-api-type").text == "file"
    assert "multipart/form-data" in post.html
    assert "--form 'photo=@example-file'" in parse(post.aside_html).text
    assert post.playground["body"]["contents"][0]["kind"] == "multipart"
    upload = op(spec30, "post", "/uploads")
    assert "--data-binary @example-file" in parse(upload.aside_html).text
    assert upload.playground["body"]["contents"][0]["schema"]["binary"] is True
    put = op(spec30, "put", "/pets/{petId}")
    kinds = [c["kind"] for c in put.playground["body"]["contents"]]
    assert kinds == ["json", "form"]
    assert "application/x-www-form-urlencoded" in put.html
    assert "body.application-x-www-form-urlencoded.name" in field_ids(put.html)


# -- responses ---------------------------------------------------------------------------------------------
def test_responses_with_headers_refs_and_named_examples(spec30):
    page = op(spec30, "get", "/pets/{petId}")
    ids = field_ids(page.html)
    assert "response-200.headers.X-Rate-Limit" in ids
    assert "response-404.message" in ids  # components/responses $ref
    labels = [p.attrs["data-label"] for p in parse(page.aside_html).find_all(cls="dg-api-panel")]
    assert "200 · A dog" in labels and "200 · A cat" in labels
    assert [t.id for t in page.toc if t.level == 3] == ["response-200", "response-404"]
    assert page.playground["responses"][0] == {
        "status": "200",
        "description": "The pet",
        "contentTypes": ["application/json"],
    }


def test_generated_response_example_respects_write_only(spec30):
    page = op(spec30, "put", "/pets/{petId}")
    panel = parse(page.aside_html).find(cls="dg-api-panel", data_label="200")
    example = json.loads(panel.find("code").text)
    assert example["id"] == 123 and "password" not in example
    assert example["owner"]["email"] == "user@example.com"


# -- samples -----------------------------------------------------------------------------------------------
ALL_LANGUAGES = (
    "curl", "py", "js", "node", "php", "golang", "java", "rb", "powershell", "swift",
    "c#", "dotnet", "ts", "c", "cpp", "kt", "rs", "dart",
)  # fmt: skip


def samples(page: RenderedApi) -> list[tuple[str, str, str]]:
    root = parse(page.aside_html)
    card = root.find(cls="dg-api-card", data_tabs="lang")
    return [
        (p.attrs["data-key"], p.attrs["data-label"], p.find("code").text)
        for p in card.find_all(cls="dg-api-panel")
    ]


def test_samples_in_every_language_carry_method_url_auth_and_body(spec30):
    page = op(spec30, "put", "/pets/{petId}", example_languages=ALL_LANGUAGES)
    got = samples(page)
    assert len(got) == 18
    for key, _label, code in got:
        assert "put" in code.lower(), (key, code)
        assert "https://write.example.com/pets/{petId}" in code, key
        assert "X-API-Key" in code and "<api-key>" in code, key
        assert "Rex" in code, key
        assert "password" in code and '"id"' not in code, key  # readOnly left out of request bodies


def test_default_languages_and_aliases(spec30):
    assert [k for k, _, _ in samples(op(spec30, "get", "/pets/{petId}"))] == [
        "bash", "python", "javascript", "go", "java", "ruby", "php",
    ]  # fmt: skip
    assert [
        k for k, _, _ in samples(op(spec30, "get", "/tree", example_languages=("shell", "golang", "nope")))
    ] == [
        "bash",
        "go",
    ]


def test_x_code_samples_first_and_autogenerate_off(spec30):
    got = samples(op(spec30, "post", "/pets"))
    assert got[0][1] == "SDK (Python)" and 'client.pets.create(name="Rex")' in got[0][2]
    assert [k for k, _, _ in got].count("python") == 1
    assert op(spec30, "post", "/pets").playground["customSamples"] == ["python"]
    assert op(spec30, "get", "/tree").playground["customSamples"] == []
    only = samples(op(spec30, "post", "/pets", autogenerate=False))
    assert [label for _, label, _ in only] == ["SDK (Python)"]


def test_query_parameters_in_samples_follow_examples_defaults(spec30):
    everything = samples(op(spec30, "delete", "/pets"))[0][2]
    assert "all=true" in everything and "reason=cleanup" in everything
    required = samples(op(spec30, "delete", "/pets", examples_defaults="required"))[0][2]
    assert "all=true" in required and "reason" not in required


# -- servers, base URL, playground -----------------------------------------------------------------------------
def test_servers_most_specific_level_wins(spec30):
    assert [s["url"] for s in op(spec30, "put", "/pets/{petId}").playground["servers"]] == [
        "https://write.example.com"
    ]
    assert [s["url"] for s in op(spec30, "get", "/pets/{petId}").playground["servers"]] == [
        "https://pets.example.com/v2"
    ]
    root = op(spec30, "get", "/tree").playground["servers"]
    assert root[0] == {
        "url": "https://{region}.api.example.com/v1",
        "description": "Production",
        "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}},
    }
    assert len(root) == 2
    assert "https://eu.api.example.com/v1/tree" in samples(op(spec30, "get", "/tree"))[0][2]


def test_base_url_relative_by_default_full_when_configured(spec30):
    rel = parse(op(spec30, "get", "/tree").html).find(cls="dg-api-url")
    assert rel.text == "/tree"
    full = parse(op(spec30, "get", "/tree", base_url_display="full").html).find(cls="dg-api-url")
    assert full.text == "https://eu.api.example.com/v1/tree"


def test_playground_data(spec30):
    page = op(spec30, "get", "/pets/{petId}")
    pg = page.playground
    json.dumps(pg)  # JSON-serialisable
    assert (pg["method"], pg["path"], pg["display"], pg["proxy"]) == (
        "GET",
        "/pets/{petId}",
        "interactive",
        True,
    )
    assert pg["security"]["requirements"] == [{"bearerAuth": []}]
    assert pg["security"]["schemes"]["bearerAuth"]["x-default"] == "test-token-123"
    params = {(p["in"], p["name"]): p for p in pg["parameters"]}
    assert params[("path", "petId")]["required"] is True and params[("path", "petId")]["example"] == 42
    assert params[("query", "fields")]["schema"]["items"]["enum"] == ["name", "tag", "owner"]
    assert params[("query", "fields")]["deprecated"] is True
    put = op(spec30, "put", "/pets/{petId}").playground["body"]
    assert put["required"] is True
    assert put["contents"][0]["schema"]["properties"]["name"]["x-default"] == "Fido"
    assert put["contents"][0]["schema"]["required"] == ["name", "password"]


def test_required_only_and_prefilled_examples(spec30):
    body = op(spec30, "put", "/pets/{petId}", examples_defaults="required").playground["body"]["contents"][0]
    assert body["example"] == {"name": "Rex", "password": "<string>"}
    prefilled = op(spec30, "put", "/pets/{petId}", examples_defaults="required", examples_prefill=True)
    assert prefilled.playground["body"]["contents"][0]["example"] == {"name": "Fido", "password": "<string>"}
    assert prefilled.playground["prefill"] is True


def test_no_servers_means_simple_playground():
    data = {"openapi": "3.0.0", "paths": {"/x": {"get": {"responses": {"204": {"description": "none"}}}}}}
    page = op(data, "get", "/x")
    assert page.playground["display"] == "simple" and page.playground["servers"] == []
    assert op(data, "get", "/x", playground_display="none").playground["display"] == "none"


# -- metadata ------------------------------------------------------------------------------------------------
def test_title_description_deprecated_text(spec30):
    page = op(spec30, "get", "/pets/{petId}")
    assert page.title == "Get a pet"
    assert page.description.startswith("Returns one pet.") and "Second paragraph" not in page.description
    assert "Second paragraph" in page.markdown and "petId" in page.markdown
    assert "Show child attributes" not in op(spec30, "put", "/pets/{petId}").markdown
    assert page.text == ""  # nothing reads a generated page's plain text: not computed
    assert page.assets == {"api-reference"}
    untitled = op(spec30, "delete", "/pets")
    assert untitled.title == "DELETE /pets"
    dep = {"openapi": "3.0.0", "paths": {"/d": {"get": {"deprecated": True, "responses": {}}}}}
    page = op(dep, "get", "/d")
    assert page.deprecated is True and 'data-deprecated="true"' in page.html


def test_unknown_operation_raises_lookup_error(spec30):
    with pytest.raises(LookupError, match="/nope"):
        op(spec30, "get", "/nope")
    with pytest.raises(LookupError):
        op(spec30, "patch", "/tree")


# -- webhooks and schema pages ----------------------------------------------------------------------------------
def test_webhook_page(spec31):
    page = render_webhook(spec31, "itemCreated", settings=ApiSettings(base_url_display="full"), markdown=MD)
    assert parse(page.html).find(cls="dg-api-url").text == "itemCreated"  # no base URL: it is sent to you
    assert page.title == "Item created"
    assert "Payload" in [h.text for h in parse(page.html).find_all("h2")]
    assert {"id", "item", "item.name", "item.tags"} <= field_ids(page.html)
    panel = parse(page.aside_html).find(cls="dg-api-card", data_tabs="payload")
    example = json.loads(panel.find("code").text)
    assert example["id"] == "3c90c3cc-0d44-4b50-8888-8dd25736052a" and example["item"]["tags"] == ["<string>"]
    assert page.playground["kind"] == "webhook"
    assert_anchors_sound(page.html)


def test_schema_page(spec30):
    page = render_schema_page(spec30, "Pet", settings=ApiSettings(), markdown=MD)
    ids = field_ids(page.html)
    assert {"id", "password", "owner.email", "tags.label"} <= ids  # no direction: both readOnly and writeOnly
    example = json.loads(parse(page.aside_html).find("code").text)
    assert example["name"] == "Rex"
    assert page.title == "Pet"
    assert_anchors_sound(page.html)
    with pytest.raises(LookupError):
        render_schema_page(spec30, "Nope", settings=ApiSettings(), markdown=MD)


def test_params_expanded_opens_trees(spec30):
    closed = op(spec30, "put", "/pets/{petId}")
    opened = op(spec30, "put", "/pets/{petId}", params_expanded=True)
    assert '<details class="dg-api-children" open>' not in closed.html
    assert '<details class="dg-api-children" open>' in opened.html


# -- hand-written API pages (api: frontmatter) ---------------------------------------------------------------
def test_manual_endpoint_header_and_playground_data():
    from docsgen.openapi.render import render_manual_endpoint

    page = render_manual_endpoint(
        "POST /users/{id}",
        settings=ApiSettings(base_url_display="full"),
        servers=["https://api.example.com/v1", "https://staging.example.com"],
        auth={"method": "key", "name": "X-Key"},
        params=[
            {"name": "id", "in": "path", "type": "string"},
            {"name": "name", "in": "body", "type": "string", "required": True},
        ],
    )
    root = parse(page.html)
    assert root.find(id="X-Key") is not None and [t.title for t in page.toc] == ["Authorizations"]
    url = root.find(cls="dg-api-url")
    assert url.text == "https://api.example.com/v1/users/{id}"
    pg = page.playground
    assert [s["url"] for s in pg["servers"]] == ["https://api.example.com/v1", "https://staging.example.com"]
    assert pg["security"]["schemes"]["key"] == {
        "type": "apiKey",
        "kind": "apiKey",
        "in": "header",
        "name": "X-Key",
    }
    assert pg["parameters"] == [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}]
    assert pg["body"]["contents"][0]["schema"]["required"] == ["name"]
    bearer = render_manual_endpoint(
        "GET /me", settings=ApiSettings(), servers=None, auth={"method": "bearer"}
    )
    assert bearer.playground["security"]["schemes"]["bearer"]["scheme"] == "bearer"
    assert bearer.playground["display"] == "simple"  # no server: nothing to send requests to
    with pytest.raises(ValueError, match="METHOD /path"):
        render_manual_endpoint("FETCH /x", settings=ApiSettings())


def test_callbacks_and_mutual_tls():
    data = {
        "openapi": "3.1.0",
        "servers": [{"url": "https://api.example.com"}],
        "components": {"securitySchemes": {"mtls": {"type": "mutualTLS", "description": "Client cert"}}},
        "paths": {
            "/subscribe": {
                "post": {
                    "security": [{"mtls": []}],
                    "callbacks": {
                        "onEvent": {
                            "{$request.body#/callbackUrl}": {
                                "post": {
                                    "requestBody": {
                                        "content": {
                                            "application/json": {
                                                "schema": {"properties": {"event": {"type": "string"}}}
                                            }
                                        }
                                    },
                                    "responses": {"200": {"description": "Received"}},
                                }
                            }
                        }
                    },
                    "responses": {"201": {"description": "ok"}},
                }
            }
        },
    }
    page = op(data, "post", "/subscribe")
    assert_anchors_sound(page.html)
    assert "callback-onEvent.event" in field_ids(page.html)
    assert "{$request.body#/callbackUrl}" in page.html and "Received" in page.html
    assert [t.title for t in page.toc if t.level == 2][-1] == "Callbacks"
    assert (
        "client certificate" in page.html
        and "certificate"
        in parse(page.html).find(cls="dg-api-field", data_scheme="mtls").find(cls="dg-api-type").text
    )
    curl = samples(page)[0][2]
    assert "Authorization" not in curl and "Client certificate" not in curl
