"""Authentication: which schemes apply to an operation (its view's `security`), how each credential is sent, and
the Authorizations rows of a page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc, slug
from docsgen.openapi.render.mdtext import code, item


@dataclass(frozen=True)
class AuthField:
    """One credential a request carries: where it goes and how it is written."""

    scheme: str  # securitySchemes key
    kind: str  # "bearer" | "basic" | "apiKey" | "oauth2" | "openIdConnect" | "http"
    location: str  # "header" | "query" | "cookie"
    name: str  # header/query/cookie name
    description: str = ""  # spec description (Markdown)
    scopes: tuple[str, ...] = ()
    default: Any = None  # x-default
    placeholder: str = "<token>"


_SCHEME_DETAILS = ("scheme", "bearerFormat", "openIdConnectUrl")
_FLOW_KEYS = ("authorizationUrl", "tokenUrl", "refreshUrl", "scopes")


def auth_field(name: str, scheme: dict, required_scopes: Sequence[str]) -> AuthField:
    """Describe how scheme `name` is sent."""
    scopes = tuple(required_scopes)
    stype = str(scheme.get("type", "")).strip()
    desc = found if isinstance(found := scheme.get("description"), str) else ""
    default = scheme.get("x-default")
    if stype == "apiKey":
        loc = str(scheme["in"]) if scheme.get("in") in ("header", "query", "cookie") else "header"
        return AuthField(
            name, "apiKey", loc, str(scheme.get("name") or name), desc, scopes, default, "<api-key>"
        )
    if stype == "http":
        http = str(scheme.get("scheme", "")).lower()
        if http == "basic":
            return AuthField(
                name, "basic", "header", "Authorization", desc, scopes, default, "<encoded-value>"
            )
        if http == "bearer":
            return AuthField(name, "bearer", "header", "Authorization", desc, scopes, default, "<token>")
        return AuthField(name, "http", "header", "Authorization", desc, scopes, default, "<credentials>")
    if stype == "mutualTLS":
        return AuthField(name, "mutualTLS", "tls", "Client certificate", desc, scopes, default, "")
    if stype in ("oauth2", "openIdConnect"):
        return AuthField(name, stype, "header", "Authorization", desc, scopes, default, "<token>")
    return AuthField(
        name, stype or "unknown", "header", "Authorization", desc, scopes, default, "<credentials>"
    )


@dataclass(frozen=True)
class Scheme:
    """A security scheme an operation's requirements name, as the playground needs it."""

    name: str
    type: str
    auth: AuthField  # how a credential of this scheme is sent
    # scheme / bearerFormat / openIdConnectUrl, then x-default, as written
    details: tuple[tuple[str, Any], ...]
    flows: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] | None  # OAuth 2 flows (None: none written)


@dataclass(frozen=True)
class Security:
    """The security requirements in force (the operation's, else the spec's) and the schemes they use."""

    requirements: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]  # alternatives of (scheme, scopes)
    alternatives: tuple[tuple[AuthField, ...], ...]  # the requirements whose schemes are defined, as fields
    optional: bool  # an empty requirement: calling without credentials is allowed
    schemes: tuple[Scheme, ...]  # every defined scheme the requirements name, sorted by name


def _requirements(ctx: RenderContext, operation: dict) -> list[dict[str, list[str]]]:
    sec = operation.get("security") if "security" in operation else ctx.data.get("security")
    if not isinstance(sec, list):
        return []
    return [
        {str(k): [str(s) for s in v] if isinstance(v, list) else [] for k, v in req.items()}
        for req in sec
        if isinstance(req, dict)
    ]


def _scheme(name: str, scheme: dict) -> Scheme:
    details = [(key, scheme[key]) for key in _SCHEME_DETAILS if isinstance(scheme.get(key), str)]
    if "x-default" in scheme:
        details.append(("x-default", scheme["x-default"]))
    flows = scheme.get("flows")
    return Scheme(
        name=name,
        type=str(scheme.get("type", "")),
        auth=auth_field(name, scheme, []),
        details=tuple(details),
        flows=tuple(
            (str(k), tuple((key, v[key]) for key in _FLOW_KEYS if isinstance(v, dict) and key in v))
            for k, v in flows.items()
        )
        if isinstance(flows, dict)
        else None,
    )


def security_of(ctx: RenderContext, operation: dict) -> Security:
    """The requirement alternatives in force (operation `security` overrides the root's) and their schemes."""
    comps = ctx.data.get("components")
    raw = comps.get("securitySchemes") if isinstance(comps, dict) else None
    defs = {str(k): ctx.resolve(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
    reqs = _requirements(ctx, operation)
    alts: list[tuple[AuthField, ...]] = []
    for req in reqs:
        fields = tuple(auth_field(name, defs[name], scopes) for name, scopes in req.items() if name in defs)
        if fields:
            alts.append(fields)
    used = sorted({name for req in reqs for name in req if name in defs})
    return Security(
        requirements=tuple(tuple((name, tuple(scopes)) for name, scopes in req.items()) for req in reqs),
        alternatives=tuple(alts),
        optional=any(not req for req in reqs),
        schemes=tuple(_scheme(name, defs[name]) for name in used),
    )


def header_value(f: AuthField) -> str:
    """The value written in code samples for this credential."""
    if f.kind in ("bearer", "oauth2", "openIdConnect"):
        return f"Bearer {f.placeholder}"
    if f.kind == "basic":
        return f"Basic {f.placeholder}"
    if f.kind == "http":
        return f.placeholder
    return f.placeholder


# how each kind of credential is sent: (key, English text, {form}, {value}, {pair} as HTML, the same as Markdown)
_EXPLAIN = {
    "bearer": (
        "auth_bearer",
        "Bearer authentication header of the form {form}, where {value} is your auth token.",
        ("<code>Bearer &lt;token&gt;</code>", "<code>&lt;token&gt;</code>", ""),
        ("`Bearer <token>`", "`<token>`", ""),
    ),
    "basic": (
        "auth_basic",
        "Basic authentication header of the form {form}, where {value} is the base64-encoded string {pair}.",
        (
            "<code>Basic &lt;encoded-value&gt;</code>",
            "<code>&lt;encoded-value&gt;</code>",
            "<code>username:password</code>",
        ),
        ("`Basic <encoded-value>`", "`<encoded-value>`", "`username:password`"),
    ),
    "oauth2": (
        "auth_oauth2",
        "The access token received from the authorization server in the OAuth 2.0 flow.",
        (),
        (),
    ),
    "openIdConnect": ("auth_oidc", "An OpenID Connect access token.", (), ()),
    "mutualTLS": ("auth_mtls", "Requests must present a TLS client certificate (mutual TLS).", (), ()),
}


def _explain(ctx: RenderContext, f: AuthField, markdown: bool = False) -> str:
    """How the credential is sent, in the page's language (HTML, or Markdown); "" for an API key."""
    if f.kind not in _EXPLAIN:
        return ""
    key, english, html_parts, md_parts = _EXPLAIN[f.kind]
    text = ctx.word(key, english)
    text = text if markdown else esc(text)
    for name, part in zip(
        ("{form}", "{value}", "{pair}"), md_parts if markdown else html_parts, strict=False
    ):
        text = text.replace(name, part)
    return text


def _explain_md(ctx: RenderContext, f: AuthField) -> str:
    return _explain(ctx, f, markdown=True)


def render_auth(
    ctx: RenderContext, alts: Sequence[Sequence[AuthField]], optional: bool, claim: Callable[[str], str]
) -> tuple[str, str]:
    """Rows of the Authorizations section as (html, Markdown) (`claim(base)` returns a unique anchor id)."""
    if not alts:
        return "", ""
    blocks = []
    md_blocks = []
    required, scopes_label = ctx.word("required", "required"), ctx.word("scopes", "Scopes")
    for fields in alts:
        rows = []
        mds = []
        for f in fields:
            rid = claim(slug(f.name))
            head = [
                f'<a class="dg-api-name" href="#{esc(rid)}">{esc(f.name)}</a>',
                f'<span class="dg-api-type">{"certificate" if f.kind == "mutualTLS" else "string"}</span>',
                f'<span class="dg-api-pill dg-api-in">{esc(f.location)}</span>',
            ]
            if not optional:
                head.append(f'<span class="dg-api-pill dg-api-required">{esc(required)}</span>')
            desc = ctx.md(f.description)
            explain = _explain(ctx, f)
            body = f'<div class="dg-api-desc">{desc}</div>' if desc else ""
            if explain:
                body += f'<div class="dg-api-desc"><p>{explain}</p></div>'
            if f.scopes:
                scopes = ", ".join(f"<code>{esc(s)}</code>" for s in f.scopes)
                body += f'<ul class="dg-api-facts"><li>{esc(scopes_label)}: {scopes}</li></ul>'
            bits = ["`certificate`" if f.kind == "mutualTLS" else "`string`", f.location]
            lines = [_explain_md(ctx, f)] if explain else []
            if f.scopes:
                lines.append(f"{scopes_label}: " + ", ".join(code(s) for s in f.scopes))
            mds.append(
                item(
                    f"{code(f.name)} ({', '.join([*bits, *([] if optional else [required])])})",
                    ctx.mdt(f.description),
                    lines,
                )
            )
            rows.append(
                f'<div class="dg-api-field" id="{esc(rid)}" data-scheme="{esc(f.scheme)}">'
                f'<div class="dg-api-field-head">{" ".join(head)}</div>{body}</div>'
            )
        label = " + ".join(f.scheme for f in fields)
        blocks.append((label, "".join(rows)))
        md_blocks.append((label, "\n".join(mds)))
    if len(blocks) == 1:
        return blocks[0][1], md_blocks[0][1]
    one_of = ctx.word("one_of", "One of")
    md = item(f"{one_of}:", children="\n".join(item(code(label), children=rows) for label, rows in md_blocks))
    alts_html = "".join(
        f'<div class="dg-api-alt" data-title="{esc(label)}"><p class="dg-api-alt-title">{esc(label)}</p>'
        f'<div class="dg-api-fields">{rows}</div></div>'
        for label, rows in blocks
    )
    html = f'<div class="dg-api-alts" data-kind="security"><p class="dg-api-alts-label">{esc(one_of)}</p>{alts_html}</div>'
    return html, md
