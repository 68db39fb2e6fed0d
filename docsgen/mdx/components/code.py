"""Fenced code blocks, CodeBlock and CodeGroup."""

from __future__ import annotations

import html

from markdown_it.token import Token

from docsgen.mdx import twoslash
from docsgen.mdx.code import CodeMeta, parse_meta, render_code_block
from docsgen.mdx.state import RenderState

esc = html.escape


def render_fence(token: Token, state: RenderState, meta: CodeMeta | None = None) -> str:
    """Render one fence: mermaid diagrams, or a highlighted code block with its options."""
    meta = meta or parse_meta(token.info)
    if meta.lang == "mermaid":
        return render_mermaid_html(token.content, state, token.info)
    state.assets.add("copy")
    if meta.expandable:
        state.assets.add("code")
    icon_html = ""
    if meta.icon:
        from docsgen.mdx.components.icons import icon_html as make_icon

        where = (token.map[0] + 1 + state.frame.line_offset, 1) if token.map else None
        icon_html = make_icon(meta.icon, state, css_class="dg-icon dg-code-header-icon", where=where)
    code = twoslash.fence_code(token, state, meta.lang)  # twoslash: markup applied, a located info
    line = token.map[0] + 1 + state.frame.line_offset if token.map else 0
    return render_code_block(code, meta, state.next_code_index(), icon_html=icon_html, state=state, line=line)


def render_mermaid_html(source: str, state: RenderState, info: str = "") -> str:
    """Render a mermaid fence through docsgen.mdx.mermaid (drawn in the browser by the vendored mermaid)."""
    from docsgen.mdx.mermaid import render_mermaid

    state.assets.add("mermaid")
    words = info.split()[1:]
    meta = parse_meta(info)
    actions: bool | None = None
    if "actions" in words or "actions" in meta.extra:
        actions = meta.extra.get("actions", "true") not in ("false", "{false}")
    placement = meta.extra.get("placement")
    return render_mermaid(source, actions=actions, placement=placement) + "\n"
