"""The playground's display modes on a page, and the site authentication that display `auth` relies on.

docs.json `api.playground.auth` (all keys optional except a key source):
  publicKey    PEM "-----BEGIN PUBLIC KEY-----" text, a path to such a file in the docs folder, or one public JWK
  jwks         {"keys": [JWK, ...]} or a path to a .json file holding it
  loginUrl     the owner's login page; it sends readers back with `#token=<JWT>` (see tokenParam)
  groupsClaim  claim holding the reader's groups (default "groups"; dotted paths allowed)
  issuer, audience   checked against `iss` / `aud` when set
  tokenParam   name of the fragment parameter carrying the token (default "token")
  storageKey   localStorage key where the token is kept (default "docsgen-auth-token")
The JWT (RS256/384/512, PS256/384/512, ES256/384) is verified in the browser with WebCrypto; `exp`/`nbf` are checked.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from pathlib import Path
from typing import Any

from docsgen.common.errors import Diagnostic, error
from docsgen.common.jsonpos import PositionIndex
from docsgen.config.model import SiteConfig
from docsgen.pages.page import Page

PLAYGROUND_ASSETS = frozenset(
    {
        "playground",
        "playground-base",
        "playground-form",
        "playground-body",
        "playground-oauth",
        "playground-env",
        "playground-request",
        "playground-samples",
        "playground-response",
    }
)
AUTH_ASSET = "playground-auth"
_PEM = re.compile(r"-----BEGIN ([A-Z ]+)-----(.*?)-----END \1-----", re.S)
_RSA_OID = bytes.fromhex("2a864886f70d010101")
_EC_OID = bytes.fromhex("2a8648ce3d0201")
_CURVES = {bytes.fromhex("2a8648ce3d030107"): "P-256", bytes.fromhex("2b81040022"): "P-384"}
_PRIVATE_JWK = ("d", "p", "q", "dp", "dq", "qi", "k")
_KEYS = {"publicKey", "jwks", "loginUrl", "groupsClaim", "issuer", "audience", "tokenParam", "storageKey"}


class AuthConfigError(ValueError):
    """A bad api.playground.auth value: message plus the key it is about."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        self.key = key


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def pem_key(text: str) -> dict[str, str]:
    """Return {spki, kty[, crv]} for a PEM public key (SubjectPublicKeyInfo), or raise AuthConfigError."""
    match = _PEM.search(text)
    if not match:
        raise AuthConfigError("publicKey is not a PEM key ('-----BEGIN PUBLIC KEY-----')", "publicKey")
    label = match.group(1)
    if "PRIVATE" in label:
        raise AuthConfigError(
            "publicKey holds a PRIVATE key: put only the public key in docs.json", "publicKey"
        )
    if label != "PUBLIC KEY":
        raise AuthConfigError(
            f"publicKey is a '{label}'; convert it to SubjectPublicKeyInfo: "
            "openssl pkey -pubin -in key.pem -out public.pem",
            "publicKey",
        )
    try:
        der = base64.b64decode("".join(match.group(2).split()), validate=True)
    except (binascii.Error, ValueError):
        raise AuthConfigError("publicKey: the PEM body is not valid base64", "publicKey") from None
    head = der[:40]
    if _RSA_OID in head:
        return {"spki": _b64url(der), "kty": "RSA"}
    if _EC_OID in head:
        for oid, crv in _CURVES.items():
            if oid in head:
                return {"spki": _b64url(der), "kty": "EC", "crv": crv}
        raise AuthConfigError("publicKey: only the EC curves P-256 and P-384 are supported", "publicKey")
    raise AuthConfigError("publicKey: only RSA and EC (P-256, P-384) public keys are supported", "publicKey")


def jwk_key(jwk: Any, key: str) -> dict[str, Any]:
    """Return {jwk[, kid]} for a public JWK, or raise AuthConfigError."""
    if not isinstance(jwk, dict):
        raise AuthConfigError(f"{key}: a JWK must be an object", key)
    if any(k in jwk for k in _PRIVATE_JWK):
        raise AuthConfigError(f"{key}: this JWK holds private or secret parts: keep only the public key", key)
    kty = jwk.get("kty")
    if kty == "RSA" and isinstance(jwk.get("n"), str) and isinstance(jwk.get("e"), str):
        public = {k: jwk[k] for k in ("kty", "n", "e", "alg") if k in jwk}
    elif (
        kty == "EC"
        and jwk.get("crv") in ("P-256", "P-384")
        and all(isinstance(jwk.get(k), str) for k in "xy")
    ):
        public = {k: jwk[k] for k in ("kty", "crv", "x", "y", "alg") if k in jwk}
    else:
        raise AuthConfigError(f"{key}: expected an RSA (n, e) or EC P-256/P-384 (crv, x, y) public JWK", key)
    out: dict[str, Any] = {"jwk": public}
    if isinstance(jwk.get("kid"), str):
        out["kid"] = jwk["kid"]
    return out


def _read(docs_dir: Path, value: str, key: str) -> str:
    path = (docs_dir / value).resolve()
    if not path.is_relative_to(docs_dir.resolve()) or not path.is_file():
        raise AuthConfigError(f"{key}: '{value}' is neither key text nor a file in the docs folder", key)
    return path.read_text(encoding="utf-8")


def client_auth(docs_dir: Path, settings: Any) -> dict[str, Any]:
    """Return what the browser needs to verify readers (public keys only), or raise AuthConfigError."""
    if not isinstance(settings, dict):
        raise AuthConfigError("api.playground.auth must be an object", "")
    unknown = sorted(set(settings) - _KEYS)
    if unknown:
        raise AuthConfigError(
            f"unknown key '{unknown[0]}'; expected one of {', '.join(sorted(_KEYS))}", unknown[0]
        )
    keys: list[dict[str, Any]] = []
    public = settings.get("publicKey")
    if isinstance(public, str):
        text = public if "-----BEGIN" in public else _read(docs_dir, public, "publicKey")
        keys.append(pem_key(text))
    elif public is not None:
        keys.append(jwk_key(public, "publicKey"))
    jwks = settings.get("jwks")
    if isinstance(jwks, str):
        try:
            jwks = json.loads(_read(docs_dir, jwks, "jwks"))
        except json.JSONDecodeError as exc:
            raise AuthConfigError(f"jwks: the file is not JSON ({exc.msg})", "jwks") from None
    if jwks is not None:
        if not isinstance(jwks, dict) or not isinstance(jwks.get("keys"), list):
            raise AuthConfigError('jwks must be {"keys": [...]} or a path to such a JSON file', "jwks")
        keys += [jwk_key(k, "jwks") for k in jwks["keys"]]
    if not keys:
        raise AuthConfigError("needs publicKey or jwks: the public key that verifies readers' tokens", "")
    out: dict[str, Any] = {"keys": keys, "groupsClaim": str(settings.get("groupsClaim") or "groups")}
    for key in ("loginUrl", "issuer", "audience", "tokenParam", "storageKey"):
        if isinstance(settings.get(key), str) and settings[key]:
            out[key] = settings[key]
    return out


def _config_file(docs_dir: Path) -> Path:
    for name in ("docs.json", "mint.json"):
        if (docs_dir / name).is_file():
            return docs_dir / name
    return docs_dir / "docs.json"


def _locate(docs_dir: Path, path: tuple[str | int, ...]) -> tuple[str, int, int]:
    file = _config_file(docs_dir)
    try:
        line, col = PositionIndex(file.read_text(encoding="utf-8")).locate(path)
    except OSError:
        line, col = 0, 0
    return file.name, line, col


_MISSING_HINT = 'add "api": {"playground": {"auth": {"publicKey": "<PEM or file>", "loginUrl": "https://..."}}} to docs.json'


def check_site(docs_dir: Path, config: SiteConfig) -> list[Diagnostic]:
    """Errors for the docs.json side: display `auth` without site authentication, or a bad auth setting."""
    auth = config.api.playground.auth
    if auth is None:
        if config.api.playground.display == "auth":
            where = _locate(docs_dir, ("api", "playground", "display"))
            return [
                error(
                    "playground.auth-missing",
                    "api.playground.display is 'auth' but the site has no authentication to sign readers in",
                    *where,
                    json_path="api.playground.display",
                    hint=_MISSING_HINT,
                )
            ]
        return []
    try:
        client_auth(docs_dir, auth)
    except AuthConfigError as exc:
        path: tuple[str, ...] = ("api", "playground", "auth") + ((exc.key,) if exc.key else ())
        return [error("playground.auth", str(exc), *_locate(docs_dir, path), json_path=".".join(path))]
    return []


def _frontmatter_line(docs_dir: Path, page: Page, key: str) -> tuple[str, int, int]:
    if page.source is None:
        return page.key, 0, 0
    try:
        lines = (docs_dir / page.source).read_text(encoding="utf-8").splitlines()
    except OSError:
        return page.source, 0, 0
    for number, line in enumerate(lines[1:80], start=2):
        if line.startswith(f"{key}:"):
            return page.source, number, 1
    return page.source, 1, 1


def _groups(value: Any) -> list[str]:
    if isinstance(value, str):
        return [g for g in re.split(r"[\s,]+", value) if g]
    if isinstance(value, list):
        return [str(g) for g in value if isinstance(g, str | int)]
    return []


def playground_page(
    docs_dir: Path, config: SiteConfig, page: Page, data: dict
) -> tuple[set[str], list[Diagnostic]]:
    """Complete a page's playground data (groups, auth, credentials); return the assets to load and any errors."""
    if data.get("kind") not in ("operation", "manual"):
        return set(), []
    display = data.get("display", "interactive")
    if display == "none":
        return set(), []
    playground = config.api.playground
    groups = _groups(page.meta.get("groups"))
    if playground.credentials:
        data["credentials"] = True
    if display != "auth" and not groups:
        return set(PLAYGROUND_ASSETS), []
    data["display"] = "auth"
    if groups:
        data["groups"] = groups
    settings = playground.auth
    if settings is None and groups and display != "auth" and page.meta.get("playground") != "auth":
        # No client-side sign-in: `groups` restricts the page itself, which docsgen server's gate guards (a
        # reader who got the page may use its playground); a static host serves it to anyone who has its URL.
        data["display"] = display
        data.pop("groups", None)
        return set(PLAYGROUND_ASSETS), []
    if settings is None:
        key = "groups" if groups and page.meta.get("playground") != "auth" else "playground"
        if page.meta.get(key) is None:
            return set(), []  # the site-wide display: reported once by check_site
        what = "groups" if key == "groups" else "playground: auth"
        return set(), [
            error(
                "playground.auth-missing",
                f"'{what}' shows the playground only to signed-in readers, but the site has no authentication",
                *_frontmatter_line(docs_dir, page, key),
                hint=_MISSING_HINT,
            )
        ]
    try:
        data["auth"] = client_auth(docs_dir, settings)
    except AuthConfigError:
        return set(), []  # reported once, located in docs.json, by check_site
    return set(PLAYGROUND_ASSETS) | {AUTH_ASSET}, []
