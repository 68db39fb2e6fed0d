"""The one place that configures markdown-it: built once per process and reused for every page."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import cast

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock, html_block
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from docsgen.mdx.block_dispatch import dispatch_plugin
from docsgen.mdx.inline_dispatch import dispatch_plugin as inline_dispatch_plugin
from docsgen.mdx.inline_memo import inline_rule
from docsgen.mdx.jsx_rules import jsx_plugin
from docsgen.mdx.jsx_syntax import JsxSyntaxError, is_known_name, is_tag_start, scan_tag
from docsgen.mdx.limits import MAX_JSX_NESTING
from docsgen.mdx.paragraph import paragraph
from docsgen.mdx.token_walk import MdxRenderer

MAX_NESTING = MAX_JSX_NESTING  # components nest deeper than CommonMark's 20 levels of lists and quotes


# A link markdown-it's normalizeLink gives back unchanged: a path, query and fragment of characters its encoder
# keeps, after an optional lowercase http(s) host (the parser lowercases hosts and schemes; `%` and `:` may be
# re-encoded). Checked against every link target of the real-site corpus and fuzzed (tests/mdx/test_links_plain).
_PLAIN_LINK = re.compile(r"(?:https?://[a-z0-9.\-]+(?=[/?#]|\Z))?(?!//)[A-Za-z0-9\-._~/#?=&]*\Z")


def _plain_links_as_written(normalize: Callable[[str], str]) -> Callable[[str], str]:
    """Return normalizeLink skipping its URL parse (11 us a link) for links it would give back unchanged."""

    def normalize_link(url: str) -> str:
        return url if _PLAIN_LINK.match(url) else normalize(url)

    return normalize_link


def html_block_unless_jsx(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """CommonMark's raw HTML block, except on a line that starts with a JSX element.

    MDX reads `<div/>{/* note */}` or `<Tip>x</Tip> and more` as JSX followed by more content; as a raw HTML
    block the rest of the paragraph (comments, components, Markdown) would reach the page as literal text.
    Such a line is left to the paragraph rule, whose inline JSX rule renders each tag.
    """
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if is_tag_start(src, pos):
        try:
            tag = scan_tag(src, pos, state.eMarks[start_line])
        except JsxSyntaxError:
            tag = None
        if tag is not None and is_known_name(tag.name):
            return False
    return bool(html_block(state, start_line, end_line, silent))


def build_markdown() -> MarkdownIt:
    """Build the MDX-flavoured markdown-it instance (CommonMark + GFM bits + JSX rules)."""
    md = MarkdownIt(
        "commonmark", {"html": True, "linkify": False, "typographer": False}, renderer_cls=MdxRenderer
    )
    md.enable(["table", "strikethrough"])
    md.options["maxNesting"] = MAX_NESTING
    # Rules read these with options.get(name, default); a missing key costs a KeyError on every call.
    for name in ("strikethrough_single_tilde", "store_labels", "tasklists", "alerts", "inline_definitions"):
        md.options.setdefault(name, False)
    # MDX has no indented code blocks: component children are indented freely.
    md.disable("code")
    footnote_plugin(md)
    tasklists_plugin(md)
    deflist_plugin(md)
    dollarmath_plugin(md, allow_space=False, allow_digits=False, allow_labels=False, double_inline=True)
    jsx_plugin(md)
    md.block.ruler.at("paragraph", paragraph)
    md.block.ruler.at("html_block", html_block_unless_jsx)
    dispatch_plugin(md)  # each line tries only the block rules that can start on its first character
    inline_dispatch_plugin(md)  # each marker character tries only the inline rules that can start on it
    md.core.ruler.at("inline", inline_rule)  # plain text seen before: its HTML, not parsed again
    # Pure functions of the URL, and sites repeat their links: normalise each distinct URL once.
    # (instance attributes over the methods, for this instance only)
    md.normalizeLink = _plain_links_as_written(lru_cache(maxsize=8192)(md.normalizeLink))  # type: ignore[method-assign,assignment]
    md.validateLink = lru_cache(maxsize=8192)(md.validateLink)  # type: ignore[method-assign]
    # The math plugin installs its own render rules; ours produce MathML instead.
    renderer = cast(MdxRenderer, md.renderer)  # renderer_cls above
    for name in ("math_inline", "math_inline_double", "math_block"):
        renderer.rules[name] = getattr(renderer, name)
    return md


MD = build_markdown()
