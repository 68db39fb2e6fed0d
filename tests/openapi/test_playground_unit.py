"""Fast tests of the playground's own logic: request building and samples (run in the browser), site auth settings."""

from __future__ import annotations

import base64
import functools
import json
import subprocess
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Page

from docsgen.config.api_section import ApiSection
from docsgen.config.model import NavNode, SiteConfig, ThemeChoice
from docsgen.openapi.playground_auth import AuthConfigError, check_site, client_auth, jwk_key, pem_key
from docsgen.openapi.render.samples import GENERATORS, SampleRequest

STATIC = Path(__file__).resolve().parents[2] / "themes" / "base" / "static"
MODULES = ("playground-request", "playground-samples", "playground-response", "playground-auth")


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def static_url():
    """Serve the theme's static folder on 127.0.0.1 (a secure context, so WebCrypto exists)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(STATIC)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture
def js(page: Page, static_url: str) -> Page:
    page.goto(static_url + "site.css")  # any same-origin document
    for name in MODULES:
        page.add_script_tag(url=f"{static_url}js/{name}.js")
    return page


DATA = {
    "method": "POST",
    "path": "/v{version}/items/{id}",
    "servers": [{"url": "https://{region}.api.test/base", "variables": {"region": {"default": "eu"}}}],
    "parameters": [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
        {"name": "version", "in": "path", "required": True, "schema": {"type": "integer"}},
        {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
        {"name": "csv", "in": "query", "explode": False, "schema": {"type": "array"}},
        {"name": "filter", "in": "query", "style": "deepObject", "schema": {"type": "object"}},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 10}},
        {"name": "X-Id", "in": "header", "required": True, "schema": {"type": "string"}},
        {"name": "pref", "in": "cookie", "schema": {"type": "string"}},
    ],
    "security": {
        "requirements": [{"key": [], "basic": []}, {"tok": []}],
        "optional": False,
        "schemes": {
            "key": {"kind": "apiKey", "in": "query", "name": "api_key"},
            "basic": {"kind": "basic", "in": "header", "name": "Authorization"},
            "tok": {"kind": "bearer", "in": "header", "name": "Authorization"},
        },
    },
    "body": {
        "required": True,
        "contents": [
            {
                "contentType": "application/json",
                "kind": "json",
                "schema": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "minLength": 2},
                        "size": {"type": "integer", "minimum": 1, "maximum": 5},
                        "kind": {"type": "string", "enum": ["a", "b"]},
                        "owner": {
                            "type": "object",
                            "required": ["email"],
                            "properties": {"email": {"type": "string"}},
                        },
                    },
                },
            },
            {
                "contentType": "application/x-www-form-urlencoded",
                "kind": "form",
                "schema": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}, "n": {"type": "integer"}},
                },
            },
        ],
    },
}


def build(page: Page, state: dict) -> dict:
    return page.evaluate("([d, s]) => DocsgenPlayground.buildRequest(d, s)", [DATA, state])


def test_build_request_full(js: Page) -> None:
    state = {
        "serverVars": {"region": "us"},
        "values": {
            "path:id": "a/b c",
            "path:version": 2,
            "query:tags": ["x", "y z"],
            "query:csv": ["1", "2"],
            "query:filter": {"k": "v"},
            "query:limit": 3,
            "header:X-Id": "h1",
            "cookie:pref": "dark",
        },
        "auth": {"key": {"token": "K1"}, "basic": {"username": "ü", "password": "p:w"}},
        "bodyText": '{"name": "Rex", "size": 2}',
    }
    r = build(js, state)
    assert r["errors"] == []
    assert r["url"] == (
        "https://us.api.test/base/v2/items/a%2Fb%20c?tags=x&tags=y%20z&csv=1%2C2&filter%5Bk%5D=v&limit=3&api_key=K1"
    )
    assert r["sample"]["url"].endswith("?tags=x&tags=y%20z&csv=1,2&filter[k]=v&limit=3&api_key=K1")
    basic = "Basic " + base64.b64encode("ü:p:w".encode()).decode()
    assert r["headers"] == [["Authorization", basic], ["X-Id", "h1"]]
    assert r["cookies"] == [["pref", "dark"]]
    assert r["sample"]["headers"][-1] == ["Cookie", "pref=dark"]
    assert r["body"]["json"] == {"name": "Rex", "size": 2}
    assert r["body"]["contentType"] == "application/json"


def test_build_request_required_and_schema_errors(js: Page) -> None:
    r = build(
        js,
        {
            "values": {"path:version": 1, "query:limit": 11},
            "bodyText": '{"size": 9, "kind": "c", "owner": {}}',
        },
    )
    got = {(e["field"], e["path"], e["message"]) for e in r["errors"]}
    assert ("path:id", "id", "is required") in got
    assert ("header:X-Id", "X-Id", "is required") in got
    assert ("query:limit", "limit", "must be at most 10") in got
    assert ("auth:key", "key", "is required") in got and ("auth:basic", "basic", "is required") in got
    assert ("body", "name", "is required") in got
    assert ("body", "size", "must be at most 5") in got
    assert ("body", "kind", 'must be one of "a", "b"') in got
    assert ("body", "owner.email", "is required") in got
    assert "{id}" in r["url"], "an empty path parameter stays a visible template"
    bad = build(js, {"bodyText": '{"name": '})
    assert any("not valid JSON" in e["message"] for e in bad["errors"])
    # the second alternative (bearer) and placeholders in samples when nothing is typed
    r = build(
        js,
        {
            "authIndex": 1,
            "values": {"path:id": "1", "path:version": 1, "header:X-Id": "x"},
            "bodyText": '{"name":"ab"}',
        },
    )
    assert r["sample"]["headers"][0] == ["Authorization", "Bearer <token>"]
    assert [e["field"] for e in r["errors"]] == ["auth:tok"]


def test_urlencoded_body_and_validation_helpers(js: Page) -> None:
    r = build(
        js,
        {
            "bodyIndex": 1,
            "bodyFields": {"a": "x&y=z", "n": 4},
            "authIndex": 1,
            "auth": {"tok": {"token": "t"}},
        },
    )
    assert r["body"]["text"] == "a=x%26y%3Dz&n=4"
    assert r["sample"]["body_kind"] == "form" and r["sample"]["text"] == "a=x%26y%3Dz&n=4"
    checks = js.evaluate(
        """() => {
          const P = DocsgenPlayground;
          return {
            coerced: [P.coerce("12", {type: "integer"}), P.coerce("1.5", {type: "number"}), P.coerce("true", {type: "boolean"}),
                      P.coerce("x1", {type: "integer"}), P.coerce("[1]", {type: "array"})],
            exclusive: P.validate(5, {type: "number", exclusiveMaximum: 5}, "n").map(e => e.message),
            oldExclusive: P.validate(0, {type: "number", minimum: 0, exclusiveMinimum: true}, "n").map(e => e.message),
            pattern: P.validate("ab", {type: "string", pattern: "^a\\\\d$"}, "s").map(e => e.message),
            multiple: P.validate(7, {type: "integer", multipleOf: 5}, "m").map(e => e.message),
            items: P.validate([1, "x"], {type: "array", maxItems: 1, items: {type: "integer"}}, "a").map(e => e.path + " " + e.message),
            nullable: P.validate(null, {type: "string", nullable: true}, "z").length,
            server: P.serverUrl({url: "http://{h}:{p}/x", variables: {h: {default: "a"}, p: {default: 1}}}, {p: "9"}),
            initial: [P.initialValue({schema: {type: "string", default: "d"}}, false), P.initialValue({schema: {type: "string", default: "d"}}, true),
                      P.initialValue({"x-default": "xd", schema: {default: "d"}}, false)],
            xdefaults: P.applyXDefaults({a: 1}, {properties: {a: {type: "integer"}, b: {type: "string", default: "s", "x-default": "X"}}}),
            kinds: ["image/png", "audio/mpeg", "video/webm", "application/problem+json", "text/csv", "application/pdf", ""].map(P.renderKind),
            sizes: [P.formatSize(10), P.formatSize(2048), P.formatSize(3 * 1024 * 1024)],
            proxied: P.proxied("/__docsgen/proxy", "https://a.test/x?y=1"),
          };
        }"""
    )
    assert checks["coerced"] == [12, 1.5, True, "x1", [1]]
    assert checks["exclusive"] == ["must be less than 5"]
    assert checks["oldExclusive"] == ["must be greater than 0"]
    assert checks["pattern"] == ["must match ^a\\d$"]
    assert checks["multiple"] == ["must be a multiple of 5"]
    assert checks["items"] == ["a allows at most 1 items", "a[1] must be an integer"]
    assert checks["nullable"] == 0
    assert checks["server"] == "http://a:9/x"
    assert checks["initial"] == [None, "d", "xd"]
    assert checks["xdefaults"] == {"a": 1, "b": "X"}
    assert checks["kinds"] == ["image", "audio", "video", "json", "text", "binary", "text"]
    assert checks["sizes"] == ["10 B", "2.0 KB", "3.0 MB"]
    assert checks["proxied"] == "/__docsgen/proxy?url=https%3A%2F%2Fa.test%2Fx%3Fy%3D1"


SAMPLES = [
    SampleRequest(
        "GET", "https://api.test/v1/pets?limit=5", [("Authorization", "Bearer <token>"), ("X-Q", "it's $x")]
    ),
    SampleRequest(
        "POST",
        "https://api.test/pets",
        [("X-Id", "1")],
        body_kind="json",
        content_type="application/json",
        json_value={"name": 'Rex "the" dog', "tags": ["a", "b"], "n": 2, "ok": True, "none": None, "o": {}},
    ),
    SampleRequest(
        "PUT",
        "https://api.test/f",
        [],
        body_kind="form",
        content_type="application/x-www-form-urlencoded",
        text="a=1&b=%20",
    ),
    SampleRequest(
        "POST",
        "https://api.test/up",
        [("K", "v")],
        body_kind="multipart",
        form=[("file", "a.png", True), ("note", "hi", False)],
    ),
    SampleRequest(
        "PATCH", "https://api.test/bin", [], body_kind="binary", content_type="application/octet-stream"
    ),
    SampleRequest(
        "DELETE",
        "https://api.test/t",
        [],
        body_kind="text",
        content_type="text/plain",
        text='raw "text" `tick` "#',
    ),
]


def test_js_samples_match_the_python_generators(js: Page) -> None:
    for request in SAMPLES:
        as_js = {
            "method": request.method,
            "url": request.url,
            "headers": [list(h) for h in request.headers],
            "body_kind": request.body_kind,
            "content_type": request.content_type,
            "json_value": request.json_value,
            "text": request.text,
            "form": [list(f) for f in request.form],
        }
        out = js.evaluate(
            "r => Object.fromEntries(Object.entries(DocsgenPlayground.samples).map(([k, f]) => [k, f(r)]))",
            as_js,
        )
        assert set(out) == set(GENERATORS)
        for key, (_label, _hl, generator) in GENERATORS.items():
            assert out[key] == generator(request), f"{key} differs for {request.method} {request.body_kind}"


def _openssl(*args: str, data: bytes | None = None) -> bytes:
    return subprocess.run(["openssl", *args], input=data, check=True, capture_output=True).stdout


def _der_to_raw(sig: bytes, size: int = 32) -> bytes:
    """ECDSA DER (SEQUENCE of two INTEGERs) to the r||s form JWTs use."""
    assert sig[0] == 0x30
    i = 2 if sig[1] < 0x80 else 3
    out = b""
    for _ in range(2):
        length = sig[i + 1]
        out += sig[i + 2 : i + 2 + length].lstrip(b"\x00").rjust(size, b"\x00")
        i += 2 + length
    return out


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def test_es256_tokens_verify_in_the_browser(js: Page, tmp_path: Path) -> None:
    key = tmp_path / "ec.pem"
    _openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", str(key))
    public = _openssl("pkey", "-in", str(key), "-pubout").decode()
    (tmp_path / "pub.pem").write_text(public)
    auth = client_auth(tmp_path, {"publicKey": "pub.pem", "groupsClaim": "org.teams", "audience": "docs"})
    assert auth["keys"][0]["kty"] == "EC" and auth["keys"][0]["crv"] == "P-256"

    def token(claims: dict, alg: str = "ES256") -> str:
        head = _b64url(json.dumps({"alg": alg}).encode()) + "." + _b64url(json.dumps(claims).encode())
        sig = _der_to_raw(_openssl("dgst", "-sha256", "-sign", str(key), data=head.encode()))
        return head + "." + _b64url(sig)

    good = token({"aud": "docs", "org": {"teams": ["core", "admins"]}})
    results = js.evaluate(
        """async ([auth, tokens]) => {
          const out = [];
          for (const t of tokens) {
            const claims = await DocsgenPlayground.auth.verify(t, auth);
            out.push(claims ? DocsgenPlayground.auth.groupsOf(claims, auth.groupsClaim) : null);
          }
          return out;
        }""",
        [
            auth,
            [
                good,
                token({"aud": "other", "org": {"teams": ["admins"]}}),  # wrong audience
                good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB"),  # tampered signature
                token({"aud": "docs"}, alg="RS256"),  # algorithm does not fit the key
                token({"aud": "docs", "exp": 1}),  # expired
                "not.a.jwt",
            ],
        ],
    )
    assert results == [["core", "admins"], None, None, None, None, None]


def test_pem_and_jwk_keys(tmp_path: Path) -> None:
    rsa = tmp_path / "rsa.pem"
    _openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", str(rsa))
    public = _openssl("pkey", "-in", str(rsa), "-pubout").decode()
    assert pem_key(public)["kty"] == "RSA"
    with pytest.raises(AuthConfigError, match="PRIVATE key"):
        pem_key(rsa.read_text())
    rsa_pub1 = _openssl("rsa", "-in", str(rsa), "-RSAPublicKey_out").decode()
    with pytest.raises(AuthConfigError, match="RSA PUBLIC KEY"):
        pem_key(rsa_pub1)
    with pytest.raises(AuthConfigError, match="private or secret"):
        jwk_key({"kty": "RSA", "n": "x", "e": "AQAB", "d": "secret"}, "publicKey")
    assert jwk_key({"kty": "EC", "crv": "P-256", "x": "a", "y": "b", "kid": "k1"}, "jwks") == {
        "jwk": {"kty": "EC", "crv": "P-256", "x": "a", "y": "b"},
        "kid": "k1",
    }
    with pytest.raises(AuthConfigError, match="needs publicKey or jwks"):
        client_auth(tmp_path, {"loginUrl": "https://x"})
    with pytest.raises(AuthConfigError, match="unknown key 'secret'"):
        client_auth(tmp_path, {"secret": "x"})


def _Config(api: dict) -> SiteConfig:
    return SiteConfig(
        "x", ThemeChoice("mint", "mint"), {}, NavNode("root", "", (), {}), api=ApiSection.from_json(api)
    )


def test_check_site_locates_errors_in_docs_json(tmp_path: Path) -> None:
    text = '{\n  "name": "x",\n  "api": {\n    "playground": {\n      "display": "auth"\n    }\n  }\n}\n'
    (tmp_path / "docs.json").write_text(text)
    [diag] = check_site(tmp_path, _Config(json.loads(text)["api"]))
    assert (diag.path, diag.line, diag.code) == ("docs.json", 5, "playground.auth-missing")
    assert '"auth": {"publicKey"' in diag.hint
    text = '{\n  "api": {"playground": {"display": "auth",\n    "auth": {"publicKey": "missing.pem"}}}\n}\n'
    (tmp_path / "docs.json").write_text(text)
    [diag] = check_site(tmp_path, _Config(json.loads(text)["api"]))
    assert (diag.line, diag.json_path) == (3, "api.playground.auth.publicKey")
    assert "neither key text nor a file" in diag.message
    assert check_site(tmp_path, _Config({"playground": {"display": "interactive"}})) == []
