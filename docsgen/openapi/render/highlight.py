"""Colour code samples and examples of API pages with the code blocks' highlighter (docsgen.mdx.code).

JSON examples are most of an API reference's code (GitHub's spec: ~6 MB of them) and Pygments' JSON lexer
is slow per character; `json_lines` produces the same per-line HTML as the code blocks' highlighter for JSON
(tests/test_openapi_highlight.py compares the two on real specs) and hands anything it does not recognise
back to it. Other languages go through docsgen.mdx.code unchanged.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from pygments import lex
from pygments.formatters import HtmlFormatter
from pygments.lexers.php import PhpLexer

from docsgen.mdx.code import _highlight as highlight_uncached  # samples are unique: no cache
from docsgen.openapi.limits import MAX_HIGHLIGHT_CHARS
from docsgen.openapi.render.fmt import esc
from docsgen.openapi.render.literal_lines import LiteralLines

_TOKEN = re.compile(
    r'(?P<w>[ \t\r\n]+)|(?P<s>(?<!\\)"(?:[^"\\\n]|\\.)*+")|(?P<n>-?(?:0|[1-9]\d*)(?P<f>\.\d+)?(?P<e>[eE][+-]?\d+)?)'
    r"|(?P<kc>true|false|null)|(?P<p>[{}\[\],:])"
)
_KEY_AFTER = re.compile(r"[ \t\r\n]*:")


def _json_tokens(text: str) -> list[tuple[str, str]] | None:
    """Return (css class, text) tokens of JSON text, or None when something in it is not JSON."""
    out: list[tuple[str, str]] = []
    pos, end = 0, len(text)
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None:
            return None
        kind = m.lastgroup
        value = m.group()
        if kind == "s":
            cls = "nt" if _KEY_AFTER.match(text, m.end()) else "s2"
        elif kind in ("f", "e", "n"):
            cls = "mf" if m.group("f") or m.group("e") else "mi"
        else:
            cls = kind or ""
        if out and out[-1][0] == cls:
            out[-1] = (cls, out[-1][1] + value)
        else:
            out.append((cls, value))
        pos = m.end()
    return out


def json_lines(text: str) -> list[str] | None:
    """Return one HTML string per line of JSON text (Pygments' classes), or None when it is not plain JSON.

    No token but whitespace spans a line break, and tokens never merge across one (the break's whitespace
    is between them), so each line is coloured on its own, once per build for the lines examples share
    (`"login": "octocat",`). The one thing a line cannot see, a key whose colon is on a later line, sends
    the text to the whole-text path.
    """
    if _KEY_ACROSS_LINES.search(text):
        return _json_lines_whole(text)
    memo = _JSON_LINE_HTML
    out: list[str] = []
    for line in text.split("\n"):
        html_line = memo.get(line)
        if html_line is None:
            tokens = _json_tokens(line)
            if tokens is None:
                return None
            html_line = "".join(
                f'<span class="{cls}">{html.escape(value, quote=False)}</span>' for cls, value in tokens
            )
            if len(memo) >= _MAX_JSON_LINES:
                memo.clear()
            memo[line] = html_line
        out.append(html_line)
    return out


_KEY_ACROSS_LINES = re.compile(r'"[ \t\r]*\n[ \t\r\n]*:')
_JSON_LINE_HTML: dict[str, str] = {}
_MAX_JSON_LINES = 65_536


def _json_lines_whole(text: str) -> list[str] | None:
    """json_lines on the whole text at once (tokens split at line breaks)."""
    tokens = _json_tokens(text)
    if tokens is None:
        return None
    lines: list[str] = []
    current: list[str] = []
    for cls, value in tokens:
        pieces = value.split("\n")
        for index, piece in enumerate(pieces):
            if index:
                lines.append("".join(current))
                current = []
            if piece:
                current.append(f'<span class="{cls}">{html.escape(piece, quote=False)}</span>')
    lines.append("".join(current))
    return lines


# Generated samples (docsgen.openapi.render.samples) repeat most of their lines from page to page
# ("import requests", "response = http.request(request)"): each run of lines that leaves nothing open is
# highlighted once per build. Only languages whose lexer is back in its first state at the start of such a
# line, and only when no string, comment, heredoc or continued line can go on past it (see _chunks);
# tests/openapi/test_openapi_highlight.py compares the result with whole-sample highlighting on real specs.
_BLOCK_LANGS = frozenset({"python", "javascript", "go", "java", "ruby", "php"})
_ESCAPED = re.compile(r"\\.", re.S)
_QUOTES = ('"', "'", "`")
_OPENERS = ('"""', "'''", "/*", "<<", "=begin", "%q", "%Q", "%(", "%w", "?>")
# PHP samples open with `<?php`: the lines after it are lexed as PHP code from their start (the state the
# whole sample's lexer is in there), with the code blocks' own formatter settings.
_PHP_CODE = PhpLexer(startinline=True, stripnl=False, ensurenl=False)
_FORMATTER = HtmlFormatter(nowrap=True, classprefix="")


def lex_block(block: str, hl: str) -> tuple[str, ...]:
    """Pygments' per-line HTML of a run of lines (`php-code`: PHP after its `<?php` line)."""
    if hl != "php-code":
        return tuple(highlight_uncached(block, hl))
    out = [line.rstrip("\n") for _, line in _FORMATTER._format_lines(lex(block, _PHP_CODE))]  # type: ignore[attr-defined]
    count = block.count("\n") + 1
    return tuple(out[:count] + [""] * (count - len(out)))


_LITERALS = LiteralLines(lex_block)


# Lines repeat across a spec's samples (about 15,000 distinct for GitHub's, with its ~9,000 URL lines).
@lru_cache(maxsize=32768)
def _block_lines(block: str, hl: str) -> tuple[str, ...]:
    # code and plain string literals (the URL line, request bodies): no lexer, see literal_lines
    return _LITERALS.lines(block, hl) or lex_block(block, hl)


def _line_state(line: str) -> tuple[int, bool]:
    """(bit i set: an odd number of _QUOTES[i] outside escapes, the line is continued by a backslash)."""
    bare = _ESCAPED.sub("", line) if "\\" in line else line
    odd = 0
    for bit, quote in enumerate(_QUOTES):
        if bare.count(quote) % 2:
            odd |= 1 << bit
    return odd, line.endswith("\\")


_LINE_STATES: dict[str, tuple[int, bool]] = {}  # lines repeat from sample to sample
_MAX_LINE_STATES = 65_536


def _chunks(code: str) -> list[str] | None:
    """Split a sample into the shortest runs of whole lines that leave nothing open; None if the end is open.

    Linear: a run's quote counts are the sums of its lines' (an escape never goes past its line's end), and
    an opener anywhere keeps everything after it in one run, so the whole sample is left whole.
    """
    if any(opener in code for opener in _OPENERS):
        return None
    out: list[str] = []
    current: list[str] = []
    odd = 0  # bit i: an odd number of _QUOTES[i] so far in the current run
    states = _LINE_STATES
    for line in code.split("\n"):
        current.append(line)
        state = states.get(line)
        if state is None:
            if len(states) >= _MAX_LINE_STATES:
                states.clear()
            state = states[line] = _line_state(line)
        odd ^= state[0]
        if not odd and not state[1]:
            out.append(current[0] if len(current) == 1 else "\n".join(current))
            current = []
    return None if current else out


def generated_lines(code: str, hl: str) -> list[str] | None:
    """Per-line HTML of a generated sample, chunk by chunk (cached); None when it cannot be split safely."""
    if hl not in _BLOCK_LANGS:
        return None
    chunks = _chunks(code)
    if chunks is None:
        return None
    out: list[str] = []
    if hl == "php":
        if chunks[0] != "<?php":
            return None
        out.extend(_block_lines(chunks.pop(0), hl))
        hl = "php-code"
    for chunk in chunks:
        out.extend(_block_lines(chunk, hl))
    return out


def highlighted(code: str, hl: str, generated: bool = False) -> str:
    """Code as a coloured <code> element; its text content is `code` unchanged (copy buttons copy it).

    The `dg-code` class on the <code> element scopes the token colours of highlight.css (written for code
    blocks) to it; on an inline element the box rules of `.dg-code` have no effect. Very long text (a huge
    response example) stays plain: colouring it would cost more build time than it is worth.
    """
    if len(code) > MAX_HIGHLIGHT_CHARS or not hl or hl == "text":
        return f'<code class="language-{esc(hl or "text")}">{esc(code)}</code>'
    if hl == "json":
        return _json_code(code) if len(code) <= _MEMO_CHARS else _json_html(code)
    lines = None
    if generated:
        lines = generated_lines(code, hl)
    if lines is None:
        lines = highlight_uncached(code, hl)
    return f'<code class="language-{esc(hl)} dg-code">{chr(10).join(lines)}</code>'


# The same examples come back on many pages (GitHub: 586 distinct of 2,968 shown): the HTML of the recent
# ones is kept, at most 512 of at most 16 KB of text each (a few MB at worst).
_MEMO_CHARS = 16_384


@lru_cache(maxsize=512)
def _json_code(code: str) -> str:
    return _json_html(code)


def _json_html(code: str) -> str:
    lines = json_lines(code)
    if lines is None:
        lines = highlight_uncached(code, "json")
    return f'<code class="language-json dg-code">{chr(10).join(lines)}</code>'
