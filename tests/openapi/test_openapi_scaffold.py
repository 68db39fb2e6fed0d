"""docsgen openapi scaffold writes pages that build, prints the navigation to paste, and never overwrites."""

from __future__ import annotations

import json
import os
import shutil

from click.testing import CliRunner

from docsgen.build import build
from docsgen.cli import main
from tests.conftest import FIXTURES
from tests.htmldom import parse


def test_scaffolded_pages_build_into_endpoint_pages(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(FIXTURES / "api-site/petstore.yaml", docs / "petstore.yaml")
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(docs)
    try:
        result = runner.invoke(main, ["openapi", "scaffold", "petstore.yaml", "-o", "api"])
        again = runner.invoke(main, ["openapi", "scaffold", "petstore.yaml", "-o", "api"])
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    nav = json.loads(result.stdout)
    assert nav["group"] == "Petstore"
    assert nav["pages"] == [
        {
            "group": "pets",
            "pages": [
                "api/pets/list-pets",
                "api/pets/create-a-pet",
                "api/pets/get-a-pet",
                "api/pets/delete-a-pet",
            ],
        }
    ]
    assert (
        docs / "api/pets/list-pets.mdx"
    ).read_text() == '---\ntitle: "List pets"\nopenapi: "petstore.yaml GET /pets"\n---\n'
    assert again.exit_code == 1 and "already exists" in again.output
    (docs / "docs.json").write_text(
        json.dumps(
            {"theme": "mint", "name": "S", "colors": {"primary": "#123456"}, "navigation": {"groups": [nav]}}
        )
    )
    out = tmp_path / "out"
    result = build(docs, out)
    assert not [d for d in result.diagnostics if d.severity.value == "warning"]
    page = parse((out / "api/pets/get-a-pet/index.html").read_text())
    assert page.find("h1").text.strip() == "Get a pet"
    assert page.find("script", id="dg-api") is not None
    assert (
        page.find("span", cls="dg-api-method") is not None or "GET" in page.find("div", cls="dg-prose").text
    )
