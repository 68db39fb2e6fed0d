"""A spec whose schemas are dense graphs of alternatives renders in bounded work, with one located warning."""

from __future__ import annotations

import json
import random

from tests.bounded import run_cli


def dense_alternatives(count: int = 300, fan: int = 20) -> str:
    """`count` schemas, each `properties.next.oneOf` of `fan` references to others (86 s and 523 MB before)."""
    rng = random.Random(1)
    schemas = {
        f"S{i}": {
            "type": "object",
            "properties": {
                "next": {
                    "oneOf": [
                        {"$ref": f"#/components/schemas/S{j}"}
                        for j in rng.sample([x for x in range(count) if x != i], fan)
                    ]
                }
            },
        }
        for i in range(count)
    }
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {"/x": {"post": {"requestBody": body, "responses": {"200": {"description": "ok"}}}}},
        "components": {"schemas": schemas},
    }
    return json.dumps(spec)


def test_dense_alternatives_build_in_bounded_work(make_site, tmp_path):
    nav = {"groups": [{"group": "G", "pages": ["index"]}, {"group": "API", "openapi": "openapi.json"}]}
    docs = make_site(
        {
            "docs.json": json.dumps(
                {"theme": "mint", "name": "F", "colors": {"primary": "#112233"}, "navigation": nav}
            ),
            "index.mdx": "# Home\n",
            "openapi.json": dense_alternatives(),
        }
    )
    done = run_cli("build", docs, "-o", tmp_path / "out", deadline=40)  # was 86 s, now about 1 s
    assert done.returncode == 0, done.stderr
    assert "openapi.json:1:" in done.stderr and "[openapi.too-large]" in done.stderr
    assert done.stderr.count("[openapi.too-large]") == 1
    page = (tmp_path / "out" / "api-reference" / "post-x" / "index.html").read_text()
    assert "nested fields not shown" in page and 'id="next"' in page


def test_openapi_check_warns_of_schema_fan_out_as_the_build_does(tmp_path):
    """openapi-check measures each operation's schema trees with the build's per-page work budget: the spec it
    called valid (while one page took 86 s) gets the build's located `openapi.too-large` warning."""
    (tmp_path / "dense.json").write_text(dense_alternatives(), encoding="utf-8")
    (tmp_path / "sparse.json").write_text(dense_alternatives(count=30, fan=2), encoding="utf-8")
    done = run_cli("openapi-check", "dense.json", "sparse.json", cwd=tmp_path, deadline=40)
    found = [line for line in done.stdout.splitlines() if "[openapi.too-large]" in line]
    assert len(found) == 1 and found[0].startswith("dense.json:1:"), done.stdout
    assert "warning: the schemas of POST /x are too large to show in full" in found[0]
    assert '(at paths["/x"].post)' in found[0] and done.returncode == 0
    strict = run_cli("openapi-check", "--strict", "dense.json", cwd=tmp_path, deadline=40)
    assert strict.returncode == 1 and "error: the schemas of POST /x" in strict.stdout
