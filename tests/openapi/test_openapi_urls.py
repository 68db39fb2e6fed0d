"""Generated API page paths are Mintlify's (docsgen/openapi/urls.py), so a site's links and redirects keep working;
an `x-mint.href` leaving the site is a located error and nothing is written outside the output folder."""

from __future__ import annotations

import json

import pytest

from docsgen.build import build
from docsgen.common.errors import DocsgenError
from docsgen.openapi import urls

BASE = {"theme": "mint", "name": "API", "colors": {"primary": "#112233"}}
OK = {"200": {"description": "ok"}}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("customer_portal", "customer_portal"),
        ("Checkout / Shipments", "checkout-shipments"),
        ("Selects shipping method for shipment(s)", "selects-shipping-method-for-shipments"),
        ("Mark it as confirmed, and move on.", "mark-it-as-confirmed-and-move-on"),
        ("/users/{id}/keys", "users-keys"),
        ("/users/{id}", "users"),
        ("Don't stop", "dont-stop"),
        ("A - B", "a--b"),
        ("Get ?#% weird", "get--weird"),
        ("", ""),
    ],
)
def test_filename_part_is_mintlifys(text, expected):
    assert urls.filename_part(text) == expected


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("/custom/Alpha", "custom/alpha"),
        ("custom/alpha.mdx", "custom/alpha"),
        ("/a/./b/../c", "a/c"),
        ("/", "index"),
    ],
)
def test_href_is_normalised(href, expected):
    assert urls.href_path(href) == expected


@pytest.mark.parametrize("href", ["/../../../../tmp/x/owned", "../x", "/a/../../x", "/a/%2e%2e/x?y"])
def test_href_leaving_the_site_is_refused(href):
    with pytest.raises(urls.HrefError):
        urls.href_path(href)


def _spec(paths: dict, webhooks: dict | None = None) -> str:
    spec = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": paths}
    if webhooks:
        spec["webhooks"] = webhooks
    return json.dumps(spec, indent=2)


def test_generated_pages_have_mintlifys_paths_and_the_sites_links_land(make_site, tmp_path):
    spec = _spec(
        {
            "/v1/customer-sessions": {
                "post": {"tags": ["customer_portal"], "summary": "Create Session", "responses": OK},
                "get": {"tags": ["customer_portal"], "summary": "Create Session", "responses": OK},
            },
            "/v1/users/{id}": {"delete": {"responses": OK}},
        },
        {
            "checkout_created": {"post": {"responses": OK}},
            "order.paid": {"post": {"tags": ["Orders"], "summary": "Order paid", "responses": OK}},
        },
    )
    links = [
        "/api-reference/customer_portal/create-session",
        "/api-reference/customer_portal/create-session-1",
        "/api-reference/delete-v1users",  # Mintlify removes the slashes of the path
        "/api-reference/checkout_created",
        "/api-reference/orders/order-paid",
    ]
    docs = {
        **BASE,
        "navigation": {
            "groups": [{"group": "Home", "pages": ["index"]}, {"group": "API", "openapi": "openapi.json"}]
        },
        "redirects": [{"source": "/old-session", "destination": links[0]}],
    }
    body = "\n".join(f"- [{i}]({link})" for i, link in enumerate(links))
    site = make_site(
        {
            "docs.json": json.dumps(docs),
            "openapi.json": spec,
            "index.mdx": f"---\ntitle: Home\n---\n\n{body}\n",
        }
    )
    result = build(site, tmp_path / "o")
    out = tmp_path / "o"
    for link in links:
        assert (out / link.strip("/") / "index.html").is_file(), link
    assert [d for d in result.warnings if d.code.startswith(("link.", "redirect"))] == []


def test_href_with_dot_dot_is_a_located_error_and_writes_nothing_outside(make_site, tmp_path):
    spec = _spec(
        {
            "/a": {
                "get": {
                    "summary": "A",
                    "x-mint": {"href": "/../../../../" + str(tmp_path)[1:] + "/owned"},
                    "responses": OK,
                }
            },
            "/b": {"get": {"summary": "B", "x-svc": {"href": "/guides/../b-page"}, "responses": OK}},
        }
    )
    docs = {**BASE, "navigation": {"groups": [{"group": "API", "openapi": "openapi.json"}]}}
    site = make_site({"docs.json": json.dumps(docs), "openapi.json": spec})
    with pytest.raises(DocsgenError) as exc:
        build(site, tmp_path / "site" / "out")
    (d,) = [d for d in exc.value.diagnostics if d.is_error]
    assert (d.code, d.path, d.json_path) == (
        "openapi.bad-href",
        "openapi.json",
        'paths["/a"].get["x-mint"].href',
    )
    assert d.line == 12 and "leaves the site" in d.message
    assert not (tmp_path / "owned").exists() and not (tmp_path / "owned.md").exists()
    assert not list(tmp_path.rglob("owned*"))
