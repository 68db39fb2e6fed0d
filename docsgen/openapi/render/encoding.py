"""A multipart or form body's `encoding` (OpenAPI 3): each part's content type, headers and serialisation."""

from __future__ import annotations

from typing import Any

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc
from docsgen.openapi.render.mdtext import code

MAX_PARTS = 60  # encoded parts listed per media type


def render_encoding(ctx: RenderContext, encoding: Any) -> tuple[str, str]:
    """(html, Markdown) listing how each named part is sent; ("", "") when there is no usable encoding."""
    if not isinstance(encoding, dict) or not encoding:
        return "", ""
    items, mds = [], []
    for name, raw in list(encoding.items())[:MAX_PARTS]:
        enc = ctx.resolve(raw)
        facts, facts_md = [], []
        if isinstance(enc.get("contentType"), str):
            facts.append(f"content type <code>{esc(enc['contentType'])}</code>")
            facts_md.append(f"content type {code(enc['contentType'])}")
        for key in ("style", "explode", "allowReserved"):
            if key in enc and isinstance(enc[key], (str, bool)):
                value = str(enc[key]).lower() if isinstance(enc[key], bool) else enc[key]
                facts.append(f"{key} <code>{esc(value)}</code>")
                facts_md.append(f"{key} {code(value)}")
        headers = enc.get("headers")
        for header, spec in list(headers.items())[:20] if isinstance(headers, dict) else []:
            desc = ctx.resolve(spec).get("description")
            text = f"header <code>{esc(header)}</code>"
            facts_md.append(f"header {code(header)}" + (f" ({' '.join(str(desc).split())})" if desc else ""))
            facts.append(text + (f" ({esc(' '.join(str(desc).split()))})" if desc else ""))
        if facts:
            items.append(f"<li><code>{esc(name)}</code>: {', '.join(facts)}</li>")
            mds.append(f"- {code(name)}: {', '.join(facts_md)}")
    if not items:
        return "", ""
    title = ctx.word("encoding", "Encoding")
    html = f'<p class="dg-api-subhead">{esc(title)}</p><ul class="dg-api-encoding">{"".join(items)}</ul>'
    return html, f"{title}:\n\n" + "\n".join(mds)
