"""Custom pills of a field: `x-mint.pre` / `x-mint.post` on its schema and docs.json `api.params.post` keys."""

from __future__ import annotations

from typing import Any

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc

MAX_PILLS = 8  # pills of one kind per field
MAX_PILL_CHARS = 40


def _strings(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    return [s.strip()[:MAX_PILL_CHARS] for s in items[:MAX_PILLS] if isinstance(s, str) and s.strip()]


def _config_pill(key: str, value: Any) -> str:
    """A docs.json `api.params.post` key's pill: the key for `true`, the value for a string or number."""
    if value is True:
        return key
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return str(value).strip()[:MAX_PILL_CHARS]
    return ""


def pills(ctx: RenderContext, raw: Any, config_keys: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Return (pre, post) pill labels of a field's schema, in Mintlify's order (config first, then x-mint)."""
    schema = ctx.resolve(raw) if isinstance(raw, dict) else {}
    ext = schema.get("x-mint")
    ext = ext if isinstance(ext, dict) else {}
    post = [p for p in (_config_pill(k, schema.get(k)) for k in config_keys if k in schema) if p]
    return _strings(ext.get("pre")), post + _strings(ext.get("post"))


def pill_html(label: str) -> str:
    return f'<span class="dg-api-pill dg-api-pill-custom">{esc(label)}</span>'
