"""Icons inside components: names from the site's icon library (inline SVG), URLs and paths as <img>."""

from __future__ import annotations

import html
import re

from docsgen.mdx.state import RenderState

esc = html.escape
_URLISH = re.compile(r"^(https?:)?//|^[./]|\.(svg|png|jpe?g|gif|webp|ico)$", re.I)


def icon_html(
    name: object,
    state: RenderState,
    icon_type: str | None = None,
    size: object = None,
    color: str | None = None,
    css_class: str = "dg-icon",
    library: str | None = None,
    where: tuple[int, int] | None = None,
) -> str:
    """Return inline markup for an icon prop (empty when no icon is given)."""
    from docsgen.mdx.state import JsxValue

    if isinstance(name, JsxValue):
        return f'<span class="{css_class}" aria-hidden="true">{name.render(state)}</span>'
    if not name or not isinstance(name, str):
        return ""
    style = []
    if size:
        size_text = f"{size}px" if str(size).isdigit() else str(size)
        style.append(f"width: {size_text}; height: {size_text}")
    if color:
        style.append(f"color: {color}")
    style_attr = f' style="{esc("; ".join(style))}"' if style else ""
    if _URLISH.search(name):
        src = state.ctx.resolve_asset(name)
        return f'<img class="{css_class} dg-icon-img" src="{esc(src)}" alt="" aria-hidden="true"{style_attr}>'
    lib = library or state.ctx.icon_library or "fontawesome"
    from docsgen.mdx.icons import icon_svg

    try:
        svg = icon_svg(name, lib, icon_type)
    except Exception:  # noqa: BLE001 - an icon problem must never break a page
        svg = None
    state.icons.add(name)
    if svg and icon_type:
        _note_style_fallback(name, lib, icon_type, state, where)
    if svg:
        return (
            f'<span class="{css_class}" data-icon="{esc(name)}" aria-hidden="true"{style_attr}>{svg}</span>'
        )
    element = state.current_element
    line, column = where or ((element.line, element.column) if element is not None else (0, 0))
    state.warn("mdx.unknown-icon", f"icon {name!r} is not in the {lib} icon set", line, column)
    # A neutral icon keeps the slot (a card without it looks broken); the warning says which name was unknown.
    return (
        f'<span class="{css_class} dg-icon-missing" data-icon="{esc(name)}" aria-hidden="true"{style_attr}>'
        f"{icon_svg('circle-dashed', 'lucide') or ''}</span>"
    )


def _note_style_fallback(
    name: str, lib: str, icon_type: str, state: RenderState, where: tuple[int, int] | None
) -> None:
    """Report (as a located info) a Font Awesome Pro style drawn in the closest Free style."""
    from docsgen.common.errors import info
    from docsgen.mdx.icons import style_fallback

    seen = state.__dict__.setdefault("_dg_icon_styles", set())
    if (name, icon_type) in seen:
        return  # one note per icon and style per page
    seen.add((name, icon_type))
    note = style_fallback(name, lib, icon_type)
    if note:
        element = state.current_element
        line, column = where or ((element.line, element.column) if element is not None else (0, 0))
        state.add(info("mdx.icon-style", note, state.frame.path, line, column))
