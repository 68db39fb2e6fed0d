"""Validator errors in our words: the most specific failure, a short message, never the document itself."""

from __future__ import annotations

import json
from typing import Any

from docsgen.openapi.locate import JsonPath
from docsgen.openapi.spec import Spec


def where(spec: Spec, path: JsonPath) -> dict:
    """Return the location keywords of a Diagnostic for a JSON path in the spec."""
    line, column = spec.line_of(path)
    return {"path": spec.source, "line": line, "column": column, "json_path": spec.format_path(path)}


def _depth(errors: list) -> tuple[int, int, int]:
    """Score a oneOf/anyOf branch: deeper errors are more specific; a branch that wanted `$ref` is least likely."""
    wanted_ref = any(e.kind.name == "required" and e.kind.property == "$ref" for e in errors)
    return (0 if wanted_ref else 1, max((len(e.instance_path) for e in errors), default=0), -len(errors))


def best_leaf(err: Any) -> tuple[Any, list]:
    """Descend into oneOf/anyOf alternatives to the most specific failure (like jsonschema's best_match).

    Also return the allowed values when every alternative wanted a different constant at the same spot
    (the 3.0 schema's parameter `in`), so the message can list them all.
    """
    options: list = []
    for _ in range(32):
        context = getattr(err.kind, "context", None)
        if err.kind.name not in ("oneOf", "anyOf") or not context:
            break
        branches = [branch for branch in context if branch]
        if not branches:
            break
        best = max(branches, key=_depth)
        # A lone type mismatch at the same spot says nothing more than the alternatives themselves.
        if all(len(e.instance_path) == len(err.instance_path) and e.kind.name == "type" for e in best):
            break
        leaf = max(best, key=lambda e: len(e.instance_path))
        if leaf.kind.name in ("enum", "const"):
            options = []
            for branch in branches:
                for e in branch:
                    if e.instance_path == leaf.instance_path and e.kind.name == "enum":
                        options += [o for o in e.kind.options if o not in options]
                    elif e.instance_path == leaf.instance_path and e.kind.name == "const":
                        options += [e.kind.expected_value] if e.kind.expected_value not in options else []
        err = leaf
    return err, options


def short(value: Any) -> str:
    """Return a value for a message: scalars as JSON (cut at 60 characters), containers by kind only."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + '..."'


def json_type(value: Any) -> str:
    """Return the JSON type of a value with its article ("an integer"), for "expected X, found Y"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return short(value)


def describe(err: Any, options: list | None = None) -> tuple[JsonPath, str, str]:
    """Return (JSON path, message, hint) for one validator error."""
    path: JsonPath = tuple(err.instance_path)
    kind = err.kind
    name = kind.name
    instance = err.instance
    if name == "required":
        return path, f"missing required field `{kind.property}`", ""
    if name == "additionalProperties":
        extra = [str(k) for k in kind.unexpected]
        fields = ", ".join(f"`{k}`" for k in extra[:5])
        hint = "extension fields must start with `x-`"
        if path == ("paths",):
            hint = "path keys must start with `/`"
        elif len(path) == 2 and path[0] == "paths":
            hint = "a path item holds operations (get, post, ...), parameters, servers, summary, description"
        return (*path, extra[0]), f"unexpected field{'s' if len(extra) > 1 else ''} {fields}", hint
    if name == "type":
        types = kind.types if hasattr(kind, "types") else kind.value
        types = types if isinstance(types, list) else [types]
        return path, f"expected {' or '.join(str(t) for t in types)}, found {json_type(instance)}", ""
    if name == "enum" or (name == "const" and options):
        allowed = ", ".join(short(o) for o in (options or list(kind.options))[:12])
        return path, f"{short(instance)} is not one of {allowed}", ""
    if name == "const":
        return path, f"expected {short(kind.expected_value)}, found {short(instance)}", ""
    if name == "pattern":
        return path, f"{short(instance)} does not match the pattern {kind.pattern}", ""
    if name == "format":
        return path, f"{short(instance)} is not a valid {kind.format}", ""
    if name in ("oneOf", "anyOf"):
        return path, f"{short(instance)} matches none of the allowed shapes here", ""
    if name == "oneOfMultipleValid":
        return path, "matches more than one of the allowed shapes here (oneOf)", ""
    if name in ("minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"):
        limit = kind.limit if hasattr(kind, "limit") else kind.value
        word = {"min": "at least", "max": "at most"}[name[:3]]
        unit = {"Items": "item(s)", "Length": "character(s)", "Properties": "field(s)"}[name[3:]]
        return path, f"must have {word} {limit} {unit}", ""
    if name in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return path, f"{short(instance)} is out of range ({name} {kind.limit})", ""
    if name == "uniqueItems":
        return path, "items must be unique", ""
    if name == "not":
        return path, "this combination of fields is not allowed here", ""
    if name == "falseSchema":
        return path, "this value is not allowed here", ""
    if name in ("unevaluatedProperties", "propertyNames"):
        return path, f"unexpected or invalid field names ({name})", "extension fields must start with `x-`"
    return path, f"invalid value ({name})", ""


# ---- our own rules -----------------------------------------------------------------------------------------
