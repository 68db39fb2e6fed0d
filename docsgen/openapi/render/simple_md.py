"""A fast path for the simplest spec descriptions: plain paragraphs with `code` spans, rendered as CommonMark does.

Most descriptions in large specs are sentences with a few code spans. Running markdown-it on each costs about
half a millisecond; this renders exactly the same HTML for text that uses no other Markdown syntax and returns
None for anything else (the caller then uses the real renderer). tests/test_openapi_simple_md.py compares both.
"""

from __future__ import annotations

import re

# One paragraph line: no character that starts other inline syntax (emphasis, links, images, autolinks, HTML,
# entities, escapes, tables, strikethrough), single-backtick code spans whose content neither starts nor ends
# with a space, no leading character that could start a block (list, heading, quote, fence, break, indented
# code), no trailing space (hard break).
_LINE = re.compile(
    r"(?![\s#=+\-0-9*_\[\]<>&!|~\\]|``)"
    r"(?:[^\\`*_\[\]<>&!|~\r\t\x00\n]|`[^`\n\r\x00 ](?:[^`\n\r\x00]*[^`\n\r\x00 ])?`(?!`))+"
    r"(?<!\s)"
)
_CODE = re.compile(r"`([^`\n]+)`")
_PARAGRAPHS = re.compile(r"\n{2,}")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def simple_markdown(text: str) -> str | None:
    """Return the CommonMark HTML of plain paragraphs with code spans, or None when the text uses more."""
    paragraphs = _PARAGRAPHS.split(text.strip("\n"))
    out = []
    for para in paragraphs:
        lines = para.split("\n")
        if not all(_LINE.fullmatch(line) for line in lines):
            return None
        inner = "\n".join(lines)
        if "`" in inner:
            pieces = _CODE.split(inner)  # odd indices are code span contents
            inner = "".join(
                f"<code>{_escape(p)}</code>" if i % 2 else p.replace('"', "&quot;")
                for i, p in enumerate(pieces)
            )
        else:
            inner = inner.replace('"', "&quot;")
        out.append(f"<p>{inner}</p>\n")
    return "".join(out)
