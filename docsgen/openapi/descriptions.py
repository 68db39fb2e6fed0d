"""Descriptions written in a spec (operations, parameters, schemas), rendered to safe HTML.

Plain Markdown goes through a markdown-it instance with raw HTML escaped; a description holding components or HTML
(`<Note>`, `<Warning>`, `<br />`) is rendered as MDX, as Mintlify does, then sanitised like x-mint content
(docsgen.openapi.sanitize: no script, event handler or javascript: URL from spec text). Spec text reads no file.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from docsgen.mdx import MdxContext, render_mdx
from docsgen.mdx.jsx_syntax import is_known_name
from docsgen.openapi.sanitize import sanitize_html

__all__ = ["markdown_to_html"]


@cache
def _safe_markdown():
    """Return the renderer for spec descriptions: Markdown with raw HTML escaped (descriptions are untrusted)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    md.options["html"] = False
    md.validateLink = _safe_link  # type: ignore[method-assign]  # markdown-it's documented hook
    return md


def _safe_link(url: str) -> bool:
    """Refuse script URLs in spec descriptions."""
    return not url.strip().lower().startswith(("javascript:", "vbscript:", "data:"))


_TAG_IN_TEXT = re.compile(r"<([A-Za-z][\w.]*)[\s/>]")
# a code span starts at the first backtick of a run and never gives part of the run back ("`" * n is linear)
_CODE = re.compile(r"^[ \t]*(`{3,}+|~{3,}+).*?^[ \t]*\1|(?<!`)(`++)[^`]*?\2", re.M | re.S)


_TAG = re.compile(r"<(/?)[ \t]*([A-Za-z][\w.]*)(?:[^<>]*?(/?)>|)")
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


def _has_tag(text: str) -> bool:
    """Tell whether a description holds a component or HTML element outside its code, every one closed.

    A tag left open (`Has a home <b>`) is text, escaped as before: MDX would drop it or swallow what follows.
    """
    prose = _CODE.sub("", text[:100_000])
    if not any(is_known_name(m.group(1)) for m in _TAG_IN_TEXT.finditer(prose)):
        return False
    open_tags: list[str] = []
    for m in _TAG.finditer(prose):
        closing, name, self_closing = m.group(1), m.group(2), m.group(3)
        if not m.group(0).endswith(">"):
            return False  # a "<" that starts no complete tag
        if closing:
            if not open_tags or open_tags.pop() != name:
                return False
        elif self_closing is None or (not self_closing and name.lower() not in _VOID):
            open_tags.append(name)
    return not open_tags


_NOWHERE = Path("/nonexistent/docsgen-spec-text")  # spec text reads no file: its imports find nothing


def markdown_to_html(text: str) -> str:
    """Render an untrusted description to safe HTML: as MDX when it holds components or HTML (Mintlify renders
    descriptions as MDX: `<Note>`, `<br />`), sanitised like x-mint content (no script from spec text)."""
    if "<" in (text or "") and _has_tag(text):
        result = render_mdx(text, MdxContext(docs_dir=_NOWHERE, source="openapi-description"))
        return sanitize_html(result.html)
    return _safe_markdown().render(text or "")


# docsgen.openapi.render.simple_md renders what this renders for the descriptions it accepts
markdown_to_html.simple_md_exact = True  # type: ignore[attr-defined]
