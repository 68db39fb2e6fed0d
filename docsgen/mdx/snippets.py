"""Snippets: imported .mdx/.md files rendered in place with their props, children and nested imports.

A snippet is read only when it is a regular file inside the docs folder (after resolving links); a
missing or refused snippet is a located warning and renders as nothing (a visible note in `dev`).
Depth, the number of snippet renders and the source characters rendered per page are bounded.
"""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path

from docsgen.mdx.esm import parse_exports
from docsgen.mdx.files import kept, read_source_bytes, snippet_problem
from docsgen.mdx.limits import MAX_EXPANDED_CHARS, MAX_SNIPPET_DEPTH, MAX_SNIPPET_EXPANSIONS
from docsgen.mdx.snippet_memo import render_kept
from docsgen.mdx.state import Element, RenderState

_FRONTMATTER_RE = re.compile(r"\A---[ \t]*\r?\n.*?\r?\n---[ \t]*(\r?\n|\Z)", re.S)
MAX_DEPTH = MAX_SNIPPET_DEPTH


def read_snippet(state: RenderState, path: str) -> tuple[str, int] | None:
    """Return a snippet's body (frontmatter removed) and the number of lines removed; None when unreadable."""
    cache = state.expansion.snippet_cache
    if path not in cache:
        docs_dir = state.ctx.docs_dir
        seen = state.expansion.identities
        cache[path] = kept("text", docs_dir, path, lambda: _load(docs_dir, path, seen), seen)
    return cache[path]


def _load(docs_dir: Path, path: str, seen: dict[tuple[str, str], tuple[int, ...]]) -> tuple[str, int] | None:
    if snippet_problem(docs_dir, path, seen):
        return None
    data, _ = read_source_bytes(docs_dir / path)
    if data is None:
        return None
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff").replace("\x00", "\ufffd")
    text = text.replace("\r\n", "\n")
    m = _FRONTMATTER_RE.match(text)
    offset = 0
    if m:
        offset = m.group(0).count("\n")
        text = text[m.end() :]
    return text, offset


def snippet_exports(state: RenderState, path: str) -> tuple[dict[str, object], set[str]]:
    """Return the exported values and component names of a snippet (copies: pages put them in their scope)."""
    loaded = read_snippet(state, path)
    if loaded is None:
        return {}, set()
    values, components = kept(
        "exports", state.ctx.docs_dir, path, lambda: parse_exports(loaded[0]), state.expansion.identities
    )
    return copy.deepcopy(values), set(components)


def missing_note(state: RenderState, what: str) -> str:
    """Return what a missing piece renders as: nothing in `build`, a visible note in `dev`."""
    if not state.ctx.dev:
        return ""
    return (
        '<div class="dg-callout dg-callout-warning dg-missing" role="note" aria-label="Warning">'
        f'<div class="dg-callout-content">{html.escape(what)}</div></div>\n'
    )


def render_snippet(element: Element, path: str) -> str:
    """Render `<Snippet prop="v">children</Snippet>` from its imported file."""
    from docsgen.mdx.page_body import render_source

    state = element.state
    if not path:
        # Missing snippet: already reported at the import; its children (if any) still show.
        children = element.render_children() if element.children else ""
        return children or missing_note(state, f"<{element.name}>: snippet not found")
    if len(state.frames) > MAX_SNIPPET_DEPTH or any(frame.path == path for frame in state.frames):
        reason = (
            f"snippets nest more than {MAX_SNIPPET_DEPTH} levels deep"
            if len(state.frames) > MAX_SNIPPET_DEPTH
            else f"snippet {path} imports itself (through {state.frame.path})"
        )
        element.warn("mdx.snippet-cycle", f"{reason}: not rendered")
        return missing_note(state, reason)
    loaded = read_snippet(state, path)
    if loaded is None:
        problem = snippet_problem(state.ctx.docs_dir, path) or "cannot read it"
        element.warn("mdx.missing-snippet", f"snippet {path} not rendered: {problem}")
        return missing_note(state, f"snippet {path}: {problem}")
    text, offset = loaded
    state.expansion.snippets += 1
    state.expansion.chars += len(text)
    if state.expansion.snippets > MAX_SNIPPET_EXPANSIONS or state.expansion.chars > MAX_EXPANDED_CHARS:
        if not state.expansion.snippets_reported:
            state.expansion.snippets_reported = True
            element.warn(
                "mdx.too-many-snippets",
                f"this page expands more than {MAX_SNIPPET_EXPANSIONS:,} snippets or "
                f"{MAX_EXPANDED_CHARS:,} characters of snippet text: the rest is not rendered",
            )
        return ""
    state.dependencies.add(path)
    children_html = element.render_children() if element.children else ""
    scope = {**element.props, "props": dict(element.props, children=children_html)}
    return render_kept(
        state,
        text,
        path,
        offset,
        element.props,
        children_html,
        lambda: render_source(state, text, path, offset, scope, children_html=children_html),
    )
