"""Callbacks of an operation: the requests the API sends back, each with its payload tree and responses."""

from __future__ import annotations

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc, slug
from docsgen.openapi.render.mdtext import code, inline
from docsgen.openapi.render.params import Ids, render_contents, status_class

_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def render_callbacks(ctx: RenderContext, operation: dict, ids: Ids) -> tuple[str, str, list[tuple[str, str]]]:
    """Return (html, Markdown, [(anchor id, title)]) for the operation's `callbacks` ("" when it has none)."""
    callbacks = operation.get("callbacks")
    if not isinstance(callbacks, dict) or not callbacks:
        return "", "", []
    blocks: list[str] = []
    mds: list[str] = []
    toc: list[tuple[str, str]] = []
    for name, raw in callbacks.items():
        callback = ctx.resolve(raw)
        for expression, item in callback.items():
            path_item = ctx.resolve(item)
            for method in _METHODS:
                op = path_item.get(method)
                if not isinstance(op, dict):
                    continue
                cid = ids.claim(f"callback-{slug(name)}")
                toc.append((cid, str(name)))
                parts = [
                    f'<div class="dg-api-callback" id="{esc(cid)}"><p class="dg-api-alt-title">{esc(name)}</p>'
                    f'<div class="dg-api-endpoint" data-method="{method}">'
                    f'<span class="dg-api-method dg-api-method-{method}">{method.upper()}</span>'
                    f'<code class="dg-api-url">{esc(expression)}</code></div>'
                ]
                md = [f"### {inline(name)}", f"**{method.upper()}** {code(expression)}"]
                desc = ctx.md(op.get("description") or op.get("summary"))
                if desc:
                    parts.append(f'<div class="dg-api-desc">{desc}</div>')
                    md.append(ctx.mdt(op.get("description") or op.get("summary")))
                body = ctx.resolve(op.get("requestBody"))
                content = body.get("content")
                if isinstance(content, dict) and content:
                    parts.append(f'<p class="dg-api-subhead">{esc(ctx.word("payload", "Payload"))}</p>')
                    html, payload_md = render_contents(ctx, content, "", ids, cid, False)
                    parts.append(html)
                    md += [f"{ctx.word('payload', 'Payload')}:", payload_md]
                responses = op.get("responses")
                if isinstance(responses, dict) and responses:
                    expected = esc(ctx.word("expected_responses", "Expected responses"))
                    parts.append(f'<p class="dg-api-subhead">{expected}</p><ul class="dg-api-facts">')
                    items = []
                    for status, resp in responses.items():
                        described = ctx.resolve(resp).get("description")
                        text = ctx.md(described)
                        parts.append(
                            f'<li><span class="dg-api-status dg-api-status-{status_class(str(status))}">'
                            f"{esc(status)}</span> {text}</li>"
                        )
                        line = ctx.mdt(described).replace("\n", "\n  ")
                        items.append(f"- {code(status)}" + (f": {line}" if line else ""))
                    parts.append("</ul>")
                    md += [f"{ctx.word('expected_responses', 'Expected responses')}:", "\n".join(items)]
                parts.append("</div>")
                blocks.append("".join(parts))
                mds.append("\n\n".join(m for m in md if m))
    return "".join(blocks), "\n\n".join(mds), toc
