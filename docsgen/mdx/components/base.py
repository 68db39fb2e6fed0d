"""Rendering for elements no component claims: HTML elements, fragments, snippets, React, unknown."""

from __future__ import annotations

import html
import re

from docsgen.mdx.html_elements import VOID_ELEMENTS
from docsgen.mdx.jsx_html import html_attrs
from docsgen.mdx.state import Element

esc = html.escape


def render_fallback(element: Element) -> str:
    """Render HTML elements and fragments as themselves; snippets, React components and unknowns."""
    name = element.name
    state = element.state
    if not name:
        return element.render_children()
    frame = state.frame
    if name in frame.imports:
        from docsgen.mdx.snippets import render_snippet

        return render_snippet(element, frame.imports[name])
    if name[0].islower() and "." not in name:
        attrs = html_attrs(name, element.props, state)
        tag = element.tag
        if tag is not None and tag.self_closing:
            return f"<{name}{attrs}>" if name.lower() in VOID_ELEMENTS else f"<{name}{attrs}></{name}>"
        inner = element.render_children()
        return f"<{name}{attrs}>{inner}</{name}>" + ("" if element.inline else "\n")
    if name in frame.react:
        from docsgen.mdx.react import render_react  # runs it (docs/guides/react-components.mdx)

        return render_react(element)
    element.warn("mdx.unknown-component", f"unknown component <{name}>: rendering its children")
    return element.render_children()


_MARKUP_CHARS = re.compile(r"[*_`\[\]<>{}&\\~$!:/]")
_CODE_SPAN = re.compile(r"(`+)[^`]*?\1|[^`]+|`+")  # a code span (group 1 set), or text outside code spans


def attr(name: str, value: object) -> str:
    """Render one escaped HTML attribute, or nothing for None/False."""
    if value is None or value is False:
        return ""
    if value is True:
        return f" {name}"
    return f' {name}="{esc(str(value))}"'


def markdown_inline(text: object, state) -> str:
    """Render a prop holding inline Markdown (captions, descriptions) to HTML."""
    from docsgen.mdx.parser import MD
    from docsgen.mdx.state import JsxValue

    if isinstance(text, JsxValue):
        return text.render(state)
    if text is None or text is False or text is True:
        return ""
    text = str(text)
    if not _MARKUP_CHARS.search(text):
        return esc(text, quote=False)  # plain words: skip the parser
    # A string prop is text (as in React): `title="<body>"` shows "<body>"; Markdown and code spans still work.
    text = _CODE_SPAN.sub(lambda m: m[0] if m[1] else m[0].replace("<", "&lt;"), text)
    tokens = MD.parseInline(text, state.frame.env)
    return MD.renderer.render(tokens, MD.options, state.frame.env)


def class_names(*names: object) -> str:
    """Join truthy class names."""
    return " ".join(str(n) for n in names if n)
