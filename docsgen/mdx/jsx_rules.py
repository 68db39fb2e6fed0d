"""markdown-it rules for MDX: block and inline JSX tags, `{expressions}` and top-level import/export."""

from __future__ import annotations

import bisect
import re

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline

from docsgen.mdx.jsx_syntax import (
    IMPORT_CLAUSE,
    JsxSyntaxError,
    Tag,
    find_closing_tag,
    find_expression_end,
    is_known_name,
    is_tag_start,
    scan_tag,
    scan_tag_cached,
)

IMPORT_LINE_RE = re.compile(rf"""import\s+{IMPORT_CLAUSE}\s*from\s*(['"])[^'"\n]+\1\s*(?:;\s*)?$""")
RAW_TEXT_ELEMENTS = frozenset({"script", "style", "textarea", "pre", "svg"})  # children are not Markdown
ESM_RE = re.compile(
    r"import\s+['\"]|import\s[^\n]*\bfrom\s*['\"]|import\s*(?:[\w$]+\s*,\s*)?\{[^}\n]*$"
    r"|export\s+(?:const|let|var|function|async|default|class)\b|export\s*\{",
    re.M,
)


def parse_error(state: StateBlock | StateInline, message: str, pos: int, code: str = "mdx.syntax") -> None:
    """Record a syntax problem found while parsing (the renderer turns it into a located diagnostic)."""
    state.env.setdefault("mdx_errors", []).append((code, message, pos))


def _line_of(state: StateBlock, pos: int, start: int, end: int) -> int:
    """Return the block line index holding offset pos (between lines start..end)."""
    idx = bisect.bisect_left(state.eMarks, pos, start, end)
    return min(idx, end - 1)


_COMMENTS_ONLY_RE = re.compile(r"(?:\s*\{\s*/\*(?:[^*]|\*(?!/))*\*/\s*\})+\s*")


def _blank(src: str, start: int, end: int) -> bool:
    """Tell whether src[start:end] holds nothing a reader sees (spaces, `{/* comments */}`)."""
    text = src[start:end]
    return not text.strip() or "{" in text and _COMMENTS_ONLY_RE.fullmatch(text) is not None


def _reset_line(state: StateBlock, line: int, pos: int) -> None:
    """Make line `line` start at offset pos (the rest of a line after a tag)."""
    state.bMarks[line] = pos
    end = state.eMarks[line]
    shift = pos
    while shift < end and state.src[shift] in " \t":
        shift += 1
    state.tShift[line] = shift - pos
    state.sCount[line] = shift - pos
    state.bsCount[line] = 0


def _min_indent(state: StateBlock, first: int, last: int) -> int:
    indent = None
    for line in range(first, last + 1):
        if state.bMarks[line] + state.tShift[line] < state.eMarks[line]:
            count = state.sCount[line]
            indent = count if indent is None else min(indent, count)
    return indent or 0


def _tokenize_inner(state: StateBlock, start: int, end: int, first_line: int, last_line: int) -> None:
    """Run the block tokenizer over src[start:end] (which may begin and end mid-line)."""
    saved = {}
    for line in {first_line, last_line}:
        saved[line] = (
            state.bMarks[line],
            state.eMarks[line],
            state.tShift[line],
            state.sCount[line],
            state.bsCount[line],
        )
    if state.bMarks[first_line] + state.tShift[first_line] < start:
        _reset_line(state, first_line, start)
        partial_first = True
    else:
        partial_first = False
    if state.eMarks[last_line] > end:
        state.eMarks[last_line] = end
    old = (state.lineMax, state.blkIndent, state.parentType)
    indent_from = first_line + 1 if partial_first else first_line
    indent = _min_indent(state, indent_from, last_line) if indent_from <= last_line else 0
    if partial_first:
        state.sCount[first_line] += indent
    state.lineMax = last_line + 1
    state.blkIndent = indent
    state.parentType = "jsx"
    state.md.block.tokenize(state, first_line, last_line + 1)
    state.lineMax, state.blkIndent, state.parentType = old
    for line, marks in saved.items():
        (
            state.bMarks[line],
            state.eMarks[line],
            state.tShift[line],
            state.sCount[line],
            state.bsCount[line],
        ) = marks


def jsx_block(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: a line starting with a JSX tag, a `{expression}` or (top level) import/export."""
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    line_end = state.eMarks[start_line]
    if pos >= line_end:
        return False
    ch = src[pos]
    if ch == "{":
        return _block_expression(state, start_line, end_line, silent, pos)
    if ch == "i" and IMPORT_LINE_RE.match(src, pos, line_end):
        # A whole `import X from '...'` line is hoisted wherever it is written (after prose, in a list item,
        # in a component's children, indented), as Mintlify does: never shown as text.
        return True if silent else _block_esm(state, start_line, start_line + 1, silent)
    if ch in "ie" and (
        state.level == 0 and state.sCount[start_line] == 0 and state.parentType in ("root", "paragraph")
    ):
        if ESM_RE.match(src, pos):
            # import/export never interrupts a paragraph ("export your data" in prose stays text).
            return False if silent else _block_esm(state, start_line, end_line, silent)
        return False
    if ch != "<" or not is_tag_start(src, pos):
        return False
    region_end = state.eMarks[end_line - 1] if end_line - 1 < len(state.eMarks) else len(src)
    cache = state.env.get("_tags")
    if cache is None:
        cache = state.env["_tags"] = {}
    try:
        tag = scan_tag_cached(src, pos, region_end, cache)
    except JsxSyntaxError as exc:
        return _broken_tag(state, start_line, silent, pos, exc)
    if not is_known_name(tag.name) and tag.name not in state.env.get("mdx_imported", ()):
        return False
    tag_last = _line_of(state, tag.end, start_line, end_line)
    rest_blank = _blank(src, tag.end, state.eMarks[tag_last])
    if tag.closing or tag.self_closing:
        return rest_blank and (silent or _lone_tag(state, tag, start_line, tag_last))
    if state.level >= state.md.options["maxNesting"] - 4:
        return not silent and _too_deep(state, tag, start_line, end_line, region_end)
    if silent:
        # Cheap check (paragraph interruption runs this on every line): no search for the closing tag.
        if rest_blank:
            return True
        line_rest = src[tag.end : state.eMarks[tag_last]]
        close_at = line_rest.rfind(f"</{tag.name}>")
        return close_at >= 0 and not line_rest[close_at + len(tag.name) + 3 :].strip()
    found = find_closing_tag(src, tag.name, tag.end, region_end, cache)
    if found is None:
        if not rest_blank:
            return False
        parse_error(
            state,
            f"<{tag.name or '>'}{'>' if tag.name else ''} is never closed: expected </{tag.name}>",
            pos,
            "mdx.unclosed-tag",
        )
        close_start = close_end = region_end
        close_line = end_line - 1
    else:
        close_start, close_end = found
        close_line = _line_of(state, close_start, start_line, end_line)
    after_blank = _blank(src, close_end, state.eMarks[close_line]) if found else True
    if not rest_blank and not after_blank:
        return False
    _push_element(state, tag, (start_line, tag_last, close_line), (close_start, close_end), rest_blank)
    if after_blank:
        state.line = close_line + 1
    else:
        _reset_line(state, close_line, close_end)
        state.line = close_line
    return True


def _broken_tag(state: StateBlock, start_line: int, silent: bool, pos: int, exc: JsxSyntaxError) -> bool:
    """A known component's tag that does not parse: an error, and the line kept as text (the rest renders)."""
    src = state.src
    if silent:
        return False
    name_match = re.match(r"</?([A-Za-z][\w.]*)", src[pos:])
    if not name_match or not is_known_name(name_match.group(1)):
        return False
    parse_error(state, exc.message, exc.pos)
    # Skip the broken line so the rest of the page still renders.
    token = state.push("jsx_block_text", "", 0)
    token.content = src[pos : state.eMarks[start_line]]
    token.map = [start_line, start_line + 1]
    state.line = start_line + 1
    return True


def _lone_tag(state: StateBlock, tag: Tag, start_line: int, tag_last: int) -> bool:
    """A self-closing tag alone on its lines, or a closing tag with no opening one (an error, dropped)."""
    if tag.closing:
        message = f"closing tag </{tag.name}> has no matching opening tag"
        parse_error(state, message, tag.start, "mdx.unexpected-close")
        token = state.push("jsx_block_text", "", 0)
        token.content = ""
    else:
        token = state.push("jsx_block_self", "", 0)
        token.meta = {"tag": tag}
    token.map = [start_line, tag_last + 1]
    state.line = tag_last + 1
    return True


def _too_deep(state: StateBlock, tag: Tag, start_line: int, end_line: int, region_end: int) -> bool:
    """An element nested past markdown-it's limit: an error, and the rest of the region kept as text."""
    message = f"<{tag.name}> is nested too deeply (more than {state.level} levels)"
    parse_error(state, message, tag.start, "mdx.too-deep")
    token = state.push("jsx_block_text", "", 0)
    token.content = state.src[tag.start : region_end]
    token.map = [start_line, end_line]
    state.line = end_line
    return True


def _push_element(
    state: StateBlock, tag: Tag, lines: tuple[int, int, int], close: tuple[int, int], rest_blank: bool
) -> None:
    """Push an element's open token, its children (raw text, one inline line or blocks) and its close token."""
    src = state.src
    start_line, tag_last, close_line = lines
    close_start = close[0]
    open_token = state.push("jsx_block_open", "", 1)
    open_token.meta = {"tag": tag, "inner": (tag.end, close_start)}
    open_token.map = [start_line, close_line + 1]
    inner_first = tag_last if not rest_blank else tag_last + 1
    before_close_blank = _blank(src, state.bMarks[close_line], close_start)
    inner_last = close_line - 1 if before_close_blank else close_line
    if tag.name.lower() in RAW_TEXT_ELEMENTS and tag.name[:1].islower():
        token = state.push("jsx_raw", "", 0)
        token.content = src[tag.end : close_start]
        token.meta = {"name": tag.name.lower(), "pos": tag.end}
        token.map = [start_line, close_line + 1]
    elif inner_first <= inner_last:
        inner = src[tag.end : close_start]
        if not rest_blank and "\n" not in inner.strip():
            token = state.push("inline", "", 0)
            token.content = inner.strip()
            token.map = [tag_last, tag_last + 1]
            token.children = []
        else:
            first = tag.end if not rest_blank else state.bMarks[inner_first]
            _tokenize_inner(state, first, close_start, inner_first, inner_last)
    close_token = state.push("jsx_block_close", "", -1)
    close_token.meta = {"tag": tag}


def _block_expression(state: StateBlock, start_line: int, end_line: int, silent: bool, pos: int) -> bool:
    src = state.src
    region_end = state.eMarks[end_line - 1]
    close = find_expression_end(src, pos, region_end)
    if close < 0:
        return False
    last = _line_of(state, close - 1, start_line, end_line)
    if not _blank(src, close, state.eMarks[last]):
        return False
    if silent:
        return True
    token = state.push("jsx_block_expr", "", 0)
    token.content = src[pos + 1 : close - 1]
    token.meta = {"pos": pos}
    token.map = [start_line, last + 1]
    state.line = last + 1
    return True


def _block_esm(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Consume an import/export statement: lines until brackets balance at a blank line or a new statement."""
    src = state.src
    depth = 0
    in_template = False  # a template literal runs over lines: its text is not code
    line = start_line
    while line < end_line:
        text = src[state.bMarks[line] : state.eMarks[line]]
        delta, in_template = _bracket_delta(text, in_template)
        depth += delta
        nxt = line + 1
        if depth <= 0 and not in_template:
            if nxt >= end_line:
                break
            next_text = src[state.bMarks[nxt] : state.eMarks[nxt]]
            if (
                not next_text.strip()
                or ESM_RE.match(next_text)
                or not next_text[:1].isspace()
                and not next_text.startswith(("}", ")", "]", "."))
            ):
                break
        line = nxt
    if silent:
        return True
    token = state.push("mdx_esm", "", 0)
    token.content = src[state.bMarks[start_line] : state.eMarks[min(line, end_line - 1)]]
    token.map = [start_line, line + 1]
    token.meta = {"pos": state.bMarks[start_line]}
    state.line = line + 1
    return True


def _bracket_delta(text: str, in_template: bool = False) -> tuple[int, bool]:
    """Return the bracket balance of one line of code and whether a template literal is still open after it.

    A `"` string ends with its line (JSX text holds lone quotes); a template literal may span lines.
    """
    delta = 0
    quote = "`" if in_template else ""
    escaped = False
    for ch in text:
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch in '"`':
            quote = ch
        elif ch in "{([":
            delta += 1
        elif ch in "})]":
            delta -= 1
    return delta, quote == "`"


def jsx_inline(state: StateInline, silent: bool) -> bool:
    """Inline rule: `<Tag ...>`, `</Tag>`, `<Tag />` and `{expression}` inside a paragraph."""
    src = state.src
    pos = state.pos
    ch = src[pos]
    if ch == "{":
        close = find_expression_end(src, pos, state.posMax)
        if close < 0:
            # MDX would refuse the page; we keep the brace as text and say where it is.
            if not silent:
                token = state.push("jsx_lone_brace", "", 0)
                token.content = "{"
                token.meta = {"offset": pos}
            state.pos = pos + 1
            return True
        if not silent:
            token = state.push("jsx_inline_expr", "", 0)
            token.content = src[pos + 1 : close - 1]
            token.meta = {"offset": pos}
        state.pos = close
        return True
    if ch == "}":
        # A `}` closing nothing is often what is left of a broken code fence: text, with a warning,
        # unless an escaped `\{` before it shows the author wrote a literal pair.
        first_escaped = getattr(state, "dg_escaped_brace", None)
        if first_escaped is None:
            # cached on markdown-it's inline state, which declares no such field
            first_escaped = state.dg_escaped_brace = src.find("\\{")  # type: ignore[attr-defined]
        if 0 <= first_escaped < pos:
            return False
        _text_warning(
            state, silent, "}", "mdx.expression", "'}' closes no expression: write \\} for a literal brace"
        )
        return True
    if ch != "<":
        return False
    if not is_tag_start(src, pos):
        m = _NOT_A_TAG_RE.match(src, pos, state.posMax)
        if not m:
            return False
        _text_warning(
            state,
            silent,
            m.group(0),
            "mdx.syntax",
            f"{m.group(0)} is not a tag (a tag name starts with a letter): shown as text; write &lt; for a literal '<'",
        )
        return True
    try:
        tag = scan_tag(src, pos, state.posMax)
    except JsxSyntaxError:
        return False
    if not is_known_name(tag.name) and tag.name not in state.env.get("mdx_imported", ()):
        return False
    if not silent:
        kind = "close" if tag.closing else "self" if tag.self_closing else "open"
        token = state.push(f"jsx_inline_{kind}", "", 0)
        token.meta = {"tag": tag, "offset": pos}
        if tag.name.lower() in RAW_TEXT_ELEMENTS and tag.name[:1].islower() and kind == "open":
            # Keep the raw body of inline <svg>/<script> as-is.
            closing = f"</{tag.name}>"
            end = src.find(closing, tag.end, state.posMax)
            if end >= 0:
                token.meta["raw"] = src[tag.end : end] + closing
                state.pos = end + len(closing)
                return True
    state.pos = tag.end
    return True


_NOT_A_TAG_RE = re.compile(r"</?[0-9][\w.:-]*(?:\s[^<>\n]*)?/?>")


def _text_warning(state: StateInline, silent: bool, text: str, code: str, message: str) -> None:
    """Keep `text` as literal text, with a located warning when rendered."""
    if not silent:
        token = state.push("jsx_text_warning", "", 0)
        token.content = text
        token.meta = {"offset": state.pos, "code": code, "message": message}
    state.pos += len(text)


def jsx_plugin(md: MarkdownIt) -> None:
    """Register the MDX rules on a markdown-it instance."""
    md.block.ruler.before(
        "table", "jsx_block", jsx_block, {"alt": ["paragraph", "reference", "blockquote", "list"]}
    )
    md.inline.ruler.before("html_inline", "jsx_inline", jsx_inline)
