"""Markdown links made independent of where a twin lives: each target outside code passed through a resolver."""

from __future__ import annotations

import re
from collections.abc import Callable

# The label holds no `[` (a link inside brackets is found from its own `[`, with the same target): else `[[[[...`
# was scanned to the end of its paragraph from each bracket.
_LINK_RE = re.compile(r"(!?\[(?:[^\[\]\n]|\n(?!\n))*\]\()([^)\s]+)((?:\s+\"[^\"\n]*\")?\))")
_TARGET_RE = re.compile(r"\]\(([^)\s]+)")  # every _LINK_RE target, and maybe more
_CODE_RE = re.compile(r"(^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\2[ \t]*$|`+[^`\n]*`+)", re.M | re.S)


def rewrite_links(markdown: str, resolve: Callable[[str], str]) -> str:
    """Apply resolve() to every Markdown link and image target outside code."""
    if "](" not in markdown:
        return markdown
    resolve = _remembering(resolve)
    # Fast path: no link target would change (links inside code would not either), so nothing to split.
    if all(resolve(href) == href for href in _TARGET_RE.findall(markdown)):
        return markdown
    out, pos = [], 0
    for m in _CODE_RE.finditer(markdown):
        out.append(
            _LINK_RE.sub(lambda x: x.group(1) + resolve(x.group(2)) + x.group(3), markdown[pos : m.start()])
        )
        out.append(m.group(0))
        pos = m.end()
    out.append(_LINK_RE.sub(lambda x: x.group(1) + resolve(x.group(2)) + x.group(3), markdown[pos:]))
    return "".join(out)


def _remembering(resolve: Callable[[str], str]) -> Callable[[str], str]:
    """Return resolve() answering each target once (the fast path's check, then the rewrite, ask the same)."""
    answers: dict[str, str] = {}

    def remembered(href: str) -> str:
        answer = answers.get(href)
        if answer is None:
            answer = answers[href] = resolve(href)
        return answer

    return remembered
