"""Render one MDX page body: parse with the shared markdown-it instance, walk tokens, collect results."""

from __future__ import annotations

import html
import re
from typing import Any

from docsgen.common.errors import error
from docsgen.mdx.components.tabs import VIEW_SELECT_MARKER, view_selector
from docsgen.mdx.components.updates import tag_filter
from docsgen.mdx.esm import process_esm
from docsgen.mdx.parser import MD
from docsgen.mdx.state import FileFrame, RenderState
from docsgen.mdx.text import finish_html
from docsgen.mdx.types import MdxContext, MdxResult

_IMPORTED_NAME_RE = re.compile(r"""^[ \t]*import\s+([a-z_$][\w$]*)\s+from\s+['"][^'"\n]+\.mdx?['"]""", re.M)
_VARIABLE_RE = re.compile(r"\{\{\s*([\w.-]+)\s*\}\}")


def substitute_variables(src: str, variables: dict[str, Any]) -> str:
    """Replace `{{name}}` with docs.json variables (unknown names stay as written)."""
    if not variables or "{{" not in src:
        return src

    def replace(m: re.Match[str]) -> str:
        value = variables.get(m.group(1))
        return m.group(0) if value is None else str(value)

    return _VARIABLE_RE.sub(replace, src)


def render_source(
    state: RenderState,
    src: str,
    path: str,
    line_offset: int = 0,
    scope: dict[str, Any] | None = None,
    children_html: str | None = None,
) -> str:
    """Render a page or snippet source in the current state and return its HTML."""
    src = substitute_variables(src, state.ctx.variables)
    # `{name}` falls back to docs.json variables; exports and snippet props win over them.
    base = {k: v for k, v in state.ctx.variables.items() if isinstance(k, str) and k.isidentifier()}
    frame = FileFrame(path, src, line_offset, scope={**base, **(scope or {})}, children_html=children_html)
    frame.props = set(scope or {})
    state.frames.append(frame)
    try:
        # Imported names are components even when written in lowercase (`<prebuiltsTable />`).
        env: dict[str, Any] = {"mdx": state, "mdx_imported": set(_IMPORTED_NAME_RE.findall(src))}
        frame.env = env
        tokens = MD.parse(src, env)
        for code, message, pos in env.get("mdx_errors", []):
            line, column = frame.locate(pos)
            state.error(code, message, line, column)
        process_esm(tokens, state)
        return MD.renderer.render(tokens, MD.options, env)
    finally:
        state.frames.pop()


def render(body: str, ctx: MdxContext) -> MdxResult:
    """Render a page body (frontmatter removed) into HTML, TOC, diagnostics and collected assets."""
    state = RenderState(ctx)
    try:
        raw_html = render_source(state, body, ctx.source, ctx.line_offset)
    except Exception as exc:  # noqa: BLE001 - show the page as text and report, never a traceback
        state.frames.clear()
        message = f"could not render this page ({type(exc).__name__}: {exc}); please report this"
        state.diagnostics.append(error("mdx.internal", message, ctx.source, ctx.line_offset + 1, 1))
        raw_html = f"<pre>{html.escape(body)}</pre>\n"
    if state.views:
        raw_html = raw_html.replace(VIEW_SELECT_MARKER, view_selector(state.views), 1)
    if any(entry.tags for entry in state.updates):
        state.assets.add("changelog")
        raw_html = tag_filter(state.updates) + raw_html
    finished = finish_html(raw_html)
    result = MdxResult(
        html=finished,
        toc=state.toc,
        diagnostics=state.diagnostics,
        dependencies=state.dependencies,
        assets=state.assets,
        icons=state.icons,
        classes=state.classes,
        panel_html="".join(finish_html(part) for part in state.panel_html),
        aside_html="".join(finish_html(part) for part in state.aside_html),
        text_html=None if finished is raw_html else raw_html,
    )
    result.changelog = state.updates
    return result
