"""Small HTML helpers shared by the renderers: escaping, anchor slugs, type labels, constraint text."""

from __future__ import annotations

import json
import re
from html import escape as _escape
from typing import Any

from docsgen.openapi.limits import MAX_VALUE_CHARS
from docsgen.openapi.limits import SHOWN_ENUM as MAX_ENUM  # noqa: F401 - used by schema_tree
from docsgen.openapi.render.schema_model import Flat

_NEEDS_ESCAPE = re.compile("[&<>\"'\x00]")
_SLUG_BAD = re.compile(r"[^A-Za-z0-9_.:+\-\[\]@$]+")
# "Deprecated." / "**Deprecated**:" / "(Deprecated) -" opening a description whose field already shows the pill.
# (no two `\s*` next to each other with only optional text between: quadratic on a description of spaces)
_DEPRECATED_LEAD = re.compile(
    r"^\s*(?:[*_(\[]+\s*)?deprecated\s*(?:[*_)\]]+\s*)?[.:;!\u2013\u2014-]+\s*", re.I
)


def esc(value: Any) -> str:
    """Escape any untrusted value for HTML text and attribute values (NULs removed: they are our token)."""
    text = value if type(value) is str else str(value)
    if _NEEDS_ESCAPE.search(text) is None:
        return text
    return _escape(text.replace("\x00", ""), quote=True)


def slug(name: Any) -> str:
    """Turn a property or parameter name into a valid anchor segment (no spaces, stable, never empty)."""
    text = _SLUG_BAD.sub("-", str(name))
    return text or "field"


def dumps(value: Any, limit: int = MAX_VALUE_CHARS) -> str:
    """Show a JSON value compactly (strings without quotes are ambiguous, so they keep them), truncated."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def type_label(flat: Flat, items: Flat | None = None) -> str:
    """Return the displayed type: `string<date-time>`, `array<object>`, `integer | null`, `enum<string>`."""
    if flat.is_binary:
        base = "file"
    elif flat.types:
        parts = []
        for t in flat.types:
            if t == "array":
                parts.append(f"array<{type_label(items) if items is not None else 'any'}>")
            elif t == "string" and isinstance(flat.kw.get("enum"), list):
                parts.append("enum<string>")
            elif flat.kw.get("format") and t in ("string", "integer", "number"):
                parts.append(f"{t}<{flat.kw['format']}>")
            else:
                parts.append(t)
        base = " | ".join(parts)
    elif flat.alternatives:
        base = " | ".join(dict.fromkeys(label for label, _ in flat.alternatives))
        if len(base) > 60:
            base = flat.alt_kind or "oneOf"
    else:
        base = "any"
    return f"{base} | null" if flat.nullable else base


def constraints(kw: dict) -> list[str]:
    """Return the human-readable constraints of schema keywords (range, length, pattern, items...)."""
    out: list[str] = []
    lo, hi = kw.get("minimum"), kw.get("maximum")
    ex_lo, ex_hi = kw.get("exclusiveMinimum"), kw.get("exclusiveMaximum")
    if isinstance(ex_lo, bool):  # 3.0 boolean form
        ex_lo = lo if ex_lo else None
        lo = None if ex_lo is not None else lo
    if isinstance(ex_hi, bool):
        ex_hi = hi if ex_hi else None
        hi = None if ex_hi is not None else hi
    left = f"{dumps(lo)} <= " if _num(lo) else f"{dumps(ex_lo)} < " if _num(ex_lo) else ""
    right = f" <= {dumps(hi)}" if _num(hi) else f" < {dumps(ex_hi)}" if _num(ex_hi) else ""
    if left or right:
        out.append(f"Required range: {left}x{right}")
    if _num(kw.get("minLength")) or _num(kw.get("maxLength")):
        out.append(f"Required string length: {_span(kw.get('minLength'), kw.get('maxLength'))}")
    if isinstance(kw.get("pattern"), str):
        out.append(f"Pattern: {kw['pattern']}")
    if _num(kw.get("multipleOf")):
        out.append(f"Multiple of: {dumps(kw['multipleOf'])}")
    if _num(kw.get("minItems")) or _num(kw.get("maxItems")):
        out.append(f"Required array length: {_span(kw.get('minItems'), kw.get('maxItems'))} elements")
    if kw.get("uniqueItems") is True:
        out.append("Items must be unique")
    if _num(kw.get("minProperties")) or _num(kw.get("maxProperties")):
        out.append(f"Number of properties: {_span(kw.get('minProperties'), kw.get('maxProperties'))}")
    return out


def _num(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _span(lo: Any, hi: Any) -> str:
    if _num(lo) and _num(hi):
        return f"{dumps(lo)} - {dumps(hi)}"
    return f">= {dumps(lo)}" if _num(lo) else f"<= {dumps(hi)}"


def examples_of(kw: dict) -> list[Any]:
    """Return the documented example values of a schema or parameter (3.0 `example`, 3.1 `examples`)."""
    out: list[Any] = []
    if "example" in kw:
        out.append(kw["example"])
    exs = kw.get("examples")
    if isinstance(exs, list):
        out.extend(exs)
    elif isinstance(exs, dict):  # parameter/media `examples` map
        for ex in exs.values():
            if isinstance(ex, dict) and "value" in ex:
                out.append(ex["value"])
    return out


def without_deprecated_lead(description: Any) -> Any:
    """A description without its opening "Deprecated." when the field's pill says it already (said once)."""
    if not isinstance(description, str):
        return description
    rest = _DEPRECATED_LEAD.sub("", description, count=1)
    return rest[:1].upper() + rest[1:] if rest != description else description
