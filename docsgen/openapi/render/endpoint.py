"""Assemble endpoint, webhook and schema-model pages from the section renderers."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from docsgen.mdx.types import TocItem
from docsgen.openapi.render import ApiSettings, RenderedApi
from docsgen.openapi.render.aside import (
    build_request,
    code_samples,
    custom_count,
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
from docsgen.openapi.render.params import (
    Ids,
    Section,
    merged_parameters,
    render_body,
    render_parameters,
    render_responses,
)
from docsgen.openapi.render.playground import playground_data, servers_for
from docsgen.openapi.render.schema_tree import TreeRenderer
from docsgen.openapi.render.search_record import operation_record
from docsgen.openapi.render.security import chosen, render_auth

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
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


def endpoint_bar(ctx: RenderContext, method: str, path: str, servers: list[dict], label: str = "") -> str:
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


def _find_operation(
    ctx: RenderContext, container: str, key: str, method: str | None
) -> tuple[dict, dict, str]:
    items = ctx.data.get(container)
    if not isinstance(items, dict) or key not in items:
        raise LookupError(
            f"{'path' if container == 'paths' else 'webhook'} {key!r} is not in the spec's {container}"
        )
    path_item = ctx.resolve(items[key])
    if method is None:
        method = next((m for m in HTTP_METHODS if isinstance(path_item.get(m), dict)), "")
        if not method:
            raise LookupError(f"webhook {key!r} defines no operation")
    op = path_item.get(method.lower())
    if not isinstance(op, dict):
        raise LookupError(f"{method.upper()} {key} is not in the spec")
    return path_item, op, method.lower()


def endpoint_md(
    method: str, path: str, servers: list[dict], webhook: str = "", other_servers: str = "Other servers"
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


def _page(
    ctx: RenderContext,
    kind: str,
    method: str,
    path: str,
    path_item: dict,
    op: dict,
    title: str,
) -> RenderedApi:
    ids = Ids()
    budget = ctx.new_page()
    # A webhook is sent to the reader's own endpoint: the spec's servers are not where it goes.
    servers = servers_for(ctx, path_item, op) if kind == "operation" else []
    params = merged_parameters(ctx, path_item, op)
    alts, optional = chosen(ctx, op)
    webhook = ctx.word("webhook", "Webhook") if kind == "webhook" else ""
    out: list[str] = [endpoint_bar(ctx, method, path, servers, webhook)]
    md: list[str] = [endpoint_md(method, path, servers, webhook, ctx.word("other_servers", "Other servers"))]
    text = op.get("description")
    text = without_deprecated_lead(text) if op.get("deprecated") is True else text  # the title has the badge
    desc = ctx.md(text)
    if desc:
        out.append(f'<div class="dg-api-description">{desc}</div>')
        md.append(ctx.mdt(text))
    sections: list[Section] = []
    if kind == "operation":
        auth_html, auth_md = render_auth(ctx, alts, optional, ids.claim)
        if auth_html:
            top = [(f.name, ctx.md(f.description)) for fields in alts for f in fields]
            heading = ctx.word("authorizations", "Authorizations")
            sections.append(Section("authorizations", heading, auth_html, auth_md, top))
    render_parameters(ctx, params, ids, sections)
    body = render_body(ctx, op, ids, "request" if kind == "operation" else "")
    if body is not None:
        body.title = ctx.word("body", "Body") if kind == "operation" else ctx.word("payload", "Payload")
        sections.append(body)
    resp_html, resp_md, resp_toc, resp_found = render_responses(ctx, op, ids)
    toc: list[TocItem] = []
    searched: list[tuple[str, Section]] = []
    for section in sections:
        hid = ids.claim(f"api-{section.sid}")
        out.append(_section(hid, section.title, section.html))
        md.append(f"## {section.title}\n\n{section.md}")
        toc.append(TocItem(2, hid, section.title))
        searched.append((hid, section))
    response: tuple[str, list[Section]] | None = None
    if resp_html:
        hid = ids.claim("api-response")
        heading = ctx.word("response", "Response")
        out.append(_section(hid, heading, resp_html))
        md.append(f"## {heading}\n\n{resp_md}")
        toc.append(TocItem(2, hid, heading))
        toc += [TocItem(3, rid, status) for rid, status in resp_toc]
        response = (hid, resp_found)
    cb_html, cb_md, cb_toc = render_callbacks(ctx, op, ids)
    callbacks: tuple[str, list[tuple[str, str]]] | None = None
    if cb_html:
        hid = ids.claim("api-callbacks")
        heading = ctx.word("callbacks", "Callbacks")
        out.append(_section(hid, heading, cb_html))
        md.append(f"## {heading}\n\n{cb_md}")
        toc.append(TocItem(2, hid, heading))
        toc += [TocItem(3, cid, name) for cid, name in cb_toc]
        callbacks = (hid, cb_toc)
    flag = ' data-deprecated="true"' if op.get("deprecated") is True else ""  # the page title shows the badge
    html = f'<div class="dg-api" data-kind="{esc(kind)}"{flag}>{"".join(out)}</div>'
    aside: list[str] = []
    custom: list[str] = []
    if kind == "operation":
        first_auth = alts[0] if alts else []
        request = build_request(ctx, method, path, params, op, servers, first_auth)
        items = code_samples(ctx, op, request)
        written = custom_count(op)  # the spec's own x-codeSamples come first
        custom = [key for key, *_ in items[:written]]
        aside.append(panels("lang", ctx.word("request", "Request"), items, written))
        md.append(panels_md(ctx.word("request_example", "Request example"), items))
    else:
        items = payload_examples(ctx, op)
        aside.append(panels("payload", ctx.word("payload", "Payload"), items))
        md.append(panels_md(ctx.word("payload_example", "Payload example"), items))
    items = response_examples(ctx, op)
    aside.append(panels("response", ctx.word("response", "Response"), items))
    md.append(panels_md(ctx.word("response_example", "Response example"), items))
    aside_html = f'<div class="dg-api-examples">{"".join(aside)}</div>' if any(aside) else ""
    return RenderedApi(
        html=html,
        aside_html=aside_html,
        toc=toc,
        title=title,
        description=first_paragraph(ctx, op.get("description")),
        deprecated=op.get("deprecated") is True,
        playground={
            **playground_data(ctx, kind, method, path, path_item, op, params, servers),
            "customSamples": custom,  # sample panels written in the spec: the playground leaves them alone
        },
        markdown="\n\n".join(m for m in md if m) + "\n",
        search_html=operation_record(kind, method, path, op, searched, response, callbacks, ctx.word),
        trees_cut=budget.cut,
    )


def trees_cut(data: dict, container: str, key: str, method: str | None, settings: ApiSettings) -> bool:
    """Whether an operation's (container "paths") or webhook's ("webhooks") schema trees exceed a page's work
    budget: the trees its page renders, in the same order, and nothing else (`docsgen openapi-check`)."""
    ctx = get_context(data, settings, _no_markdown)
    path_item, op, _ = _find_operation(ctx, container, key, method)
    budget = ctx.new_page()
    ids = Ids()
    render_parameters(ctx, merged_parameters(ctx, path_item, op), ids, [])
    render_body(ctx, op, ids, "request" if container == "paths" else "")
    render_responses(ctx, op, ids)
    render_callbacks(ctx, op, ids)
    return budget.cut


def _no_markdown(text: str) -> str:
    return ""  # descriptions do not change the work of schema trees


def render_operation_page(
    data: dict, method: str, path: str, settings: ApiSettings, markdown: Callable[[str], str]
) -> RenderedApi:
    """Render one operation (see docsgen.openapi.render.render_operation)."""
    ctx = get_context(data, settings, markdown)
    path_item, op, method = _find_operation(ctx, "paths", path, method)
    summary = op.get("summary")
    title = summary.strip() if isinstance(summary, str) and summary.strip() else f"{method.upper()} {path}"
    return _page(ctx, "operation", method, path, path_item, op, title)


def render_webhook_page(
    data: dict, name: str, settings: ApiSettings, markdown: Callable[[str], str]
) -> RenderedApi:
    """Render one webhook: its payload schema, an example payload and the expected responses."""
    ctx = get_context(data, settings, markdown)
    path_item, op, method = _find_operation(ctx, "webhooks", name, None)
    summary = op.get("summary")
    title = summary.strip() if isinstance(summary, str) and summary.strip() else name
    return _page(ctx, "webhook", method, name, path_item, op, title)


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
