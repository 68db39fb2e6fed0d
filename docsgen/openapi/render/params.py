"""Parameters, request bodies and responses as reference sections, with page-unique anchors."""

from __future__ import annotations

import itertools
from typing import Any

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc, slug
from docsgen.openapi.render.schema_tree import TOKEN, Fragment, TreeRenderer

LOCATIONS = ("path", "query", "header", "cookie")
_IGNORED_HEADERS = {"accept", "content-type", "authorization"}
LOCATION_TITLES = {
    "path": "Path Parameters",
    "query": "Query Parameters",
    "header": "Header Parameters",
    "cookie": "Cookie Parameters",
}


class Ids:
    """Anchor ids claimed on one page, so every id is unique."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def claim(self, base: str) -> str:
        """Return `base`, or `base-2`, `base-3`... whichever is free, and mark it taken."""
        candidate, n = base, 1
        while candidate in self.taken:
            n += 1
            candidate = f"{base}-{n}"
        self.taken.add(candidate)
        return candidate

    def place(self, fragment: Fragment, prefixes: list[str]) -> str:
        """Put a fragment under the first prefix whose ids are all free (then numbered variants); return html."""
        if not fragment.ids:
            return fragment.html.replace(TOKEN, prefixes[0])
        last = prefixes[-1].rstrip(".") or "field"
        for prefix in itertools.chain(prefixes, (f"{last}-{n}." for n in itertools.count(2))):
            ids = fragment.ids if not prefix else {prefix + i for i in fragment.ids}
            if self.taken.isdisjoint(ids):
                self.taken |= ids
                return fragment.html.replace(TOKEN, prefix) if prefix else fragment.html.replace(TOKEN, "")
        raise AssertionError("unreachable")


def merged_parameters(ctx: RenderContext, path_item: dict, operation: dict) -> list[dict]:
    """Path-item parameters overridden by operation parameters with the same name and location."""
    out: dict[tuple[str, str], dict] = {}
    for source in (path_item.get("parameters"), operation.get("parameters")):
        if not isinstance(source, list):
            continue
        for raw in source:
            param = ctx.resolve(raw)
            name, loc = param.get("name"), param.get("in")
            if loc == "header" and isinstance(name, str) and name.lower() in _IGNORED_HEADERS:
                continue  # OpenAPI: these header parameters SHALL be ignored (content types and auth say it)
            if isinstance(name, str) and loc in LOCATIONS:
                out[(name, loc)] = param
    return list(out.values())


def param_schema(param: dict) -> Any:
    """The schema of a parameter (`schema`, or the first `content` media type's schema)."""
    if "schema" in param:
        return param["schema"]
    content = param.get("content")
    if isinstance(content, dict):
        for media in content.values():
            if isinstance(media, dict) and "schema" in media:
                return media["schema"]
    return {}


def param_extra(ctx: RenderContext, param: dict) -> dict:
    """Parameter-level keywords that override the schema's (description, deprecated, examples)."""
    extra: dict[str, Any] = {}
    if isinstance(param.get("description"), str):
        extra["description"] = param["description"]
    if param.get("deprecated") is True:
        extra["deprecated"] = True
    if "example" in param:
        extra["example"] = param["example"]
    exs = param.get("examples")
    if isinstance(exs, dict) and exs:
        values = [ctx.resolve(e).get("value") for e in exs.values() if "value" in ctx.resolve(e)]
        if values:
            extra["examples"] = values
    return extra


def render_parameters(
    ctx: RenderContext, params: list[dict], ids: Ids, sections: list[tuple[str, str, str]]
) -> None:
    """Append (section id, title, html) for each parameter location in use."""
    tree = TreeRenderer(ctx, "request")
    for loc in LOCATIONS:
        group = [p for p in params if p.get("in") == loc]
        if not group:
            continue
        rows = []
        for param in group:
            required = param.get("required") is True or loc == "path"
            frag = tree.field(
                str(param["name"]), param_schema(param), required=required, extra=param_extra(ctx, param)
            )
            rows.append(ids.place(frag, ["", f"{loc}."]))
        sections.append(
            (f"{loc}-parameters", LOCATION_TITLES[loc], f'<div class="dg-api-fields">{"".join(rows)}</div>')
        )


def media_kind(content_type: str, flat_binary: bool = False) -> str:
    """Classify a media type: json, form, multipart, binary or text."""
    ct = content_type.lower()
    if "json" in ct:
        return "json"
    if "x-www-form-urlencoded" in ct:
        return "form"
    if ct.startswith("multipart/"):
        return "multipart"
    major = ct.split("/")[0]
    textual = any(word in ct for word in ("xml", "yaml", "javascript", "text", "csv", "html"))
    if (
        flat_binary
        or "octet-stream" in ct
        or major in ("image", "audio", "video", "font")
        or (major == "application" and not textual)
    ):
        return "binary"
    return "text"


def render_schema_block(
    ctx: RenderContext, tree: TreeRenderer, schema: Any, ids: Ids, prefixes: list[str]
) -> str:
    """A root schema: its type line (type, description, facts) and its rows."""
    flat = tree.flat(schema)
    head = f'<span class="dg-api-type">{esc(tree.label(flat))}</span>'
    if flat.name:
        head += f' <span class="dg-api-typename">{esc(flat.name)}</span>'
    meta = tree.meta(flat.kw)
    rows = ids.place(tree.root(schema), prefixes)
    out = f'<div class="dg-api-root"><div class="dg-api-root-head">{head}</div>{meta}</div>'
    if rows:
        out += f'<div class="dg-api-fields">{rows}</div>'
    return out


def render_contents(
    ctx: RenderContext, content: dict, direction: str, ids: Ids, base: str, first_plain: bool
) -> str:
    """One block per media type (switchable when there are several)."""
    tree = TreeRenderer(ctx, direction)
    blocks = []
    for index, (ctype, media) in enumerate(content.items()):
        media = ctx.resolve(media)
        schema = media.get("schema")
        if index == 0 and first_plain:
            prefixes = ["", f"{base}."]
        elif index == 0:
            prefixes = [f"{base}."]
        else:
            prefixes = [f"{base}.{slug(ctype)}."]
        inner = render_schema_block(ctx, tree, schema, ids, prefixes) if schema is not None else ""
        blocks.append((str(ctype), inner))
    if not blocks:
        return ""
    if len(blocks) == 1:
        ctype, inner = blocks[0]
        return f'<p class="dg-api-media"><code>{esc(ctype)}</code></p>{inner}'
    alts = "".join(
        f'<div class="dg-api-alt" data-title="{esc(ct)}"><p class="dg-api-alt-title"><code>{esc(ct)}</code></p>'
        f"{inner}</div>"
        for ct, inner in blocks
    )
    return f'<div class="dg-api-alts" data-kind="media"><p class="dg-api-alts-label">Content types</p>{alts}</div>'


def render_body(ctx: RenderContext, operation: dict, ids: Ids, direction: str = "request") -> str:
    """The request body section's html ("" when the operation takes no body)."""
    body = ctx.resolve(operation.get("requestBody"))
    content = body.get("content")
    if not isinstance(content, dict) or not content:
        return ""
    parts = []
    desc = ctx.md(body.get("description"))
    if desc:
        parts.append(f'<div class="dg-api-desc">{desc}</div>')
    if body.get("required") is True:
        parts.append(
            '<p class="dg-api-body-required"><span class="dg-api-pill dg-api-required">required</span></p>'
        )
    parts.append(render_contents(ctx, content, direction, ids, "body", True))
    return "".join(parts)


def status_class(status: str) -> str:
    return {"1": "info", "2": "ok", "3": "redirect", "4": "client", "5": "server"}.get(status[:1], "default")


def render_responses(ctx: RenderContext, operation: dict, ids: Ids) -> tuple[str, list[tuple[str, str]]]:
    """The responses section: one block per status code; returns (html, [(anchor id, status)])."""
    responses = operation.get("responses")
    if not isinstance(responses, dict):
        return "", []
    tree = TreeRenderer(ctx, "response")
    blocks, toc = [], []
    for status, raw in responses.items():
        status = str(status)
        resp = ctx.resolve(raw)
        rid = ids.claim(f"response-{slug(status)}")
        toc.append((rid, status))
        parts = [
            f'<div class="dg-api-response" id="{esc(rid)}"><div class="dg-api-response-head">'
            f'<span class="dg-api-status dg-api-status-{status_class(status)}">{esc(status)}</span></div>'
        ]
        desc = ctx.md(resp.get("description"))
        if desc:
            parts.append(f'<div class="dg-api-desc">{desc}</div>')
        headers = resp.get("headers")
        if isinstance(headers, dict) and headers:
            rows = []
            for name, header in headers.items():
                header = ctx.resolve(header)
                frag = tree.field(
                    str(name),
                    param_schema(header),
                    required=header.get("required") is True,
                    extra=param_extra(ctx, header),
                )
                rows.append(ids.place(frag, [f"{rid}.headers."]))
            parts.append(
                f'<p class="dg-api-subhead">Headers</p><div class="dg-api-fields">{"".join(rows)}</div>'
            )
        content = resp.get("content")
        if isinstance(content, dict) and content:
            parts.append(render_contents(ctx, content, "response", ids, rid, False))
        parts.append("</div>")
        blocks.append("".join(parts))
    return "".join(blocks), toc
