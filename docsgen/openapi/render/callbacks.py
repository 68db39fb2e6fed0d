"""Callbacks of an operation: the requests the API sends back, each with its payload tree and responses."""

from __future__ import annotations

from docsgen.openapi.render.context import RenderContext
from docsgen.openapi.render.fmt import esc, slug
from docsgen.openapi.render.params import Ids, render_contents, status_class

_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def render_callbacks(ctx: RenderContext, operation: dict, ids: Ids) -> tuple[str, list[tuple[str, str]]]:
    """Return (html, [(anchor id, title)]) for the operation's `callbacks` ("" when it has none)."""
    callbacks = operation.get("callbacks")
    if not isinstance(callbacks, dict) or not callbacks:
        return "", []
    blocks: list[str] = []
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
                desc = ctx.md(op.get("description") or op.get("summary"))
                if desc:
                    parts.append(f'<div class="dg-api-desc">{desc}</div>')
                body = ctx.resolve(op.get("requestBody"))
                content = body.get("content")
                if isinstance(content, dict) and content:
                    parts.append('<p class="dg-api-subhead">Payload</p>')
                    parts.append(render_contents(ctx, content, "", ids, cid, False))
                responses = op.get("responses")
                if isinstance(responses, dict) and responses:
                    parts.append('<p class="dg-api-subhead">Expected responses</p><ul class="dg-api-facts">')
                    for status, resp in responses.items():
                        text = ctx.md(ctx.resolve(resp).get("description"))
                        parts.append(
                            f'<li><span class="dg-api-status dg-api-status-{status_class(str(status))}">'
                            f"{esc(status)}</span> {text}</li>"
                        )
                    parts.append("</ul>")
                parts.append("</div>")
                blocks.append("".join(parts))
    return "".join(blocks), toc
