"""Components from Mintlify's past and small built-ins: <Latex>, <Link>, <Snippet file="...">."""

from __future__ import annotations

import contextlib
import html

from docsgen.mdx.components import component
from docsgen.mdx.expressions import Unevaluable, evaluate
from docsgen.mdx.files import snippet_problem
from docsgen.mdx.jsx_html import html_attrs
from docsgen.mdx.state import Element

esc = html.escape
SNIPPET_FOLDERS = ("snippets", "_snippets")  # where a legacy <Snippet file="x.mdx"> is looked for


def _inner_source(el: Element) -> str:
    """Return the source between an element's tags, as written (block or inline)."""
    if el.inner_source is not None:
        return el.inner_source
    parent, tag = el.parent_inline, el.tag
    if parent is None or tag is None or tag.self_closing:
        return ""
    close = parent.content.find(f"</{el.name}>", tag.end)
    return parent.content[tag.end : close if close >= 0 else len(parent.content)]


@component("Latex")
def latex(el: Element) -> str:
    """`<Latex>E = mc^2</Latex>`: TeX rendered as MathML (a `{'...'}` string expression is read too)."""
    from docsgen.mdx.text_rules import render_math_html

    tex = _inner_source(el).strip()
    if tex.startswith("{") and tex.endswith("}"):
        with contextlib.suppress(Unevaluable):
            tex = str(evaluate(tex[1:-1], el.state.frame.scope))
    display = tex.startswith("$$") or not el.inline
    tex = tex.strip("$").strip()
    if not tex:
        return ""
    markup = render_math_html(tex, display and not el.inline, el.state, None)
    return markup if el.inline else markup + "\n"


@component("Link")
def link(el: Element) -> str:
    """`<Link href="/page">text</Link>` (Next.js style): an ordinary link, resolved like Markdown links."""
    props = {k: v for k, v in el.props.items() if k != "children"}
    attrs = html_attrs("a", props, el.state)
    href = el.text_prop("href")
    if href.startswith(("http://", "https://")) and "target" not in props:
        attrs += ' target="_blank" rel="noopener noreferrer"'
    inner = el.render_children()
    if (
        not el.inline
        and inner.startswith("<p>")
        and inner.rstrip().endswith("</p>")
        and inner.count("<p>") == 1
    ):
        inner = inner.strip()[3:-4]
    return f"<a{attrs}>{inner}</a>" + ("" if el.inline else "\n")


@component("Snippet")
def legacy_snippet(el: Element) -> str:
    """`<Snippet file="name.mdx" />`: the legacy way to include snippets/name.mdx (or _snippets/name.mdx)."""
    from docsgen.mdx.snippets import missing_note, render_snippet

    name = el.text_prop("file").strip()
    if not name:
        el.warn("mdx.missing-prop", '<Snippet> needs a `file` prop (file="name.mdx"): rendering its children')
        return el.render_children()
    candidates = [name.lstrip("/")] if name.startswith("/") else [f"{d}/{name}" for d in SNIPPET_FOLDERS]
    problems = []
    for path in candidates:
        problem = snippet_problem(el.state.ctx.docs_dir, path)
        if not problem:
            props = {k: v for k, v in el.props.items() if k != "file"}
            el.props = props
            return render_snippet(el, path)
        problems.append(f"{path}: {problem}")
    el.warn(
        "mdx.missing-snippet", f"snippet {name!r} not read ({'; '.join(problems)}); it renders as nothing"
    )
    return missing_note(el.state, f"snippet {name} not found")
