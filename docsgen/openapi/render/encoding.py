"""A multipart or form body's `encoding` (OpenAPI 3): each part's content type, headers and serialisation."""

from __future__ import annotations

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc
from docsgen.openapi.render.mdtext import code
from docsgen.openapi.render.operation_view import EncodingPart


def render_encoding(ctx: RenderContext, encoding: tuple[EncodingPart, ...]) -> tuple[str, str]:
    """(html, Markdown) listing how each named part is sent; ("", "") when there is no usable encoding."""
    items, mds = [], []
    for part in encoding:
        facts, facts_md = [], []
        if part.content_type is not None:
            facts.append(f"content type <code>{esc(part.content_type)}</code>")
            facts_md.append(f"content type {code(part.content_type)}")
        for key, written in part.facts:
            value = str(written).lower() if isinstance(written, bool) else written
            facts.append(f"{key} <code>{esc(value)}</code>")
            facts_md.append(f"{key} {code(value)}")
        for header, desc in part.headers:
            text = f"header <code>{esc(header)}</code>"
            facts_md.append(f"header {code(header)}" + (f" ({' '.join(str(desc).split())})" if desc else ""))
            facts.append(text + (f" ({esc(' '.join(str(desc).split()))})" if desc else ""))
        if facts:
            items.append(f"<li><code>{esc(part.name)}</code>: {', '.join(facts)}</li>")
            mds.append(f"- {code(part.name)}: {', '.join(facts_md)}")
    if not items:
        return "", ""
    title = ctx.word("encoding", "Encoding")
    html = f'<p class="dg-api-subhead">{esc(title)}</p><ul class="dg-api-encoding">{"".join(items)}</ul>'
    return html, f"{title}:\n\n" + "\n".join(mds)
