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
_CODE_START_RE = re.compile(r"\n[ \t]*(?=[`~])|`")  # before each offset where a _CODE_RE match can start


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
    fails at, every offset): at a backtick, or at the start of a line whose first non-blank is a backtick or tilde."""
    match = _CODE_RE.match
    m = match(markdown)  # the first line's start, which no newline announces
    if m is not None:
        yield m
    pos, tried = (m.end() if m else 0), 0
    for found in _CODE_START_RE.finditer(markdown, pos):
        start = found.start() if found.group(0) == "`" else found.start() + 1
        if start < pos or start == tried:
            continue
        tried = start
        m = match(markdown, start)
        if m is not None:
            yield m
            pos = m.end()


def _remembering(resolve: Callable[[str], str]) -> Callable[[str], str]:
    """Return resolve() answering each target once (the fast path's check, then the rewrite, ask the same)."""
    answers: dict[str, str] = {}

    def remembered(href: str) -> str:
        answer = answers.get(href)
        if answer is None:
            answer = answers[href] = resolve(href)
        return answer

    return remembered
