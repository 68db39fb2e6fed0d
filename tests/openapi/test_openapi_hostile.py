"""Hostile specs (issue 16): deep nesting, long `$ref` chains, script in spec text. Each ends in a located message,
never a crash, a signal or a traceback; run in a child process, so a crash fails the test instead of killing it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from docsgen.build import build
from docsgen.openapi import ref_rules
from docsgen.openapi.limits import MAX_NESTING, MAX_REF_HOPS
from docsgen.openapi.store import SpecStore
from tests.htmldom import parse

HEAD = 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n'
BASE = {"theme": "mint", "name": "API", "colors": {"primary": "#112233"}}


def docsgen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "docsgen", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def nested(kind: str, depth: int) -> object:
    node: object = {"type": "string"}
    for _ in range(depth):
        if kind == "properties":
            node = {"type": "object", "properties": {"p": node}}
        elif kind == "allOf":
            node = {"allOf": [node]}
        elif kind == "list":
            node = [node]
    return node


def json_spec(schema: object = None, example: object = None) -> str:
    content: dict = {"schema": schema if schema is not None else {"type": "object"}}
    if example is not None:
        content["example"] = example
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "get": {"responses": {"200": {"description": "ok", "content": {"application/json": content}}}}
            }
        },
    }
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 50_000))
    return json.dumps(spec)


CASES = {
    "yaml-flow-50k.yaml": HEAD + "x-deep: " + "[" * 50_000 + "]" * 50_000 + "\n",
    "yaml-block-50k.yaml": HEAD + "x-deep:\n" + "".join(" " * i + "- \n" for i in range(1, 3000)),
    "yaml-dashes-50k.yaml": HEAD + "x-deep: \n  " + "- " * 50_000 + "x\n",
    "properties-10k.json": json_spec(nested("properties", 10_000)),
    "allof-10k.json": json_spec(nested("allOf", 10_000)),
    "list-10k.json": json_spec(example=nested("list", 10_000)),
    "example-10k.yaml": HEAD.replace("description: ok\n", "description: ok\n          content:\n")
    + "            application/json:\n              example: "
    + "{a: " * 10_000
    + "1"
    + "}" * 10_000
    + "\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_deep_specs_are_located_errors_in_check_and_build(tmp_path, name):
    (tmp_path / name).write_text(CASES[name], encoding="utf-8")
    checked = docsgen("openapi-check", name, cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr[-2000:]
    assert "Traceback" not in checked.stderr + checked.stdout
    first = checked.stdout.splitlines()[0]
    assert first.startswith(f"{name}:") and "[openapi.too-deep]" in first and "error" in first
    line = int(first.split(":")[1])
    assert line >= 1
    docs = {**BASE, "navigation": {"groups": [{"group": "API", "openapi": name}]}}
    (tmp_path / "docs.json").write_text(json.dumps(docs), encoding="utf-8")
    # a spec's problem concerns its pages only: a warning in a build, an error with --strict
    built = docsgen("build", ".", "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert built.returncode == 0 and "Traceback" not in built.stderr
    assert f"{name}:{line}:" in built.stdout + built.stderr and "warning: " in built.stdout + built.stderr
    strict = docsgen("build", ".", "--strict", "-o", str(tmp_path / "strict"), cwd=tmp_path)
    assert strict.returncode == 1 and "openapi.too-deep" in strict.stdout + strict.stderr


def test_yaml_aliases_cannot_nest_the_data_too_deep(tmp_path):
    lines = [HEAD, "x-chain:\n", "  a0: &a0 [1]\n"]
    lines += [f"  a{i}: &a{i} [*a{i - 1}]\n" for i in range(1, MAX_NESTING + 20)]
    (tmp_path / "alias.yaml").write_text("".join(lines), encoding="utf-8")
    spec, found = SpecStore(tmp_path, use_cache=False).load("alias.yaml")
    assert spec is None
    (d,) = found
    assert d.code == "openapi.syntax" and "levels deep" in d.message and d.line > 4


def _ref_chain(n: int) -> dict:
    schemas = {f"S{i}": {"$ref": f"#/components/schemas/S{i + 1}"} for i in range(n)}
    schemas[f"S{n}"] = {"type": "string"}
    return {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
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


def test_a_long_ref_chain_is_followed_once_and_reported_once(tmp_path, monkeypatch):
    n = 5_000
    (tmp_path / "chain.json").write_text(json.dumps(_ref_chain(n)), encoding="utf-8")
    calls = []
    real = ref_rules.resolve_ref
    monkeypatch.setattr(ref_rules, "resolve_ref", lambda ref, doc: calls.append(ref) or real(ref, doc))
    store = SpecStore(tmp_path, use_cache=False)
    spec, _ = store.load("chain.json")
    found = store.validate(spec)
    assert len(calls) <= n + 1  # each reference resolved once: linear, not n²
    (d,) = [d for d in found if d.code == "openapi.ref-chain"]
    assert d.json_path.startswith('paths["/a"]') and f"at most {MAX_REF_HOPS}" in d.message
    assert [d for d in found if d.code == "openapi.ref-cycle"] == []


def test_a_chain_of_ref_files_is_a_located_error(tmp_path):
    for i in range(5_000):
        (tmp_path / f"f{i}.json").write_text(json.dumps({"$ref": f"f{i + 1}.json"}), encoding="utf-8")
    spec = _ref_chain(0)
    spec["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] = {
        "$ref": "f0.json"
    }
    (tmp_path / "api.json").write_text(json.dumps(spec), encoding="utf-8")
    checked = docsgen("openapi-check", "api.json", cwd=tmp_path)
    assert checked.returncode == 1 and "Traceback" not in checked.stderr
    assert "api.json:1:" in checked.stdout and "[openapi.external-ref]" in checked.stdout


B8 = """openapi: 3.1.0
info: {title: t, version: "1"}
security:
  - nope: []
paths:
  /a:
    get:
      security:
        - alsoNope: []
      parameters:
        - name: q
          in: query
          schema: {type: string, pattern: "([a-z", minLength: 5, maxLength: 2}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: '#'
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
  schemas:
    N: {type: integer, minimum: 10, maximum: 1}
"""


def test_check_reports_whole_document_refs_undefined_schemes_bad_patterns_and_empty_bounds(tmp_path):
    (tmp_path / "api.yaml").write_text(B8, encoding="utf-8")
    checked = docsgen("openapi-check", "api.yaml", "--format", "json", cwd=tmp_path)
    assert checked.returncode == 1
    found = {(p["code"], p["line"], p["json_path"]) for p in json.loads(checked.stdout)["problems"]}
    assert {
        ("openapi.undefined-security-scheme", 4, "security[0].nope"),
        ("openapi.undefined-security-scheme", 9, 'paths["/a"].get.security[0].alsoNope'),
        ("openapi.pattern", 13, 'paths["/a"].get.parameters[0].schema.pattern'),
        ("openapi.bounds", 13, 'paths["/a"].get.parameters[0].schema.minLength'),
        (
            "openapi.ref-to-document",
            20,
            'paths["/a"].get.responses["200"].content["application/json"].schema["$ref"]',
        ),
        ("openapi.bounds", 25, "components.schemas.N.minimum"),
    } <= found


CONTENT = """<Note>Read **this** first.</Note>

<script>alert('content')</script>
<img src="x.png" onerror="alert('img')" alt="pic" />
<div onload="alert('div')" class="box">boxed</div>
<a href="javascript:alert('link')">click</a> and [safe](/guides) and [bad](javascript:alert('md'))
<svg onload="alert('svg')"><circle r="1" /></svg>
<iframe src="https://evil.example"></iframe>
"""


def test_spec_content_keeps_components_and_formatting_but_never_runs_script(make_site, tmp_path):
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "summary": "Alpha",
                    "description": "Desc <script>alert('desc')</script> [x](javascript:alert('desc'))",
                    "x-mint": {"content": CONTENT},
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    docs = {**BASE, "navigation": {"groups": [{"group": "API", "openapi": "openapi.json"}]}}
    site = make_site({"docs.json": json.dumps(docs), "openapi.json": json.dumps(spec)})
    build(site, tmp_path / "o")
    text = (tmp_path / "o/api-reference/alpha/index.html").read_text(encoding="utf-8")
    doc = parse(text)
    prose = doc.find("div", cls="dg-prose")
    assert "Read this first." in " ".join(prose.text.split())
    assert prose.find("strong").text == "this"
    assert "boxed" in prose.text and prose.find("img").attrs.get("alt") == "pic"
    for node in doc.iter():
        for name, value in node.attrs.items():
            assert not name.lower().startswith("on"), (node.tag, name)
            if name.lower() in ("href", "src", "action", "formaction", "xlink:href", "poster"):
                assert "javascript:" not in str(value).lower(), (node.tag, name, value)
    scripts = [s.text for s in doc.find_all("script")]
    assert not any("alert(" in s for s in scripts)
    assert doc.find("iframe") is None
    assert "&lt;script&gt;alert" in text  # the description's markup is shown as text


def test_schemas_composed_through_a_long_ref_chain_check_and_build(tmp_path):
    n = 5_000
    schemas = {
        f"S{i}": {"allOf": [{"$ref": f"#/components/schemas/S{i + 1}"}], "required": ["x"]} for i in range(n)
    }
    schemas[f"S{n}"] = {"type": "object", "properties": {"x": {"type": "string"}}}
    spec = _ref_chain(0)
    spec["components"]["schemas"] = schemas
    content = spec["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"]
    content["schema"] = {"$ref": "#/components/schemas/S0"}
    (tmp_path / "openapi.json").write_text(json.dumps(spec), encoding="utf-8")
    checked = docsgen("openapi-check", "openapi.json", cwd=tmp_path)
    assert "Traceback" not in checked.stderr and checked.returncode == 0, checked.stderr[-1500:]
    docs = {**BASE, "navigation": {"groups": [{"group": "API", "openapi": "openapi.json"}]}}
    (tmp_path / "docs.json").write_text(json.dumps(docs), encoding="utf-8")
    built = docsgen("build", ".", "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert built.returncode == 0 and "Traceback" not in built.stderr, built.stderr[-1500:]
    assert (tmp_path / "out/api-reference/get-a/index.html").is_file()


def test_spec_metadata_cannot_carry_script_urls(make_site, tmp_path):
    metadata = {"title": "Step 1: Alpha", "url": " javascript:alert(1)", "description": "Fine"}
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "summary": "A",
                    "x-mint": {"metadata": metadata},
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    docs = {**BASE, "navigation": {"groups": [{"group": "API", "openapi": "openapi.json"}]}}
    site = make_site({"docs.json": json.dumps(docs), "openapi.json": json.dumps(spec, indent=2)})
    result = build(site, tmp_path / "o")
    (d,) = [d for d in result.warnings if d.code == "openapi.extension"]
    assert (
        d.path == "openapi.json" and d.json_path == 'paths["/a"].get["x-mint"].metadata.url' and d.line == 14
    )
    text = (tmp_path / "o/api-reference/a/index.html").read_text(encoding="utf-8")
    assert "javascript:" not in text.lower()
    assert parse(text).find("h1").text.strip() == "Step 1: Alpha"
