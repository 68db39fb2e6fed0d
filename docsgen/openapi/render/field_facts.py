"""The facts listed under a schema field: enum values, const, default, constraints and examples."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docsgen.openapi.render.fmt import MAX_ENUM, constraints, dumps, esc, examples_of
from docsgen.openapi.render.mdtext import code

Word = Callable[[str, str], str]  # (key, English text) -> the word in the page's language

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


# each constraint's English label (fmt.constraints) and its key in the string table
CONSTRAINT_KEYS = {
    "Required range": "required_range",
    "Required string length": "string_length",
    "Pattern": "pattern",
    "Multiple of": "multiple_of",
    "Required array length": "array_length",
    "Items must be unique": "unique_items",
    "Number of properties": "property_count",
}
ELEMENTS = " elements"


def _english(key: str, english: str) -> str:
    return english


def facts_of(kw: dict, word: Word = _english) -> list[tuple[str, list[str] | None, str]]:
    """(label, shown values or None for a plain sentence, suffix) for each fact of a field, in display order,
    in the page's language (`word(key, english)`, RenderContext.word)."""
    out: list[tuple[str, list[str] | None, str]] = []
    enum = kw.get("enum")
    if isinstance(enum, list) and enum:
        more = len(enum) - MAX_ENUM
        tail = " " + word("and_more", "and {n} more").replace("{n}", str(more)) if more > 0 else ""
        out.append(
            (word("available_options", "Available options"), [_show(v) for v in enum[:MAX_ENUM]], tail)
        )
    if "const" in kw:
        out.append((word("allowed_value", "Allowed value"), [dumps(kw["const"])], ""))
    if "default" in kw:
        out.append((word("default", "Default"), [dumps(kw["default"])], ""))
    for text in constraints(kw):
        label, _, value = text.partition(": ")
        if value.endswith(ELEMENTS) and label == "Required array length":
            value = word("n_elements", "{n} elements").replace("{n}", value[: -len(ELEMENTS)])
        shown = word(CONSTRAINT_KEYS[label], label) if label in CONSTRAINT_KEYS else label
        out.append((shown, [value], "") if value else (shown, None, ""))
    exs = examples_of(kw)
    if exs:
        one = len(exs) == 1
        out.append(
            (
                word("example", "Example") if one else word("examples", "Examples"),
                [dumps(v) for v in exs[:5]],
                "",
            )
        )
    return out


def _show(value: Any) -> str:
    """Enum values: strings as written, everything else as JSON."""
    return value[:80] if isinstance(value, str) else dumps(value, 80)


def alternatives_label(word: Word, alt_kind: str | None, discriminator: str | None) -> tuple[str, str]:
    """The label over a schema's alternatives ("One of (by <code>kind</code>)") as (html, Markdown)."""
    kind = word("any_of", "Any of") if alt_kind == "anyOf" else word("one_of", "One of")
    if not discriminator:
        return esc(kind), kind
    by = word("by_discriminator", "by {name}")
    html = esc(by).replace("{name}", f"<code>{esc(discriminator)}</code>")
    return f"{esc(kind)} ({html})", f"{kind} ({by.replace('{name}', code(discriminator))})"
