"""A fast path for the simplest spec descriptions: paragraphs of plain text with `code` spans, **strong** text
and [links](https://example.com/path), rendered as CommonMark does.

Most descriptions in large specs are sentences with a few code spans, bold notes and links to the vendor's
docs. Running markdown-it on each costs about half a millisecond; this renders exactly the same HTML for text
that uses no other Markdown syntax and returns None for anything else (the caller then uses the real
renderer). Each construct is accepted only in a form whose CommonMark reading does not depend on anything
around it: `**` only before and after text that starts and ends with a non-space, at the start of a line or
after a space and before the end, a space or `.,:;`; links only with plain text and a URL that markdown-it
would leave as written (no escapes, percent signs, parentheses or quotes, a lowercase host).
tests/openapi/test_openapi_simple_md.py compares both on samples, random text and real specs.
"""

from __future__ import annotations

import re

_PLAIN = r"[^\\`*_\[\]<>&!|~\r\t\x00\n]"
_CODE_SPAN = r"`[^`\n\r\x00 ](?:[^`\n\r\x00]*[^`\n\r\x00 ])?`(?!`)"
_EDGE = r"[^\s\\`*_\[\]<>&!|~\x00]"  # first and last character of strong text: not a space, not syntax
_STRONG = rf"(?<!\S)\*\*{_EDGE}(?:{_PLAIN}*{_EDGE})?\*\*(?=[\s.,:;]|$)"
_URL = r"(?:https?://[a-z0-9.-]+(?:[/?#][A-Za-z0-9/:._~#?=+@,;$-]*)?|[/#][A-Za-z0-9/:._~#?=+@,;$-]*)"
_LINK = rf"\[{_PLAIN}+\]\({_URL}\)"
# One paragraph line: no character that starts other inline syntax (emphasis, images, autolinks, HTML,
# entities, escapes, tables, strikethrough), no leading character that could start a block (list, heading,
# quote, fence, break, indented code, setext underline), no trailing space (hard break).
_LINE = re.compile(
    rf"(?![\s#=+\-0-9*_\[\]<>&!|~\\]|``)(?:{_PLAIN}|{_CODE_SPAN})"
    rf"|(?={_STRONG}|{_LINK})"  # a line may start with strong text or a link
)
_REST = re.compile(rf"(?:{_PLAIN}|{_CODE_SPAN}|{_STRONG}|{_LINK})*(?<!\s)")
_PLAIN_LINE = re.compile(
    rf"(?![\s#=+\-0-9*_\[\]<>&!|~\\]|``)(?:{_PLAIN}|{_CODE_SPAN})+(?<!\s)"
)  # without strong text and links
# link labels hold no bracket (as _LINK accepts them): a scan from every "[" of "[" * n stops at the next one
_INLINE = re.compile(rf"({_CODE_SPAN})|\*\*((?:(?!\*\*).)+)\*\*|\[([^\[\]]+)\]\(([^()\s]*)\)")
_PARAGRAPHS = re.compile(r"\n{2,}")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _inline(m: re.Match) -> str:
    code, strong, label, url = m.groups()
    if code is not None:
        return f"<code>{_escape(code[1:-1])}</code>"
    if strong is not None:
        return f"<strong>{_escape(strong)}</strong>"
    return f'<a href="{_escape(url)}">{_escape(label)}</a>'


def _line_ok(line: str) -> bool:
    start = _LINE.match(line)
    return start is not None and _REST.fullmatch(line, start.start()) is not None


def simple_markdown(text: str, rich: bool = True) -> str | None:
    """Return the CommonMark HTML of plain paragraphs with code spans, strong text and links, or None.

    rich=False: code spans only (strong text and links are left to the caller's renderer).
    """
    paragraphs = _PARAGRAPHS.split(text.strip("\n"))
    out = []
    for para in paragraphs:
        lines = para.split("\n")
        if rich:
            if not all(_line_ok(line) for line in lines):
                return None
        elif not all(_PLAIN_LINE.fullmatch(line) for line in lines):
            return None
        inner = "\n".join(lines)
        if "`" in inner or "*" in inner or "[" in inner:
            pieces = []
            last = 0
            for m in _INLINE.finditer(inner):
                pieces.append(inner[last : m.start()].replace('"', "&quot;"))
                pieces.append(_inline(m))
                last = m.end()
            pieces.append(inner[last:].replace('"', "&quot;"))
            inner = "".join(pieces)
        else:
            inner = inner.replace('"', "&quot;")
        out.append(f"<p>{inner}</p>\n")
    return "".join(out)
