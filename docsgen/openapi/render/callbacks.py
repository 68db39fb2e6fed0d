"""Callbacks of an operation: the requests the API sends back, each with its payload tree and responses."""

from __future__ import annotations

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc, slug
from docsgen.openapi.render.mdtext import code, inline
from docsgen.openapi.render.operation_view import Callback
from docsgen.openapi.render.params import Ids, render_contents, status_class


def render_callbacks(
    ctx: RenderContext, callbacks: tuple[Callback, ...], ids: Ids
) -> tuple[str, str, list[tuple[str, str]]]:
    """Return (html, Markdown, [(anchor id, title)]) for the operation's `callbacks` ("" when it has none)."""
    blocks: list[str] = []
    mds: list[str] = []
    toc: list[tuple[str, str]] = []
    for callback in callbacks:
        name, method, expression = callback.name, callback.method, callback.expression
        cid = ids.claim(f"callback-{slug(name)}")
        toc.append((cid, name))
        parts = [
            f'<div class="dg-api-callback" id="{esc(cid)}"><p class="dg-api-alt-title">{esc(name)}</p>'
            f'<div class="dg-api-endpoint" data-method="{method}">'
            f'<span class="dg-api-method dg-api-method-{method}">{method.upper()}</span>'
            f'<code class="dg-api-url">{esc(expression)}</code></div>'
        ]
        md = [f"### {inline(name)}", f"**{method.upper()}** {code(expression)}"]
        desc = ctx.md(callback.description)
        if desc:
            parts.append(f'<div class="dg-api-desc">{desc}</div>')
            md.append(ctx.mdt(callback.description))
        if callback.body is not None:
            parts.append(f'<p class="dg-api-subhead">{esc(ctx.word("payload", "Payload"))}</p>')
            html, payload_md = render_contents(ctx, callback.body.content, "", ids, cid, False)
            parts.append(html)
            md += [f"{ctx.word('payload', 'Payload')}:", payload_md]
        if callback.responses:
            expected = esc(ctx.word("expected_responses", "Expected responses"))
            parts.append(f'<p class="dg-api-subhead">{expected}</p><ul class="dg-api-facts">')
            items = []
            for resp in callback.responses:
                text = ctx.md(resp.description)
                parts.append(
                    f'<li><span class="dg-api-status dg-api-status-{status_class(resp.status)}">'
                    f"{esc(resp.status)}</span> {text}</li>"
                )
                line = ctx.mdt(resp.description).replace("\n", "\n  ")
                items.append(f"- {code(resp.status)}" + (f": {line}" if line else ""))
            parts.append("</ul>")
            md += [f"{ctx.word('expected_responses', 'Expected responses')}:", "\n".join(items)]
        parts.append("</div>")
        blocks.append("".join(parts))
        mds.append("\n\n".join(m for m in md if m))
    return "".join(blocks), "\n\n".join(mds), toc
