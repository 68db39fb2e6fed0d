"""The right-hand column: request samples (x-codeSamples first, then generated) and response examples."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from docsgen.openapi.limits import MAX_EXAMPLE_CHARS
from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.examples import example_for
from docsgen.openapi.render.fmt import esc
from docsgen.openapi.render.highlight import highlighted
from docsgen.openapi.render.operation_view import (
    MediaType,
    OperationView,
    Parameter,
    RequestBody,
    Response,
    Server,
)
from docsgen.openapi.render.params import media_kind
from docsgen.openapi.render.samples import GENERATORS, SampleRequest, generate
from docsgen.openapi.render.schema_model import flatten
from docsgen.openapi.render.security import AuthField, header_value

_SAFE_URL = "/{}<>[],:@!$'()*"


def server_url(server: Server) -> str:
    """A server URL with its variables replaced by their defaults."""
    url = server.url
    for name, var in server.variables or ():
        if isinstance(var, dict) and "default" in var:
            url = url.replace("{" + name + "}", str(var["default"]))
    return url


def join_url(base: str, path: str) -> str:
    return base.rstrip("/") + "/" + path.lstrip("/") if base else path


def _to_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _param_value(ctx: RenderContext, param: Parameter, prefill: bool) -> Any:
    if param.has_example:
        return param.example
    if param.examples:
        return param.examples[0]
    return example_for(ctx, param.schema, "request", prefill=prefill)


def build_request(ctx: RenderContext, view: OperationView, auth: Sequence[AuthField]) -> SampleRequest:
    """Describe the sample request: first server, example parameter values, first auth option, first body type."""
    settings = ctx.settings
    required_only = getattr(settings, "examples_defaults", "all") == "required"
    prefill = bool(getattr(settings, "examples_prefill", False))
    base = server_url(view.servers[0]) if view.servers else ""
    query: list[str] = []
    headers: list[tuple[str, str]] = []
    cookies: list[str] = []
    for param in view.parameters:
        loc, name = param.location, param.name
        if loc == "path" or (required_only and not param.required):
            continue
        value = _param_value(ctx, param, prefill)
        if isinstance(value, list) and loc == "query":
            query += [
                f"{quote(name, safe=_SAFE_URL)}={quote(_to_text(v), safe=_SAFE_URL)}" for v in value[:3]
            ]
        elif loc == "query":
            query.append(f"{quote(name, safe=_SAFE_URL)}={quote(_to_text(value), safe=_SAFE_URL)}")
        elif loc == "header":
            headers.append((name, _to_text(value)))
        elif loc == "cookie":
            cookies.append(f"{name}={_to_text(value)}")
    for f in auth:
        if f.location == "query":
            query.append(f"{quote(f.name, safe=_SAFE_URL)}={f.placeholder}")
        elif f.location == "cookie":
            cookies.append(f"{f.name}={f.placeholder}")
        elif f.location == "tls":
            continue  # a client certificate is configured in the HTTP client, not sent as a header
        else:
            headers.insert(0, (f.name, header_value(f)))
    if cookies:
        headers.append(("Cookie", "; ".join(cookies)))
    url = join_url(base, view.path) + ("?" + "&".join(query) if query else "")
    request = SampleRequest(method=view.method.upper(), url=url, headers=headers)
    if view.body is not None:
        _fill_body(ctx, request, view.body.content[0], required_only, prefill)
    return request


def _fill_body(
    ctx: RenderContext, request: SampleRequest, media: MediaType, required_only: bool, prefill: bool
) -> None:
    ctype = media.content_type
    schema = media.schema if media.has_schema else {}
    flat = flatten(ctx, schema)
    kind = media_kind(ctype, flat.is_binary)
    documented = media.examples
    if documented and not required_only:
        value = documented[0][1]
    else:
        value = example_for(ctx, schema, "request", required_only=required_only, prefill=prefill)
    request.body_kind, request.content_type = kind, ctype
    if kind == "json":
        request.json_value = value
    elif kind == "form":
        items = value.items() if isinstance(value, dict) else []
        request.text = "&".join(f"{quote(str(k), safe='')}={quote(_to_text(v), safe='')}" for k, v in items)
    elif kind == "multipart":
        request.content_type = ""
        props = flat.props
        for key, val in value.items() if isinstance(value, dict) else []:
            sub = flatten(ctx, props.get(key, {}))
            item = flatten(ctx, sub.items) if sub.items is not None else None
            is_file = sub.is_binary or bool(item and item.is_binary)
            request.form.append((str(key), "example-file" if is_file else _to_text(val), is_file))
    elif kind == "text":
        request.text = _to_text(value) if value is not None else ""


def code_samples(
    ctx: RenderContext, view: OperationView, request: SampleRequest
) -> list[tuple[str, str, str, str]]:
    """(key, label, highlight language, code): the spec's x-codeSamples first, then generated ones."""
    out: list[tuple[str, str, str, str]] = []
    for sample in view.code_samples:
        key, lang = sample.key, sample.lang
        label = (
            sample.label
            or (GENERATORS[key][0] if key in GENERATORS else lang)
            or ctx.word("example", "Example")
        )
        hl = GENERATORS[key][1] if key in GENERATORS else lang.lower()
        out.append((key, label, hl, sample.source))
    if getattr(ctx.settings, "autogenerate", True):
        have = {key for key, *_ in out}
        out += [s for s in generate(request, ctx.settings.languages) if s[0] not in have]
    return out


def panels(
    kind: str, title: str, items: list[tuple[str, str, str, str]], generated_from: int | None = None
) -> str:
    """A panel group (language or example tabs with JS; stacked and labelled without it).

    Items from index `generated_from` on are samples docsgen generated (highlighted block by block).
    """
    if not items:
        return ""
    start = len(items) if generated_from is None else generated_from
    body = "".join(
        f'<div class="dg-api-panel" data-key="{esc(key)}" data-label="{esc(label)}">'
        f'<p class="dg-api-panel-label">{esc(label)}</p>'
        f'<pre class="dg-api-code" tabindex="0">{highlighted(code, hl, index >= start)}</pre></div>'
        for index, (key, label, hl, code) in enumerate(items)
    )
    example = {"lang": " dg-request-example", "response": " dg-response-example"}.get(kind, "")
    return (
        f'<div class="dg-api-card dg-api-tabs{example}" data-tabs="{esc(kind)}">'
        f'<div class="dg-api-card-title">{esc(title)}</div>{body}</div>'
    )


def pretty(ctx: RenderContext, value: Any) -> str:
    """An example value as indented JSON (truncated); memoised per value object (examples are shared)."""
    if isinstance(value, str):
        text = value
    else:
        hit = ctx.texts.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    text = text if len(text) <= MAX_EXAMPLE_CHARS else text[:MAX_EXAMPLE_CHARS] + "\n…"
    if not isinstance(value, str):
        ctx.texts[id(value)] = (value, text)  # the value is kept alive with its text: its id stays unique
    return text


def response_examples(ctx: RenderContext, responses: tuple[Response, ...]) -> list[tuple[str, str, str, str]]:
    """(key, label, highlight language, text) for each documented or generated response example."""
    out: list[tuple[str, str, str, str]] = []
    for resp in responses:
        status = resp.status
        if not resp.content:
            out.append(
                (status, status, "text", ctx.word("response_no_body", "This response has no body data."))
            )
            continue
        for media in resp.content[:3]:
            ctype = media.content_type
            found = list(media.examples)
            hl = "json" if "json" in ctype else "text"
            if not found and media.has_schema:
                found = [("Example", example_for(ctx, media.schema, "response"))]
            if not found:
                continue
            for label, value in found[:8]:
                shown = status if len(found) == 1 and label == "Example" else f"{status} · {label}"
                if len(resp.content) > 1:
                    shown += f" ({ctype})"
                out.append((status, shown, hl, pretty(ctx, value)))
    return out


def payload_examples(ctx: RenderContext, body: RequestBody | None) -> list[tuple[str, str, str, str]]:
    """(key, label, highlight language, text) for a webhook's request payload."""
    out: list[tuple[str, str, str, str]] = []
    for media in body.content if body is not None else ():
        found = list(media.examples)
        if not found and media.has_schema:
            found = [("Example", example_for(ctx, media.schema, ""))]
        for label, value in found[:8]:
            out.append(
                ("payload", label if label != "Example" else media.content_type, "json", pretty(ctx, value))
            )
    return out
