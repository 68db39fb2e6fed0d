"""Callouts: Note, Info, Tip, Warning, Check, Danger and the configurable Callout."""

from __future__ import annotations

import html

from docsgen.mdx.components import component
from docsgen.mdx.components.base import class_names
from docsgen.mdx.components.icons import icon_html
from docsgen.mdx.state import Element

esc = html.escape
_SVG = '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">{}</svg>'
CALLOUT_ICONS = {
    "note": _SVG.format('<circle cx="12" cy="12" r="10"/><path d="M12 16v-4M12 8h.01"/>'),
    "info": _SVG.format('<circle cx="12" cy="12" r="10"/><path d="M12 16v-4M12 8h.01"/>'),
    "tip": _SVG.format('<path d="M9 18h6M10 22h4M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z"/>'),
    "warning": _SVG.format(
        '<path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0zM12 9v4M12 17h.01"/>'
    ),
    "check": _SVG.format('<path d="M20 6 9 17l-5-5"/>'),
    "danger": _SVG.format('<circle cx="12" cy="12" r="10"/><path d="m15 9-6 6M9 9l6 6"/>'),
    "callout": _SVG.format('<circle cx="12" cy="12" r="10"/><path d="M12 16v-4M12 8h.01"/>'),
}
LABELS = {
    "note": "Note",
    "info": "Info",
    "tip": "Tip",
    "warning": "Warning",
    "check": "Check",
    "danger": "Danger",
}


def callout_html(kind: str, body: str, icon: str = "", style: str = "", inline: bool = False) -> str:
    """Return the callout box markup."""
    label = LABELS.get(kind, "Note")
    style_attr = f' style="{esc(style)}"' if style else ""
    return (
        f'<div class="{class_names("dg-callout", f"dg-callout-{kind}")}" role="note" aria-label="{label}"{style_attr}>'
        f'<span class="dg-callout-icon">{icon or CALLOUT_ICONS.get(kind, "")}</span>'
        f'<div class="dg-callout-content">{body}</div></div>' + ("" if inline else "\n")
    )


@component("Note", "Info", "Tip", "Warning", "Check", "Danger")
def callout(el: Element) -> str:
    kind = el.name.lower()
    return callout_html(kind, el.render_children(), inline=el.inline)


@component("Callout")
def custom_callout(el: Element) -> str:
    icon = icon_html(el.prop("icon"), el.state, el.text_prop("iconType") or None) if el.prop("icon") else ""
    color = el.text_prop("color")
    style = f"--dg-callout-color: {color}" if color else ""
    kind = el.text_prop("type").lower()  # <Callout type="warning">: styled as <Warning>
    return callout_html(kind if kind in LABELS else "callout", el.render_children(), icon, style, el.inline)
