"""The facts listed under a schema field: enum values, const, default, constraints and examples."""

from __future__ import annotations

from typing import Any

from docsgen.openapi.render.fmt import MAX_ENUM, constraints, dumps, examples_of

FACT_KEYS = frozenset(
    (
        "enum",
        "const",
        "default",
        "example",
        "examples",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "pattern",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
    )
)


def facts_of(kw: dict) -> list[tuple[str, list[str] | None, str]]:
    """(label, shown values or None for a plain sentence, suffix) for each fact of a field, in display order."""
    out: list[tuple[str, list[str] | None, str]] = []
    enum = kw.get("enum")
    if isinstance(enum, list) and enum:
        more = f" and {len(enum) - MAX_ENUM} more" if len(enum) > MAX_ENUM else ""
        out.append(("Available options", [_show(v) for v in enum[:MAX_ENUM]], more))
    if "const" in kw:
        out.append(("Allowed value", [dumps(kw["const"])], ""))
    if "default" in kw:
        out.append(("Default", [dumps(kw["default"])], ""))
    for text in constraints(kw):
        label, _, value = text.partition(": ")
        out.append((label, [value], "") if value else (text, None, ""))
    exs = examples_of(kw)
    if exs:
        out.append(("Example" if len(exs) == 1 else "Examples", [dumps(v) for v in exs[:5]], ""))
    return out


def _show(value: Any) -> str:
    """Enum values: strings as written, everything else as JSON."""
    return value[:80] if isinstance(value, str) else dumps(value, 80)
