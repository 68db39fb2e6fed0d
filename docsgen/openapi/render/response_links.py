"""A response's `links` (OpenAPI 3): which operation a value of this response can be used for, and how.

The target operation is linked by docsgen.openapi.spec_links when it has a generated page on this site (the
Markdown twin uses a Redoc-style #operation/<operationId> link, resolved the same way); `operationRef` and parameter expressions are shown as written.
"""

from __future__ import annotations

from urllib.parse import quote

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc
from docsgen.openapi.render.mdtext import code, inline
from docsgen.openapi.render.operation_view import Link


def render_links(ctx: RenderContext, links: tuple[Link, ...]) -> tuple[str, str]:
    """(html, Markdown) of a response's links; ("", "") when it has none."""
    if not links:
        return "", ""
    items, mds = [], []
    for link in links:
        name, op_id, op_ref = link.name, link.operation_id, link.operation_ref
        head = f'<span class="dg-api-link-name">{esc(name)}</span>'
        md = f"- {inline(name)}"
        if op_id:
            # The href is added by docsgen.openapi.spec_links when the operation has a page on this site.
            head += (
                f' → <a class="dg-api-link-target" data-operation="{quote(op_id, safe="")}">'
                f"<code>{esc(op_id)}</code></a>"
            )
            md += f" → [{code(op_id)}](#operation/{quote(op_id, safe='')})"
        elif op_ref:
            head += f" → <code>{esc(op_ref)}</code>"
            md += f" → {code(op_ref)}"
        parts = [f"<li>{head}"]
        if link.description:
            parts.append(f'<div class="dg-api-desc">{ctx.md(link.description)}</div>')
            md += f": {ctx.mdt(link.description)}"
        rows = link.arguments
        if rows:
            parts.append(
                '<ul class="dg-api-link-params">'
                + "".join(f"<li><code>{esc(k)}</code> = <code>{esc(v)}</code></li>" for k, v in rows)
                + "</ul>"
            )
            md += "".join(f"\n  - {code(k)} = {code(v)}" for k, v in rows)
        parts.append("</li>")
        items.append("".join(parts))
        mds.append(md)
    title = ctx.word("links", "Links")
    html = f'<p class="dg-api-subhead">{esc(title)}</p><ul class="dg-api-links">{"".join(items)}</ul>'
    return html, f"{title}:\n\n" + "\n".join(mds)
