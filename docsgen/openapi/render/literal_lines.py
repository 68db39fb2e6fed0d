"""Colour the lines of generated samples that no other sample shares (their URL) without running the lexer.

Every generated sample has a line holding the request URL as a string literal (`url = "https://…/orgs/{org}"`,
`fetch("…", options)`, `URI('…')`): one line per operation and language that the per-line cache of
docsgen.openapi.render.highlight can never reuse, and lexing them is most of what colouring samples costs
(GitHub's spec: ~7,000 such lines), with the lines of request bodies (`"state": "open",`) and bodies written as
one multi-line literal (Ruby's `request.body = '{…}'`, PHP's, Go's raw string). The code around
the literals is the same on many lines, and inside a plain string literal the lexers of these languages read
ordinary characters as one run of string text. So a line made of code and string literals is coloured once
with a probe in place of each literal's text (by Pygments itself, once per language and surrounding code)
and the texts are put in the probes' places.

It applies only where that is sure: the code around the literals holds no quote, backslash, comment or
interpolation character, the literal's text holds no character its language's string rules treat specially
(escapes, quotes, `%`/`{…}` formatting in Python, `$` in PHP, `#` in Ruby), and the probe came out as one
string span of its own. A literal over several lines is split into one span per line as Pygments' formatter
does (checked with a multi-line probe), and Python's `{name}` placeholders (GitHub's path parameters) come
out as Pygments colours them (checked with a second probe). Anything else returns None and the lexer
colours the lines.
tests/openapi/test_openapi_literal_lines.py compares the result with Pygments on real specs' samples and on
every printable character.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

# Code around the literals: names, spaces and the punctuation these lines use; no quote, backslash, comment,
# `$`, `#`, `%`, `<`, `/` or backtick. Code before a literal must not end in a letter (Python's f/r/b prefixes).
_PUNCT = r" \t.(),;:=>\[\]"
_CODE = re.compile(rf"[A-Za-z0-9_{_PUNCT}]*")
_WORD_END = re.compile(r"[A-Za-z0-9_]\Z")
_QUOTE_CHARS = re.compile("[\"'`]")
# A literal's text by language and quote: printable ASCII (the quote itself and backslashes are refused
# before), with line breaks where the language's literal may span lines, minus what its string rules treat
# specially. Python's `%`, `{`, `}` are checked by _PY_PLAIN.
_LINE_TEXT = re.compile(r"[\x20-\x7e]*")
_LINES_TEXT = re.compile(r"[\x20-\x7e\n]*")
_TEXT = {
    ("python", '"'): _LINE_TEXT,
    ("javascript", '"'): _LINE_TEXT,
    ("go", '"'): _LINE_TEXT,
    ("go", "`"): _LINES_TEXT,  # a raw string
    ("java", '"'): _LINE_TEXT,
    ("ruby", "'"): re.compile(r"[^#\x00-\x09\x0b-\x1f\x7f-\U0010ffff]*"),  # Pygments reads `#{` in '...' too
    ("php-code", "'"): _LINES_TEXT,  # '...': no interpolation
}
# Python: `{name}` is a format placeholder (String.Interpol); other text without `%`, `{`, `}` is plain.
_PY_FIELD = re.compile(r"(\{[A-Za-z0-9_]+\})")
_PY_PLAIN = re.compile(r"[^%{}]*")
_PROBE = "x"
_PROBE_LINES = "x\ny"
_PROBE_FIELD = "a{b}c"
_MAX_LITERALS = 4
_MAX_TEMPLATES = 4096  # distinct code around literals (each a Pygments call the first time)

Highlighter = Callable[[str, str], tuple[str, ...]]
Key = tuple[str, str, tuple[str, ...]]  # language, quote, the code between the literals
Template = tuple[tuple[str, ...], tuple[str, ...]]  # html of the code pieces, the class of each literal


def _span(cls: str, text: str) -> str:
    return f'<span class="{cls}">{html.escape(text, quote=False)}</span>' if text else ""


class LiteralLines:
    """Per-language templates (made with `highlight`, the sample highlighter) for code with string literals."""

    def __init__(self, highlight: Highlighter) -> None:
        self._highlight = highlight
        self._templates: dict[Key, Template | None] = {}
        self._multiline: dict[Key, bool] = {}  # literals over several lines come out as _lines makes them
        self._fields: dict[Key, str] = {}  # Python: the placeholders' class ("": the probe disagreed)

    def lines(self, code: str, hl: str) -> tuple[str, ...] | None:
        """The coloured lines, or None when `code` is not made only of code and literals this can colour."""
        first = _QUOTE_CHARS.search(code)
        if first is None or "\\" in code:
            return None
        quote = first.group()
        allowed = _TEXT.get((hl, quote))
        if allowed is None:
            return None
        parts = code.split(quote)
        count = len(parts) // 2
        if len(parts) % 2 == 0 or count > _MAX_LITERALS:
            return None  # a quote left open
        pieces = tuple(parts[::2])
        texts = parts[1::2]
        for index, piece in enumerate(pieces):
            if not _CODE.fullmatch(piece) or (index < count and _WORD_END.search(piece)):
                return None
        if not all(allowed.fullmatch(text) for text in texts):
            return None
        key = (hl, quote, pieces)
        template = self._template(key)
        if template is None:
            return None
        if any("\n" in text for text in texts) and not self._multiline_ok(key, template):
            return None
        literals: list[list[str]] = []
        for text, cls in zip(texts, template[1], strict=True):
            if hl == "python" and ("{" in text or "}" in text or "%" in text):
                spans = self._python_fields(key, quote, text, cls)
                if spans is None:
                    return None
                literals.append([spans])
            else:
                literals.append([_span(cls, part) for part in f"{quote}{text}{quote}".split("\n")])
        return _assemble(template[0], literals)

    def _python_fields(self, key: Key, quote: str, text: str, cls: str) -> str | None:
        """Spans of a Python literal with `{name}` placeholders (None: a `%` or another brace)."""
        parts = _PY_FIELD.split(text)  # odd indices: placeholders
        if not all(_PY_PLAIN.fullmatch(p) for p in parts[::2]):
            return None
        field_cls = self._field(key)
        if not field_cls:
            return None
        tokens: list[tuple[str, str]] = []
        last = len(parts) - 1
        for index, part in enumerate(parts):
            piece = (quote if index == 0 else "") + part + (quote if index == last else "")
            kind = field_cls if index % 2 else cls
            if not piece:
                continue
            if tokens and tokens[-1][0] == kind:  # the formatter joins neighbouring tokens of one kind
                tokens[-1] = (kind, tokens[-1][1] + piece)
            else:
                tokens.append((kind, piece))
        return "".join(_span(k, v) for k, v in tokens)

    def _template(self, key: Key) -> Template | None:
        """The html around the probes and the probes' classes, or None when a probe is not a span of its own."""
        if key in self._templates:
            return self._templates[key]
        if len(self._templates) >= _MAX_TEMPLATES:
            self._templates.clear()
            self._multiline.clear()
            self._fields.clear()
        hl, quote, pieces = key
        literal = f"{quote}{_PROBE}{quote}"
        lines = self._highlight(literal.join(pieces), hl)
        template = None
        if len(lines) == 1 and lines[0].count(literal) == len(pieces) - 1:
            split = re.split(rf'<span class="([^"<>]+)">{literal}</span>', lines[0])
            if len(split) == 2 * len(pieces) - 1:  # else: a probe shares a span with the code around it
                template = (tuple(split[::2]), tuple(split[1::2]))
        self._templates[key] = template
        return template

    def _multiline_ok(self, key: Key, template: Template) -> bool:
        """Whether literals over two lines come out as one span per line (Pygments' formatter), as assumed."""
        if key not in self._multiline:
            hl, quote, pieces = key
            probe = self._highlight(f"{quote}{_PROBE_LINES}{quote}".join(pieces), hl)
            parts = f"{quote}{_PROBE_LINES}{quote}".split("\n")
            expected = _assemble(template[0], [[_span(cls, p) for p in parts] for cls in template[1]])
            self._multiline[key] = tuple(probe) == expected
        return self._multiline[key]

    def _field(self, key: Key) -> str:
        """Python: the class Pygments gives `{name}` in this line's literals ("" when the probe disagrees)."""
        if key not in self._fields:
            hl, quote, pieces = key
            template = self._templates.get(key)
            probe = self._highlight(f"{quote}{_PROBE_FIELD}{quote}".join(pieces), hl)
            m = re.search(r'">"a</span><span class="([^"<>]+)">\{b\}</span>', probe[0]) if probe else None
            field_cls = m.group(1) if m and template else ""
            if field_cls and template:
                spans = [
                    [_span(cls, '"a') + _span(field_cls, "{b}") + _span(cls, 'c"')] for cls in template[1]
                ]
                if tuple(probe) != _assemble(template[0], spans) or field_cls in template[1]:
                    field_cls = ""
            self._fields[key] = field_cls
        return self._fields[key]


def _assemble(around: tuple[str, ...], literals: list[list[str]]) -> tuple[str, ...]:
    """Lines of `around[0] literal around[1] literal ...`; each literal given as its lines' html."""
    out: list[str] = []
    current = around[0]
    for parts, after in zip(literals, around[1:], strict=True):
        current += parts[0]
        for part in parts[1:]:
            out.append(current)
            current = part
        current += after
    out.append(current)
    return tuple(out)
