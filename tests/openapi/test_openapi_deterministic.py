"""An API page depends only on its inputs: not on which pages the same process rendered before it.

Schema trees are cached per spec while its pages render; a cached fragment may only be reused where rendering it
afresh would give the same rows (same ancestors for recursion notes, same row limit). Render workers each see
a different order of pages, so any leak shows as builds that differ between runs and between worker counts.
"""

from __future__ import annotations

import copy
import filecmp
import json
from pathlib import Path

from markdown_it import MarkdownIt

from docsgen.build import build
from docsgen.engine.pool import MIN_PAGES_PER_WORKER
from docsgen.openapi.render import ApiSettings, render_operation
from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.schema_model import flatten
from docsgen.openapi.render.schema_tree import MAX_LEVEL, TreeRenderer

MD = MarkdownIt("commonmark", {"html": False}).render
MESH = 6  # schemas S0..S9, each referring to three others: recursion at every depth


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def mesh_spec(extra_paths: int = 0) -> dict:
    """A spec whose schemas recurse into each other (and grow past the row limits) in many ways."""
    schemas: dict[str, dict] = {
        # R -> C -> D -> C: C's rows, first rendered below R, hold D expanded; below D they must not.
        "R": {"type": "object", "properties": {"c": _ref("C"), "r": {"type": "string"}}},
        "C": {"type": "object", "properties": {"d": _ref("D"), "name": {"type": "string"}}},
        "D": {"type": "object", "properties": {"c": _ref("C"), "v": {"type": "integer"}}},
    }
    for i in range(MESH):
        props: dict[str, dict] = {f"f{k}": {"type": "string", "description": f"Field {k}."} for k in range(3)}
        for step in (1, 3, 7):
            props[f"to{(i + step) % MESH}"] = _ref(f"S{(i + step) % MESH}")
        props["many"] = {"type": "array", "items": _ref(f"S{(i + 5) % MESH}")}
        schemas[f"S{i}"] = {
            "type": "object",
            "properties": props,
            "oneOf": [
                _ref(f"S{(i + 2) % MESH}"),
                {"type": "object", "properties": {"x": {"type": "string"}}},
            ],
        }
    paths: dict[str, dict] = {}
    for name in ["R", "D", "C", *(f"S{i}" for i in range(MESH))]:
        ok = {"200": {"description": "OK", "content": {"application/json": {"schema": _ref(name)}}}}
        paths[f"/{name.lower()}"] = {
            "get": {"summary": f"Get {name}", "responses": ok},
            "post": {
                "summary": f"Create {name}",
                "requestBody": {"content": {"application/json": {"schema": _ref(name)}}},
                "responses": ok,
            },
        }
    for n in range(extra_paths):  # more pages over the same schemas (enough for several render workers)
        name = f"S{n % MESH}" if n % 3 else ["R", "C", "D"][n % 9 // 3]
        ok = {"200": {"description": "OK", "content": {"application/json": {"schema": _ref(name)}}}}
        paths[f"/more/{n}"] = {"get": {"summary": f"More {n}", "responses": ok}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Mesh", "version": "1"},
        "paths": paths,
        "components": {"schemas": schemas},
    }


def render_all(data: dict, order: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, str]]:
    """Render the operations in `order` with one fresh spec object (one render context): html and twin."""
    out = {}
    for method, path in order:
        page = render_operation(data, method, path, settings=ApiSettings(), markdown=MD)
        out[(method, path)] = (page.html, page.markdown)
    return out


def operations(data: dict) -> list[tuple[str, str]]:
    return [(m, p) for p, item in data["paths"].items() for m in item]


def test_a_page_renders_the_same_whatever_was_rendered_before_it():
    spec = mesh_spec()
    ops = operations(spec)
    alone = {op: render_all(copy.deepcopy(spec), [op])[op] for op in ops}
    forward = render_all(copy.deepcopy(spec), ops)
    backward = render_all(copy.deepcopy(spec), ops[::-1])
    for op in ops:
        assert forward[op] == alone[op], op
        assert backward[op] == alone[op], op
    html = alone[("get", "/d")][0]
    assert "Recursive: D (see above)" in html  # D -> C -> D, even when C was first shown below R
    assert "Recursive: C (see above)" in alone[("get", "/r")][0]
    assert any("nested fields not shown" in page[0] for page in alone.values())  # the row limits are reached


def test_recursive_pair_below_another_root_then_as_root():
    spec = mesh_spec()
    first = render_all(copy.deepcopy(spec), [("get", "/r"), ("get", "/d")])[("get", "/d")]
    fresh = render_all(copy.deepcopy(spec), [("get", "/d")])[("get", "/d")]
    assert first == fresh
    assert "Recursive: D (see above)" in fresh[1]  # the twin says so too


def test_a_deep_allof_chain_flattens_the_same_at_any_depth_it_is_first_met():
    """allOf nesting is merged to a bounded depth: a schema first flattened deep inside a chain (cut short)
    must not be remembered as the cut-short form where it is flattened as a root."""
    chain = 20
    schemas = {
        f"A{i}": {"allOf": [_ref(f"A{i + 1}")], "properties": {f"p{i}": {"type": "string"}}}
        for i in range(chain)
    }
    schemas[f"A{chain}"] = {"type": "object", "properties": {"last": {"type": "string"}}}
    data = {
        "openapi": "3.0.3",
        "info": {"title": "x", "version": "1"},
        "paths": {},
        "components": {"schemas": schemas},
    }

    def props_of(name: str, warm: str | None) -> list[str]:
        ctx = RenderContext(copy.deepcopy(data), ApiSettings(), MD)
        if warm:
            flatten(ctx, _ref(warm))
        return sorted(flatten(ctx, _ref(name)).props)

    for name in ("A5", "A10"):
        assert props_of(name, "A0") == props_of(name, None)


def site(spec: dict) -> dict[str, str]:
    return {
        "docs.json": json.dumps(
            {
                "theme": "mint",
                "name": "Mesh",
                "colors": {"primary": "#112233"},
                "navigation": {"groups": [{"group": "API", "openapi": "openapi.json"}]},
            }
        ),
        "openapi.json": json.dumps(spec),
    }


def same_tree(a: Path, b: Path) -> list[str]:
    """Relative paths of files that differ or exist on one side only."""
    found: list[str] = []

    def walk(cmp: filecmp.dircmp, prefix: str) -> None:
        found.extend(prefix + n for n in cmp.left_only + cmp.right_only + cmp.funny_files)
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
        found.extend(prefix + n for n in mismatch + errors)
        for name, sub in cmp.subdirs.items():
            walk(sub, prefix + name + "/")

    walk(filecmp.dircmp(a, b), "")
    return found


def ranked(spec: dict, reverse: bool) -> dict:
    """The spec with summaries that make its pages render (in page-path order) forwards or backwards."""
    data = copy.deepcopy(spec)
    ops = [op for item in data["paths"].values() for op in item.values()]
    for rank, op in enumerate(reversed(ops) if reverse else ops):
        op["summary"] = f"Op {rank:03d} {op['summary']}"
    return data


def twins(out: Path) -> dict[str, str]:
    """The API pages' Markdown twins by their endpoint line, without their title (it holds the rank)."""
    found = {}
    for path in out.glob("api-reference/*.md"):
        title, _, body = path.read_text(encoding="utf-8").partition("\n")
        assert title.startswith("# Op ")
        found[body.strip().split("\n")[0]] = body
    return found


def test_built_api_pages_do_not_depend_on_the_order_pages_render_in(make_site, tmp_path):
    spec = mesh_spec()
    build(make_site(site(ranked(spec, False)), "forward"), tmp_path / "forward", cache=False, workers=1)
    build(make_site(site(ranked(spec, True)), "backward"), tmp_path / "backward", cache=False, workers=1)
    forward, backward = twins(tmp_path / "forward"), twins(tmp_path / "backward")
    assert len(forward) == 2 * len(spec["paths"]) == len(backward)
    for endpoint, text in forward.items():
        assert text == backward[endpoint], endpoint
    assert "Recursive: D (see above)" in forward["**GET** `/d`"]


def test_serial_and_parallel_builds_are_byte_identical(make_site, tmp_path):
    spec = mesh_spec(extra_paths=2 * MIN_PAGES_PER_WORKER)  # enough pages for two render workers
    docs = make_site(site(spec))
    build(docs, tmp_path / "serial", cache=False, workers=1)
    build(docs, tmp_path / "again", cache=False, workers=1)
    build(docs, tmp_path / "two", cache=False, workers=2)
    assert same_tree(tmp_path / "serial", tmp_path / "again") == []
    assert same_tree(tmp_path / "serial", tmp_path / "two") == []


def chain_spec() -> dict:
    """L0 -> L1 -> ... -> L8 (deeper than MAX_LEVEL), a `User` met at several depths, an op rooted at each."""
    depth = MAX_LEVEL + 4
    schemas: dict[str, dict] = {
        "User": {"type": "object", "properties": {"login": {"type": "string"}, "id": {"type": "integer"}}}
    }
    for i in range(depth):
        props: dict[str, dict] = {f"v{i}": {"type": "string"}, "owner": _ref("User")}
        if i + 1 < depth:
            props["next"] = _ref(f"L{i + 1}")
        schemas[f"L{i}"] = {"type": "object", "properties": props, "oneOf": [_ref("User"), _ref("User")]}
    paths = {
        f"/l{i}": {
            "get": {
                "summary": f"Get L{i}",
                "responses": {
                    "200": {"description": "OK", "content": {"application/json": {"schema": _ref(f"L{i}")}}}
                },
            }
        }
        for i in range(depth)
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "Chain", "version": "1"},
        "paths": paths,
        "components": {"schemas": schemas},
    }


def test_a_schema_met_at_other_depths_renders_the_same_as_alone():
    """A fragment is reused at another nesting level only where MAX_LEVEL shows and hides the same rows."""
    spec = chain_spec()
    ops = operations(spec)
    alone = {op: render_all(copy.deepcopy(spec), [op])[op] for op in ops}
    for order in (ops, ops[::-1], ops[1::2] + ops[::2]):
        together = render_all(copy.deepcopy(spec), order)
        for op in ops:
            assert together[op] == alone[op], op
    assert "L6: nested fields not shown" in alone[("get", "/l0")][0]  # the level limit is reached from L0
    assert "L6: nested fields not shown" not in alone[("get", "/l3")][0]  # ... and not from L3
    assert "v8" in alone[("get", "/l3")][0]


def test_a_schema_met_at_another_depth_is_not_rendered_again(monkeypatch):
    """`User` below L7 (one level down) and below L6 -> L7 (two levels down): its rows are made once."""
    spec = chain_spec()
    made: list[str] = []
    row = TreeRenderer._row

    def counting(self, name, *args, **kwargs):
        made.append(name)
        return row(self, name, *args, **kwargs)

    monkeypatch.setattr(TreeRenderer, "_row", counting)
    data = copy.deepcopy(spec)
    render_all(data, [("get", "/l8")])
    first = made.count("login")
    made.clear()
    html, _ = render_all(data, [("get", "/l7")])[("get", "/l7")]
    assert first >= 1 and made.count("login") == 0  # L8 (and User below it) came from the cache
    assert html.count('href="#\x00') == 0 and "owner.login" in html
