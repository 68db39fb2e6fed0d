"""Mintlify components used inside custom ones (`<Card>` in a component) are rendered by docsgen itself.

In the engine each such component is a placeholder recording its name, JSON props and children HTML. Here each
one becomes a tiny MDX source (`<Card title={"..."}>` + the children) rendered by docsgen's own MDX renderer in
the scope of the file being rendered, so it looks and behaves exactly as when written in a page."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docsgen.mdx.state import Element

MARKER = "DGREACTCHILDREN7f3a"
_ATTR_NAME = re.compile(r"^[A-Za-z_$][\w$-]*$")
_NAME = re.compile(r"^[A-Z][\w$]*(?:\.[A-Za-z_$][\w$]*)*$")
RAW_RE = re.compile(r'<dg-raw data-k="(\d+)"></dg-raw>')
MDX_RE = re.compile(r'<dg-mdx data-k="(\d+)"></dg-mdx>')
_BLOCK_HTML_RE = re.compile(
    r"<(?:p|div|ul|ol|dl|pre|table|h[1-6]|blockquote|figure|section|details|hr|dg-mdx|dg-html)\b", re.I
)


def substitute(out: str, raw: list[str], expanded: list[str], wrap: bool) -> str:
    """Put the HTML behind each placeholder back (wrapped in a display:contents element for hydration)."""

    def raw_html(m: re.Match[str]) -> str:
        k = int(m.group(1))
        content = raw[k] if k < len(raw) else ""
        return f'<dg-html style="display:contents">{content}</dg-html>' if wrap else content

    def mdx_html(m: re.Match[str]) -> str:
        k = int(m.group(1))
        content = expanded[k] if k < len(expanded) else ""
        return f'<dg-mdx style="display:contents">{content}</dg-mdx>' if wrap else content

    return RAW_RE.sub(raw_html, MDX_RE.sub(mdx_html, out))


def expand_placeholders(
    element: Element, items: list[dict[str, Any]], raw: list[str], wrap: bool
) -> list[str]:
    """Render each placeholder in order (children come before their parent, so theirs are ready)."""
    expanded: list[str] = []
    for item in items:
        children = substitute(str(item.get("children") or ""), raw, expanded, wrap)
        expanded.append(
            render_mdx_component(element, str(item.get("name") or ""), item.get("props") or {}, children)
        )
    return expanded


def render_mdx_component(element: Element, name: str, props: dict[str, Any], children: str) -> str:
    """Render `<name {...props}>children</name>` with docsgen's renderer, in the scope of the current file."""
    from docsgen.mdx.parser import MD
    from docsgen.mdx.state import FileFrame

    if not _NAME.match(name):
        element.warn("react.placeholder", f"<{element.name}> rendered an element named {name!r}: skipped")
        return children
    attrs = "".join(
        f" {key}={{{json.dumps(value)}}}"
        for key, value in props.items()
        if _ATTR_NAME.match(key) and key != "key" and value is not None
    )
    if not children.strip():
        src = f"<{name}{attrs} />\n"
    elif _BLOCK_HTML_RE.search(children):
        src = f"<{name}{attrs}>\n\n{MARKER}\n\n</{name}>\n"
    else:  # phrasing content (a word under a tooltip): no line break may reach the page around it
        src = f"<{name}{attrs}>{MARKER}</{name}>\n"
    state = element.state
    parent = state.frame
    frame = FileFrame(
        parent.path,
        src,
        max(element.line - 1, 0),
        scope=dict(parent.scope),
        imports=dict(parent.imports),
        react=set(parent.react),
        react_sources=dict(parent.react_sources),
        children_html=parent.children_html,
    )
    frame.props = set(parent.props)
    env: dict[str, Any] = {"mdx": state, "esm": parent.env.get("esm", [])}
    frame.env = env
    state.frames.append(frame)
    try:
        tokens = MD.parse(src, env)
        out = MD.renderer.render(tokens, MD.options, env)
    finally:
        state.frames.pop()
    return out.replace(f"<p>{MARKER}</p>", children).replace(MARKER, children)
