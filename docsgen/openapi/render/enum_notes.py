"""Enum values with their meaning: `x-enumDescriptions` (map or list), `x-enum-descriptions`, `x-enum-varnames`.

Redocly, Speakeasy and openapi-generator read these extensions; a field whose enum has them lists each value
with its name and description instead of the bare "Available options" line.
"""

from __future__ import annotations

from typing import Any

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import MAX_ENUM, dumps, esc
from docsgen.openapi.render.mdtext import code

DESCRIPTION_KEYS = ("x-enumDescriptions", "x-enum-descriptions")
NAME_KEYS = ("x-enum-varnames", "x-enumNames")
KEYS = DESCRIPTION_KEYS + NAME_KEYS


def _aligned(enum: list, value: Any) -> list[str]:
    """One string per enum value from a list (by position) or a map (by value); '' where none."""
    out = []
    for index, member in enumerate(enum):
        if isinstance(value, list):
            found = value[index] if index < len(value) else None
        elif isinstance(value, dict):
            key = member if isinstance(member, str) else dumps(member)
            found = value.get(key, value.get(str(member)))
        else:
            found = None
        out.append(found if isinstance(found, str) else "")
    return out


def described(kw: dict) -> bool:
    """Whether a field's enum comes with names or descriptions."""
    return isinstance(kw.get("enum"), list) and bool(kw["enum"]) and any(k in kw for k in KEYS)


def enum_notes(ctx: RenderContext, kw: dict) -> tuple[str, list[str]]:
    """The enum as a list of (value, name, description): (html, Markdown lines)."""
    enum = kw["enum"][:MAX_ENUM]
    descs = _aligned(enum, next((kw[k] for k in DESCRIPTION_KEYS if k in kw), None))
    names = _aligned(enum, next((kw[k] for k in NAME_KEYS if k in kw), None))
    items, lines = [], []
    for member, name, desc in zip(enum, names, descs, strict=True):
        shown = member[:80] if isinstance(member, str) else dumps(member, 80)
        html = f"<code>{esc(shown)}</code>"
        md = code(shown)
        if name:
            html += f' <span class="dg-api-enum-name">{esc(name)}</span>'
            md += f" ({name})"
        if desc:
            html += f'<div class="dg-api-enum-desc">{ctx.md(desc)}</div>'
            md += f": {' '.join(desc.split())}"
        items.append(f"<li>{html}</li>")
        lines.append(f"- {md}")
    more = len(kw["enum"]) - MAX_ENUM
    tail = (
        f"<li>{esc(ctx.word('and_more', 'and {n} more').replace('{n}', str(more)))}</li>" if more > 0 else ""
    )
    label = ctx.word("available_options", "Available options")
    html = f'<div class="dg-api-enum"><p>{esc(label)}:</p><ul>{"".join(items)}{tail}</ul></div>'
    return html, [f"{label}:", *lines]
