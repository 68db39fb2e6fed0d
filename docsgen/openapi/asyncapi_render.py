"""The page of one AsyncAPI channel: address, servers, description, then each operation's messages.

Message payloads and headers go through the OpenAPI schema renderer (docsgen.openapi.render.params
render_schema_block), so an AsyncAPI page looks and reads like an endpoint page; examples sit in the right column.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from docsgen.mdx.types import TocItem
from docsgen.openapi.asyncapi import AsyncSpec
from docsgen.openapi.render import ApiSettings, RenderedApi
from docsgen.openapi.render.aside import panels, pretty
from docsgen.openapi.render.context import RenderContext, get_context
from docsgen.openapi.render.endpoint import first_paragraph, panels_md
from docsgen.openapi.render.examples import example_for
from docsgen.openapi.render.fmt import esc
from docsgen.openapi.render.mdtext import code, inline
from docsgen.openapi.render.params import Ids, render_schema_block
from docsgen.openapi.render.schema_tree import TreeRenderer

MAX_MESSAGES = 50  # messages shown per operation
CONSOLE_ASSET = "playground-ws"  # js/playground-ws.js and playground-ws.css: only on pages with a console
# AsyncAPI 2.x: `publish` means the application receives what clients publish (Mintlify: "Send").
_V2_ACTIONS = (("publish", "send"), ("subscribe", "receive"))
_ACTION_TITLES = {"send": "Send", "receive": "Receive"}


def _messages(ctx: RenderContext, holder: Any) -> list[tuple[str, dict]]:
    """(name, message) pairs of a v3 `messages` map/list or a v2 `message` (with oneOf)."""
    out: list[tuple[str, dict]] = []
    items: list[tuple[str, Any]] = []
    if isinstance(holder, dict) and "oneOf" in holder and isinstance(holder["oneOf"], list):
        items = [("", m) for m in holder["oneOf"]]
    elif isinstance(holder, dict) and ("payload" in holder or "$ref" in holder or "headers" in holder):
        items = [("", holder)]
    elif isinstance(holder, dict):
        items = [(str(k), v) for k, v in holder.items()]
    elif isinstance(holder, list):
        items = [("", m) for m in holder]
    for name, raw in items[:MAX_MESSAGES]:
        ref = raw.get("$ref") if isinstance(raw, dict) else None
        message = ctx.resolve(raw)
        if not name and isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
        out.append((str(message.get("name") or name or "Message"), message))
    return out


def _operations(ctx: RenderContext, spec: AsyncSpec, name: str, channel: dict) -> list[tuple[str, str, dict]]:
    """(action, operation id, operation) of a channel: v3 `operations` naming it, v2 publish/subscribe."""
    out: list[tuple[str, str, dict]] = []
    if spec.v3:
        ops = spec.data.get("operations")
        for op_id, raw in ops.items() if isinstance(ops, dict) else []:
            op = ctx.resolve(raw)
            target = op.get("channel")
            ref = target.get("$ref") if isinstance(target, dict) else None
            pointer = "#/channels/" + name.replace("~", "~0").replace("/", "~1")
            if ref == pointer and op.get("action") in ("send", "receive"):
                out.append((str(op["action"]), str(op_id), op))
    else:
        for key, action in _V2_ACTIONS:
            op = ctx.resolve(channel.get(key))
            if op:
                out.append((action, str(op.get("operationId") or key), op))
    return out


def _servers(spec: AsyncSpec) -> list[str]:
    servers = spec.data.get("servers")
    out = []
    for server in servers.values() if isinstance(servers, dict) else []:
        if not isinstance(server, dict):
            continue
        protocol = str(server.get("protocol") or "")
        if spec.v3:
            url = f"{protocol}://{server.get('host', '')}{server.get('pathname') or ''}"
        else:
            url = str(server.get("url") or "")
            if protocol and "://" not in url:
                url = f"{protocol}://{url}"
        out.append(url)
    return out


def render_channel(
    spec: AsyncSpec, name: str, *, settings: ApiSettings, markdown: Callable[[str], str]
) -> RenderedApi:
    """Render the page of channel `name` (must exist in the spec)."""
    ctx = get_context(spec.data, settings, markdown)
    channel = spec.channel(name) or {}
    address = channel.get("address", name) if spec.v3 else name
    ids = Ids()
    tree = TreeRenderer(ctx, "")
    html: list[str] = []
    md: list[str] = []
    toc: list[TocItem] = []
    aside: list[tuple[str, str, str, str]] = []
    servers = _servers(spec)
    head = '<div class="dg-api-endpoint" data-method="channel"><span class="dg-method">WSS</span>'
    head += f'<code class="dg-api-path">{esc(str(address) if address is not None else "")}</code></div>'
    if servers:
        head += '<ul class="dg-api-servers">' + "".join(f"<li><code>{esc(s)}</code></li>" for s in servers)
        head += "</ul>"
    html.append(head)
    server = ctx.word("server", "Server")
    md.append(
        f"{ctx.word('channel_address', 'Channel address')}: {code(address)}"
        + "".join(f"\n- {server}: {code(s)}" for s in servers)
    )
    description = channel.get("description")
    if description:
        html.append(f'<div class="dg-api-desc">{ctx.md(description)}</div>')
        md.append(str(description).strip())
    ops = _operations(ctx, spec, name, channel)
    if not ops and channel.get("messages"):
        ops = [("send", "messages", {"messages": channel.get("messages")})]
    console: list[dict[str, str]] = []  # messages the WebSocket console offers to send
    shown: set[int] = set()  # messages rendered under an operation
    for action, op_id, op in ops:
        hid = ids.claim(f"{action}-{op_id}")
        title = f"{ctx.word(action, _ACTION_TITLES[action])}: {op.get('title') or op.get('summary') or op_id}"
        toc.append(TocItem(2, hid, title))
        section = [f'<h2 class="dg-api-heading" id="{esc(hid)}">{esc(title)}</h2>']
        md.append(f"## {inline(title)}")
        if op.get("description"):
            section.append(f'<div class="dg-api-desc">{ctx.md(op.get("description"))}</div>')
            md.append(str(op["description"]).strip())
        holder = op.get("messages") if spec.v3 else op.get("message")
        if spec.v3 and holder is None:  # a v3 operation without `messages` is for all the channel's messages
            holder = channel.get("messages")
        for msg_name, message in _messages(ctx, holder):
            shown.add(id(message))
            page = _MessageParts(ctx, tree, ids, toc, section, md)
            aside.append(page.render(hid, msg_name, message))
            if action == "send" or not any(a == "send" for a, _, _ in ops):
                console.append({"name": msg_name, "label": aside[-1][1], "example": aside[-1][3]})
        html.append(
            f'<section class="dg-api-section" aria-labelledby="{esc(hid)}">{"".join(section)}</section>'
        )
    rest = [(n, m) for n, m in _messages(ctx, channel.get("messages")) if id(m) not in shown] if ops else []
    if rest:  # every message of the channel is shown, also those no operation names
        hid = ids.claim("messages")
        title = ctx.word("messages", "Messages")
        toc.append(TocItem(2, hid, title))
        section = [f'<h2 class="dg-api-heading" id="{esc(hid)}">{esc(title)}</h2>']
        md.append(f"## {title}")
        for msg_name, message in rest:
            aside.append(_MessageParts(ctx, tree, ids, toc, section, md).render(hid, msg_name, message))
        html.append(
            f'<section class="dg-api-section" aria-labelledby="{esc(hid)}">{"".join(section)}</section>'
        )
    examples = panels("example", ctx.word("messages", "Messages"), aside)
    md.append(panels_md(ctx.word("message_examples", "Message examples"), aside))
    ws_console = console_html(servers, address, console)
    if ws_console:
        html.insert(1, ws_console)
    body = f'<div class="dg-api" data-kind="channel">{"".join(html)}</div>'
    return RenderedApi(
        html=body,
        aside_html=f'<div class="dg-api-examples">{examples}</div>' if examples else "",
        toc=toc,
        title=str(channel.get("title") or name),
        description=first_paragraph(ctx, description),
        playground={"kind": "channel", "address": address, "servers": servers},
        markdown="\n\n".join(m for m in md if m) + "\n",
        search_html=body,
        assets={"api-reference", CONSOLE_ASSET} if ws_console else {"api-reference"},
    )


class _MessageParts:
    """Renders one message (title, summary, description, headers, payload) into a section and the Markdown."""

    def __init__(self, ctx: RenderContext, tree: TreeRenderer, ids: Ids, toc: list, section: list, md: list):
        self.ctx, self.tree, self.ids, self.toc, self.section, self.md = ctx, tree, ids, toc, section, md

    def render(self, hid: str, msg_name: str, message: dict) -> tuple[str, str, str, str]:
        """Render the message; return its example panel."""
        ctx, section, md = self.ctx, self.section, self.md
        mid = self.ids.claim(f"{hid}-{msg_name}")
        label = str(message.get("title") or msg_name)
        section.append(f'<h3 class="dg-api-subheading" id="{esc(mid)}">{esc(label)}</h3>')
        self.toc.append(TocItem(3, mid, label))
        md.append(f"### {inline(label)}")
        for key in ("summary", "description"):
            if message.get(key):
                section.append(f'<div class="dg-api-desc">{ctx.md(message[key])}</div>')
                md.append(str(message[key]).strip())
        for part, key, english in (("headers", "headers", "Headers"), ("payload", "payload", "Payload")):
            heading = esc(ctx.word(key, english))
            if part not in message:
                continue
            schema = schema_of(ctx, message[part])
            block, block_md = render_schema_block(ctx, self.tree, schema, self.ids, [f"{mid}-{part}."])
            section.append(f'<p class="dg-api-label">{heading}</p>{block}')
            md.append(f"{heading}:\n\n{block_md}")
        return _example(ctx, msg_name, label, message)


def schema_of(ctx: RenderContext, value: Any) -> Any:
    """The schema of a payload or headers: AsyncAPI 3's Multi Format Schema Object holds it under `schema`."""
    resolved = ctx.resolve(value)
    if isinstance(resolved, dict) and "schemaFormat" in resolved and "schema" in resolved:
        return resolved["schema"]
    return value


def console_html(servers: list[str], address: Any, messages: list[dict[str, str]]) -> str:
    """The WebSocket console's mount point and data (js/playground-ws.js); empty without a ws:// or wss:// server."""
    urls = []
    path = str(address).lstrip("/") if isinstance(address, str | int) else ""
    for server in servers:
        if server.lower().startswith(("ws://", "wss://")):
            urls.append(server.rstrip("/") + ("/" + path if path else ""))
    if not urls:
        return ""
    data = {"urls": urls[:MAX_MESSAGES], "messages": messages[:MAX_MESSAGES]}
    return f'<div class="dg-ws" data-ws="{esc(json.dumps(data))}"></div>'


def _example(ctx: RenderContext, key: str, label: str, message: dict) -> tuple[str, str, str, str]:
    examples = message.get("examples")
    value: Any = None
    if isinstance(examples, list) and examples and isinstance(examples[0], dict) and "payload" in examples[0]:
        value = examples[0]["payload"]
    elif "payload" in message:
        value = example_for(ctx, schema_of(ctx, message["payload"]), "")
    return (key, label, "json", pretty(ctx, value))
