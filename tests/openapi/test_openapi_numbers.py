"""Oversized numbers in specs and frontmatter (#36 item 14): an integer past Python's int <-> text conversion limit
(4,300 digits) is a located warning, and infinite or NaN numbers (`.inf`, `1e400`) render; never a traceback."""

from __future__ import annotations

import json
import re

import pytest

from docsgen.build import build
from docsgen.openapi.check import check_sources

BIG = "9" * 5000
KEYWORDS = (
    "maximum",
    "minimum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "multipleOf",
)
KEYWORDS += ("maxItems", "minItems", "maxProperties", "default", "example", "const")
BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}


def yaml_spec(value: str) -> str:
    """Every numeric keyword of a parameter, a body property and a response set to `value` (YAML)."""
    schema = ", ".join(f"{k}: {value}" for k in KEYWORDS)
    return f"""openapi: 3.1.0
info: {{title: T, version: "1"}}
paths:
  /p:
    post:
      summary: Op
      parameters:
        - {{name: q, in: query, schema: {{type: integer, {schema}}}}}
        - {{name: r, in: query, schema: {{type: string, {schema}, enum: [{value}]}}}}
      requestBody:
        content:
          application/json:
            schema: {{type: object, properties: {{a: {{type: number, {schema}}}}}, {schema}}}
      responses:
        "200": {{description: ok, content: {{application/json: {{schema: {{type: number, {schema}}}}}}}}}
"""


def json_spec(value: str) -> str:
    schema = {"type": "integer", **{k: "NUMBER" for k in KEYWORDS}}
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/p": {"post": {"summary": "Op", "parameters": [{"name": "q", "in": "query", "schema": schema}]}}
        },
    }
    return json.dumps(spec, indent=1).replace('"NUMBER"', value)


def site(make_site, name: str, text: str):
    nav = {"tabs": [{"tab": "Home", "pages": ["index"]}, {"tab": "API", "openapi": name}]}
    return make_site(
        {"docs.json": json.dumps({**BASE, "navigation": nav}), "index.mdx": "# Home\n", name: text}
    )


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("api.json", json_spec(BIG), 17),  # the first keyword's line
        ("api.json", json_spec("-" + BIG), 17),
        ("api.yaml", yaml_spec(BIG), 8),
        ("api.yaml", yaml_spec("0x" + "f" * 5000), 8),  # read, but str() of it would raise
        ("api.yaml", yaml_spec("1_" + "0" * 5000), 8),
    ],
)
def test_an_integer_past_the_conversion_limit_is_a_located_warning(
    make_site, tmp_path, monkeypatch, name, text, line
):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    result = build(site(make_site, name, text), tmp_path / "out")
    found = [d for d in result.diagnostics if d.code == "openapi.syntax"]
    assert [(d.path, d.line) for d in found] == [(name, line)], [d.format() for d in result.diagnostics]
    assert "more than 4,300 digits" in found[0].message and found[0].column > 1
    assert (tmp_path / "out" / "index.html").is_file()  # the rest of the site is built
    _, problems = check_sources([name], cwd=tmp_path / "docs")  # openapi-check: the same located problem
    assert [(d.code, d.line, d.is_error) for d in problems] == [("openapi.syntax", line, True)]


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan", "1.0e+400", "9" * 4200, "0x" + "f" * 3000])
def test_infinite_nan_and_large_numbers_render_with_valid_playground_data(
    make_site, tmp_path, monkeypatch, value
):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    result = build(site(make_site, "api.yaml", yaml_spec(value)), tmp_path / "out")
    spec_problems = [d for d in result.diagnostics if d.code.startswith("openapi.")]
    assert spec_problems and all(d.path == "api.yaml" and d.line > 0 for d in spec_problems), spec_problems
    html = (tmp_path / "out" / "api-reference" / "op" / "index.html").read_text()
    data = re.search(r'<script type="application/json" id="dg-api">(.*?)</script>', html, re.S)
    assert data is not None

    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    json.loads(data.group(1), parse_constant=refuse)  # the browser's JSON.parse refuses Infinity and NaN


@pytest.mark.parametrize("value", [BIG, "0x" + "f" * 5000, "-" + BIG])
def test_a_huge_integer_in_frontmatter_is_a_located_warning(make_site, tmp_path, value):
    page = f"---\ntitle: Hi\nweight: 1\nsidebarTitle: {value}\n---\n# Hi\n"
    docs = make_site(
        {"docs.json": json.dumps({**BASE, "navigation": {"pages": ["index"]}}), "index.mdx": page}
    )
    result = build(docs, tmp_path / "out")
    found = [d for d in result.diagnostics if d.code == "page.frontmatter"]
    assert [(d.path, d.line, d.column) for d in found] == [("index.mdx", 4, 15)], result.diagnostics
    assert "more than 4,300 digits" in found[0].message
    assert (tmp_path / "out" / "index.html").is_file()
