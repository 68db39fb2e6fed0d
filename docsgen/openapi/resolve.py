"""Internal `$ref` resolution with a small JSON-pointer resolver: chains followed, cycles kept, no inlining."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from docsgen.openapi.locate import JsonPath

# Values that are literal data, never references: do not look for `$ref` inside them.
_LITERAL_KEYS = frozenset({"example", "default", "enum", "const"})
# Objects whose keys are names chosen by the author ("default" response, a property called "enum"...).
_NAME_MAPS = frozenset(
    {
        "paths",
        "webhooks",
        "schemas",
        "properties",
        "patternProperties",
        "$defs",
        "definitions",
        "responses",
        "parameters",
        "examples",
        "requestBodies",
        "headers",
        "securitySchemes",
        "links",
        "callbacks",
        "pathItems",
        "content",
        "encoding",
        "variables",
        "mapping",
        "dependentSchemas",
    }
)


# A schema keyword with a lower and an upper bound, or a pattern: checked for consistency (schema_rules).
_BOUND_KEYS = frozenset(
    {"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
)


class RefError(LookupError):
    """An internal reference that points nowhere (message names the missing step)."""


def is_internal(ref: str) -> bool:
    """Tell whether a reference points inside the same document."""
    return ref.startswith("#")


def ref_path(ref: str, doc: Any) -> JsonPath:
    """Return the JSON path an internal reference points to, or raise RefError naming the missing step."""
    if not is_internal(ref):
        raise RefError(f"external reference {ref!r} is not supported")
    pointer = unquote(ref[1:])
    if pointer and not pointer.startswith("/"):
        raise RefError(f"reference {ref!r} is not a JSON pointer (expected '#/components/...')")
    node = doc
    path: list[str | int] = []
    for raw in pointer.split("/")[1:] if pointer else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
            path.append(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
            path.append(int(part))
        else:
            where = "#/" + "/".join(str(p) for p in path) if path else "the document root"
            raise RefError(f"{part!r} not found under {where}")
    return tuple(path)


def resolve_ref(ref: str, doc: Any) -> Any:
    """Return the value an internal reference points to (RefError when it points nowhere)."""
    node = doc
    for part in ref_path(ref, doc):
        node = node[part]
    return node


def deref(obj: Any, doc: Any, max_hops: int = 64) -> Any:
    """Follow `$ref` chains to the first non-reference value; a cycle or dead end returns the last object."""
    seen: set[str] = set()
    while isinstance(obj, dict) and isinstance(obj.get("$ref"), str) and len(seen) < max_hops:
        ref = obj["$ref"]
        if ref in seen:
            return obj
        seen.add(ref)
        try:
            obj = resolve_ref(ref, doc)
        except RefError:
            return obj
    return obj


@dataclass
class Scan:
    """What one pass over the document found: references, and schema-like objects worth a closer look."""

    refs: list[tuple[JsonPath, str]] = field(default_factory=list)  # (path of the object holding $ref, ref)
    defaults: list[tuple[JsonPath, dict]] = field(default_factory=list)  # objects with a `default`
    combined: list[tuple[JsonPath, dict]] = field(default_factory=list)  # objects with `allOf` and `required`
    bounded: list[tuple[JsonPath, dict]] = field(
        default_factory=list
    )  # objects with a `pattern` or min/max pair


def scan(doc: Any) -> Scan:
    """Walk the document once (iteratively), skipping literal values; paths are built only for hits."""
    found = Scan()
    stack: list[tuple[Any, Any]] = [(doc, None)]  # node, link: (parent link, key) or None
    while stack:
        node, link = stack.pop()
        if isinstance(node, dict):
            own_key = link[1] if link else None
            grand_key = link[0][1] if link and link[0] else None
            is_map = own_key in _NAME_MAPS
            ref = node.get("$ref")
            if isinstance(ref, str):
                found.refs.append((_path_of(link), ref))
            elif not is_map:
                if "default" in node and grand_key != "variables":
                    found.defaults.append((_path_of(link), node))
                if "allOf" in node and "required" in node:
                    found.combined.append((_path_of(link), node))
                if "pattern" in node or not _BOUND_KEYS.isdisjoint(node):
                    found.bounded.append((_path_of(link), node))
            literal = () if is_map else _LITERAL_KEYS
            for key, value in node.items():
                if not isinstance(value, (dict, list)) or key in literal:
                    continue
                if key == "value" and grand_key == "examples":
                    continue
                if key == "examples" and isinstance(value, list):
                    continue
                stack.append((value, (link, key)))
        elif isinstance(node, list):
            stack.extend(
                (value, (link, i)) for i, value in enumerate(node) if isinstance(value, (dict, list))
            )
    return found


def iter_refs(doc: Any) -> Iterator[tuple[JsonPath, str]]:
    """Yield (path of the `$ref` key's object, reference) for every reference, skipping literal values."""
    yield from scan(doc).refs


def _path_of(link: Any) -> JsonPath:
    parts: list[str | int] = []
    while link:
        link, key = link
        parts.append(key)
    return tuple(reversed(parts))


def check_refs(
    doc: Any, refs: list[tuple[JsonPath, str]] | None = None
) -> tuple[list[tuple[JsonPath, str]], list[tuple[JsonPath, str, str]]]:
    """Return (external references, unresolvable internal references with the reason)."""
    external: list[tuple[JsonPath, str]] = []
    broken: list[tuple[JsonPath, str, str]] = []
    resolved: dict[str, str | None] = {}
    for path, ref in iter_refs(doc) if refs is None else refs:
        if not is_internal(ref):
            external.append((path, ref))
            continue
        if ref not in resolved:
            try:
                ref_path(ref, doc)
                resolved[ref] = None
            except RefError as exc:
                resolved[ref] = str(exc)
        problem = resolved[ref]
        if problem is not None:
            broken.append((path, ref, problem))
    return external, broken
