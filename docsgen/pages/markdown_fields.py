"""Markdown for code groups and parameter fields in the twin (docsgen/pages/markdown_export.py)."""

from __future__ import annotations

import re
from typing import Any

from docsgen.mdx.expressions import to_text
from docsgen.mdx.jsx_syntax import fenced_blocks

__all__ = ["code_group", "field_item", "indent_lines"]


def code_group(body: str) -> str:
    """Give each fenced block of a code group a heading from its title and keep only the language."""
    out = []
    for _indent, fence, info, code, whole in fenced_blocks(body):
        lang, _, rest = info.strip().partition(" ")
        label = _META_RE.sub("", rest).strip() or lang
        out.append(f"##### {label}\n\n{fence}{lang}\n{code}{fence}" if label else whole)
    return "\n\n".join(out) if out else body


_META_RE = re.compile(r"\b\w+=(\{[^}]*\}|\"[^\"]*\"|\S+)|\{[\d,\- ]+\}")


def field_item(props: dict[str, Any], body: str) -> str:
    """Write a parameter or response field as a list item: name, where, type, required, default."""
    name, where = "", ""
    for key in ("path", "query", "body", "header", "cookie", "name"):
        if isinstance(props.get(key), str):
            name, where = props[key], ("" if key == "name" else key)
            break
    bits = [b for b in (where, str(props.get("type") or "")) if b]
    if props.get("required"):
        bits.append("required")
    if props.get("deprecated"):
        bits.append("deprecated")
    if props.get("default") is not None:
        bits.append(f"default: `{to_text(props['default'])}`")
    head = f"- `{name}`" + (f" ({', '.join(bits)})" if bits else "")
    return head + (f": {indent_lines(body, '  ').strip()}" if body else "")


def indent_lines(text: str, prefix: str) -> str:
    """Indent continuation lines so they stay inside a list item."""
    return "\n".join((prefix + line) if line.strip() else "" for line in text.split("\n"))
