"""Fenced code blocks, CodeBlock and CodeGroup."""

from __future__ import annotations

import html

from markdown_it.token import Token

from docsgen.mdx.code import CodeMeta, parse_meta, render_code_block
from docsgen.mdx.state import RenderState

esc = html.escape


def render_fence(token: Token, state: RenderState, meta: CodeMeta | None = None) -> str:
    """Render one fence: mermaid diagrams, or a highlighted code block with its options."""
    meta = meta or parse_meta(token.info)
    if meta.lang == "mermaid":
        return render_mermaid_html(token.content, state)
    state.assets.add("copy")
    if meta.expandable:
        state.assets.add("code")
    icon_html = ""
    if meta.icon:
        from docsgen.mdx.components.icons import icon_html as make_icon

        icon_html = make_icon(meta.icon, state)
    return render_code_block(token.content, meta, state.next_code_index(), icon_html=icon_html)


def render_mermaid_html(source: str, state: RenderState) -> str:
    """Render a mermaid fence through docsgen.mdx.mermaid (a placeholder the browser draws)."""
    state.assets.add("mermaid")
    try:
        from docsgen.mdx.mermaid import render_mermaid
    except ImportError:
        return f'<pre class="mermaid">{esc(source)}</pre>\n'
    return render_mermaid(source)
