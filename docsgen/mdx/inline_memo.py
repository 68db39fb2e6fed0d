"""Plain inline Markdown rendered once per process: the HTML of a line of text kept under the text itself.

Sites repeat their prose: the versioned site's pages exist once a version and language, and every copy's table
cells, headings and paragraphs are the same text (only lines with links carry the version's prefix). markdown-it
parses every inline token of every page (a tenth of a real-shaped page's rendering) although such text renders
the same everywhere.

Text is kept only when its HTML is a function of the text alone. Its characters exclude everything that reads
the page or the site: `[` `]` (links and their definitions, footnotes, images, task boxes), `<` `>` (JSX, HTML,
autolinks), `{` `}` (expressions, heading ids), `$` (math, whose output follows docs.json); and its parse gave
only emphasis, strikethrough, code spans, breaks and text, whose render rules read nothing but the token. Such
text raises no diagnostic (none of these rules reports anything), so nothing is lost when it is not parsed again.

The inline core rule (`inline_rule`, markdown-it's own otherwise) gives a known text's token one child: a
`dg_inline_html` token holding the HTML, which the renderer writes out as it is (TextRules.dg_inline_html); other
consumers of the children (component scans, heading ids) find no element or expression in it, as in the text
itself. Only a parse docsgen renders (its env carries the page's MDX state, `env["mdx"]`) uses what is kept; any
other parse (a tool reading the tokens, such as bench/compat_units.py) gets markdown-it's own children. What is kept is per process, bounded (MAX_ENTRIES, the least recently used go first) and never stale: the
key is the text. The HTML token is shared by the pages that use the text (nothing writes to a rendered token).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from contextlib import suppress

from markdown_it.rules_core import StateCore
from markdown_it.rules_core.inline import inline as markdown_it_inline
from markdown_it.token import Token

MAX_ENTRIES = 16_384  # texts kept per process: ~650 bytes each with their HTML (<= ~11 MB)
HTML_TOKEN = "dg_inline_html"  # the child standing for a known text's tokens (render rule: its content)
_KEY = "dg_inline"  # meta of an inline token whose text may be kept: the text
_IMPURE = re.compile(r"[\[\]<>{}$]")
_PURE_TYPES = frozenset(
    {
        "text",
        "text_special",
        "softbreak",
        "hardbreak",
        "em_open",
        "em_close",
        "strong_open",
        "strong_close",
        "s_open",
        "s_close",
        "code_inline",
    }
)
_kept: OrderedDict[str, Token] = OrderedDict()  # text -> its HTML_TOKEN (shared: nothing writes to it)


class Counts:
    """How often a text was found (hits) or parsed while it could have been kept (misses), for tests and bench."""

    hits = 0
    misses = 0


def inline_rule(state: StateCore) -> None:
    """markdown-it's inline core rule, except that a known plain text gets its HTML instead of being parsed."""
    md, env = state.md, state.env
    if "mdx" not in env:  # a parse read for its tokens, not rendered by docsgen: markdown-it's own children
        markdown_it_inline(state)
        return
    for token in state.tokens:
        if token.type != "inline":
            continue
        if token.children is None:
            token.children = []
        content = token.content
        if token.children or not content or _IMPURE.search(content):
            md.inline.parse(content, md, env, token.children)
            continue
        known = _kept.get(content)
        if known is not None:
            with suppress(KeyError):  # dropped meanwhile by another thread's render (dev serialises them)
                _kept.move_to_end(content)
            Counts.hits += 1
            token.children.append(known)
            continue
        md.inline.parse(content, md, env, token.children)
        if all(child.type in _PURE_TYPES for child in token.children):
            Counts.misses += 1
            token.meta[_KEY] = content


def remember(token: Token, html: str) -> None:
    """Keep an inline token's HTML under its text, when inline_rule found the text may be kept."""
    content = token.meta.get(_KEY) if token.meta else None
    if content is None:
        return
    known = Token(HTML_TOKEN, "", 0)
    known.content = html
    _kept[content] = known
    while len(_kept) > MAX_ENTRIES:
        try:
            _kept.popitem(last=False)
        except KeyError:
            break


def forget_all() -> None:
    """Drop every kept text (tests)."""
    _kept.clear()
    Counts.hits = Counts.misses = 0
