"""Contextual menu parity: every Mintlify option renders (or is reported), display "toc", custom icons; in a browser
the MCP options copy the site's MCP address, download-pdf prints and assistant opens the search."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from click.testing import CliRunner

from docsgen.build import build
from docsgen.cli import main
from tests.htmldom import parse
from tests.readers_sites import serve

SPEC = {
    "openapi": "3.0.0",
    "info": {"title": "A", "version": "1"},
    "paths": {"/a": {"get": {"summary": "Get A", "responses": {"200": {"description": "ok"}}}}},
}
OPTIONS = [
    "copy",
    "download-spec",
    "chatgpt",
    "add-mcp",
    "cursor",
    "vscode",
    "mcp",
    "assistant",
    "download-pdf",
    "devin",
    "devin-desktop",
    {"title": "Request a feature", "description": "On GitHub", "icon": "plus", "href": "https://x.example/f"},
]


def _site(make_site, contextual: dict, **extra) -> Path:
    config = {
        "name": "Acme Docs",
        "theme": "mint",
        "colors": {"primary": "#0a7"},
        "contextual": contextual,
        "navigation": {"pages": ["index", {"group": "API", "openapi": "specs/openapi.json"}]},
        **extra,
    }
    return make_site(
        {
            "docs.json": json.dumps(config, indent=2),
            "specs/openapi.json": json.dumps(SPEC),
            "index.mdx": "---\ntitle: Home\n---\n## One\n\nText\n\n## Two\n\nMore\n",
        }
    )


def _menu(path: Path):
    return parse(path.read_text(encoding="utf-8")).find("div", cls="dg-contextual")


def test_every_option_renders_with_mcp_links_built_from_the_site_url(make_site, tmp_path):
    root = _site(make_site, {"options": OPTIONS}, seo={"metatags": {"canonical": "https://docs.acme.dev"}})
    result = build(root, tmp_path / "out")
    menu = _menu(tmp_path / "out" / "index.html")
    items = menu.find("ul").find_all("li")
    ids = [next(n for n in li.iter() if n.attrs.get("data-option")).attrs["data-option"] for li in items]
    # download-spec only on pages that document an API; devin-desktop left out
    assert ids == [
        "copy",
        "chatgpt",
        "add-mcp",
        "cursor",
        "vscode",
        "mcp",
        "assistant",
        "download-pdf",
        "devin",
        "custom",
    ]
    assert menu.attrs["data-mcp"] == "https://docs.acme.dev/mcp"
    cursor = menu.find("a", data_option="cursor").attrs["href"]
    assert cursor.startswith("cursor://anysphere.cursor-deeplink/mcp/install?")
    query = parse_qs(urlsplit(cursor).query)
    assert query["name"] == ["acme-docs"]
    assert json.loads(base64.b64decode(query["config"][0])) == {"url": "https://docs.acme.dev/mcp"}
    vscode = menu.find("a", data_option="vscode").attrs["href"]
    assert vscode.startswith("https://vscode.dev/redirect/mcp/install?")
    assert json.loads(parse_qs(urlsplit(vscode).query)["config"][0]) == {
        "type": "http",
        "url": "https://docs.acme.dev/mcp",
    }
    assert menu.find("a", data_option="devin").attrs["data-base"].startswith("https://app.devin.ai/")
    custom = menu.find("a", data_option="custom")
    assert custom.find("svg") is not None and "Request a feature" in custom.text
    # the API page offers its spec, copied into the site
    api_pages = [p for p in (tmp_path / "out" / "api-reference").rglob("index.html")]
    spec_link = _menu(api_pages[0]).find("a", data_option="download-spec")
    target = (api_pages[0].parent / spec_link.attrs["href"]).resolve()
    assert target.is_file() and json.loads(target.read_text(encoding="utf-8"))["openapi"] == "3.0.0"
    assert "download" in spec_link.attrs
    codes = {(d.code, d.json_path) for d in result.diagnostics}
    assert ("contextual.unsupported", "contextual.options[10]") in codes  # devin-desktop
    assert ("contextual.unsupported", "contextual.options[7]") in codes  # assistant: opens the search


def test_without_a_site_url_mcp_options_use_the_serving_host_and_say_so(make_site):
    root = _site(make_site, {"options": ["copy", "mcp"]})
    result = CliRunner().invoke(main, ["validate", str(root), "-v"])
    assert "docs.json:" in result.output and "[contextual.mcp-url]" in result.output
    assert "contextual.options[1]" in result.output


def test_display_toc_puts_the_menu_in_the_table_of_contents(make_site, tmp_path):
    root = _site(make_site, {"options": ["copy", "view"], "display": "toc"})
    build(root, tmp_path / "out")
    doc = parse((tmp_path / "out" / "index.html").read_text(encoding="utf-8"))
    menu = doc.find("div", cls="dg-contextual")
    assert any(a.tag == "aside" and "dg-toc" in a.attrs.get("class", "") for a in menu.ancestors())
    assert doc.find("header", cls="dg-page-header").find("div", cls="dg-contextual") is None


@pytest.mark.browser
def test_menu_actions_in_a_browser(browser, make_site, tmp_path):
    root = _site(make_site, {"options": ["mcp", "add-mcp", "download-pdf", "assistant", "cursor"]})
    build(root, tmp_path / "out")
    server, url = serve(tmp_path / "out")
    try:
        context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.add_init_script("window.__printed = 0; window.print = () => { window.__printed += 1; };")
        page.goto(url)
        page.click(".dg-contextual-main")  # the first option: copy the MCP URL
        assert page.evaluate("navigator.clipboard.readText()") == url + "mcp"
        page.click(".dg-contextual summary")
        page.click(".dg-contextual li [data-option=add-mcp]")
        assert page.evaluate("navigator.clipboard.readText()") == f"npx add-mcp {url}mcp"
        page.click(".dg-contextual summary")
        page.click(".dg-contextual li [data-option=download-pdf]")
        assert page.evaluate("window.__printed") == 1
        page.click(".dg-contextual summary")
        cursor = page.get_attribute(".dg-contextual li [data-option=cursor]", "href")
        config = parse_qs(urlsplit(cursor).query)["config"][0]
        assert json.loads(base64.b64decode(config)) == {"url": url + "mcp"}
        page.click(".dg-contextual li [data-option=assistant]")
        page.locator("dialog.dg-search-dialog[open]").wait_for()
        assert page.input_value(".dg-search-input") == "Home"
        context.close()
    finally:
        server.shutdown()


def test_a_site_without_options_does_not_work_out_the_mcp_url_per_page(make_site, tmp_path, monkeypatch):
    """Most sites have no contextual menu: its MCP URL and server name were worked out on every page anyway."""
    from docsgen.render import contextual
    from docsgen.render.context import site_context
    from docsgen.site.read import read_site

    config = {
        "name": "Plain",
        "theme": "mint",
        "colors": {"primary": "#0a7"},
        "navigation": {"pages": ["index"]},
    }
    docs = make_site({"docs.json": json.dumps(config), "index.mdx": "---\ntitle: Home\n---\nText\n"})
    site = read_site(docs, tmp_path / "out")
    ctx = site_context(site)
    asked = []
    monkeypatch.setattr(contextual, "mcp_url", lambda s: asked.append(s) or None)
    menu = contextual.contextual_menu(ctx, site.pages["index"], "./")
    assert menu["options"] == [] and menu["display"] == "header"
    assert asked == []
    site.config.raw["contextual"] = {"options": ["copy", "mcp"], "display": "toc"}
    menu = contextual.contextual_menu(ctx, site.pages["index"], "./")
    assert (
        [o["id"] for o in menu["options"]] == ["copy", "mcp"] and menu["display"] == "toc" and len(asked) == 1
    )
