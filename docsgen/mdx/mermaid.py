"""Mermaid fences: emit the diagram source as a readable code block that the vendored mermaid build draws.

Without JavaScript the reader sees the source. With it, themes/base/static/js/mermaid-init.js (loaded when a
page's assets include MERMAID_ASSET) loads /_static/vendor/mermaid.min.js from the site itself (no CDN) and
replaces the block with an SVG in the current light/dark theme.
"""

from __future__ import annotations

import textwrap
from html import escape

__all__ = ["MERMAID_ASSET", "MERMAID_SCRIPT", "MERMAID_VENDOR", "PLACEMENTS", "render_mermaid"]

MERMAID_ASSET = "mermaid-init"  # add to MdxResult.assets: the layout then loads _static/js/mermaid-init.js
MERMAID_SCRIPT = "js/mermaid-init.js"  # relative to _static/
MERMAID_VENDOR = "vendor/mermaid.min.js"  # relative to _static/; the build copies it when a page needs it
PLACEMENTS = ("top-left", "top-right", "bottom-left", "bottom-right")  # Mintlify's `placement` values


def render_mermaid(source: str, *, actions: bool | None = None, placement: str | None = None) -> str:
    """Return the HTML for a ```mermaid fence; `actions`/`placement` are the fence's zoom-control options.

    A `placement` outside PLACEMENTS is ignored (the caller may warn, naming the fence's line).
    """
    code = textwrap.dedent(source.expandtabs(4)).strip("\n")
    attrs = ""
    if actions is not None:
        attrs += f' data-actions="{"true" if actions else "false"}"'
    if placement in PLACEMENTS:
        attrs += f' data-placement="{placement}"'
    return f'<div class="mermaid-diagram"{attrs}><pre class="mermaid">{escape(code, quote=False)}</pre></div>'
