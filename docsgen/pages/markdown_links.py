"""Markdown links made independent of where a twin lives: each target outside code passed through a resolver."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

# The label holds no `[` (a link inside brackets is found from its own `[`, with the same target): else `[[[[...`
# was scanned to the end of its paragraph from each bracket.
# `(?:!\[|\[)` is `!?\[` written so that the regex engine skips to the next `!` or `[` instead of trying every offset.
_LINK_RE = re.compile(r"((?:!\[|\[)(?:[^\[\]\n]|\n(?!\n))*\]\()([^)\s]+)((?:\s+\"[^\"\n]*\")?\))")
_TARGET_RE = re.compile(r"\]\(([^)\s]+)")  # every _LINK_RE target, and maybe more
_CODE_RE = re.compile(r"(^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\2[ \t]*$|`+[^`\n]*`+)", re.M | re.S)
_CODE_CHAR_RE = re.compile(
    r"[`~]"
)  # every _CODE_RE match starts with one, or with blanks at a line's start before one


def rewrite_links(markdown: str, resolve: Callable[[str], str]) -> str:
    """Apply resolve() to every Markdown link and image target outside code."""
    if "](" not in markdown:
        return markdown
    resolve = _remembering(resolve)
    # Fast path: no link target would change (links inside code would not either), so nothing to split.
    if all(resolve(href) == href for href in _TARGET_RE.findall(markdown)):
        return markdown
    out, pos = [], 0
    for m in _code(markdown):
        out.append(
            _LINK_RE.sub(lambda x: x.group(1) + resolve(x.group(2)) + x.group(3), markdown[pos : m.start()])
        )
        out.append(m.group(0))
        pos = m.end()
    out.append(_LINK_RE.sub(lambda x: x.group(1) + resolve(x.group(2)) + x.group(3), markdown[pos:]))
    return "".join(out)


def _code(markdown: str) -> Iterator[re.Match[str]]:
    """Yield what `_CODE_RE.finditer(markdown)` yields, trying it only where a match can start (finditer tries, and
    fails at, every offset): at a backtick, or at the start of a line whose first non-blank is a backtick or tilde.
    Each stretch of text is looked at once: a line's start is searched for only back to the last offset tried."""
    match, find, pos = _CODE_RE.match, _CODE_CHAR_RE.search, 0
    while (found := find(markdown, pos)) is not None:
        at = found.start()
        newline = markdown.rfind(
            "\n", pos, at
        )  # none: the line started before pos, or holds a `/~ before this one
        line = newline + 1 if newline >= 0 else (0 if pos == 0 else -1)
        m = match(markdown, line) if line >= 0 and not markdown[line:at].strip(" \t") else None
        if m is None and line != at and markdown[at] == "`":
            m = match(markdown, at)
        if m is None:
            pos = at + 1
            continue
        yield m
        pos = (
            m.end()
        )  # never a newline before it: a fence ends before its line's newline, a code span on a backtick


def _remembering(resolve: Callable[[str], str]) -> Callable[[str], str]:
    """Return resolve() answering each target once (the fast path's check, then the rewrite, ask the same)."""
    answers: dict[str, str] = {}

    def remembered(href: str) -> str:
        answer = answers.get(href)
        if answer is None:
            answer = answers[href] = resolve(href)
        return answer

    return remembered
