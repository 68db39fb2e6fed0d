"""Assemble endpoint, webhook and schema-model pages from the section renderers."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from docsgen.mdx.types import TocItem
from docsgen.openapi.render import ApiSettings, RenderedApi
from docsgen.openapi.render.aside import (
    build_request,
    code_samples,
    join_url,
    panels,
    payload_examples,
    response_examples,
    server_url,
)
from docsgen.openapi.render.callbacks import render_callbacks
from docsgen.openapi.render.context import RenderContext, get_context, plain_text
from docsgen.openapi.render.examples import example_for
from docsgen.openapi.render.fmt import esc, without_deprecated_lead
from docsgen.openapi.render.mdtext import code, fence, inline
from docsgen.openapi.render.operation_view import OperationView, Server, operation_view
from docsgen.openapi.render.params import (
    Ids,
    Section,
    render_body,
    render_parameters,
    render_responses,
)
from docsgen.openapi.render.playground import playground_data
from docsgen.openapi.render.schema_tree import TreeRenderer
from docsgen.openapi.render.search_record import operation_record
from docsgen.openapi.render.security import render_auth

_PATH_PARAM = re.compile(r"(\{[^}/]*\})")


def method_badge(method: str) -> str:
    m = method.lower()
    return f'<span class="dg-api-method dg-api-method-{esc(m)}">{esc(method.upper())}</span>'


_SEGMENT_START = re.compile(
    r"(?<=[^/:])/(?!/)"
)  # a "/" after a segment (not a leading one, not a scheme's "//")


def breakable(text: str) -> str:
    """Escaped text that may wrap before each segment's "/" and after a scheme's "://", never inside a segment."""
    return _SEGMENT_START.sub("<wbr>/", esc(text)).replace("://", "://<wbr>")  # escaping makes no "/"


def path_html(path: str) -> str:
    """The path with `{param}` segments marked (escaped), free to wrap before a "/" but not at its start."""
    out = []
    for part in _PATH_PARAM.split(path):
        if _PATH_PARAM.fullmatch(part):
            out.append(f'<span class="dg-api-path-param">{esc(part)}</span>')
        elif part:
            out.append(("<wbr>" if out and part.startswith("/") else "") + breakable(part))
    return "".join(out)


def endpoint_bar(
    ctx: RenderContext, method: str, path: str, servers: tuple[Server, ...], label: str = ""
) -> str:
    """Method badge and path (with the first server's base URL when docs.json api.url is "full")."""
    base = ""
    if getattr(ctx.settings, "base_url_display", "relative") == "full" and servers:
        base = server_url(servers[0]).rstrip("/")
    base_html = f'<span class="dg-api-base">{breakable(base)}</span>' if base else ""
    extra = f'<span class="dg-api-kind">{esc(label)}</span>' if label else ""
    return (
        f'<div class="dg-api-endpoint" data-method="{esc(method.lower())}">{extra}{method_badge(method)}'
        f'<code class="dg-api-url">{base_html}{path_html(path)}</code></div>'
    )


def with_page_content(api_html: str, content_html: str) -> str:
    """Put MDX written for an API page right under its method and path bar, as Mintlify does, then the reference.

    Pages without a bar (schemas) show the MDX first.
    """
    if not content_html.strip():
        return api_html
    start = api_html.find('<div class="dg-api-endpoint"')
    end = api_html.find("</code></div>", start) if start >= 0 else -1
    if end < 0:
        return content_html + api_html
    end += len("</code></div>")
    return f'{api_html[:end]}<div class="dg-api-page-content">{content_html}</div>{api_html[end:]}'


def first_paragraph(ctx: RenderContext, text: Any) -> str:
    """The plain first paragraph of a Markdown description (for the meta description)."""
    if not isinstance(text, str) or not text.strip():
        return ""
    para = re.split(r"\n\s*\n", text.strip(), maxsplit=1)[0]
    # One paragraph: the description's own html is cached already (the page shows it).
    return plain_text(ctx.md(text if para == text.strip() else para))


def panels_md(title: str, items: list[tuple[str, str, str, str]]) -> str:
    """The twin's form of a panel group: a section with one fenced block per sample or example."""
    if not items:
        return ""
    blocks = [f"### {inline(label)}\n\n{fence(hl, text)}" for _key, label, hl, text in items]
    return f"## {title}\n\n" + "\n\n".join(blocks)


def _section(sid: str, title: str, body: str) -> str:
    return (
        f'<section class="dg-api-section" aria-labelledby="{esc(sid)}">'
        f'<h2 class="dg-api-heading" id="{esc(sid)}">{esc(title)}</h2>{body}</section>'
    )


def endpoint_md(
    method: str,
    path: str,
    servers: tuple[Server, ...],
    webhook: str = "",
    other_servers: str = "Other servers",
) -> str:
    """The twin's endpoint line: method and full URL (first server), then any other servers; a webhook's line
    starts with `webhook`, the word for it in the page's language."""
    if webhook:
        return f"{webhook}: **{method.upper()}** {code(path)}"
    urls = [server_url(s).rstrip("/") for s in servers]
    line = f"**{method.upper()}** {code(join_url(urls[0], path) if urls else path)}"
    if len(urls) > 1:
        line += f"\n\n{other_servers}: " + ", ".join(code(u) for u in urls[1:])
    return line


@dataclass(frozen=True)
class _Part:
    """One titled part of an operation's page: a section of its HTML and twin, an entry of its contents."""

    hid: str
    title: str
    html: str
    md: str
    entries: tuple[tuple[str, str], ...] = ()  # (anchor id, title) of its sub-entries in the contents


@dataclass(frozen=True)
class _Reference:
    """The reference parts of an operation's page, and what of them the search record indexes."""

    parts: list[_Part]
    searched: list[tuple[str, Section]]  # (heading id, section): authorizations, parameters, body
    response: tuple[str, list[Section]] | None  # (heading id, each status's section)
    callbacks: tuple[str, list[tuple[str, str]]] | None  # (heading id, [(id, name)])


def _reference(ctx: RenderContext, view: OperationView, ids: Ids) -> _Reference:
    """Render the parts in page order (anchor ids are claimed in the order the page has always claimed them)."""
    sections: list[Section] = []
    operation = view.kind == "operation"
    if operation:
        alts, optional = view.security.alternatives, view.security.optional
        auth_html, auth_md = render_auth(ctx, alts, optional, ids.claim)
        if auth_html:
            top = [(f.name, ctx.md(f.description)) for fields in alts for f in fields]
            heading = ctx.word("authorizations", "Authorizations")
            sections.append(Section("authorizations", heading, auth_html, auth_md, top))
    render_parameters(ctx, view.parameters, ids, sections)
    body = render_body(ctx, view.body, ids, "request" if operation else "")
    if body is not None:
        title = ctx.word("body", "Body") if operation else ctx.word("payload", "Payload")
        sections.append(replace(body, title=title))
    resp_html, resp_md, resp_toc, resp_found = render_responses(ctx, view.responses, ids)
    parts: list[_Part] = []
    searched: list[tuple[str, Section]] = []
    for section in sections:
        hid = ids.claim(f"api-{section.sid}")
        parts.append(_Part(hid, section.title, section.html, section.md))
        searched.append((hid, section))
    response: tuple[str, list[Section]] | None = None
    if resp_html:
        hid = ids.claim("api-response")
        parts.append(_Part(hid, ctx.word("response", "Response"), resp_html, resp_md, tuple(resp_toc)))
        response = (hid, resp_found)
    cb_html, cb_md, cb_toc = render_callbacks(ctx, view.callbacks, ids)
    callbacks: tuple[str, list[tuple[str, str]]] | None = None
    if cb_html:
        hid = ids.claim("api-callbacks")
        parts.append(_Part(hid, ctx.word("callbacks", "Callbacks"), cb_html, cb_md, tuple(cb_toc)))
        callbacks = (hid, cb_toc)
    return _Reference(parts, searched, response, callbacks)


def _examples(ctx: RenderContext, view: OperationView) -> tuple[str, list[str]]:
    """The right-hand column (request samples or payload, response examples) and its twin's sections."""
    aside: list[str] = []
    md: list[str] = []
    if view.kind == "operation":
        alts = view.security.alternatives
        request = build_request(ctx, view, alts[0] if alts else ())
        items = code_samples(ctx, view, request)
        aside.append(panels("lang", ctx.word("request", "Request"), items, len(view.code_samples)))
        md.append(panels_md(ctx.word("request_example", "Request example"), items))
    else:
        items = payload_examples(ctx, view.body)
        aside.append(panels("payload", ctx.word("payload", "Payload"), items))
        md.append(panels_md(ctx.word("payload_example", "Payload example"), items))
    items = response_examples(ctx, view.responses)
    aside.append(panels("response", ctx.word("response", "Response"), items))
    md.append(panels_md(ctx.word("response_example", "Response example"), items))
    return (f'<div class="dg-api-examples">{"".join(aside)}</div>' if any(aside) else ""), md


def _page(ctx: RenderContext, view: OperationView) -> RenderedApi:
    """An operation's or webhook's page: its HTML, twin, contents, search record and playground data, all made
    from the one view."""
    ids = Ids()
    budget = ctx.new_page()
    method, path = view.method, view.path
    webhook = ctx.word("webhook", "Webhook") if view.kind == "webhook" else ""
    # a deprecated operation's title has the badge: its description need not open with "Deprecated."
    text = without_deprecated_lead(view.description) if view.deprecated else view.description
    desc = ctx.md(text)
    ref = _reference(ctx, view, ids)
    aside_html, aside_md = _examples(ctx, view)
    html = [endpoint_bar(ctx, method, path, view.servers, webhook)]
    html += [f'<div class="dg-api-description">{desc}</div>'] if desc else []
    html += [_section(part.hid, part.title, part.html) for part in ref.parts]
    md = [endpoint_md(method, path, view.servers, webhook, ctx.word("other_servers", "Other servers"))]
    md += [ctx.mdt(text)] if desc else []
    md += [f"## {part.title}\n\n{part.md}" for part in ref.parts]
    md += aside_md
    toc: list[TocItem] = []
    for part in ref.parts:
        toc += [TocItem(2, part.hid, part.title), *(TocItem(3, eid, title) for eid, title in part.entries)]
    flag = ' data-deprecated="true"' if view.deprecated else ""  # the page title shows the badge
    return RenderedApi(
        html=f'<div class="dg-api" data-kind="{esc(view.kind)}"{flag}>{"".join(html)}</div>',
        aside_html=aside_html,
        toc=toc,
        title=view.title,
        description=first_paragraph(ctx, view.description),
        deprecated=view.deprecated,
        playground=playground_data(ctx, view),
        markdown="\n\n".join(m for m in md if m) + "\n",
        search_html=operation_record(view, ref.searched, ref.response, ref.callbacks, ctx.word),
        trees_cut=budget.cut,
    )


def trees_cut(data: dict, container: str, key: str, method: str | None, settings: ApiSettings) -> bool:
    """Whether an operation's (container "paths") or webhook's ("webhooks") schema trees exceed a page's work
    budget: the trees its page renders, in the same order, and nothing else (`docsgen openapi-check`)."""
    ctx = get_context(data, settings, _no_markdown)
    view = operation_view(ctx, container, key, method)
    budget = ctx.new_page()
    ids = Ids()
    render_parameters(ctx, view.parameters, ids, [])
    render_body(ctx, view.body, ids, "request" if container == "paths" else "")
    render_responses(ctx, view.responses, ids)
    render_callbacks(ctx, view.callbacks, ids)
    return budget.cut


def _no_markdown(text: str) -> str:
    return ""  # descriptions do not change the work of schema trees


def render_operation_page(
    data: dict, method: str, path: str, settings: ApiSettings, markdown: Callable[[str], str]
) -> RenderedApi:
    """Render one operation (see docsgen.openapi.render.render_operation)."""
    ctx = get_context(data, settings, markdown)
    return _page(ctx, operation_view(ctx, "paths", path, method))


def render_webhook_page(
    data: dict, name: str, settings: ApiSettings, markdown: Callable[[str], str]
) -> RenderedApi:
    """Render one webhook: its payload schema, an example payload and the expected responses."""
    ctx = get_context(data, settings, markdown)
    return _page(ctx, operation_view(ctx, "webhooks", name))


def render_model_page(
    data: dict, schema_name: str, settings: ApiSettings, markdown: Callable[[str], str]
) -> RenderedApi:
    """Render one components.schemas model: its tree and a generated example."""
    ctx = get_context(data, settings, markdown)
    comps = ctx.data.get("components")
    schemas = comps.get("schemas") if isinstance(comps, dict) else None
    if not isinstance(schemas, dict) or schema_name not in schemas:
        raise LookupError(f"schema {schema_name!r} is not in the spec's components.schemas")
    ref = {"$ref": "#/components/schemas/" + schema_name.replace("~", "~0").replace("/", "~1")}
    budget = ctx.new_page()
    tree = TreeRenderer(ctx, "")
    flat = tree.flat(ref)
    ids = Ids()
    from docsgen.openapi.render.params import render_schema_block, top_fields

    block, block_md = render_schema_block(ctx, tree, ref, ids, [""])
    hid = ids.claim("api-schema")
    html = (
        f'<div class="dg-api" data-kind="schema">'
        f'<section class="dg-api-section" aria-labelledby="{hid}"><h2 class="dg-api-heading" id="{hid}">'
        f"{esc(schema_name)}</h2>{block}</section></div>"
    )
    example = example_for(ctx, ref, "")
    from docsgen.openapi.render.aside import pretty

    items = [("example", schema_name, "json", pretty(ctx, example))]
    aside = panels("example", ctx.word("example", "Example"), items)
    title = schema_name
    fields = "".join(
        f"<div><code>{esc(name)}</code> {desc}</div>" for name, desc in top_fields(ctx, tree, ref)
    )
    desc = ctx.md(flat.kw.get("description"))
    return RenderedApi(
        html=html,
        aside_html=f'<div class="dg-api-examples">{aside}</div>',
        toc=[TocItem(2, hid, schema_name)],
        title=title,
        description=first_paragraph(ctx, flat.kw.get("description")),
        deprecated=flat.kw.get("deprecated") is True,
        playground={"kind": "schema", "name": schema_name},
        markdown=f"## {inline(schema_name)}\n\n{block_md}\n\n{panels_md(ctx.word('example', 'Example'), items)}\n",
        search_html=(
            f'<div class="dg-api" data-kind="schema"><h2 id="{hid}">{esc(schema_name)}</h2>'
            f"{f'<div>{desc}</div>' if desc else ''}{fields}</div>"
        ),
        trees_cut=budget.cut,
    )


__all__ = ["join_url", "render_model_page", "render_operation_page", "render_webhook_page"]
