"""Parameters, request bodies and responses as reference sections (HTML with page-unique anchors, and Markdown)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.encoding import render_encoding
from docsgen.openapi.render.fmt import esc, slug
from docsgen.openapi.render.mdtext import code, inline
from docsgen.openapi.render.operation_view import LOCATIONS, MediaType, Parameter, RequestBody, Response
from docsgen.openapi.render.response_links import render_links
from docsgen.openapi.render.schema_tree import TOKEN, Fragment, TreeRenderer

LOCATION_TITLES = {
    "path": "Path Parameters",
    "query": "Query Parameters",
    "header": "Header Parameters",
    "cookie": "Cookie Parameters",
}


@dataclass(frozen=True)
class Section:
    """One reference section: anchor id, title, HTML, Markdown, and for search its description and top fields."""

    sid: str
    title: str
    html: str
    md: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)  # (name, description html), first level
    desc: str = ""  # description html


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


def param_extra(param: Parameter) -> dict:
    """Parameter-level keywords that override the schema's (description, deprecated, examples)."""
    extra: dict[str, Any] = {}
    if param.description is not None:
        extra["description"] = param.description
    if param.deprecated:
        extra["deprecated"] = True
    if param.has_example:
        extra["example"] = param.example
    if param.examples:
        extra["examples"] = list(param.examples)
    return extra


def render_parameters(
    ctx: RenderContext, params: tuple[Parameter, ...], ids: Ids, sections: list[Section]
) -> None:
    """Append a Section for each parameter location in use."""
    tree = TreeRenderer(ctx, "request")
    for loc in LOCATIONS:
        group = [p for p in params if p.location == loc]
        if not group:
            continue
        rows, mds, top = [], [], []
        for param in group:
            frag, desc = _parameter_row(ctx, tree, param)
            rows.append(ids.place(frag, ["", f"{loc}."]))
            mds.append(frag.md)
            top.append((param.name, desc))
        sections.append(
            Section(
                f"{loc}-parameters",
                ctx.word(f"{loc}_parameters", LOCATION_TITLES[loc]),
                f'<div class="dg-api-fields">{"".join(rows)}</div>',
                "\n".join(mds),
                top,
            )
        )


def _parameter_row(ctx: RenderContext, tree: TreeRenderer, param: Parameter) -> tuple[Fragment, str]:
    """A parameter's row and its description html; memoised per parameter view (one per $ref'd parameter)."""
    key = ("param", id(param))
    hit = ctx.fragments.get(key)
    if hit is not None and hit[0] is param:
        return hit[1], hit[2]
    extra = param_extra(param)
    frag = tree.field(param.name, param.schema, required=param.required, extra=extra)
    desc = ctx.md(extra.get("description", tree.flat(param.schema).kw.get("description")))
    if not frag.hits:
        ctx.fragments[key] = (param, frag, desc)  # the parameter is kept alive with it: its id stays unique
    return frag, desc


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
) -> tuple[str, str]:
    """A root schema: its type line (type, description, facts) and its rows, as (html, Markdown)."""
    flat = tree.flat(schema)
    label = tree.label(flat)
    head = f'<span class="dg-api-type">{esc(label)}</span>'
    head_md = f"{ctx.word('type', 'Type')}: {code(label)}"
    if flat.name:
        head += f' <span class="dg-api-typename">{esc(flat.name)}</span>'
        head_md += f" ({flat.name})" if label != flat.name else ""
    meta, desc_md, lines = tree.meta_both(flat.kw)
    root = tree.root(schema)
    rows = ids.place(root, prefixes)
    out = f'<div class="dg-api-root"><div class="dg-api-root-head">{head}</div>{meta}</div>'
    if rows:
        out += f'<div class="dg-api-fields">{rows}</div>'
    md = "\n\n".join(p for p in (head_md, desc_md, "\n".join(lines), root.md) if p)
    return out, md


def top_fields(ctx: RenderContext, tree: TreeRenderer, schema: Any) -> list[tuple[str, str]]:
    """(name, description html) of a root schema's first-level fields (its alternatives' too), for search.

    Memoised per schema object and direction (shared response schemas come back on many pages).
    """
    key = ("top", id(schema), tree.direction)
    hit = ctx.fragments.get(key)
    if hit is not None and hit[0] is schema:
        return list(hit[1])
    found = _top_fields(ctx, tree, schema)
    ctx.fragments[key] = (schema, tuple(found))  # the schema is kept alive with it: its id stays unique
    return found


def _top_fields(ctx: RenderContext, tree: TreeRenderer, schema: Any) -> list[tuple[str, str]]:
    node = tree.flat(schema)
    for _ in range(8):  # arrays of arrays, as TreeRenderer.root
        inner = tree.items_of(node)
        if node.has_children() or inner is None:
            break
        node = inner
    out: dict[str, str] = {}
    for flat in (node, *(tree.flat(alt) for _, alt in node.alternatives[:20])):
        for name, sub in flat.props.items():
            child = tree.flat(sub)
            if str(name) not in out and not tree.hidden(child):
                out[str(name)] = ctx.md(child.kw.get("description"))
    return list(out.items())


def render_contents(
    ctx: RenderContext,
    content: tuple[MediaType, ...],
    direction: str,
    ids: Ids,
    base: str,
    first_plain: bool,
    top: list[tuple[str, str]] | None = None,
) -> tuple[str, str]:
    """One block per media type (switchable when there are several), as (html, Markdown).

    `top`, when given, receives the first media type's first-level fields (for search).
    """
    tree = TreeRenderer(ctx, direction)
    blocks = []
    mds = []
    for index, media in enumerate(content):
        ctype, schema = media.content_type, media.schema
        if index == 0 and first_plain:
            prefixes = ["", f"{base}."]
        elif index == 0:
            prefixes = [f"{base}."]
        else:
            prefixes = [f"{base}.{slug(ctype)}."]
        inner, inner_md = (
            render_schema_block(ctx, tree, schema, ids, prefixes) if schema is not None else ("", "")
        )
        if index == 0 and top is not None and schema is not None:
            top += top_fields(ctx, tree, schema)
        enc_html, enc_md = render_encoding(ctx, media.encoding)
        inner += enc_html
        inner_md = "\n\n".join(p for p in (inner_md, enc_md) if p)
        blocks.append((ctype, inner))
        mds.append(
            f"{ctx.word('content_type', 'Content type')}: {code(ctype)}"
            + (f"\n\n{inner_md}" if inner_md else "")
        )
    if not blocks:
        return "", ""
    md = "\n\n".join(mds)
    if len(blocks) == 1:
        ctype, inner = blocks[0]
        return f'<p class="dg-api-media"><code>{esc(ctype)}</code></p>{inner}', md
    label = esc(ctx.word("content_types", "Content types"))
    alts = "".join(
        f'<div class="dg-api-alt" data-title="{esc(ct)}"><p class="dg-api-alt-title"><code>{esc(ct)}</code></p>'
        f"{inner}</div>"
        for ct, inner in blocks
    )
    html = f'<div class="dg-api-alts" data-kind="media"><p class="dg-api-alts-label">{label}</p>{alts}</div>'
    return html, md


def render_body(
    ctx: RenderContext, body: RequestBody | None, ids: Ids, direction: str = "request"
) -> Section | None:
    """The request body section (None when the operation takes no body); its id and title are the caller's."""
    if body is None:
        return None
    parts, mds = [], []
    desc = ctx.md(body.description)
    if desc:
        parts.append(f'<div class="dg-api-desc">{desc}</div>')
        mds.append(ctx.mdt(body.description))
    if body.required:
        parts.append(
            '<p class="dg-api-body-required"><span class="dg-api-pill dg-api-required">'
            f"{esc(ctx.word('required', 'required'))}</span></p>"
        )
        mds.append(ctx.word("body_is_required", "The body is required."))
    top: list[tuple[str, str]] = []
    html, md = render_contents(ctx, body.content, direction, ids, "body", True, top)
    parts.append(html)
    mds.append(md)
    return Section("body", "", "".join(parts), "\n\n".join(m for m in mds if m), top, desc)


def status_class(status: str) -> str:
    return {"1": "info", "2": "ok", "3": "redirect", "4": "client", "5": "server"}.get(status[:1], "default")


def render_responses(
    ctx: RenderContext, responses: tuple[Response, ...], ids: Ids
) -> tuple[str, str, list[tuple[str, str]], list[Section]]:
    """The responses section: one block per status code.

    Returns (html, Markdown, [(anchor id, status)], per-status search sections).
    """
    tree = TreeRenderer(ctx, "response")
    blocks, toc, mds, found = [], [], [], []
    for resp in responses:
        status = resp.status
        rid = ids.claim(f"response-{slug(status)}")
        toc.append((rid, status))
        parts = [
            f'<div class="dg-api-response" id="{esc(rid)}"><div class="dg-api-response-head">'
            f'<span class="dg-api-status dg-api-status-{status_class(status)}">{esc(status)}</span></div>'
        ]
        desc = ctx.md(resp.description)
        md = [f"### {inline(status)}"]
        if desc:
            parts.append(f'<div class="dg-api-desc">{desc}</div>')
            md.append(ctx.mdt(resp.description))
        top: list[tuple[str, str]] = []
        if resp.headers:
            rows, header_mds = [], []
            for header in resp.headers:
                frag = tree.field(
                    header.name, header.schema, required=header.required, extra=param_extra(header)
                )
                rows.append(ids.place(frag, [f"{rid}.headers."]))
                header_mds.append(frag.md)
            title = ctx.word("headers", "Headers")
            parts.append(
                f'<p class="dg-api-subhead">{esc(title)}</p><div class="dg-api-fields">{"".join(rows)}</div>'
            )
            md.append(f"{title}:\n\n" + "\n".join(header_mds))
        if resp.content:
            html, content_md = render_contents(ctx, resp.content, "response", ids, rid, False, top)
            parts.append(html)
            md.append(content_md)
        links_html, links_md = render_links(ctx, resp.links)
        parts.append(links_html)
        md.append(links_md)
        parts.append("</div>")
        blocks.append("".join(parts))
        mds.append("\n\n".join(m for m in md if m))
        found.append(Section(rid, status, "", "", top, desc))
    return "".join(blocks), "\n\n".join(mds), toc, found
