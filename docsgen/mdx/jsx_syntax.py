"""Scan JSX tags, props and `{expressions}` in MDX source text (no markdown here)."""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from docsgen.mdx.html_elements import HTML_ELEMENTS, VOID_ELEMENTS

# What may stand between `import` and `from`: `X`, `* as X`, `{...}`, `X, {...}`, `X, * as Y` (and TypeScript's
# `type`). Written as this grammar rather than `.+?` so that no two parts can match the same text: a lazy `.+?`
# before `\s+from` made the import regexes cubic on `import` followed by many spaces.
_ID = r"[A-Za-z_$][\w$]*"
IMPORT_CLAUSE = rf"(?:type\s+)?(?:{_ID}\s*,\s*)?(?:{_ID}|\*\s*as\s+{_ID}|\{{[^{{}}'\"]*\}})"

NAME_RE = re.compile(r"[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*")
ATTR_NAME_RE = re.compile(r"[A-Za-z_:@$][\w:.@$-]*")


class JsxSyntaxError(Exception):
    """A malformed tag or expression, with the offset where it went wrong."""

    def __init__(self, message: str, pos: int):
        super().__init__(message)
        self.message = message
        self.pos = pos


@dataclass
class Attr:
    """One prop as written: `kind` is "string", "expr", "bool" or "spread"."""

    name: str
    kind: str
    value: str
    pos: int


@dataclass
class Tag:
    """One scanned tag: `<Name a="b">`, `</Name>`, `<Name />` or a fragment `<>`."""

    name: str
    start: int
    end: int
    closing: bool = False
    self_closing: bool = False
    attrs: list[Attr] = field(default_factory=list)


def is_tag_start(src: str, pos: int) -> bool:
    """Tell whether src[pos] is `<` starting something that looks like a JSX tag."""
    if pos + 1 >= len(src) or src[pos] != "<":
        return False
    ch = src[pos + 1]
    if ch == "/":
        # `</ Note>`: JSX allows space after `</` (Mintlify's sites write it).
        after = pos + 2
        while after < len(src) and src[after] in " \t" and after < pos + 8:
            after += 1
        return after < len(src) and (src[after].isalpha() or src[after] == ">" and after == pos + 2)
    return ch.isalpha() or ch == ">"


def is_known_name(name: str) -> bool:
    """Tell whether a tag name is a component (capitalised/dotted) or a known HTML element."""
    if not name:
        return True
    return name[0].isupper() or "." in name or name.lower() in HTML_ELEMENTS


def skip_space(src: str, pos: int, end: int) -> int:
    """Skip whitespace and `{/* comments */}` inside a tag."""
    while pos < end:
        ch = src[pos]
        if ch in " \t\r\n":
            pos += 1
        elif src.startswith("{/*", pos):
            close = src.find("*/}", pos + 3, end)
            if close < 0:
                raise JsxSyntaxError("unclosed comment in tag", pos)
            pos = close + 3
        else:
            break
    return pos


# Scans remembered per (source, end): what one scan learnt about the braces and tags it passed. Parsers ask again
# from each of them (`{{{{...` or `<Card>` on every line), which made a page of unclosed ones quadratic.
_MEMO: dict[tuple, tuple[str, dict[int, Any]]] = {}
_MEMO_SOURCES = 16  # sources remembered at once (a page, its snippets and inline fragments)


def _memo(src: str, *key: Any) -> dict[int, Any]:
    """The answers known for `src` under `key` ({start: answer}), kept while `src` is among the recent ones."""
    found = _MEMO.get((id(src), *key))
    if found is not None and found[0] is src:
        return found[1]
    if len(_MEMO) >= _MEMO_SOURCES:
        _MEMO.clear()
    answers: dict[int, Any] = {}
    _MEMO[(id(src), *key)] = (src, answers)
    return answers


def find_expression_end(src: str, pos: int, end: int | None = None) -> int:
    """Return the offset just after the `}` matching the `{` at pos, or -1.

    A scan records the end of every `{` it passes outside strings (a scan started there would see the same text
    from the same state), so asking again from each of them costs nothing: linear in all.
    """
    end = len(src) if end is None else end
    if pos >= end or src[pos] != "{":
        return -1
    known = _memo(src, "{", end)
    if pos in known:
        return known[pos]
    opened: list[int] = []
    i = pos
    while i < end:
        ch = src[i]
        if ch == "{":
            opened.append(i)
        elif ch == "}":
            known[opened.pop()] = i + 1
            if not opened:
                return i + 1
        elif ch in "\"'":
            close = _string_end(src, i, end)
            if close < 0:
                # An apostrophe in JSX text inside an expression: treat it as plain text.
                if ch == "'":
                    i += 1
                    continue
                return _unclosed(known, opened)
            i = close
            continue
        elif ch == "`":
            close = _template_end(src, i, end)
            if close < 0:
                return _unclosed(known, opened)
            i = close
            continue
        elif ch == "/" and i + 1 < end and src[i + 1] == "*":
            close = src.find("*/", i + 2, end)
            if close < 0:
                return _unclosed(known, opened)
            i = close + 2
            continue
        i += 1
    return _unclosed(known, opened)


def _unclosed(known: dict[int, Any], opened: list[int]) -> int:
    for start in opened:
        known[start] = -1
    return -1


def _string_end(src: str, pos: int, end: int) -> int:
    quote = src[pos]
    i = pos + 1
    while i < end:
        ch = src[i]
        if ch == "\\":
            i += 2
            continue
        if ch == quote:
            return i + 1
        if ch == "\n" and quote == "'":
            return -1
        i += 1
    return -1


def _template_end(src: str, pos: int, end: int) -> int:
    i = pos + 1
    while i < end:
        ch = src[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "`":
            return i + 1
        if ch == "$" and i + 1 < end and src[i + 1] == "{":
            close = find_expression_end(src, i + 1, end)
            if close < 0:
                return -1
            i = close
            continue
        i += 1
    return -1


def scan_tag_cached(src: str, pos: int, end: int, cache: dict | None) -> Tag:
    """scan_tag with a per-parse cache (block rules and closing-tag searches revisit the same tags)."""
    if cache is None:
        return scan_tag(src, pos, end)
    hit = cache.get(pos)
    if hit is None:
        try:
            hit = scan_tag(src, pos)
        except JsxSyntaxError as exc:
            hit = exc
        cache[pos] = hit
    if isinstance(hit, JsxSyntaxError):
        if hit.pos >= end or "unclosed" in hit.message:
            return scan_tag(src, pos, end)  # the problem lies outside this region: scan again within it
        raise hit
    if hit.end > end:
        return scan_tag(src, pos, end)
    return hit


def scan_tag(src: str, pos: int, end: int | None = None) -> Tag:
    """Scan the tag starting at src[pos] == '<'; raise JsxSyntaxError when malformed."""
    end = len(src) if end is None else end
    i = pos + 1
    closing = False
    if i < end and src[i] == "/":
        closing = True
        i += 1
        while i < end and i < pos + 8 and src[i] in " \t":
            i += 1
    if i < end and src[i] == ">":
        return Tag("", pos, i + 1, closing=closing)
    m = NAME_RE.match(src, i, end)
    if not m:
        raise JsxSyntaxError("expected a tag name after '<'", i)
    name = m.group(0)
    i = m.end()
    tag = Tag(name, pos, -1, closing=closing)
    while True:
        i = skip_space(src, i, end)
        if i >= end:
            raise JsxSyntaxError(f"unclosed tag <{'/' if closing else ''}{name}>: expected '>'", pos)
        ch = src[i]
        if ch == ">":
            tag.end = i + 1
            break
        if ch == "/" and i + 1 < end and src[i + 1] == ">":
            tag.self_closing = True
            tag.end = i + 2
            break
        if closing:
            raise JsxSyntaxError(f"unexpected {ch!r} in closing tag </{name}>", i)
        if ch == "{":
            close = find_expression_end(src, i, end)
            if close < 0:
                raise JsxSyntaxError(f"unclosed '{{' in the props of <{name}>", i)
            inner = src[i + 1 : close - 1].strip()
            tag.attrs.append(
                Attr(inner[3:].strip() if inner.startswith("...") else inner, "spread", inner, i)
            )
            i = close
            continue
        am = ATTR_NAME_RE.match(src, i, end)
        if not am:
            raise JsxSyntaxError(f"unexpected {ch!r} in the props of <{name}>: expected a prop name", i)
        attr_name = am.group(0)
        attr_pos = i
        i = am.end()
        j = skip_space(src, i, end)
        if j < end and src[j] == "=":
            j = skip_space(src, j + 1, end)
            if j >= end:
                raise JsxSyntaxError(f"expected a value for prop {attr_name!r}", j)
            q = src[j]
            if q in "\"'":
                close = src.find(q, j + 1, end)
                if close < 0:
                    raise JsxSyntaxError(f"unclosed string in prop {attr_name!r} of <{name}>", j)
                tag.attrs.append(Attr(attr_name, "string", src[j + 1 : close], attr_pos))
                i = close + 1
            elif q == "{":
                close = find_expression_end(src, j, end)
                if close < 0:
                    raise JsxSyntaxError(f"unclosed '{{' in prop {attr_name!r} of <{name}>", j)
                tag.attrs.append(Attr(attr_name, "expr", src[j + 1 : close - 1], attr_pos))
                i = close
            else:
                # Lenient HTML: an unquoted value runs to whitespace or the end of the tag.
                k = j
                while k < end and src[k] not in " \t\r\n>" and not src.startswith("/>", k):
                    k += 1
                if k == j:
                    raise JsxSyntaxError(f"expected a value for prop {attr_name!r} of <{name}>", j)
                tag.attrs.append(Attr(attr_name, "string", src[j:k], attr_pos))
                i = k
        else:
            tag.attrs.append(Attr(attr_name, "bool", "", attr_pos))
    if not closing and name.lower() in VOID_ELEMENTS and name[0].islower():
        tag.self_closing = True
    return tag


def fence_end(src: str, pos: int, end: int) -> int:
    """If a code fence starts at pos (line start, after indentation), return the offset after it, else -1."""
    m = re.match(r"(`{3,}|~{3,})", src[pos : pos + 64])
    if not m:
        return -1
    marker = m.group(1)
    nl = src.find("\n", pos, end)
    if marker[0] == "`" and "`" in src[pos + len(marker) : nl if nl >= 0 else end]:
        return -1
    if nl < 0:
        return end
    m2 = _closing_fence(marker[0], len(marker)).search(src, nl + 1, end)
    return m2.end() if m2 else end


@functools.lru_cache(maxsize=64)
def _closing_fence(char: str, length: int) -> re.Pattern[str]:
    """The line closing a fence of `length` `char`s (at least as many, alone on its line)."""
    return re.compile(r"^[ \t]*" + re.escape(char) + "{" + str(length) + r",}[ \t]*$", re.M)


_INTEREST_RE = re.compile(r"\n[ \t]*(?=```|~~~)|`+|\{|<")


def find_closing_tag(
    src: str, name: str, pos: int, end: int, cache: dict | None = None
) -> tuple[int, int] | None:
    """Find `</name>` matching an open tag that ended at pos, skipping code, nested tags and expressions.

    A scan records the closing tag of every `<name>` it passes (a scan from there would go the same way), so
    asking again for each of them costs nothing: a page of unclosed `<Card>`s is linear.
    """
    known = _memo(src, "<", name, end)
    if pos in known:
        return known[pos]
    opened = [pos]  # where each `<name>` still open ends
    i = pos
    search = _INTEREST_RE.search
    while True:
        m = search(src, i, end)
        if m is None:
            for start in opened:
                known[start] = None
            return None
        i = m.start()
        ch = src[i]
        if ch == "\n":
            skip = fence_end(src, m.end(), end)
            i = skip if skip > 0 else m.end()
            continue
        if ch == "`":
            run = m.end() - i
            close = src.find("`" * run, m.end(), end)
            # Only skip a code span inside one paragraph-ish stretch (no blank line).
            i = close + run if close > 0 and "\n\n" not in src[i:close] else m.end()
            continue
        if ch == "{":
            close = find_expression_end(src, i, end)
            i = close if close > 0 else i + 1
            continue
        if not is_tag_start(src, i):
            i += 1
            continue
        try:
            tag = scan_tag_cached(src, i, end, cache)
        except JsxSyntaxError:
            i += 1
            continue
        if tag.name == name:
            if tag.closing:
                found = known[opened.pop()] = (tag.start, tag.end)
                if not opened:
                    return found
            elif not tag.self_closing:
                opened.append(tag.end)
        i = tag.end


_FENCE_LINE_RE = re.compile(r"([ \t]*)(`{3,}|~{3,})(.*)")


def fenced_blocks(body: str) -> list[tuple[str, str, str, str, str]]:
    """Fenced blocks as (indent, fence, info, code, whole text), each closed by a line of the same indent and
    fence. One pass over the lines: closing lines are indexed first, so an unclosed fence costs no rescan."""
    lines = body.split("\n")
    offsets = [0, *itertools.accumulate(len(line) + 1 for line in lines)]
    fences = [_FENCE_LINE_RE.fullmatch(line) for line in lines]
    closers: dict[tuple[str, str], list[int]] = {}
    for index, m in enumerate(fences):
        if m and not m.group(3).strip(" \t"):
            closers.setdefault((m.group(1), m.group(2)), []).append(index)
    out, index = [], 0
    while index < len(lines):
        m = fences[index]
        ends = closers.get((m.group(1), m.group(2)), []) if m else []
        if m is None or not ends or ends[-1] <= index:
            index += 1
            continue
        close = ends[bisect.bisect_right(ends, index)]
        code = body[offsets[index + 1] : offsets[close]]
        whole = body[offsets[index] : offsets[close] + len(lines[close])]
        out.append((m.group(1), m.group(2), m.group(3), code, whole))
        index = close + 1
    return out
