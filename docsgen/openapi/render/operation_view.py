"""The typed view of one OpenAPI operation or webhook, read once from the spec: all of its page is made from it.

`operation_view` reads an operation (or webhook) of a spec dict once, following its `$ref`s, into frozen
dataclasses: its parameters (path-item ones merged with the operation's), request body and responses per media
type, security requirements with the schemes they name (docsgen.openapi.render.security), servers, callbacks
and code samples. The endpoint page's HTML, its Markdown twin, its contents, its search record and its
playground data are then all made from this view (docsgen.openapi.render.endpoint); no renderer reads the
operation's dict again. Schemas stay the spec's own resolved objects: the schema tree renderer and the example
generator take them (and memoise by their identity).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.examples import media_examples
from docsgen.openapi.render.security import Security, security_of
from docsgen.openapi.spec import text_field

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
LOCATIONS = ("path", "query", "header", "cookie")
_IGNORED_HEADERS = {"accept", "content-type", "authorization"}
# a parameter's serialisation, which the playground is told as written
_HINTS = ("deprecated", "style", "explode", "allowReserved")
MAX_LINKS = 30  # links shown per response
MAX_PARTS = 60  # encoded parts listed per media type
MAX_PART_HEADERS = 20  # headers listed per encoded part


@dataclass(frozen=True)
class Parameter:
    """A parameter, or a response header: where it goes, its schema and what the spec documents beside it."""

    name: str
    location: str  # "path" | "query" | "header" | "cookie"
    required: bool  # `required: true`, or a path parameter
    schema: Any  # `schema`, else the first `content` media type's schema ({} when neither)
    description: str | None  # `description` when written (it overrides the schema's)
    deprecated: bool
    example: Any = None
    has_example: bool = False
    examples: tuple[Any, ...] = ()  # the values of its named `examples`
    x_default: Any = None
    has_x_default: bool = False
    hints: tuple[tuple[str, Any], ...] = ()  # deprecated/style/explode/allowReserved as written


@dataclass(frozen=True)
class EncodingPart:
    """How one named part of a form or multipart body is sent (`encoding`)."""

    name: str
    content_type: str | None
    facts: tuple[tuple[str, str | bool], ...]  # style / explode / allowReserved
    headers: tuple[tuple[str, Any], ...]  # (header name, its description as written)


@dataclass(frozen=True)
class MediaType:
    """One media type of a body or a response."""

    content_type: str
    schema: Any  # None when the media type has none
    has_schema: bool
    examples: tuple[tuple[str, Any], ...]  # (label, value) documented by `example` / `examples`
    encoding: tuple[EncodingPart, ...] = ()


@dataclass(frozen=True)
class RequestBody:
    """A request body (an operation's, a webhook's payload, a callback's)."""

    description: str
    required: bool
    content: tuple[MediaType, ...]  # never empty: an operation without media types takes no body


@dataclass(frozen=True)
class Link:
    """A response's link to an operation a value of the response can be used for."""

    name: str
    operation_id: str
    operation_ref: str
    description: str
    arguments: tuple[tuple[str, str], ...]  # (parameter, or "request body"; expression or JSON value)


@dataclass(frozen=True)
class Response:
    """One status of an operation's responses."""

    status: str
    description: str
    headers: tuple[Parameter, ...]
    content: tuple[MediaType, ...]
    links: tuple[Link, ...]


@dataclass(frozen=True)
class Server:
    """A server an operation's requests go to."""

    url: str
    description: str | None = None
    variables: tuple[tuple[str, Any], ...] | None = None  # (name, variable object as written); None: none


@dataclass(frozen=True)
class Callback:
    """A request the API sends back (an operation of a `callbacks` entry)."""

    name: str
    expression: str
    method: str
    description: str  # its description, else its summary
    body: RequestBody | None
    responses: tuple[Response, ...]


@dataclass(frozen=True)
class CodeSample:
    """A code sample written in the spec (`x-codeSamples` / `x-code-samples`)."""

    key: str  # canonical language, else the language as written (lower case), else sample-N
    lang: str
    label: str
    source: str


@dataclass(frozen=True)
class OperationView:
    """Everything an operation's or webhook's page shows, read once from the spec."""

    kind: str  # "operation" | "webhook"
    method: str  # lower case
    path: str  # as in `paths`, or the webhook's name
    summary: str
    description: str
    operation_id: str
    tags: tuple[str, ...]
    deprecated: bool
    servers: tuple[Server, ...]  # a webhook's: none (it is sent to the reader's own endpoint)
    parameters: tuple[Parameter, ...]  # path-item parameters overridden by the operation's
    body: RequestBody | None
    responses: tuple[Response, ...]
    security: Security
    callbacks: tuple[Callback, ...]
    code_samples: tuple[CodeSample, ...]

    @property
    def title(self) -> str:
        """The page title: the summary, else `METHOD /path` (an operation) or the name (a webhook)."""
        if self.summary.strip():
            return self.summary.strip()
        return f"{self.method.upper()} {self.path}" if self.kind == "operation" else self.path

    def parameters_in(self, location: str) -> tuple[Parameter, ...]:
        """The parameters sent in one location ("path", "query", "header" or "cookie")."""
        return tuple(p for p in self.parameters if p.location == location)


def find_operation(
    ctx: RenderContext, container: str, key: str, method: str | None
) -> tuple[dict, dict, str]:
    """The path item, operation and method of `paths[key][method]` or of the webhook `webhooks[key]`."""
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


def operation_view(ctx: RenderContext, container: str, key: str, method: str | None = None) -> OperationView:
    """Read the operation `paths[key][method]` (container "paths") or the webhook `webhooks[key]` ("webhooks")."""
    path_item, op, method = find_operation(ctx, container, key, method)
    kind = "operation" if container == "paths" else "webhook"
    tags = op.get("tags")
    return OperationView(
        kind=kind,
        method=method,
        path=key,
        summary=text_field(op.get("summary")),
        description=text_field(op.get("description")),
        operation_id=text_field(op.get("operationId")),
        tags=tuple(t for t in tags if isinstance(t, str) and t.strip()) if isinstance(tags, list) else (),
        deprecated=op.get("deprecated") is True,
        servers=servers_of(ctx, path_item, op) if kind == "operation" else (),
        parameters=merged_parameters(ctx, path_item, op),
        body=request_body(ctx, op.get("requestBody")),
        responses=responses_of(ctx, op.get("responses")),
        security=security_of(ctx, op),
        callbacks=callbacks_of(ctx, op.get("callbacks")),
        code_samples=code_samples_of(op),
    )


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


def parameter(ctx: RenderContext, param: dict, name: str, location: str, required: bool) -> Parameter:
    """A parameter's (or header's) view from its resolved object."""
    exs = param.get("examples")
    values = (
        [ctx.resolve(e).get("value") for e in exs.values() if "value" in ctx.resolve(e)]
        if isinstance(exs, dict)
        else []
    )
    return Parameter(
        name=name,
        location=location,
        required=required,
        schema=param_schema(param),
        description=param["description"] if isinstance(param.get("description"), str) else None,
        deprecated=param.get("deprecated") is True,
        example=param.get("example"),
        has_example="example" in param,
        examples=tuple(values),
        x_default=param.get("x-default"),
        has_x_default="x-default" in param,
        hints=tuple((k, param[k]) for k in _HINTS if k in param),
    )


def merged_parameters(ctx: RenderContext, path_item: dict, operation: dict) -> tuple[Parameter, ...]:
    """Path-item parameters overridden by operation parameters with the same name and location.

    Each parameter object's view is made once per spec and context ($ref'd parameters repeat on many pages).
    """
    out: dict[tuple[str, str], Parameter] = {}
    for source in (path_item.get("parameters"), operation.get("parameters")):
        if not isinstance(source, list):
            continue
        for raw in source:
            param = ctx.resolve(raw)
            name, loc = param.get("name"), param.get("in")
            if loc == "header" and isinstance(name, str) and name.lower() in _IGNORED_HEADERS:
                continue  # OpenAPI: these header parameters SHALL be ignored (content types and auth say it)
            if isinstance(name, str) and loc in LOCATIONS:
                memo = ("param-view", id(param))
                hit = ctx.fragments.get(memo)
                if hit is None or hit[0] is not param:
                    required = param.get("required") is True or loc == "path"
                    hit = ctx.fragments[memo] = (param, parameter(ctx, param, name, str(loc), required))
                out[(name, str(loc))] = hit[1]
    return tuple(out.values())


def _encoding(ctx: RenderContext, encoding: Any) -> tuple[EncodingPart, ...]:
    if not isinstance(encoding, dict):
        return ()
    parts = []
    for name, raw in list(encoding.items())[:MAX_PARTS]:
        enc = ctx.resolve(raw)
        facts = tuple(
            (k, enc[k]) for k in ("style", "explode", "allowReserved") if isinstance(enc.get(k), (str, bool))
        )
        headers = enc.get("headers")
        listed = list(headers.items())[:MAX_PART_HEADERS] if isinstance(headers, dict) else []
        parts.append(
            EncodingPart(
                name=str(name),
                content_type=enc["contentType"] if isinstance(enc.get("contentType"), str) else None,
                facts=facts,
                headers=tuple((str(h), ctx.resolve(spec).get("description")) for h, spec in listed),
            )
        )
    return tuple(parts)


def media_types(ctx: RenderContext, content: Any) -> tuple[MediaType, ...]:
    """The media types of a `content` map, each resolved."""
    if not isinstance(content, dict):
        return ()
    out = []
    for ctype, raw in content.items():
        media = ctx.resolve(raw)
        out.append(
            MediaType(
                content_type=str(ctype),
                schema=media.get("schema"),
                has_schema="schema" in media,
                examples=tuple(media_examples(ctx, media)),
                encoding=_encoding(ctx, media.get("encoding")),
            )
        )
    return tuple(out)


def request_body(ctx: RenderContext, raw: Any) -> RequestBody | None:
    """A request body's view; None when it has no media type."""
    body = ctx.resolve(raw)
    content = media_types(ctx, body.get("content"))
    if not content:
        return None
    return RequestBody(text_field(body.get("description")), body.get("required") is True, content)


def _argument(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)[:200]


def links_of(ctx: RenderContext, links: Any) -> tuple[Link, ...]:
    """A response's links (at most MAX_LINKS)."""
    if not isinstance(links, dict):
        return ()
    out = []
    for name, raw in list(links.items())[:MAX_LINKS]:
        link = ctx.resolve(raw)
        params = link.get("parameters")
        args = [(str(k), _argument(v)) for k, v in params.items()] if isinstance(params, dict) else []
        if "requestBody" in link:
            args.append(("request body", _argument(link["requestBody"])))
        op_id, op_ref = link.get("operationId"), link.get("operationRef")
        out.append(
            Link(
                name=str(name),
                operation_id=op_id if isinstance(op_id, str) else "",
                operation_ref=op_ref if isinstance(op_ref, str) else "",
                description=text_field(link.get("description")),
                arguments=tuple(args),
            )
        )
    return tuple(out)


def responses_of(ctx: RenderContext, responses: Any) -> tuple[Response, ...]:
    """The responses of an operation, in the spec's order.

    Each response object's view is made once per spec and context ($ref'd responses repeat on many pages).
    """
    if not isinstance(responses, dict):
        return ()
    out = []
    for status, raw in responses.items():
        resp = ctx.resolve(raw)
        memo = ("response-view", id(resp), str(status))
        hit = ctx.fragments.get(memo)
        if hit is None or hit[0] is not resp:
            hit = ctx.fragments[memo] = (resp, response(ctx, resp, str(status)))
        out.append(hit[1])
    return tuple(out)


def response(ctx: RenderContext, resp: dict, status: str) -> Response:
    """A response's view from its resolved object."""
    headers = resp.get("headers")
    found = []
    for name, header in headers.items() if isinstance(headers, dict) else ():
        header = ctx.resolve(header)
        found.append(parameter(ctx, header, str(name), "header", header.get("required") is True))
    return Response(
        status=status,
        description=text_field(resp.get("description")),
        headers=tuple(found),
        content=media_types(ctx, resp.get("content")),
        links=links_of(ctx, resp.get("links")),
    )


def servers_of(ctx: RenderContext, path_item: dict, operation: dict) -> tuple[Server, ...]:
    """Servers in force: the operation's, else the path's, else the root's (most specific level wins)."""
    for level in (operation.get("servers"), path_item.get("servers"), ctx.data.get("servers")):
        if isinstance(level, list) and level:
            found = [s for s in (ctx.resolve(x) for x in level) if isinstance(s.get("url"), str)]
            return tuple(server(s) for s in found)
    return ()


def server(found: dict) -> Server:
    """A server's view from its resolved object (its `url` a string)."""
    variables = found.get("variables")
    return Server(
        url=found["url"],
        description=found["description"] if isinstance(found.get("description"), str) else None,
        variables=tuple((str(k), v) for k, v in variables.items()) if isinstance(variables, dict) else None,
    )


def callbacks_of(ctx: RenderContext, callbacks: Any) -> tuple[Callback, ...]:
    """Every operation of an operation's `callbacks`, in the spec's order."""
    out = []
    for name, raw in callbacks.items() if isinstance(callbacks, dict) else ():
        for expression, item in ctx.resolve(raw).items():
            path_item = ctx.resolve(item)
            for method in HTTP_METHODS:
                op = path_item.get(method)
                if isinstance(op, dict):
                    described = op.get("description") or op.get("summary")
                    out.append(
                        Callback(
                            name=str(name),
                            expression=str(expression),
                            method=method,
                            description=text_field(described),
                            body=request_body(ctx, op.get("requestBody")),
                            responses=responses_of(ctx, op.get("responses")),
                        )
                    )
    return tuple(out)


def code_samples_of(operation: dict) -> tuple[CodeSample, ...]:
    """The usable samples of `x-codeSamples` (else `x-code-samples`): those with a `source` string."""
    from docsgen.openapi.render import normalize_language

    custom = operation.get("x-codeSamples", operation.get("x-code-samples"))
    out = []
    for index, sample in enumerate(custom if isinstance(custom, list) else ()):
        if isinstance(sample, dict) and isinstance(sample.get("source"), str):
            lang = str(sample.get("lang", "")).strip()
            key = normalize_language(lang) or lang.lower() or f"sample-{index + 1}"
            label = sample.get("label")
            out.append(CodeSample(key, lang, str(label) if label else "", sample["source"]))
    return tuple(out)
