"""Our own rules, beyond what JSON Schema can say: references, operationIds, path parameters, x-svc, schemas."""

from __future__ import annotations

import json
import re
import string
from functools import lru_cache
from typing import Any

import jsonschema_rs

from docsgen.common.errors import Diagnostic, warning
from docsgen.openapi.limits import MAX_COMPOSITION_WALK
from docsgen.openapi.locate import JsonPath
from docsgen.openapi.messages import describe, json_type, short, where
from docsgen.openapi.ref_rules import external_ref_errors, ref_warnings
from docsgen.openapi.schema_rules import consistency_problems
from docsgen.openapi.spec import METHODS, Spec

__all__ = ["external_ref_errors", "ref_warnings", "semantic_problems"]

SVC_KEYS = ("x-svc", "x-mint")
SVC_FIELDS = {"metadata", "content", "href", "mcp", "groups"}


def semantic_problems(spec: Spec) -> list[Diagnostic]:
    """Rules JSON Schema cannot express: refs, operationIds, path parameters, tags, x-svc shape, schema sanity."""
    problems = ref_warnings(spec)
    problems += _operation_problems(spec)
    problems += _tag_problems(spec)
    problems += _schema_problems(spec)
    problems += consistency_problems(spec)
    return problems


def _path_item_entries(spec: Spec):
    """Yield (path key, path item, JSON path of the item) for paths and 3.1 webhooks."""
    for section in ("paths", "webhooks"):
        items = spec.data.get(section)
        for key, raw in (items if isinstance(items, dict) else {}).items():
            item = spec.deref(raw)
            if isinstance(item, dict):
                yield section, key, item, (section, key)


def _params(spec: Spec, params: Any, base: JsonPath) -> list[tuple[JsonPath, dict]]:
    out = []
    for i, raw in enumerate(params if isinstance(params, list) else []):
        param = spec.deref(raw)
        if (
            isinstance(param, dict)
            and isinstance(param.get("name"), str)
            and isinstance(param.get("in"), str)
        ):
            out.append(((*base, "parameters", i), param))
    return out


def _operation_problems(spec: Spec) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    first_id: dict[str, JsonPath] = {}
    for section, key, item, item_path in _path_item_entries(spec):
        shared = _params(spec, item.get("parameters"), item_path)
        problems += _duplicate_params(spec, shared)
        templated = (
            [name for _, name, _, _ in string.Formatter().parse(key) if name] if section == "paths" else []
        )
        for method, op in item.items():
            if method not in METHODS or not isinstance(op, dict):
                continue
            op_path = (*item_path, method)
            op_id = op.get("operationId")
            if isinstance(op_id, str):
                if op_id in first_id:
                    other = first_id[op_id]
                    problems.append(
                        warning(
                            "openapi.duplicate-operation-id",
                            f"operationId {op_id!r} is also used by {other[2].upper()} {other[1]}",
                            hint="operationIds must be unique in a document",
                            **where(spec, (*op_path, "operationId")),
                        )
                    )
                else:
                    first_id[op_id] = op_path
            own = _params(spec, op.get("parameters"), op_path)
            problems += _duplicate_params(spec, own)
            if section == "paths":
                problems += _path_param_problems(spec, key, method, templated, shared, own, op_path)
            for ext in SVC_KEYS:
                if ext in op:
                    problems += _svc_problems(spec, op[ext], (*op_path, ext))
    return problems


def _duplicate_params(spec: Spec, params: list[tuple[JsonPath, dict]]) -> list[Diagnostic]:
    seen: set[tuple[str, str]] = set()
    problems = []
    for path, param in params:
        ident = (param["name"], param["in"])
        if ident in seen:
            problems.append(
                warning(
                    "openapi.duplicate-parameter",
                    f"parameter {param['name']!r} in {param['in']} is declared twice",
                    **where(spec, path),
                )
            )
        seen.add(ident)
    return problems


def _path_param_problems(spec, key, method, templated, shared, own, op_path) -> list[Diagnostic]:
    declared = {p["name"]: path for path, p in shared + own if p["in"] == "path"}
    problems = []
    for name in dict.fromkeys(templated):
        if name not in declared:
            problems.append(
                warning(
                    "openapi.path-parameter",
                    f"path parameter {{{name}}} of {method.upper()} {key} is not declared in `parameters`",
                    hint=f"add {{name: {name}, in: path, required: true, schema: {{type: string}}}}",
                    **where(spec, op_path),
                )
            )
    for name, path in declared.items():
        if name not in templated:
            problems.append(
                warning(
                    "openapi.path-parameter",
                    f"path parameter {name!r} is declared but {key} has no {{{name}}}",
                    **where(spec, path),
                )
            )
    return problems


def _svc_problems(spec: Spec, value: Any, path: JsonPath) -> list[Diagnostic]:
    """Check the x-svc / x-mint extension: {metadata: object without openapi, content: str, href: /... or URL}."""
    name = path[-1]
    if not isinstance(value, dict):
        return [
            warning(
                "openapi.extension",
                f"`{name}` must be an object, found {json_type(value)}",
                **where(spec, path),
            )
        ]
    problems = []
    for field_name in value:
        if field_name not in SVC_FIELDS:
            problems.append(
                warning(
                    "openapi.extension",
                    f"unknown field `{field_name}` in `{name}` (expected metadata, content, href)",
                    **where(spec, (*path, field_name)),
                )
            )
    meta = value.get("metadata")
    if "metadata" in value and not isinstance(meta, dict):
        problems.append(
            warning(
                "openapi.extension",
                f"`{name}.metadata` must be an object, found {json_type(meta)}",
                **where(spec, (*path, "metadata")),
            )
        )
    elif isinstance(meta, dict) and "openapi" in meta:
        problems.append(
            warning(
                "openapi.extension",
                f"`{name}.metadata` cannot set `openapi`: the page already documents this operation",
                **where(spec, (*path, "metadata", "openapi")),
            )
        )
    if "content" in value and not isinstance(value["content"], str):
        problems.append(
            warning(
                "openapi.extension",
                f"`{name}.content` must be a string of MDX, found {json_type(value['content'])}",
                **where(spec, (*path, "content")),
            )
        )
    href = value.get("href")
    if "href" in value and not (isinstance(href, str) and re.match(r"^(/|https?://)", href)):
        problems.append(
            warning(
                "openapi.extension",
                f"`{name}.href` must be a path starting with / or an http(s) URL, found {short(href)}",
                **where(spec, (*path, "href")),
            )
        )
    return problems


def _tag_problems(spec: Spec) -> list[Diagnostic]:
    tags = spec.data.get("tags")
    seen: set[str] = set()
    problems = []
    for i, tag in enumerate(tags if isinstance(tags, list) else []):
        name = tag.get("name") if isinstance(tag, dict) else None
        if isinstance(name, str):
            if name in seen:
                problems.append(
                    warning(
                        "openapi.duplicate-tag",
                        f"tag {name!r} is declared twice",
                        **where(spec, ("tags", i)),
                    )
                )
            seen.add(name)
    return problems


def _schema_problems(spec: Spec) -> list[Diagnostic]:
    """Schema sanity the JSON Schema cannot see: `required` naming no property (with allOf), bad `default`s."""
    problems: list[Diagnostic] = []
    found = spec.scan()
    for path, schema in found.defaults:
        problems += _default_problem(spec, schema, path)
    for path, schema in found.combined:
        if not isinstance(schema["required"], list):
            continue
        known = _property_names(spec, schema)
        if known is None:
            continue
        missing = [r for r in schema["required"] if isinstance(r, str) and r not in known]
        if missing:
            problems.append(
                warning(
                    "openapi.required-property",
                    f"`required` names properties that are not defined: {', '.join(missing)}",
                    **where(spec, (*path, "required")),
                )
            )
    return problems


def _property_names(spec: Spec, schema: Any) -> set[str] | None:
    """Return the property names a schema defines through allOf/anyOf/oneOf/items/not (iteratively).

    None when the composition has more than MAX_COMPOSITION_WALK schemas: too big to judge, so not judged.
    """
    names: set[str] = set()
    seen: set[int] = set()
    stack = [schema]
    while stack:
        node = spec.deref(stack.pop())
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        if len(seen) > MAX_COMPOSITION_WALK:
            return None
        if isinstance(node.get("properties"), dict):
            names.update(node["properties"])
        for key in ("allOf", "anyOf", "oneOf"):
            stack.extend(node[key] if isinstance(node.get(key), list) else [])
        stack.extend(node[key] for key in ("items", "not") if key in node)
    return names


# Keywords that constrain a value by themselves (no sub-schemas, so no `$ref` to resolve).
_VALUE_KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "uniqueItems",
        "required",
        "minProperties",
        "maxProperties",
    }
)
_DRAFTS = {"draft-04": "Draft4Validator", "draft-06": "Draft6Validator", "draft-07": "Draft7Validator"}


def _value_draft(spec: Spec) -> str:
    if not spec.is_31:
        return "Draft4Validator"
    dialect = spec.data.get("jsonSchemaDialect")
    for name, draft in _DRAFTS.items():
        if isinstance(dialect, str) and name in dialect:
            return draft
    return "Draft202012Validator"


@lru_cache(maxsize=4096)
def _value_validator(local_json: str, draft: str) -> Any:
    try:
        return getattr(jsonschema_rs, draft)(json.loads(local_json), validate_formats=False)
    except (ValueError, jsonschema_rs.ValidationError):
        return None  # an invalid schema is reported by the structural check


def _default_problem(spec: Spec, schema: dict, path: JsonPath) -> list[Diagnostic]:
    """Check `default` against the schema's own value keywords (type, enum, bounds...); null means "none"."""
    if "default" not in schema or schema["default"] is None:
        return []
    local = {k: v for k, v in schema.items() if k in _VALUE_KEYWORDS}
    if not local:
        return []
    validator = _value_validator(json.dumps(local, sort_keys=True), _value_draft(spec))
    if validator is None:
        return []
    err = next(iter(validator.iter_errors(schema["default"])), None)
    if err is None:
        return []
    _, message, _ = describe(err)
    return [
        warning(
            "openapi.default",
            f"default {short(schema['default'])} does not match its schema: {message}",
            **where(spec, (*path, "default")),
        )
    ]
