"""Mintlify's apiPlaygroundInputs in chromium: a reader signed in through docsgen server's gate finds the API
playground's path, query, header and cookie parameters and the server variables filled from their user data
(not only the credentials); a value they change is kept in this browser and wins on the next visit; a reader
without the data gets the spec's defaults."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from docsgen.build import build
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.reader_sessions import COOKIE, session_key, session_token
from docsgen.server.site_auth import save_auth
from docsgen.server.testing import LiveServer, seed_project
from tests.conftest import write_tree

SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Items", "version": "1"},
    "servers": [
        {
            "url": "https://{region}.api.test/v1",
            "variables": {"region": {"default": "us", "enum": ["us", "eu"]}},
        }
    ],
    "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}},
    "security": [{"key": []}],
    "paths": {
        "/items/{id}": {
            "get": {
                "summary": "Get an item",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "limit", "in": "query", "schema": {"type": "integer"}},
                    {"name": "X-Tenant", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {"200": {"description": "The item"}},
            }
        }
    },
}
INPUTS = {
    "server": {"region": "eu"},
    "path": {"id": "u-42"},
    "query": {"limit": 7},
    "header": {"x-tenant": "acme", "X-API-Key": "k-1"},  # header names match in any case
}


@pytest.fixture(scope="module")
def gate(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("prefill")
    docs = {
        "name": "Acme",
        "theme": "mint",
        "colors": {"primary": "#4F46E5"},
        "navigation": {"groups": [{"group": "API", "public": True, "pages": ["item"]}]},
    }
    files = {
        "docs.json": json.dumps(docs),
        "openapi.json": json.dumps(SPEC),
        "item.mdx": "---\ntitle: Item\nopenapi: openapi.json GET /items/{id}\n---\n",
    }
    build(write_tree(tmp / "docs", files), tmp / "out")
    engine = open_database(f"sqlite:///{tmp / 'gate.sqlite3'}")
    seed_project(engine, "acme", docs_dir=tmp / "docs", out_dir=tmp / "out")
    with engine.begin() as conn:  # personalization: readers are identified, nothing is refused
        save_auth(conn, "acme", {"method": "jwt", "publicKey": "", "mode": "personalization"})
    with LiveServer(create_app(engine=engine, site_project="acme")) as live:
        yield live.url, session_key(engine)
    engine.dispose()


def _open(page, url):
    page.goto(f"{url}/item/")
    page.locator(".dg-pg-toggle").click()
    return page.locator(".dg-pg-dialog")


def _field(dialog, name):
    return (
        dialog.locator(".dg-pg-field")
        .filter(has=dialog.page.get_by_text(name, exact=True))
        .locator("input, select")
        .first
    )


def test_the_readers_inputs_fill_every_field_and_their_changes_stay(browser, gate):
    url, key = gate
    context = browser.new_context()
    host = url.split("//")[1].split(":")[0]
    token = session_token(key, {"apiPlaygroundInputs": INPUTS})
    context.add_cookies([{"name": COOKIE, "value": token, "domain": host, "path": "/"}])
    page = context.new_page()
    dialog = _open(page, url)
    expect(_field(dialog, "id")).to_have_value("u-42")
    expect(_field(dialog, "limit")).to_have_value("7")
    expect(_field(dialog, "X-Tenant")).to_have_value("acme")
    expect(dialog.locator("[data-auth]").first).to_have_value("k-1")  # the credential, as before
    region = _field(dialog, "region")
    expect(region.locator("option:checked")).to_have_text("eu")
    curl = dialog.locator(".dg-pg-request code")
    expect(curl).to_contain_text("https://eu.api.test/v1/items/u-42?limit=7")
    expect(curl).to_contain_text("X-Tenant: acme")
    _field(dialog, "id").fill("u-43")  # the reader's own change wins over their user data next time
    page.reload()
    dialog = _open(page, url)
    expect(_field(dialog, "id")).to_have_value("u-43")
    expect(_field(dialog, "limit")).to_have_value("7")
    context.close()
    anonymous = browser.new_context()
    other = anonymous.new_page()
    dialog = _open(other, url)
    expect(_field(dialog, "id")).to_have_value("")
    expect(dialog.locator(".dg-pg-request code")).to_contain_text("https://us.api.test/v1/items/")
    anonymous.close()
