"""Colour the lines of generated samples that no other sample shares (their URL) without running the lexer.

Every generated sample has a line holding the request URL as a string literal (`url = "https://…/orgs/{org}"`,
`fetch("…", options)`, `URI('…')`): one line per operation and language that the per-line cache of
docsgen.openapi.render.highlight can never reuse, and lexing them is most of what colouring samples costs
(GitHub's spec: ~7,000 such lines), with the lines of request bodies (`"state": "open",`). The code around
the literals is the same on many lines, and inside a plain string literal the lexers of these languages read
ordinary characters as one run of string text. So a line made of code and string literals is coloured once
with a probe in place of each literal's text (by Pygments itself, once per language and surrounding code)
and the texts are put in the probes' places.

It applies only where that is sure: the code around the literals holds no quote, backslash, comment or
interpolation character, the literal's text holds no character its language's string rules treat specially
(escapes, quotes, `%`/`{…}` formatting in Python, `$` in PHP, `#` in Ruby), and the probe came out as one
string span of its own. Python's `{name}` placeholders (GitHub's path parameters) come out as Pygments colours
them, checked the same way with a second probe. Anything else returns None and the lexer colours the line.
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
# A literal's text: printable ASCII (the quote and backslash are refused before), minus what each language's
# string rules treat specially. Python's `%`, `{`, `}` are checked by _PY_PLAIN.
_ASCII = re.compile(r"[\x20-\x7e]*")
_TEXT = {
    "python": _ASCII,
    "javascript": _ASCII,
    "go": _ASCII,
    "java": _ASCII,
    "ruby": re.compile(r"[^#\x00-\x1f\x7f-\U0010ffff]*"),  # Pygments reads `#{` in Ruby's '...' too
    "php-code": _ASCII,  # '...': no interpolation
}
_QUOTE = {"python": '"', "javascript": '"', "go": '"', "java": '"', "ruby": "'", "php-code": "'"}
# Python: `{name}` is a format placeholder (String.Interpol); other text without `%`, `{`, `}` is plain.
_PY_FIELD = re.compile(r"(\{[A-Za-z0-9_]+\})")
_PY_PLAIN = re.compile(r"[^%{}]*")
_PROBE = "x"
_PROBE_FIELD = "a{b}c"
_MAX_LITERALS = 4
_MAX_TEMPLATES = 4096  # distinct code around literals (each a Pygments call the first time)

Highlighter = Callable[[str, str], tuple[str, ...]]
Key = tuple[str, tuple[str, ...]]  # language, the code between the literals


class LiteralLines:
    """Per-language templates (made with `highlight`, the sample highlighter) for lines of code and literals."""

    def __init__(self, highlight: Highlighter) -> None:
        self._highlight = highlight
        # html of the code pieces and the class of each literal between them, or None: not colourable this way
        self._templates: dict[Key, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}
        self._fields: dict[Key, str] = {}  # Python: the placeholders' class ("": the probe disagreed)

    def line(self, code: str, hl: str) -> str | None:
        """The coloured line, or None when `code` is not a line this can colour exactly."""
        quote = _QUOTE.get(hl)
        if quote is None or quote not in code or "\n" in code or "\\" in code:
            return None
        if ('"' if quote == "'" else "'") in code:
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
        allowed = _TEXT[hl]
        if not all(allowed.fullmatch(text) for text in texts):
            return None
        key = (hl, pieces)
        template = self._template(key)
        if template is None:
            return None
        around, classes = template
        out = [around[0]]
        for text, cls, after in zip(texts, classes, around[1:], strict=True):
            if hl == "python" and ("{" in text or "}" in text or "%" in text):
                spans = self._python_fields(key, quote, text, cls)
                if spans is None:
                    return None
                out.append(spans)
            else:
                out.append(f'<span class="{cls}">{quote}{html.escape(text, quote=False)}{quote}</span>')
            out.append(after)
        return "".join(out)

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
        return "".join(f'<span class="{k}">{html.escape(v, quote=False)}</span>' for k, v in tokens)

    def _template(self, key: Key) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """The html around the probes and the probes' classes, or None when a probe is not a span of its own."""
        if key in self._templates:
            return self._templates[key]
        if len(self._templates) >= _MAX_TEMPLATES:
            self._templates.clear()
            self._fields.clear()
        hl, pieces = key
        literal = f"{_QUOTE[hl]}{_PROBE}{_QUOTE[hl]}"
        lines = self._highlight(literal.join(pieces), hl)
        template = None
        if len(lines) == 1 and lines[0].count(literal) == len(pieces) - 1:
            split = re.split(rf'<span class="([^"<>]+)">{literal}</span>', lines[0])
            if len(split) == 2 * len(pieces) - 1:  # else: a probe shares a span with the code around it
                template = (tuple(split[::2]), tuple(split[1::2]))
        self._templates[key] = template
        return template

    def _field(self, key: Key) -> str:
        """Python: the class Pygments gives `{name}` in this line's literals ("" when the probe disagrees)."""
        if key not in self._fields:
            hl, pieces = key
            template = self._templates.get(key)
            probe = self._highlight(f'"{_PROBE_FIELD}"'.join(pieces), hl)
            m = re.search(r'">"a</span><span class="([^"<>]+)">\{b\}</span>', probe[0]) if probe else None
            field_cls = m.group(1) if m and template else ""
            if field_cls and template:
                around, classes = template
                expected = [around[0]]
                for cls, after in zip(classes, around[1:], strict=True):
                    expected.append(
                        f'<span class="{cls}">"a</span><span class="{field_cls}">{{b}}</span>'
                        f'<span class="{cls}">c"</span>{after}'
                    )
                if len(probe) != 1 or probe[0] != "".join(expected) or field_cls in classes:
                    field_cls = ""
            self._fields[key] = field_cls
        return self._fields[key]
