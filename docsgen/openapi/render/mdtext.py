"""Markdown for the agents' twins of API pages: spec text made safe, code spans, fences and list items."""

from __future__ import annotations

import re
from typing import Any

# Where raw HTML would start in CommonMark (a tag, closing tag, comment, declaration or processing
# instruction); autolinks (<https://...>) are left alone.
_HTML_START = re.compile(r"<(?![A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*>)(?=[A-Za-z/!?])")
_CODE = re.compile(r"(^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\2[ \t]*$|(`+)[^`]*?\3(?!`))", re.M | re.S)
_TICKS = re.compile(r"`+")
_BLOCK_START = re.compile(r"[ \t]*(?:[-+*#>|]|\d+[.)]|`{3}|~{3})")


def spec_markdown(text: Any) -> str:
    """Return an untrusted Markdown description as Markdown that shows raw HTML as text (as the page does)."""
    if not isinstance(text, str):
        return ""
    text = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n").strip()
    if "<" not in text:
        return text
    out, pos = [], 0
    for m in _CODE.finditer(text):
        out.append(_HTML_START.sub(r"\\<", text[pos : m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_HTML_START.sub(r"\\<", text[pos:]))
    return "".join(out)


def inline(value: Any) -> str:
    """Return spec text (a name, a label) as one line of Markdown text with its markup characters escaped."""
    return _INLINE_SPECIAL.sub(r"\\\1", " ".join(str(value).replace("\x00", "").split()))


_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~!])")


def code(value: Any) -> str:
    """Return a value as an inline code span (backticks inside are fenced by longer runs)."""
    text = " ".join(str(value).replace("\x00", "").split("\n"))
    if "`" not in text:
        return f"`{text}`"
    ticks = "`" * (max(len(run) for run in _TICKS.findall(text)) + 1)
    return f"{ticks} {text} {ticks}"


def fence(lang: str, text: str) -> str:
    """Return a fenced code block whose fence is longer than any backtick run in the text."""
    ticks = "```"
    if ticks in text:
        ticks = "`" * (max(len(run) for run in _TICKS.findall(text)) + 1)
    lang = "".join(lang.split())
    return f"{ticks}{lang}\n{text.rstrip(chr(10))}\n{ticks}"


def indent(text: str, prefix: str = "  ") -> str:
    """Indent every non-blank line (the body of a list item)."""
    return "\n".join(prefix + line if line.strip() else "" for line in text.split("\n"))


def item(head: str, desc: str = "", lines: list[str] | None = None, children: str = "") -> str:
    """Return a list item: `head`, a one-paragraph description after a colon, fact lines, nested items."""
    out = "- " + head
    body: list[str] = []
    if desc:
        if "\n\n" in desc or _BLOCK_START.match(desc):
            body += ["", desc, ""]  # blocks of their own below the head
        else:
            first, _, rest = desc.partition("\n")
            out += ": " + first
            body += rest.split("\n") if rest else []
    body += lines or []
    if body:
        out += "\n" + indent("\n".join(body))
    if children:
        out += "\n" + indent(children)
    return out.rstrip()


# A code span from the start of a run of backticks to a run as long (`(`+)(.+?)\1` restarted inside every run).
_SUMMARY_CODE = re.compile(r"(?<!`)((?>`+))([^`]+)\1(?!`)")
# link text stops at the next bracket: "[" * n would otherwise be scanned to its end from every "[" (quadratic)
_SUMMARY_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"\n]*\")?\)")
_SUMMARY_REF = re.compile(r"\[([^\[\]\n]+)\]\[[^\[\]\n]*\]")
_SUMMARY_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.S)
_SUMMARY_EM = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*\\])\*(?![\w*])")
_SUMMARY_HEADING = re.compile(r"^#{1,6}[ \t]+", re.M)


def summary_text(markdown: str, limit: int = 300) -> str:
    """Return a description's first paragraph as text for meta descriptions and search: Markdown links,
    emphasis, code spans and heading marks dropped, their words kept; raw HTML stays text, as the page
    shows it; at most `limit` characters."""
    para = markdown.replace("\r\n", "\n").strip().split("\n\n")[0]
    # The text shown is `limit` characters: reading more markup than this bounds the lazy patterns below
    # (`(`+)(.+?)\1` and the strong pattern are quadratic on a long run of backticks or asterisks).
    para = para[: max(8 * limit, 2000)]
    para = _SUMMARY_CODE.sub(lambda m: m[2].strip(), para)
    para = _SUMMARY_LINK.sub(r"\1", para)
    para = _SUMMARY_REF.sub(r"\1", para)
    para = _SUMMARY_STRONG.sub(r"\2", para)
    para = _SUMMARY_EM.sub(r"\1", para)
    para = _SUMMARY_HEADING.sub("", para)
    return " ".join(para.split())[:limit]
