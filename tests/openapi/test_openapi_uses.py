"""The OpenAPI modules (the heaviest of docsgen) load only for a site that refers to an API somewhere."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from docsgen.config import load_config
from docsgen.openapi.navigation import uses_api
from docsgen.pages.page import Page

BASE = {"theme": "mint", "name": "Uses", "colors": {"primary": "#112233"}}
PAGE = "---\ntitle: Home\n---\nHello.\n"


def _config(make_site, navigation: dict, **extra: object):
    docs = make_site(
        {"docs.json": json.dumps({**BASE, "navigation": navigation, **extra}), "index.mdx": PAGE}
    )
    config, _ = load_config(docs)
    assert config is not None
    return config


@pytest.mark.parametrize(
    ("navigation", "extra"),
    [
        ({"pages": ["index", "GET /users"]}, {}),
        ({"pages": ["index", "openapi.json POST /users"]}, {}),
        ({"pages": ["index", "webhook user.created"]}, {}),
        ({"groups": [{"group": "API", "openapi": "openapi.json", "pages": ["index"]}]}, {}),
        ({"groups": [{"group": "Events", "asyncapi": "events.yaml", "pages": ["index"]}]}, {}),
        ({"pages": ["index"]}, {"api": {"openapi": "openapi.json"}}),
    ],
)
def test_a_navigation_or_docs_json_naming_an_api_uses_it(make_site, navigation, extra):
    assert uses_api(_config(make_site, navigation, **extra), {})


@pytest.mark.parametrize("field", ["openapi", "openapi-schema", "api", "asyncapi"])
def test_a_page_whose_frontmatter_names_an_api_uses_it(make_site, field):
    config = _config(make_site, {"pages": ["index"]})
    page = Page("index", "", "index.html", "index.mdx", {field: "GET /users"})
    assert uses_api(config, {"index": page})
    assert not uses_api(config, {"index": Page("index", "", "index.html", "index.mdx", {field: ""})})


def test_a_plain_site_does_not_load_the_openapi_modules(make_site):
    plain = make_site(
        {"docs.json": json.dumps({**BASE, "navigation": {"pages": ["index"]}}), "index.mdx": PAGE}
    )
    spec = {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}}
    api = make_site(
        {
            "docs.json": json.dumps({**BASE, "navigation": {"pages": ["index", "GET /users"]}}),
            "index.mdx": PAGE,
            "openapi.json": json.dumps(spec),
        },
        name="api",
    )
    code = (
        "import sys; from pathlib import Path; from docsgen.site.read import read_site; "
        "read_site(Path(sys.argv[1])); print('docsgen.openapi.pages' in sys.modules)"
    )
    loaded = [
        subprocess.run(
            [sys.executable, "-c", code, str(docs)], capture_output=True, text=True, check=True
        ).stdout
        for docs in (plain, api)
    ]
    assert loaded == ["False\n", "True\n"]
