"""Validate a spec fast: the official OpenAPI JSON Schemas (compiled once, jsonschema-rs) plus our own rules."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

import jsonschema_rs

from docsgen.common.errors import Diagnostic, warning
from docsgen.openapi.limits import MAX_SCHEMA_PROBLEMS
from docsgen.openapi.messages import best_leaf, describe, where
from docsgen.openapi.rules import external_ref_errors, semantic_problems
from docsgen.openapi.spec import Spec

__all__ = ["duplicate_operations", "external_ref_errors", "structural_problems", "validate_spec"]


OAS31_DIALECT = "https://spec.openapis.org/oas/3.1/dialect/base"


def _schema_file(name: str) -> dict:
    return json.loads(files("docsgen.openapi").joinpath("schemas", name).read_text(encoding="utf-8"))


@cache
def structural_validator(minor: str, strict_schemas: bool = True) -> Any:
    """Return the compiled validator for "3.0" or "3.1" (3.1 strict: Schema Objects checked against the dialect)."""
    if minor == "3.0":
        return jsonschema_rs.validator_for(_schema_file("oas-3.0.json"))
    oas = _schema_file("oas-3.1.json")
    if not strict_schemas:
        return jsonschema_rs.validator_for(oas)
    dialect, meta = _schema_file("oas-3.1-dialect.json"), _schema_file("oas-3.1-meta.json")
    registry = jsonschema_rs.Registry([(oas["$id"], oas), (dialect["$id"], dialect), (meta["$id"], meta)])
    # Same trick as the official schema-base: the outermost `meta` dynamic anchor decides what a Schema Object is.
    wrapper = {
        "$id": "https://docsgen.invalid/oas-3.1-with-dialect",
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": oas["$id"],
        "$defs": {"schema": {"$dynamicAnchor": "meta", "$ref": dialect["$id"]}},
    }
    return jsonschema_rs.validator_for(wrapper, registry=registry)


_32_TAG_FIELDS = ("summary", "parent", "kind")
_32_PATH_ITEM_FIELDS = ("query", "additionalOperations")


def as_31_shape(data: dict) -> dict:
    """Return a 3.2 document without the fields 3.2 added, for the 3.1 schema (shallow copies, data untouched).

    What 3.2 adds is checked by docsgen's own rules where it renders them (`query` operations are operations).
    """
    out = {k: v for k, v in data.items() if k != "$self"}
    out["openapi"] = "3.1.0"
    tags = data.get("tags")
    if isinstance(tags, list):
        out["tags"] = [
            {k: v for k, v in t.items() if k not in _32_TAG_FIELDS} if isinstance(t, dict) else t
            for t in tags
        ]
    paths = data.get("paths")
    if isinstance(paths, dict):
        out["paths"] = {
            p: {k: v for k, v in item.items() if k not in _32_PATH_ITEM_FIELDS}
            if isinstance(item, dict)
            else item
            for p, item in paths.items()
        }
    return out


def structural_problems(spec: Spec) -> list[Diagnostic]:
    """Check the document against the official OpenAPI JSON Schema; messages are ours (never the instance)."""
    minor = spec.version[:3]
    data = spec.data
    if minor == "3.2":  # no official 3.2 schema is bundled: the 3.1 one, on what 3.1 has
        minor, data = "3.1", as_31_shape(data)
    strict = minor == "3.1" and data.get("jsonSchemaDialect", OAS31_DIALECT) == OAS31_DIALECT
    validator = structural_validator(minor, strict)
    problems: list[Diagnostic] = []
    seen: set[tuple] = set()
    for err in validator.iter_errors(data):
        leaf, options = best_leaf(err)
        path, message, hint = describe(leaf, options)
        if (path, message) in seen:
            continue
        seen.add((path, message))
        if len(problems) >= MAX_SCHEMA_PROBLEMS:
            problems.append(
                warning("openapi.too-many", f"more than {MAX_SCHEMA_PROBLEMS} problems; stopped", spec.source)
            )
            break
        problems.append(warning("openapi.schema", message, hint=hint, **where(spec, path)))
    return problems


def duplicate_operations(specs: list[Spec]) -> list[Diagnostic]:
    """Warn when two specs given together define the same METHOD /path (their pages would collide)."""
    first: dict[str, Spec] = {}
    problems = []
    for spec in specs:
        for op in spec.operations():
            if op.key in first and first[op.key] is not spec:
                problems.append(
                    warning(
                        "openapi.duplicate-operation",
                        f"{op.key} is also defined in {first[op.key].source}",
                        **where(spec, op.json_path),
                    )
                )
            first.setdefault(op.key, spec)
    return problems


def validate_spec(spec: Spec) -> list[Diagnostic]:
    """Return every validation problem of one spec (the fast path): official schema + our rules."""
    return structural_problems(spec) + semantic_problems(spec)
