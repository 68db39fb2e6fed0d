"""The fast load path: a cached load report (duplicate keys, external refs) per content hash, and the cheap parse."""

from __future__ import annotations

import gc
import json
import marshal
from pathlib import Path

import pytest

from docsgen.openapi import load as load_module
from docsgen.openapi import store as store_module
from docsgen.openapi.load import LoadProblem, parse
from docsgen.openapi.store import SpecStore

SPECS = Path(__file__).parents[1] / "openapi_specs"
ALL_SPECS = sorted(
    p.relative_to(SPECS).as_posix()
    for p in [*SPECS.glob("*.*"), *(SPECS / "broken").glob("*.*")]
    if p.suffix in (".json", ".yaml")
)

EXTERNAL_AND_DUPLICATE = """{
  "openapi": "3.1.0",
  "info": {"title": "T", "version": "1", "title": "U"},
  "paths": {
    "/a": {
      "get": {
        "responses": {"200": {"$ref": "other.json#/r"}, "default": {"description": "ok"}},
        "parameters": [{"$ref": "#/components/parameters/p"}, {"$ref": "./p.yaml"}]
      }
    }
  },
  "components": {"parameters": {"p": {"name": "p", "in": "query", "schema": {"type": "string"}}}}
}
"""


def _as_tuples(diagnostics) -> list[tuple]:
    return [
        (d.path, d.line, d.column, d.code, d.message, d.severity, d.json_path, d.hint) for d in diagnostics
    ]


def _load(docs: Path, name: str, **kwargs):
    store = SpecStore(docs, **kwargs)
    spec, found = store.load(name, origin=("docs.json", 2, 3))
    return store, spec, found


@pytest.mark.parametrize("name", ALL_SPECS)
def test_cached_load_gives_exactly_the_uncached_problems_and_data(name, tmp_path):
    cache = tmp_path / "cache"
    _, plain, expected = _load(SPECS, name, use_cache=False)
    store, cold, first = _load(SPECS, name, cache_dir=cache)
    _, warm, second = _load(SPECS, name, cache_dir=cache)
    assert _as_tuples(first) == _as_tuples(expected)
    assert _as_tuples(second) == _as_tuples(expected)
    if plain is None:
        assert cold is None and warm is None
        return
    assert cold.data == plain.data and warm.data == plain.data
    assert (warm.version, warm.sha256) == (plain.version, plain.sha256)
    # Locations and the validation that follows are unchanged too.
    assert _as_tuples(SpecStore(SPECS, cache_dir=cache).validate(warm)) == _as_tuples(
        SpecStore(SPECS, use_cache=False).validate(plain)
    )
    assert warm.line_of(("info",)) == plain.line_of(("info",))


def test_warm_load_neither_parses_nor_walks_the_document(tmp_path, monkeypatch):
    (tmp_path / "api.json").write_text(EXTERNAL_AND_DUPLICATE)
    cache = tmp_path / "cache"
    _, cold, first = _load(tmp_path, "api.json", cache_dir=cache)
    assert [(d.code, d.line, d.column) for d in first] == [
        ("openapi.duplicate-key", 3, 42),
        ("openapi.external-ref", 8, 64),
        ("openapi.external-ref", 7, 31),
    ]
    assert "'./p.yaml'" in first[1].message and "'other.json#/r'" in first[2].message

    def boom(*args, **kwargs):
        raise AssertionError("the cached load parsed or walked the document")

    with monkeypatch.context() as patched:
        for module, name in [
            (store_module, "external_ref_errors"),
            (store_module, "parse"),
            (load_module, "_walk_containers"),
            (load_module, "decode"),
        ]:
            patched.setattr(module, name, boom)
        _, warm, second = _load(tmp_path, "api.json", cache_dir=cache)
    assert _as_tuples(second) == _as_tuples(first)
    assert warm.data == cold.data
    # The data is what the checking parse builds: the later duplicate wins, in the first one's place.
    assert warm.data["info"] == {"title": "U", "version": "1"}
    # The text is decoded when a location is asked for, and gives the same answers.
    for path in [("info", "title"), ("paths", "/a", "get", "parameters", 1), ("components",)]:
        assert warm.line_of(path) == cold.line_of(path) != (0, 0)


def test_without_cached_data_a_known_content_parses_without_duplicate_tracking(tmp_path, monkeypatch):
    (tmp_path / "api.json").write_text(EXTERNAL_AND_DUPLICATE)
    cache = tmp_path / "cache"
    _, cold, first = _load(tmp_path, "api.json", cache_dir=cache)
    (data_file,) = cache.glob("*.data")
    data_file.unlink()
    calls: list[dict] = []
    real_parse = store_module.parse
    monkeypatch.setattr(store_module, "external_ref_errors", lambda spec: pytest.fail("walked again"))
    monkeypatch.setattr(
        store_module, "parse", lambda raw, name, **kw: calls.append(kw) or real_parse(raw, name, **kw)
    )
    _, warm, second = _load(tmp_path, "api.json", cache_dir=cache)
    assert [c["find_duplicates"] for c in calls] == [False]
    assert _as_tuples(second) == _as_tuples(first) and warm.data == cold.data
    assert data_file.exists()  # written again


@pytest.mark.parametrize("damage", ["truncate", "garbage", "other-content"])
def test_unusable_cached_data_is_parsed_again(tmp_path, damage):
    cache = tmp_path / "cache"
    (tmp_path / "api.json").write_text(EXTERNAL_AND_DUPLICATE)
    _, cold, expected = _load(tmp_path, "api.json", cache_dir=cache)
    (data_file,) = cache.glob("*.data")
    blob = data_file.read_bytes()
    header, _, body = blob.partition(b"\n")
    if damage == "truncate":
        data_file.write_bytes(blob[: len(header) + 1 + len(body) // 2])
    elif damage == "garbage":
        data_file.write_bytes(header + b"\n" + b"\x00not marshal")
    else:  # the data of another version of the file
        data_file.write_bytes(header[:-64] + b"0" * 64 + b"\n" + body)
    _, warm, found = _load(tmp_path, "api.json", cache_dir=cache)
    assert _as_tuples(found) == _as_tuples(expected) and warm.data == cold.data
    new_header, _, new_body = data_file.read_bytes().partition(b"\n")  # rewritten
    assert new_header == header and marshal.loads(new_body) == cold.data


def test_changed_content_is_checked_again(tmp_path):
    cache = tmp_path / "cache"
    spec_file = tmp_path / "api.json"
    spec_file.write_text((SPECS / "webhooks-3.1.json").read_text())
    assert _load(tmp_path, "api.json", cache_dir=cache)[2] == []
    spec_file.write_text(EXTERNAL_AND_DUPLICATE)
    _, _, found = _load(tmp_path, "api.json", cache_dir=cache)
    assert [d.code for d in found] == [
        "openapi.duplicate-key",
        "openapi.external-ref",
        "openapi.external-ref",
    ]
    # Another source name with the same content has its own report (diagnostics name their file).
    (tmp_path / "copy.json").write_text(EXTERNAL_AND_DUPLICATE)
    _, _, copied = _load(tmp_path, "copy.json", cache_dir=cache)
    assert {d.path for d in copied} == {"copy.json"}


@pytest.mark.parametrize(
    "garbage", ["not json", "[1, 2]", '{"duplicates": [{"x": 1}], "external": []}', "{}"]
)
def test_unreadable_load_report_falls_back_to_a_full_load(tmp_path, garbage):
    cache = tmp_path / "cache"
    (tmp_path / "api.json").write_text(EXTERNAL_AND_DUPLICATE)
    _, _, expected = _load(tmp_path, "api.json", cache_dir=cache)
    reports = [p for p in cache.glob("*.json") if "duplicates" in p.read_text()]
    assert len(reports) == 1
    reports[0].write_text(garbage)
    _, _, found = _load(tmp_path, "api.json", cache_dir=cache)
    assert _as_tuples(found) == _as_tuples(expected)
    assert json.loads(reports[0].read_text())["duplicates"]  # rewritten whole


def test_no_cache_store_writes_nothing(tmp_path):
    cache = tmp_path / "cache"
    (tmp_path / "api.json").write_text(EXTERNAL_AND_DUPLICATE)
    store, spec, _ = _load(tmp_path, "api.json", cache_dir=cache, use_cache=False)
    store.validate(spec)
    assert not cache.exists()


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (EXTERNAL_AND_DUPLICATE, "a.json"),
        ("a: 1\nb: {c: 2, c: 3}\nlist: [x, {k: v, k: w}]\n", "a.yaml"),
    ],
)
def test_parse_without_duplicate_tracking_builds_the_same_data(text, name):
    checked = parse(text.encode(), name)
    fast = parse(text.encode(), name, find_duplicates=False)
    assert checked.duplicates and not fast.duplicates
    assert fast.data == checked.data
    assert list(fast.data) == list(checked.data)
    assert fast.sha256 == checked.sha256 == load_module.content_hash(text.encode())
    assert parse(text.encode(), name, sha256="given").sha256 == "given"


@pytest.mark.parametrize("enabled", [True, False])
@pytest.mark.parametrize(("text", "name"), [('{"a": 1}', "a.json"), ('{"a": ', "b.json"), ("a: [", "c.yaml")])
def test_parse_leaves_the_garbage_collector_as_it_found_it(enabled, text, name):
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        try:
            parse(text.encode(), name)
        except LoadProblem as problem:
            assert problem.code == "openapi.syntax"
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
