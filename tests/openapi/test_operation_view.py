"""The typed operation view (docsgen.openapi.render.operation_view): read once from a spec, the page made from it."""

from __future__ import annotations

import dataclasses

import pytest
import yaml

from docsgen.openapi.render import ApiSettings, render_operation, render_webhook
from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.operation_view import OperationView, operation_view
from docsgen.openapi.render.playground import playground_data

SPEC = """
openapi: 3.1.0
info: {title: Orders, version: "2.0"}
servers:
  - url: https://{region}.shop.example/v2
    description: Regional
    variables:
      region: {default: eu, enum: [eu, us]}
components:
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: X-Shop-Key, x-default: demo-key}
    oauth:
      type: oauth2
      flows:
        clientCredentials:
          tokenUrl: https://auth.shop.example/token
          scopes: {orders:read: Read orders, orders:write: Write orders}
  parameters:
    StoreId: {name: storeId, in: path, required: true, schema: {type: string}, description: The store.}
  requestBodies:
    NewOrder:
      description: The order to place.
      required: true
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Order"}
          examples:
            small: {summary: One item, value: {items: [{sku: A1, quantity: 1}]}}
        application/x-www-form-urlencoded:
          schema: {$ref: "#/components/schemas/Order"}
          encoding:
            items: {contentType: application/json, explode: true}
  schemas:
    Order:
      type: object
      required: [items]
      properties:
        id: {type: string, readOnly: true}
        items: {type: array, items: {type: object, properties: {sku: {type: string}, quantity: {type: integer}}}}
security:
  - apiKey: []
paths:
  /stores/{storeId}/orders:
    parameters:
      - $ref: "#/components/parameters/StoreId"
      - {name: limit, in: query, description: Path-level limit., schema: {type: integer}}
      - {name: Content-Type, in: header, schema: {type: string}}
    post:
      operationId: orders/create
      summary: "  Place an order  "
      description: Places an order in the store.
      tags: [orders, "", 7]
      parameters:
        - name: limit
          in: query
          description: Operation-level limit.
          deprecated: true
          style: form
          examples: {few: {value: 5}, none: {summary: no value}}
        - {name: X-Request-Id, in: header, example: req-1, x-default: abc}
      requestBody: {$ref: "#/components/requestBodies/NewOrder"}
      security:
        - apiKey: []
        - oauth: [orders:write]
        - {}
      x-codeSamples:
        - {lang: curl, source: "curl -X POST ..."}
        - {lang: Elixir, label: Mix, source: "Shop.order()"}
        - {lang: python}
      callbacks:
        shipped:
          "{$request.body#/callbackUrl}":
            post:
              summary: The order shipped
              requestBody: {content: {application/json: {schema: {type: object}}}}
              responses: {"204": {description: Received}}
      responses:
        "201":
          description: Placed
          headers:
            Location: {description: The order's URL., required: true, schema: {type: string}}
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Order"}
          links:
            GetOrder:
              operationId: orders/get
              parameters: {orderId: $response.body#/id}
        "422": {description: Invalid order}
webhooks:
  orderPaid:
    parameters:
      - {name: X-Signature, in: header, required: true, schema: {type: string}}
    post:
      summary: Order paid
      requestBody: {$ref: "#/components/requestBodies/NewOrder"}
      responses: {"200": {description: Acknowledged}}
"""


@pytest.fixture(scope="module")
def spec() -> dict:
    return yaml.safe_load(SPEC)


def view_of(spec: dict, container: str = "paths", key: str = "/stores/{storeId}/orders", method=None):
    return operation_view(RenderContext(spec, ApiSettings(), lambda text: text), container, key, method)


def test_parameters_are_path_level_overridden_by_the_operation(spec):
    view = view_of(spec, method="POST")
    assert [(p.location, p.name) for p in view.parameters] == [
        ("path", "storeId"),
        ("query", "limit"),
        ("header", "X-Request-Id"),
    ]  # Content-Type as a header parameter is ignored (OpenAPI: the body's media type says it)
    store, limit, request_id = view.parameters
    assert store.required and store.description == "The store."  # $ref'd, and required as a path parameter
    assert limit.description == "Operation-level limit." and limit.deprecated and not limit.required
    assert limit.examples == (5,) and not limit.has_example  # the named example without a value is left out
    assert limit.hints == (("deprecated", True), ("style", "form"))
    assert request_id.has_example and request_id.example == "req-1" and request_id.x_default == "abc"
    assert view.parameters_in("query") == (limit,)


def test_a_referenced_body_is_read_per_media_type(spec):
    body = view_of(spec, method="post").body
    assert body is not None and body.required and body.description == "The order to place."
    json_body, form = body.content
    assert json_body.content_type == "application/json"
    assert json_body.schema == {
        "$ref": "#/components/schemas/Order"
    }  # schemas stay as written (the tree reads them)
    assert json_body.examples == (("One item", {"items": [{"sku": "A1", "quantity": 1}]}),)
    assert [(p.name, p.content_type, p.facts) for p in form.encoding] == [
        ("items", "application/json", (("explode", True),))
    ]


def test_security_alternatives_with_their_schemes(spec):
    security = view_of(spec, method="post").security
    assert security.requirements == ((("apiKey", ()),), (("oauth", ("orders:write",)),), ())
    assert security.optional  # the empty requirement
    assert [[(f.scheme, f.location, f.name, f.scopes) for f in alt] for alt in security.alternatives] == [
        [("apiKey", "header", "X-Shop-Key", ())],
        [("oauth", "header", "Authorization", ("orders:write",))],
    ]
    api_key, oauth = security.schemes
    assert api_key.details == (("x-default", "demo-key"),) and api_key.flows is None
    assert oauth.flows == (
        (
            "clientCredentials",
            (
                ("tokenUrl", "https://auth.shop.example/token"),
                ("scopes", {"orders:read": "Read orders", "orders:write": "Write orders"}),
            ),
        ),
    )


def test_responses_servers_callbacks_and_samples(spec):
    view = view_of(spec, method="post")
    assert (
        view.title == "Place an order" and view.operation_id == "orders/create" and view.tags == ("orders",)
    )
    placed, invalid = view.responses
    assert (placed.status, invalid.status, invalid.content) == ("201", "422", ())
    assert [(h.name, h.required, h.description) for h in placed.headers] == [
        ("Location", True, "The order's URL.")
    ]
    assert [(link.name, link.operation_id, link.arguments) for link in placed.links] == [
        ("GetOrder", "orders/get", (("orderId", "$response.body#/id"),))
    ]
    [server] = view.servers
    assert server.url == "https://{region}.shop.example/v2" and server.description == "Regional"
    assert server.variables == (("region", {"default": "eu", "enum": ["eu", "us"]}),)
    [shipped] = view.callbacks
    assert (shipped.name, shipped.method, shipped.description) == ("shipped", "post", "The order shipped")
    assert shipped.body is not None and [r.status for r in shipped.responses] == ["204"]
    assert [(s.key, s.label) for s in view.code_samples] == [("bash", ""), ("elixir", "Mix")]


def test_a_webhook_uses_the_same_view(spec):
    view = view_of(spec, "webhooks", "orderPaid")
    assert (view.kind, view.method, view.path, view.title) == ("webhook", "post", "orderPaid", "Order paid")
    assert view.servers == ()  # a webhook goes to the reader's endpoint, not to the spec's servers
    assert [(p.name, p.required) for p in view.parameters] == [("X-Signature", True)]
    assert view.body is not None and view.body.content[0].content_type == "application/json"
    page = render_webhook(spec, "orderPaid", settings=ApiSettings(), markdown=lambda text: text)
    assert page.playground["servers"] == [] and page.playground["customSamples"] == []
    assert "X-Signature" in page.html and "X-Signature" in page.markdown


def test_the_view_is_immutable_and_the_page_is_made_from_it(spec):
    view = view_of(spec, method="post")
    assert isinstance(view, OperationView)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.summary = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.parameters[0].name = "changed"  # type: ignore[misc]
    ctx = RenderContext(spec, ApiSettings(), lambda text: text)
    data = playground_data(ctx, operation_view(ctx, "paths", "/stores/{storeId}/orders", "post"))
    page = render_operation(
        spec, "post", "/stores/{storeId}/orders", settings=ApiSettings(), markdown=lambda text: text
    )
    assert page.playground == data  # the page's playground data is the view's
    assert [p["name"] for p in data["parameters"]] == ["storeId", "limit", "X-Request-Id"]
    assert data["security"]["requirements"] == [{"apiKey": []}, {"oauth": ["orders:write"]}, {}]
    assert data["customSamples"] == ["bash", "elixir"]
    assert page.title == view.title
    assert [item.title for item in page.toc if item.level == 2] == [
        "Authorizations",
        "Path Parameters",
        "Query Parameters",
        "Header Parameters",
        "Body",
        "Response",
        "Callbacks",
    ]


def test_a_missing_operation_is_a_lookup_error(spec):
    with pytest.raises(LookupError):
        view_of(spec, method="get")
    with pytest.raises(LookupError):
        view_of(spec, "webhooks", "orderShipped")
