"""Which spec a page means, as Mintlify finds it: by path from the root or the page, without extension, by file
name anywhere, or not named at all; and a spec that cannot be read is a located warning (an error with --strict)."""

from __future__ import annotations

import json

import pytest

from docsgen.build import build
from docsgen.common.errors import DocsgenError
from tests.htmldom import parse

BASE = {"theme": "mint", "name": "API", "colors": {"primary": "#112233"}}


def spec(path: str, method: str = "post", summary: str = "Do it") -> str:
    return json.dumps(
        {
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {path: {method: {"summary": summary, "responses": {"200": {"description": "ok"}}}}},
        }
    )


def page(openapi: str, title: str = "") -> str:
    head = f"title: {title}\n" if title else ""
    return f"---\n{head}openapi: {json.dumps(openapi)}\n---\n\nPage body.\n"


def api_data(out, key: str) -> dict:
    doc = parse((out / key / "index.html").read_text(encoding="utf-8"))
    return json.loads(doc.find("script", id="dg-api").text)


def test_spec_found_by_name_path_from_page_and_missing_extension(make_site, tmp_path):
    pages = ["index", "endpoints/by-name", "api/sub/relative", "no-extension", "not-named"]
    site = make_site(
        {
            "docs.json": json.dumps({**BASE, "navigation": {"groups": [{"group": "G", "pages": pages}]}}),
            "index.mdx": "---\ntitle: Home\n---\n\nHi.\n",
            # `v2` is a file name: the repository's OpenAPI file restapi/versions/v2.json
            "restapi/versions/v2.json": spec("/annotations", summary="Create annotation"),
            "endpoints/by-name.mdx": page("v2 post /annotations"),
            # a path from the page's own folder
            "api/analytics-api.json": spec("/rpc/X", summary="Run X"),
            "api/sub/relative.mdx": page("../analytics-api.json post /rpc/X"),
            # the extension left out
            "v3-openapi.yaml": "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    post:\n"
            "      summary: Post x\n      responses: {'200': {description: ok}}\n",
            "no-extension.mdx": page("v3-openapi POST /x"),
            # no spec named, none declared: the repository's OpenAPI files are searched
            "specs/other.yaml": "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /y:\n    get:\n"
            "      summary: Get y\n      responses: {'200': {description: ok}}\n",
            "data/not-a-spec.json": json.dumps({"paths": {"/y": {}}}),
            "not-named.mdx": page("GET /y"),
        }
    )
    result = build(site, tmp_path / "o")
    assert not [d for d in result.warnings if d.code.startswith("openapi.")], result.warnings
    out = tmp_path / "o"
    assert api_data(out, "endpoints/by-name")["path"] == "/annotations"
    assert api_data(out, "api/sub/relative")["path"] == "/rpc/X"
    assert api_data(out, "no-extension")["path"] == "/x"
    assert api_data(out, "not-named")["path"] == "/y"
    h1 = parse((out / "endpoints/by-name/index.html").read_text()).find("h1").text.strip()
    assert h1 == "Create annotation"  # the page has no title: the operation's summary


def test_unreadable_spec_is_a_located_warning_and_the_rest_builds(make_site, tmp_path):
    site = make_site(
        {
            "docs.json": json.dumps(
                {
                    **BASE,
                    "navigation": {
                        "groups": [
                            {"group": "G", "pages": ["index", "gone"]},
                            {"group": "API", "openapi": "missing.yaml"},
                            {"group": "More", "pages": ["missing.yaml GET /a"]},
                        ]
                    },
                },
                indent=2,
            ),
            "index.mdx": "---\ntitle: Home\n---\n\nHi.\n",
            "gone.mdx": page("nope.json GET /a", title="Gone"),
        }
    )
    result = build(site, tmp_path / "o")
    found = sorted((d.path, d.line, d.code, d.severity.value) for d in result.warnings)
    assert ("gone.mdx", 2, "openapi.missing-file", "warning") in found
    assert ("docs.json", 16, "openapi.missing-file", "warning") in found  # the group's openapi
    assert ("docs.json", 23, "openapi.missing-file", "warning") in found  # the navigation entry
    gone = parse((tmp_path / "o/gone/index.html").read_text())
    assert gone.find("h1").text.strip() == "Gone" and "Page body." in gone.text
    with pytest.raises(DocsgenError) as exc:
        build(site, tmp_path / "strict", strict=True)
    assert {d.code for d in exc.value.diagnostics if d.is_error} == {"openapi.missing-file"}


def test_endpoint_with_no_spec_anywhere_is_a_warning(make_site, tmp_path):
    site = make_site(
        {
            "docs.json": json.dumps({**BASE, "navigation": {"groups": [{"group": "G", "pages": ["index"]}]}}),
            "index.mdx": page("GET /nothing", title="Home"),
        }
    )
    result = build(site, tmp_path / "o")
    (d,) = [d for d in result.warnings if d.code.startswith("openapi.")]
    assert (d.code, d.path, d.line) == ("openapi.no-spec", "index.mdx", 2)


def test_openapi_frontmatter_that_is_not_a_string_is_a_warning(make_site, tmp_path):
    site = make_site(
        {
            "docs.json": json.dumps({**BASE, "navigation": {"groups": [{"group": "G", "pages": ["index"]}]}}),
            "index.mdx": "---\ntitle: Home\nopenapi: 12\n---\n\nStill built.\n",
        }
    )
    result = build(site, tmp_path / "o")
    (d,) = [d for d in result.warnings if "openapi" in d.message]  # reported once, where the page is read
    assert (d.code, d.path, d.line) == ("page.frontmatter", "index.mdx", 3)
    assert "found 12" in d.message
    assert "Still built." in (tmp_path / "o/index.html").read_text(encoding="utf-8")


def test_schema_pages_of_an_unreadable_or_unknown_spec_are_warnings(make_site, tmp_path):
    docs = {
        **BASE,
        "api": {"openapi": "http://127.0.0.1:9/unreachable.json"},
        "navigation": {"groups": [{"group": "G", "pages": ["index", "model", "other"]}]},
    }
    site = make_site(
        {
            "docs.json": json.dumps(docs),
            "index.mdx": "---\ntitle: Home\n---\n\nHi.\n",
            "model.mdx": "---\ntitle: Pet model\nopenapi-schema: Pet\n---\n\nAbout pets.\n",
            "other.yaml": "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n",
            "other.mdx": "---\ntitle: Other\nopenapi-schema: other.yaml Nope\n---\n\nOther.\n",
        }
    )
    result = build(site, tmp_path / "o")
    codes = sorted((d.path, d.code) for d in result.warnings if d.code.startswith("openapi."))
    assert ("model.mdx", "openapi.network") in codes and ("other.mdx", "openapi.unknown-schema") in codes
    assert "About pets." in (tmp_path / "o/model/index.html").read_text(encoding="utf-8")
