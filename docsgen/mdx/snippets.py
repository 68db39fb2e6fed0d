"""Snippets: imported .mdx/.md files rendered in place with their props, children and nested imports."""

from __future__ import annotations

import re

from docsgen.mdx.esm import parse_exports
from docsgen.mdx.state import Element, RenderState

_FRONTMATTER_RE = re.compile(r"\A---[ \t]*\r?\n.*?\r?\n---[ \t]*(\r?\n|\Z)", re.S)
MAX_DEPTH = 20


def read_snippet(state: RenderState, path: str) -> tuple[str, int] | None:
    """Return a snippet's body (frontmatter removed) and the number of lines removed."""
    cache = state.snippet_cache
    if path not in cache:
        target = state.ctx.docs_dir / path
        try:
            text = target.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            cache[path] = None
        else:
            text = text.replace("\r\n", "\n")
            m = _FRONTMATTER_RE.match(text)
            offset = 0
            if m:
                offset = m.group(0).count("\n")
                text = text[m.end() :]
            cache[path] = (text, offset)
    return cache[path]


def snippet_exports(state: RenderState, path: str) -> tuple[dict[str, object], set[str]]:
    """Return the exported values and component names of a snippet."""
    loaded = read_snippet(state, path)
    if loaded is None:
        return {}, set()
    return parse_exports(loaded[0])


def render_snippet(element: Element, path: str) -> str:
    """Render `<Snippet prop="v">children</Snippet>` from its imported file."""
    from docsgen.mdx.render import render_source

    state = element.state
    if not path:
        return element.render_children()  # missing snippet: already reported at the import
    if len(state.frames) > MAX_DEPTH or any(frame.path == path for frame in state.frames):
        element.state.error(
            "mdx.snippet-cycle",
            f"snippet {path} imports itself (through {element.state.frame.path})",
            element.line,
            element.column,
        )
        return ""
    loaded = read_snippet(state, path)
    if loaded is None:
        state.error("mdx.missing-snippet", f"cannot read snippet {path}", element.line, element.column)
        return ""
    text, offset = loaded
    state.dependencies.add(path)
    children_html = element.render_children() if element.children else ""
    scope = {**element.props, "props": dict(element.props, children=children_html)}
    return render_source(state, text, path, offset, scope, children_html=children_html)
