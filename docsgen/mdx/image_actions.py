"""Image `actions` (Mintlify's copy/download buttons on an <img>): props checked at build time, buttons drawn by
themes/base/static/js/image-actions.js (with image-actions.css), loaded only on pages that use them.

`<img actions>` or `actions="copy,download"` (a list of copy and download) with `actionsPlacement` one of
PLACEMENTS (default bottom-center) become `data-actions` / `data-actions-placement`; a value outside those is a
located warning and is left out.
"""

from __future__ import annotations

from typing import Any

from docsgen.mdx.state import RenderState

ACTIONS = ("copy", "download")
PLACEMENTS = ("bottom-center", "bottom-left", "bottom-right", "top-center", "top-left", "top-right")
ASSET = "image-actions"


def _words(value: Any) -> list[str] | None:
    """Return the actions a prop asks for (None when it turns them off)."""
    if value is True or (isinstance(value, str) and value.strip().lower() in ("", "true", "{true}")):
        return list(ACTIONS)
    if value is False or (isinstance(value, str) and value.strip().lower() in ("false", "{false}")):
        return None
    return [w.strip().lower() for w in str(value).replace(" ", ",").split(",") if w.strip()]


def adapt(props: dict[str, Any], state: RenderState) -> dict[str, Any]:
    """Return an <img>'s props with `actions`/`actionsPlacement` turned into data attributes (others as given)."""
    if "actions" not in props and "actionsPlacement" not in props:
        return props
    out = {k: v for k, v in props.items() if k not in ("actions", "actionsPlacement")}
    element = state.current_element
    line, column = (element.line, element.column) if element is not None else (0, 0)
    wanted = _words(props.get("actions")) if "actions" in props else None
    if wanted is not None:
        unknown = [w for w in wanted if w not in ACTIONS]
        if unknown:
            state.warn(
                "mdx.image-actions",
                f"image actions {', '.join(repr(w[:20]) for w in unknown[:5])} unknown: use copy and/or download",
                line,
                column,
            )
        kept = [w for w in ACTIONS if w in wanted]
        if kept:
            out["data-actions"] = " ".join(kept)
            state.assets.add(ASSET)
    placement = props.get("actionsPlacement")
    if isinstance(placement, str) and placement in PLACEMENTS:
        if "data-actions" in out:
            out["data-actions-placement"] = placement
    elif placement is not None:
        state.warn(
            "mdx.image-actions",
            f"actionsPlacement {str(placement)[:40]!r} unknown: use one of {', '.join(PLACEMENTS)}",
            line,
            column,
        )
    return out
