"""Authentication: which schemes apply to an operation, their reference rows and their playground data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc, slug
from docsgen.openapi.render.mdtext import code, item


@dataclass
class AuthField:
    """One credential a request carries: where it goes and how it is written."""

    scheme: str  # securitySchemes key
    kind: str  # "bearer" | "basic" | "apiKey" | "oauth2" | "openIdConnect" | "http"
    location: str  # "header" | "query" | "cookie"
    name: str  # header/query/cookie name
    description: str = ""  # spec description (Markdown)
    scopes: list[str] = field(default_factory=list)
    default: Any = None  # x-default
    placeholder: str = "<token>"


def requirements(ctx: RenderContext, operation: dict) -> list[dict[str, list[str]]]:
    """The security requirement alternatives in force (operation `security` overrides the root; [] = none)."""
    sec = operation.get("security") if "security" in operation else ctx.data.get("security")
    if not isinstance(sec, list):
        return []
    out = []
    for req in sec:
        if isinstance(req, dict):
            out.append({str(k): [str(s) for s in v] if isinstance(v, list) else [] for k, v in req.items()})
    return out


def schemes(ctx: RenderContext) -> dict[str, dict]:
    """The resolved `components.securitySchemes`."""
    comps = ctx.data.get("components")
    raw = comps.get("securitySchemes") if isinstance(comps, dict) else None
    if not isinstance(raw, dict):
        return {}
    return {str(k): ctx.resolve(v) for k, v in raw.items()}


def auth_field(name: str, scheme: dict, scopes: list[str]) -> AuthField:
    """Describe how scheme `name` is sent."""
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


def chosen(ctx: RenderContext, operation: dict) -> tuple[list[list[AuthField]], bool]:
    """Return the alternatives as lists of fields, and whether auth is optional (an empty requirement)."""
    defs = schemes(ctx)
    alts: list[list[AuthField]] = []
    optional = False
    for req in requirements(ctx, operation):
        if not req:
            optional = True
            continue
        fields = [auth_field(name, defs[name], scopes) for name, scopes in req.items() if name in defs]
        if fields:
            alts.append(fields)
    return alts, optional


def render_auth(ctx: RenderContext, alts: list[list[AuthField]], optional: bool, claim) -> tuple[str, str]:
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


def playground_security(ctx: RenderContext, operation: dict) -> dict[str, Any]:
    """The playground's view: requirement alternatives and every scheme they use (with x-default)."""
    reqs = requirements(ctx, operation)
    defs = schemes(ctx)
    used = sorted({name for req in reqs for name in req})
    out_schemes: dict[str, Any] = {}
    for name in used:
        scheme = defs.get(name)
        if scheme is None:
            continue
        f = auth_field(name, scheme, [])
        entry: dict[str, Any] = {
            "type": str(scheme.get("type", "")),
            "kind": f.kind,
            "in": f.location,
            "name": f.name,
        }
        for key in ("scheme", "bearerFormat", "openIdConnectUrl"):
            if isinstance(scheme.get(key), str):
                entry[key] = scheme[key]
        if "x-default" in scheme:
            entry["x-default"] = scheme["x-default"]
        flows = scheme.get("flows")
        if isinstance(flows, dict):
            entry["flows"] = {
                str(k): {
                    key: v[key]
                    for key in ("authorizationUrl", "tokenUrl", "refreshUrl", "scopes")
                    if isinstance(v, dict) and key in v
                }
                for k, v in flows.items()
            }
        out_schemes[name] = entry
    return {"requirements": reqs, "schemes": out_schemes, "optional": any(not r for r in reqs)}
