"""The data the playground front end needs, as JSON-ready dicts (embedded once per page by the lead)."""

from __future__ import annotations

import json
import math
import re
from html import unescape
from typing import Any

from docsgen.openapi.limits import PLAYGROUND_MAX_DEPTH as MAX_DEPTH
from docsgen.openapi.limits import PLAYGROUND_MAX_ENUM as MAX_ENUM
from docsgen.openapi.limits import PLAYGROUND_MAX_NODES as MAX_NODES
from docsgen.openapi.limits import PLAYGROUND_MAX_PROPS as MAX_PROPS
from docsgen.openapi.render.context import RenderContext, plain_text
from docsgen.openapi.render.examples import example_for
from docsgen.openapi.render.operation_view import (
    OperationView,
    Parameter,
    RequestBody,
    Response,
    Security,
    Server,
)
from docsgen.openapi.render.params import media_kind
from docsgen.openapi.render.pills import pills
from docsgen.openapi.render.schema_model import Flat, flatten, unwrap_single

MAX_EXAMPLES = 30  # named request examples offered in the playground's picker
_KEEP = (
    "format",
    "default",
    "x-default",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "multipleOf",
    "contentMediaType",
)


def json_ready(value: Any, depth: int = 0) -> Any:
    """Copy a spec value keeping only JSON types (YAML dates and the like become strings)."""
    if depth > 50:
        return None
    if isinstance(value, dict):
        return {str(k): json_ready(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v, depth + 1) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None  # `.inf`, `1e400`, `.nan`: JSON has no such number (JSON.stringify writes null too)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def server_data(servers: tuple[Server, ...]) -> list[dict]:
    out = []
    for server in servers:
        entry: dict[str, Any] = {"url": server.url}
        if server.description is not None:
            entry["description"] = server.description
        if server.variables is not None:
            entry["variables"] = {
                name: {
                    key: json_ready(var[key])
                    for key in ("default", "enum", "description")
                    if isinstance(var, dict) and key in var
                }
                for name, var in server.variables
            }
        out.append(entry)
    return out


def summary(
    ctx: RenderContext,
    schema: Any,
    direction: str,
    stack: tuple[int, ...] = (),
    depth: int = 0,
    budget: list[int] | None = None,
) -> dict:
    """A small, bounded description of a schema for building input forms (shared: never modify it)."""
    if budget is None:  # a root: the same for every page showing this schema
        key = (id(schema), direction)
        hit = ctx.summaries.get(key)
        if hit is not None and hit[0] is schema:
            return hit[1]
        root = summary(ctx, schema, direction, stack, depth, [MAX_NODES])
        ctx.summaries[key] = (schema, root)  # the schema is kept alive with it: its id stays unique
        return root
    budget[0] -= 1
    flat: Flat = unwrap_single(ctx, flatten(ctx, schema))
    out: dict[str, Any] = {"type": flat.types[0] if len(flat.types) == 1 else (flat.types or "any")}
    if flat.nullable:
        out["nullable"] = True
    if flat.name:
        out["ref"] = flat.name
    if flat.is_binary:
        out["binary"] = True
    for keyword in _KEEP:
        if keyword in flat.kw:
            out[keyword] = json_ready(flat.kw[keyword])
    enum = flat.kw.get("enum")
    if isinstance(enum, list):
        out["enum"] = json_ready(enum[:MAX_ENUM])
    if flat.kw.get("deprecated") is True:
        out["deprecated"] = True
    pre, post = pills(ctx, flat.raw, getattr(ctx.settings, "params_post", ()))  # shown beside the input too
    if pre:
        out["pre"] = pre
    if post:
        out["post"] = post
    if id(flat.raw) in stack:
        out["recursive"] = True
        return out
    if depth >= MAX_DEPTH or budget[0] < 0:
        if flat.props or flat.items is not None:
            out["truncated"] = True
        return out
    stack = (*stack, id(flat.raw))
    if flat.props:
        props: dict[str, Any] = {}
        for name, sub in flat.props.items():
            if len(props) >= MAX_PROPS:
                out["truncated"] = True
                break
            child = flatten(ctx, sub)
            if (direction == "request" and child.read_only) or (direction == "response" and child.write_only):
                continue
            props[str(name)] = summary(ctx, sub, direction, stack, depth + 1, budget)
        out["properties"] = props
        req = sorted(r for r in flat.required if r in props)
        if req:
            out["required"] = req
    if flat.items is not None and "array" in flat.types:
        out["items"] = summary(ctx, flat.items, direction, stack, depth + 1, budget)
    if isinstance(flat.additional, dict) and flat.additional:
        out["additionalProperties"] = summary(ctx, flat.additional, direction, stack, depth + 1, budget)
    elif flat.additional is True:
        out["additionalProperties"] = True
    if flat.alternatives:
        out["oneOf"] = [
            {"title": label, "schema": summary(ctx, sub, direction, stack, depth + 1, budget)}
            for label, sub in flat.alternatives[:20]
        ]
        if flat.discriminator:
            out["discriminator"] = flat.discriminator
    return out


def parameters_data(ctx: RenderContext, params: tuple[Parameter, ...]) -> list[dict]:
    out = []
    for param in params:
        flat = flatten(ctx, param.schema)
        entry: dict[str, Any] = {
            "name": param.name,
            "in": param.location,
            "required": param.required,
            "schema": summary(ctx, param.schema, "request"),
        }
        for key, value in param.hints:
            entry[key] = json_ready(value)
        if param.description is not None:
            entry["description"] = plain_text(ctx.md(param.description))[:300]
        if param.has_example:
            entry["example"] = json_ready(param.example)
        elif "example" in flat.kw:
            entry["example"] = json_ready(flat.kw["example"])
        for key in ("enum", "default", "x-default"):
            if key in flat.kw:
                entry[key] = json_ready(flat.kw[key])
        if param.has_x_default:  # also accepted on the parameter itself
            entry["x-default"] = json_ready(param.x_default)
        out.append(entry)
    return out


def body_data(ctx: RenderContext, body: RequestBody | None) -> dict | None:
    if body is None:
        return None
    settings = ctx.settings
    required_only = getattr(settings, "examples_defaults", "all") == "required"
    prefill = bool(getattr(settings, "examples_prefill", False))
    contents = []
    for media in body.content:
        schema = media.schema if media.has_schema else {}
        documented = media.examples
        if documented and not required_only:
            example = documented[0][1]
        else:
            example = example_for(ctx, schema, "request", required_only=required_only, prefill=prefill)
        entry = {
            "contentType": media.content_type,
            "kind": media_kind(media.content_type, flatten(ctx, schema).is_binary),
            "schema": summary(ctx, schema, "request"),
            "example": json_ready(example),
        }
        if len(documented) > 1 or (documented and required_only):  # the reader picks one of the examples
            choices = [(str(label), value) for label, value in documented[:MAX_EXAMPLES]]
            if required_only:  # what the body starts with stays the first choice
                choices.insert(0, ("Required fields only", example))
            entry["examples"] = [{"label": label, "value": json_ready(value)} for label, value in choices]
        contents.append(entry)
    return {"required": body.required, "contents": contents}


def responses_data(ctx: RenderContext, responses: tuple[Response, ...]) -> list[dict]:
    return [
        {
            "status": resp.status,
            "description": plain_text(ctx.md(resp.description))[:300],
            "contentTypes": [media.content_type for media in resp.content],
        }
        for resp in responses
    ]


def security_data(security: Security) -> dict[str, Any]:
    """The playground's view: requirement alternatives and every scheme they use (with x-default)."""
    schemes: dict[str, Any] = {}
    for scheme in security.schemes:
        entry: dict[str, Any] = {
            "type": scheme.type,
            "kind": scheme.auth.kind,
            "in": scheme.auth.location,
            "name": scheme.auth.name,
        }
        entry.update(scheme.details)
        if scheme.flows is not None:
            entry["flows"] = {name: dict(settings) for name, settings in scheme.flows}
        schemes[scheme.name] = entry
    requirements = [{name: list(scopes) for name, scopes in req} for req in security.requirements]
    return {"requirements": requirements, "schemes": schemes, "optional": security.optional}


def playground_data(ctx: RenderContext, view: OperationView) -> dict:
    """Everything the playground needs for one operation or webhook."""
    settings = ctx.settings
    display = getattr(settings, "playground_display", "interactive")
    if not view.servers and display == "interactive":
        display = "simple"  # nowhere to send requests
    return {
        "kind": view.kind,
        "method": view.method.upper(),
        "path": view.path,
        "servers": server_data(view.servers),
        "security": security_data(view.security),
        "parameters": parameters_data(ctx, view.parameters),
        "body": body_data(ctx, view.body),
        "responses": responses_data(ctx, view.responses),
        "display": display,
        "proxy": bool(getattr(settings, "proxy", True)),
        "prefill": bool(getattr(settings, "examples_prefill", False)),
        "baseUrlDisplay": getattr(settings, "base_url_display", "relative"),
        "deprecated": view.deprecated,
        # sample panels written in the spec (an operation's): the playground leaves them alone
        "customSamples": [sample.key for sample in view.code_samples] if view.kind == "operation" else [],
    }


MAX_FIELDS = 200  # ParamFields of one `api:` page that become playground inputs
_FIELD_ATTR = re.compile(r'\sdata-pg="([^"]*)"')
_ARRAY_TYPE = re.compile(r"^(?:array<\s*(\w+)\s*>|(\w+)\s*\[\s*\])$", re.I)
_TYPES = {
    "string": "string",
    "str": "string",
    "number": "number",
    "float": "number",
    "double": "number",
    "integer": "integer",
    "int": "integer",
    "boolean": "boolean",
    "bool": "boolean",
    "object": "object",
    "array": "array",
    "list": "array",
}


def documented_fields(html: str) -> list[dict]:
    """The ParamFields of a rendered MDX body (their `data-pg` descriptions), in page order."""
    out = []
    for match in _FIELD_ATTR.finditer(html):
        try:
            data = json.loads(unescape(match.group(1)))
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("name"), str) and data["name"]:
            out.append(data)
        if len(out) >= MAX_FIELDS:
            break
    return out


def field_schema(field: dict) -> dict[str, Any]:
    """A playground schema summary from a ParamField's `type` ("integer", "string[]", "array<number>", "file")."""
    text = str(field.get("type") or "").strip()
    array = _ARRAY_TYPE.match(text)
    schema: dict[str, Any]
    if array:
        item = (array.group(1) or array.group(2)).lower()
        schema = {"type": "array", "items": {"type": _TYPES.get(item, "string")}}
    elif text.lower() == "file":
        schema = {"type": "string", "binary": True}
    else:
        schema = {"type": _TYPES.get(text.lower(), "string")}
    for key in ("default", "x-default"):
        if key in field:
            schema[key] = typed(json_ready(field[key]), schema["type"])
    if isinstance(field.get("enum"), list):
        schema["enum"] = [typed(json_ready(v), schema["type"]) for v in field["enum"][:MAX_ENUM]]
    return schema


def typed(value: Any, kind: str) -> Any:
    """An MDX prop's text as the field's type ("1" for an integer is 1); anything else unchanged."""
    if not isinstance(value, str):
        return value
    try:
        if kind == "integer":
            return int(value)
        if kind == "number":
            return float(value)
    except ValueError:
        return value
    if kind == "boolean" and value in ("true", "false"):
        return value == "true"
    return value


def manual_inputs(fields: list[dict]) -> tuple[list[dict], dict | None]:
    """Playground parameters and JSON body of an `api:` page from its ParamFields (nested body fields nest)."""
    parameters: list[dict] = []
    body: dict[str, Any] = {"type": "object", "properties": {}}
    by_path: dict[str, dict] = {"": body}
    for field in fields:
        loc = str(field.get("in") or "query")
        name = str(field["name"])
        schema = field_schema(field)
        if loc == "body":
            parent = by_path.get(str(field.get("parent") or ""))
            if parent is None or len(by_path) > MAX_FIELDS:
                continue  # a child of a field that is no body field: shown on the page, not an input
            if parent.get("type") == "array":
                parent = parent.setdefault("items", {"type": "object"})
                parent["type"] = "object"
            parent.setdefault("properties", {})[name] = schema
            if field.get("required"):
                parent.setdefault("required", []).append(name)
            by_path[str(field.get("path") or name)] = schema
        elif loc in ("query", "header", "path", "cookie") and not field.get("parent"):
            entry: dict[str, Any] = {
                "name": name,
                "in": loc,
                "required": bool(field.get("required")) or loc == "path",
                "schema": schema,
            }
            if "placeholder" in field:
                entry["example"] = json_ready(field["placeholder"])
            if "default" in field:
                entry["default"] = json_ready(field["default"])
            parameters.append(entry)
    if not body["properties"]:
        return parameters, None
    contents = [{"contentType": "application/json", "kind": "json", "schema": body, "example": {}}]
    return parameters, {"required": bool(body.get("required")), "contents": contents}
