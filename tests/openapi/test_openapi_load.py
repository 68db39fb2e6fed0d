"""Loading specs: files and URLs, JSON and YAML, located errors, the Spec model, refs and the validation cache."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from docsgen.common.errors import Severity
from docsgen.openapi import store as store_module
from docsgen.openapi.locate import format_path
from docsgen.openapi.resolve import RefError, check_refs, resolve_ref
from docsgen.openapi.store import SpecStore

SPECS = Path(__file__).parents[1] / "openapi_specs"
BROKEN = SPECS / "broken"

# file, code, line, column, severity, start of the message: every problem each broken spec produces, exactly.
BROKEN_TABLE = [
    (
        "asyncapi.yaml",
        "openapi.not-openapi",
        1,
        1,
        "error",
        "not an OpenAPI document: no top-level `openapi` field",
    ),
    (
        "default-type.yaml",
        "openapi.default",
        11,
        13,
        "warning",
        'default "ten" does not match its schema: expected integer',
    ),
    ("duplicate-key.json", "openapi.duplicate-key", 5, 64, "error", "duplicate key '200'"),
    ("duplicate-key.yaml", "openapi.duplicate-key", 10, 7, "error", "duplicate key 'responses'"),
    (
        "duplicate-operation-id.yaml",
        "openapi.duplicate-operation-id",
        10,
        7,
        "warning",
        "operationId 'list' is also used by GET /a",
    ),
    ("duplicate-parameter.yaml", "openapi.schema", 6, 7, "warning", "items must be unique"),
    (
        "duplicate-parameter.yaml",
        "openapi.duplicate-parameter",
        8,
        11,
        "warning",
        "parameter 'limit' in query is declared twice",
    ),
    (
        "external-ref.yaml",
        "openapi.external-ref",
        12,
        17,
        "error",
        "external reference './pet.yaml#/Pet' is not supported",
    ),
    ("missing-info.yaml", "openapi.schema", 1, 1, "warning", "missing required field `info`"),
    ("missing-responses.yaml", "openapi.schema", 5, 5, "warning", "missing required field `responses`"),
    (
        "not-openapi.yaml",
        "openapi.not-openapi",
        1,
        1,
        "error",
        "not an OpenAPI document: the top level is list",
    ),
    ("not-utf8.json", "openapi.encoding", 1, 44, "error", "spec is not valid UTF-8"),
    ("openapi-4.yaml", "openapi.unsupported-version", 1, 1, "error", "OpenAPI 4.0.0 is not supported"),
    (
        "parameter-in.yaml",
        "openapi.schema",
        8,
        11,
        "warning",
        '"body" is not one of "path", "query", "header", "cookie"',
    ),
    ("path-key.yaml", "openapi.schema", 4, 3, "warning", "unexpected field `pets`"),
    (
        "path-parameter.yaml",
        "openapi.path-parameter",
        5,
        5,
        "warning",
        "path parameter {petId} of GET /pets/{petId} is not declared",
    ),
    (
        "path-parameter.yaml",
        "openapi.path-parameter",
        7,
        11,
        "warning",
        "path parameter 'id' is declared but /pets/{petId} has no {id}",
    ),
    ("ref-cycle.yaml", "openapi.ref-cycle", 7, 7, "warning", "references loop without reaching a value"),
    ("ref-cycle.yaml", "openapi.ref-cycle", 9, 7, "warning", "references loop without reaching a value"),
    (
        "required-undefined.yaml",
        "openapi.required-property",
        13,
        7,
        "warning",
        "`required` names properties that are not defined: name",
    ),
    ("schema-type-31.yaml", "openapi.schema", 10, 11, "warning", '"file" is not one of "array", "boolean"'),
    ("swagger-2.json", "openapi.unsupported-version", 2, 3, "error", "Swagger 2.0 is not supported"),
    ("syntax.json", "openapi.syntax", 3, 25, "error", "invalid JSON: Expecting ',' delimiter"),
    ("syntax.yaml", "openapi.syntax", 5, 2, "error", "invalid YAML: did not find expected key"),
    (
        "unresolved-ref.yaml",
        "openapi.unresolved-ref",
        12,
        17,
        "warning",
        "reference '#/components/schemas/Pets' cannot be resolved",
    ),
    (
        "version-number.yaml",
        "openapi.unsupported-version",
        1,
        1,
        "error",
        '`openapi` must be a string like "3.1.0", found 3.0',
    ),
    ("x-svc-shape.yaml", "openapi.extension", 8, 11, "warning", "`x-svc.metadata` cannot set `openapi`"),
    (
        "x-svc-shape.yaml",
        "openapi.extension",
        9,
        9,
        "warning",
        "`x-svc.content` must be a string of MDX, found an integer",
    ),
    (
        "x-svc-shape.yaml",
        "openapi.extension",
        10,
        9,
        "warning",
        "`x-svc.href` must be a path starting with / or an http(s) URL",
    ),
    ("x-svc-shape.yaml", "openapi.extension", 13, 7, "warning", "`x-mint` must be an object, found a string"),
    ("yaml-alias-loop.yaml", "openapi.syntax", 6, 11, "error", "invalid YAML: an alias refers to itself"),
]


def _problems(name: str) -> list[tuple]:
    store = SpecStore(BROKEN, use_cache=False)
    spec, found = store.load(name)
    if spec is not None:
        found += store.validate(spec)
    return sorted((d.code, d.line, d.column, d.severity.value, d.message, d.path) for d in found)


@pytest.mark.parametrize("name", sorted({row[0] for row in BROKEN_TABLE}))
def test_broken_spec_gives_exactly_the_located_problems(name):
    expected = sorted(row[1:] for row in BROKEN_TABLE if row[0] == name)
    got = _problems(name)
    assert [g[:4] for g in got] == [e[:4] for e in expected]
    for (*_, message, path), (*_, start) in zip(got, expected, strict=True):
        assert message.startswith(start)
        assert path == name


def test_every_broken_spec_is_in_the_table():
    assert {p.name for p in BROKEN.iterdir()} == {row[0] for row in BROKEN_TABLE}


def test_validation_problems_are_warnings_and_load_problems_errors():
    for name, code, *_rest, severity, _ in BROKEN_TABLE:
        if code in (
            "openapi.schema",
            "openapi.path-parameter",
            "openapi.extension",
            "openapi.unresolved-ref",
        ):
            assert severity == "warning", name


def test_valid_specs_have_no_problems():
    store = SpecStore(SPECS, use_cache=False)
    for name in ("petstore-3.0.yaml", "webhooks-3.1.json"):
        spec, found = store.load(name)
        assert spec is not None and found == []
        assert store.validate(spec) == []


def test_spec_model_operations_in_document_order_with_defaults():
    spec, _ = SpecStore(SPECS).load("petstore-3.0.yaml")
    ops = spec.operations()
    assert [op.key for op in ops] == ["GET /pets", "POST /pets", "GET /pets/{petId}", "DELETE /pets/{petId}"]
    get, post, get_one, delete = ops
    assert (get.summary, get.operation_id, get.tags) == ("List pets", "listPets", ("pets",))
    assert get.servers == [{"url": "https://api.example.com/v1"}]  # root
    assert post.servers == [{"url": "https://write.example.com"}]  # operation level wins
    assert post.extension == {
        "metadata": {"title": "Add a pet"},
        "content": "<Note>Pets are forever.</Note>",
        "href": "/pets/create",
    }
    assert get_one.deprecated and not get_one.hidden
    assert delete.hidden and not delete.excluded and delete.summary == ""
    assert spec.find_operation("get", "/pets/{petId}") is get_one
    assert spec.find_operation("GET", "/pets/{id}") is None
    assert spec.version == "3.0.3" and spec.source == "petstore-3.0.yaml"
    # YAML: unquoted 200 becomes the key "200", dates stay strings.
    assert "200" in get.data["responses"]
    assert spec.schemas()["Pet"]["properties"]["born"]["example"] == "2020-01-01"


def test_spec_webhooks_schemas_nearest_and_x_mint_alias():
    spec, _ = SpecStore(SPECS).load("webhooks-3.1.json")
    assert list(spec.webhooks()) == ["orderCreated"]
    method, op = spec.webhooks()["orderCreated"]
    assert method == "POST" and op["summary"] == "An order was created"
    assert spec.webhook_operation("orderCreated").key == "POST orderCreated"
    assert sorted(spec.schemas()) == ["Line", "Order"]
    (get,) = spec.operations()
    assert get.extension == {"metadata": {"title": "Order"}, "href": "https://example.com/orders"}
    assert spec.nearest("schema", "order") == ["Order"]
    assert spec.nearest("webhook", "orderCreate") == ["orderCreated"]
    assert spec.nearest("operation", "GET /order/{id}") == ["GET /orders/{id}"]
    assert spec.nearest("operation", "POST /orders/{id}") == ["GET /orders/{id}"]


def test_line_of_json_and_yaml():
    store = SpecStore(SPECS)
    yaml_spec, _ = store.load("petstore-3.0.yaml")
    assert yaml_spec.line_of(("paths", "/pets", "post")) == (27, 5)
    assert yaml_spec.line_of(("paths", "/pets", "get", "parameters", 0, "schema")) == (16, 11)
    assert yaml_spec.line_of(("paths", "/pets", "get", "nope")) == (9, 5)  # deepest existing prefix
    json_spec, _ = store.load("webhooks-3.1.json")
    assert json_spec.line_of(("webhooks", "orderCreated", "post")) == (17, 7)
    assert json_spec.line_of(("paths", "/orders/{id}", "get", "parameters", 0, "in")) == (10, 39)
    assert format_path(("paths", "/a", "get", "parameters", 0)) == 'paths["/a"].get.parameters[0]'


def test_circular_refs_resolve_without_looping():
    spec, found = SpecStore(SPECS).load("petstore-3.0.yaml")
    pet = spec.schemas()["Pet"]
    assert spec.deref(pet["properties"]["parent"]) is pet
    assert spec.deref(pet["properties"]["children"]["items"]) is pet
    loop, _ = SpecStore(BROKEN).load("ref-cycle.yaml")
    node = loop.schemas()["Node"]
    assert loop.deref(node) in (node, loop.schemas()["Tree"])  # returns, no infinite loop
    with pytest.raises(RefError, match="'Pets' not found under #/components/schemas"):
        resolve_ref("#/components/schemas/Pets", spec.data)
    assert resolve_ref("#/paths/~1pets/get/parameters/0", spec.data)["name"] == "limit"
    assert check_refs(spec.data) == ([], [])


def test_each_spec_parsed_once_per_store(monkeypatch, tmp_path):
    calls = []
    real_parse = store_module.parse
    monkeypatch.setattr(
        store_module, "parse", lambda raw, name, **kw: calls.append(name) or real_parse(raw, name, **kw)
    )
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "a.yaml").write_text((SPECS / "petstore-3.0.yaml").read_text())
    store = SpecStore(tmp_path)
    first, _ = store.load("specs/a.yaml")
    for ref in ("/specs/a.yaml", "./specs/a.yaml", "specs//a.yaml"):
        again, _ = store.load(ref)
        assert again is first
    assert calls == ["specs/a.yaml"]
    assert store.local_files() == {"specs/a.yaml": (tmp_path / "specs" / "a.yaml").resolve()}


def test_missing_file_is_reported_where_it_is_referenced(tmp_path):
    store = SpecStore(tmp_path)
    spec, found = store.load("api/openapi.json", origin=("docs.json", 12, 18))
    assert spec is None
    (d,) = found
    assert (d.path, d.line, d.column, d.code, d.severity) == (
        "docs.json",
        12,
        18,
        "openapi.missing-file",
        Severity.WARNING,  # one spec missing never fails the site (--strict makes it an error)
    )
    assert d.message.startswith("api/openapi.json: spec file not found")
    _, other = store.load("api/openapi.json", origin=("guide.mdx", 2, 10))
    assert (other[0].path, other[0].line) == ("guide.mdx", 2)
    _, outside = store.load("../secret.yaml", origin=("docs.json", 3, 5))
    assert outside[0].code == "openapi.outside-docs"


def test_validation_cached_by_content_hash(tmp_path, monkeypatch):
    (tmp_path / "api.yaml").write_text((BROKEN / "path-parameter.yaml").read_text())
    cache = tmp_path / "cache"
    first = SpecStore(tmp_path, cache_dir=cache)
    spec, _ = first.load("api.yaml")
    problems = first.validate(spec)
    assert [d.code for d in problems] == ["openapi.path-parameter"] * 2
    assert list(cache.glob("*.json"))

    def boom(spec):
        raise AssertionError("validated again despite the cache")

    monkeypatch.setattr(store_module, "validate_spec", boom)
    second = SpecStore(tmp_path, cache_dir=cache)
    spec2, _ = second.load("api.yaml")
    assert second.validate(spec2) == problems
    # Changed content: a new hash, so validation runs (and here hits the patched function).
    (tmp_path / "api.yaml").write_text((SPECS / "petstore-3.0.yaml").read_text())
    third = SpecStore(tmp_path, cache_dir=cache)
    spec3, _ = third.load("api.yaml")
    with pytest.raises(AssertionError, match="validated again"):
        third.validate(spec3)


def test_default_cache_dir_is_outside_the_docs_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.json").write_text((SPECS / "webhooks-3.1.json").read_text())
    store = SpecStore(docs)
    spec, _ = store.load("a.json")
    store.validate(spec)
    assert list((tmp_path / "cache").rglob("openapi/*.json"))
    assert sorted(p.name for p in docs.iterdir()) == ["a.json"]  # a build never writes into the sources


def test_duplicate_method_and_path_across_specs(tmp_path):
    (tmp_path / "a.yaml").write_text((SPECS / "petstore-3.0.yaml").read_text())
    (tmp_path / "b.yaml").write_text(
        (SPECS / "petstore-3.0.yaml").read_text().replace("/pets/{petId}", "/cats/{petId}")
    )
    store = SpecStore(tmp_path)
    a, _ = store.load("a.yaml")
    b, _ = store.load("b.yaml")
    found = store.validate_together([a, b])
    assert [(d.path, d.line, d.message) for d in found] == [
        ("b.yaml", 9, "GET /pets is also defined in a.yaml"),
        ("b.yaml", 27, "POST /pets is also defined in a.yaml"),
    ]


# ---- URLs -------------------------------------------------------------------------------------------------

PETSTORE = (SPECS / "petstore-3.0.yaml").read_bytes()


class _Handler(BaseHTTPRequestHandler):
    hits: list[str] = []

    def log_message(self, *args):  # keep test output clean
        pass

    def do_GET(self):  # http.server's name
        type(self).hits.append(self.path)
        if self.path == "/spec.yaml":
            self._send(200, PETSTORE)
        elif self.path == "/slow.yaml":
            time.sleep(2)
            self._send(200, PETSTORE)
        elif self.path == "/drip.yaml":  # valid, but one byte at a time: each read is quick, the whole is not
            self.send_response(200)
            self.send_header("Content-Length", str(len(PETSTORE)))
            self.end_headers()
            for i in range(0, len(PETSTORE), 200):
                self.wfile.write(PETSTORE[i : i + 200])
                self.wfile.flush()
                time.sleep(0.05)
        elif self.path == "/drip-headers.yaml":  # the status line and headers themselves arrive slowly
            self.wfile.write(b"HTTP/1.0 200 OK\r\n")
            for i in range(40):
                self.wfile.write(f"X-Slow-{i}: 1\r\n".encode())
                self.wfile.flush()
                time.sleep(0.05)
            self.wfile.write(f"Content-Length: {len(PETSTORE)}\r\n\r\n".encode() + PETSTORE)
        elif self.path == "/big.json":
            self._send(200, b"{" + b" " * 5000 + b"}")
        elif self.path == "/chunked.json":
            self.send_response(200)
            self.end_headers()  # no Content-Length: the size limit applies while reading
            self.wfile.write(b"[" + b"1," * 4000 + b"1]")
        else:
            self._send(404, b"not here")

    def _send(self, status, body):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):  # the client gave up on /slow.yaml: expected
        pass


@pytest.fixture(scope="module")
def spec_server():
    server = _QuietServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_url_200_loaded_once(spec_server, tmp_path):
    _Handler.hits.clear()
    store = SpecStore(tmp_path)
    url = f"{spec_server}/spec.yaml"
    spec, found = store.load(url)
    assert found == [] and spec.source == url and len(spec.operations()) == 4
    again, _ = store.load(url)
    assert again is spec and _Handler.hits == ["/spec.yaml"]
    assert store.validate(spec) == []
    assert store.local_files() == {}


@pytest.mark.parametrize(
    ("path", "code", "message"),
    [
        ("/missing.yaml", "openapi.http-status", "fetching the spec answered HTTP 404 Not Found"),
        ("/slow.yaml", "openapi.network", "fetching the spec took longer than 0.5 s in total"),
        ("/drip.yaml", "openapi.network", "fetching the spec took longer than 0.5 s in total"),
        ("/drip-headers.yaml", "openapi.network", "fetching the spec took longer than 0.5 s in total"),
        ("/big.json", "openapi.too-big", "spec is 5,002 bytes, over the 1,000-byte limit"),
        ("/chunked.json", "openapi.too-big", "spec is over the 1,000-byte limit"),
    ],
)
def test_url_failures_are_located_warnings(spec_server, tmp_path, path, code, message):
    store = SpecStore(tmp_path, timeout=0.5, max_bytes=len(PETSTORE) if "drip" in path else 1000)
    url = spec_server + path
    spec, found = store.load(url, origin=("docs.json", 7, 16))
    assert spec is None
    (d,) = found
    assert (d.code, d.path, d.line, d.column, d.severity) == (code, "docs.json", 7, 16, Severity.WARNING)
    assert d.message == f"{url}: {message}"


def test_unfetchable_url_builds_from_the_last_good_copy(spec_server, tmp_path):
    cache = tmp_path / "cache"
    url = f"{spec_server}/spec.yaml"
    first, found = SpecStore(tmp_path, cache_dir=cache).load(url)
    assert first is not None and found == []
    # A URL that fails now (it answers too late) but was fetched before: its last good copy (here the copy kept
    # for the first URL) is used, with a warning.
    store = SpecStore(tmp_path, cache_dir=cache, timeout=0.5)
    store_url = f"{spec_server}/slow.yaml"
    good = store._last_good_file(url)
    store._last_good_file(store_url).write_bytes(good.read_bytes())
    spec, found = store.load(store_url, origin=("docs.json", 3, 4))
    assert spec is not None and len(spec.operations()) == 4
    (d,) = found
    assert (d.code, d.severity, d.path, d.line) == ("openapi.network", Severity.WARNING, "docs.json", 3)
    assert "built from the last copy fetched successfully" in d.message
    # Without a copy: no spec, a warning.
    spec, found = SpecStore(tmp_path, cache_dir=tmp_path / "empty", timeout=0.5).load(store_url)
    assert spec is None and found[0].code == "openapi.network"


def test_unreachable_host(tmp_path):
    store = SpecStore(tmp_path, timeout=2)
    _, found = store.load("http://127.0.0.1:9/spec.json")
    assert found[0].code == "openapi.network" and found[0].path == "http://127.0.0.1:9/spec.json"


def test_yaml_alias_bomb_is_refused_quickly(tmp_path):
    text = (
        'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths: {}\nx-a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n'
    )
    for i, name in enumerate("bcdefghij"):
        previous = "abcdefghij"[i]
        text += f"x-{name}: &{name} [{', '.join(['*' + previous] * 10)}]\n"
    (tmp_path / "bomb.yaml").write_text(text)
    started = time.perf_counter()
    spec, found = SpecStore(tmp_path).load("bomb.yaml")
    assert time.perf_counter() - started < 2
    assert spec is None
    assert [(d.code, d.line, d.message) for d in found] == [
        ("openapi.syntax", 10, "invalid YAML: aliases expand to too much data")
    ]


def test_json_spec_locates_without_full_reparse(tmp_path):
    doc = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}
    doc["paths"] = {f"/r{i}": {"get": {"responses": {"200": {"description": "ok"}}}} for i in range(2000)}
    doc["paths"]["/r1999"]["get"]["responses"] = {}
    (tmp_path / "big.json").write_text(json.dumps(doc, indent=1))
    store = SpecStore(tmp_path, use_cache=False)
    spec, _ = store.load("big.json")
    started = time.perf_counter()
    found = store.validate(spec)
    assert time.perf_counter() - started < 2
    # 3.1's schema says it twice: at least one response, and `default` when there is no status code.
    assert {(d.code, d.json_path) for d in found} == {("openapi.schema", 'paths["/r1999"].get.responses')}
    assert sorted(d.message for d in found) == [
        "missing required field `default`",
        "must have at least 1 field(s)",
    ]
    line, _ = spec.line_of(("paths", "/r1999", "get", "responses"))
    assert (tmp_path / "big.json").read_text().splitlines()[line - 1].strip() == '"responses": {}'


def test_duplicate_keys_carry_their_json_path():
    store = SpecStore(BROKEN, use_cache=False)
    (yaml_dupe,) = store.load("duplicate-key.yaml")[1]
    (json_dupe,) = store.load("duplicate-key.json")[1]
    assert yaml_dupe.json_path == 'paths["/a"].get.responses'
    assert json_dupe.json_path == 'paths["/a"].get.responses["200"]'


def test_yaml_data_stays_json_shaped(tmp_path):
    (tmp_path / "api.yaml").write_text(
        'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths: {}\n'
        "x-bin: !!binary aGVsbG8=\nx-when: !!timestamp 2020-01-01\nx-date: 2021-02-03\nx-set: !!set {a, b}\n"
        "x-codes: {200: ok, 404: missing}\n"
    )
    spec, found = SpecStore(tmp_path).load("api.yaml")
    assert found == []
    assert json.loads(json.dumps(spec.data)) == spec.data
    extensions = {k: v for k, v in spec.data.items() if k.startswith("x-")}
    assert extensions == {
        "x-bin": "aGVsbG8=",
        "x-when": "2020-01-01",
        "x-date": "2021-02-03",
        "x-set": ["a", "b"],
        "x-codes": {"200": "ok", "404": "missing"},
    }
    (tmp_path / "evil.yaml").write_text("openapi: 3.0.3\nx: !!python/object/apply:os.system [ls]\n")
    _, found = SpecStore(tmp_path).load("evil.yaml")
    assert [(d.code, d.line, d.column) for d in found] == [("openapi.syntax", 2, 4)]


def test_json_locator_handles_escapes_duplicates_and_repeated_names():
    from docsgen.openapi.locate import JsonLocator

    text = '{\n "a": {"a\\"b": 1, "c/d": [10, {"a": 2}]},\n "a": 3\n}'
    locator = JsonLocator(text)
    assert locator.locate(("a", 'a"b')) == (2, 8)
    assert locator.locate(("a", "c/d", 1, "a")) == (2, 32)
    assert locator.locate(("a",), occurrence=1) == (3, 2)
    assert locator.locate(("missing", "x")) == (1, 1)
    assert locator.locate(("a", "c/d", "name")) == (2, 19)  # a name inside an array: the deepest prefix found


def _depth_cases() -> list[str]:
    import json as _json

    def nested(depth: int, leaf: object = 1) -> str:
        text = _json.dumps(leaf)
        for level in range(depth):
            text = f'{{"k{level}": {text}}}' if level % 2 else f"[{text}]"
        return text

    tricky = 'x\\"]]]}}} \\\\ "[[[{{{ \\\\\\" é \u2028'
    return [
        nested(1),
        nested(255),
        nested(256),
        nested(257),
        nested(600),
        nested(256, tricky),
        nested(257, tricky),
        _json.dumps({"a": ["]]]", "[[[", "\\", '"'], "b": {"c": "{{{{"}}, ensure_ascii=False),
        '["\\"", ' + "[" * 300 + "]" * 300 + ', "\\""]',  # escaped quotes must not hide what is between
        '["\\\\", ' + "[" * 300 + "]" * 300 + ', "\\\\"]',  # nor escaped backslashes before a closing quote
        '{"a": [1, 2}',  # unbalanced (invalid JSON)
        '{"a": "unterminated [[[[',
        "\ufeff" + nested(40),
    ]


@pytest.mark.parametrize("text", _depth_cases())
def test_fast_json_depth_check_never_passes_what_the_exact_one_refuses(text):
    from docsgen.common.safeload import NestingError, check_nesting
    from docsgen.openapi.load import json_depth_fits

    try:
        check_nesting(text, 256, syntax="json")
        exact = True
    except NestingError:
        exact = False
    fast = json_depth_fits(text.encode("utf-8"), 256)
    assert not fast or exact  # "fits" is a proof
    try:
        valid = json.loads(text.removeprefix("\ufeff")) is not None
    except (ValueError, RecursionError):
        valid = False
    if valid and text.count("[") + text.count("{") <= 128:
        assert fast  # and valid JSON up to half the limit deep (every real spec) gets it


def test_fast_json_depth_check_reads_escapes_as_the_plain_formula_does():
    """Escapes are dropped in one pass over the backslashes: the same bytes as two replaces, the same answers."""
    import random

    from docsgen.openapi.load import _NOT_STRUCTURE, _unescaped, json_depth_fits

    def plain(raw: bytes, limit: int) -> bool:
        data = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
        brackets = b"".join(data.split(b'"')[::2])
        for _ in range(limit // 2):
            if not brackets:
                return True
            shorter = brackets.replace(b"{}", b"").replace(b"[]", b"")
            if len(shorter) == len(brackets):
                return False
            brackets = shorter
        return not brackets

    pieces = [b"\\", b'"', b'""', b"a", b"[", b"]", b"{", b"}", b"n"]
    rng = random.Random(9)
    for _ in range(30_000):
        raw = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 18)))
        assert _unescaped(raw) == raw.replace(b"\\\\", b"").replace(b'\\"', b""), raw
        for limit in (2, 4, 8):
            assert json_depth_fits(raw, limit) == plain(raw, limit), (raw, limit)


def test_too_deep_json_spec_is_still_located(tmp_path):
    from docsgen.openapi.load import LoadProblem, parse

    text = '{"openapi": "3.1.0", "x": ' + "[" * 300 + "]" * 300 + "}"
    with pytest.raises(LoadProblem) as exc:
        parse(text.encode(), "spec.json")
    assert exc.value.code == "openapi.too-deep" and exc.value.line == 1
