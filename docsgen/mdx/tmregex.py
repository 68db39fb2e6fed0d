"""Oniguruma patterns (as written in TextMate grammars) compiled with the third-party `regex` module.

TextMate grammars are written for Oniguruma (Ruby syntax). `regex` (VERSION1) reads nearly all of it as is:
possessive quantifiers, atomic groups, named groups, lookbehind, `\\G`, `\\K`, nested character classes with `&&`,
POSIX brackets, scoped inline flags. What differs is rewritten here: `\\h`/`\\H` (hex digits), `\\R`
(any line break), `\\x{...}`, `\\k<name>`/`\\g<name>` and Ruby's `(?m)` (dot matches newline: `(?s)` here). Anything `regex` cannot compile is
reported with the pattern's position (Oniguruma's absent operator `(?~...)`, for instance).

Every search runs with a timeout (`regex` stops a runaway backtracking search and raises TimeoutError).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import regex

MATCH_TIMEOUT = 0.05  # seconds for one search of one pattern in one line
MAX_PATTERN_CHARS = 20_000
FLAGS = regex.VERSION1 | regex.MULTILINE
_LINE_BREAK = r"(?:\r\n|[\n\v\f\r\x85\u2028\u2029])"
_HEX_BRACE = re.compile(r"\\x\{([0-9a-fA-F]{1,8})\}")
_NAMED_REF = re.compile(r"\\([kg])<(\w+)>")


class PatternError(ValueError):
    """A pattern that cannot be compiled, with the 0-based offset in the pattern where known."""

    def __init__(self, message: str, offset: int | None = None):
        super().__init__(message)
        self.message, self.offset = message, offset


def translate(pattern: str, *, g: bool = True, a: bool = True) -> str:
    """Return an Oniguruma pattern rewritten for `regex` (VERSION1): \\h, \\H, \\R and Ruby's (?m).

    g=False: `\\G` never matches (the search is not at the anchor); a=False: `\\A` never matches (not the first
    line). vscode-textmate does the same.
    """
    out: list[str] = []
    i, depth, n = 0, 0, len(pattern)  # depth: character class nesting
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt == "h":
                out.append("0-9a-fA-F" if depth else "[0-9a-fA-F]")
            elif nxt == "H":
                out.append(r"\x00-/:-@G-`g-\U0010ffff" if depth else "[^0-9a-fA-F]")
            elif nxt == "R" and not depth:
                out.append(_LINE_BREAK)
            elif (nxt == "G" and not g or nxt == "A" and not a) and not depth:
                out.append("(?!)")
            elif nxt == "x" and pattern.startswith("{", i + 2) and (m := _HEX_BRACE.match(pattern, i)):
                out.append(f"\\U{int(m[1], 16):08x}" if int(m[1], 16) <= 0x10FFFF else m[0])
                i = m.end()
                continue
            elif nxt in "kg" and not depth and (m := _NAMED_REF.match(pattern, i)):
                name = m[2]
                if nxt == "g":  # Oniguruma's subroutine call
                    out.append(f"(?{name})" if name.isdigit() else f"(?&{name})")
                else:
                    out.append(f"(?:\\{name})" if name.isdigit() else f"(?P={name})")
                i = m.end()
                continue
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if depth:
            if ch == "[":
                if pattern.startswith("[:", i):  # a POSIX bracket [:alpha:] stays as written
                    end = pattern.find(":]", i + 2)
                    if end != -1:
                        out.append(pattern[i : end + 2])
                        i = end + 2
                        continue
                depth += 1
            elif ch == "]":
                depth -= 1
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            depth = 1
            out.append(ch)
            i += 1
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            if i < n and pattern[i] == "]":  # a leading ] is a literal
                out.append(r"\]")
                i += 1
            continue
        if ch == "(" and pattern.startswith("(?", i):
            j = i + 2
            while j < n and pattern[j] in "imx-":
                j += 1
            if j > i + 2 and j < n and pattern[j] in ":)":
                flags = pattern[i + 2 : j].replace("m", "s")  # Ruby's m is dotall
                out.append("(?" + flags)
                i = j
                continue
        out.append(ch)
        i += 1
    return "".join(out)


@dataclass
class Pattern:
    """One compiled grammar pattern; `source` as written in the grammar, `where` its JSON path.

    `compiled` is the pattern as written; a pattern with `\\G` or `\\A` also has variants where they never match,
    made when first needed (variant()).
    """

    source: str
    compiled: regex.Pattern
    where: str
    anchors: str  # "G" and/or "A" when the pattern uses them
    variants: dict[tuple[bool, bool], regex.Pattern] = field(default_factory=dict, repr=False)

    def variant(self, g: bool, a: bool) -> regex.Pattern:
        """Return the pattern for a search where `\\G` matches (g) and `\\A` matches (a), or not."""
        key = ("G" not in self.anchors or g, "A" not in self.anchors or a)
        if key == (True, True):
            return self.compiled
        found = self.variants.get(key)
        if found is None:
            try:
                found = regex.compile(translate(self.source, g=key[0], a=key[1]), FLAGS)
            except (regex.error, OverflowError, RecursionError, ValueError):
                found = self.compiled
            self.variants[key] = found
        return found


def compile_pattern(source: str, where: str) -> Pattern:
    """Compile a grammar pattern; PatternError (with the offset in the source) when it cannot be."""
    if len(source) > MAX_PATTERN_CHARS:
        raise PatternError(f"a pattern of {len(source)} characters (at most {MAX_PATTERN_CHARS})", 0)
    translated = translate(source)
    try:
        compiled = regex.compile(translated, FLAGS)
    except regex.error as exc:
        pos = getattr(exc, "pos", None)
        # an offset in the rewritten pattern is one in the source while nothing before it was rewritten
        same = isinstance(pos, int) and translated[:pos] == source[:pos]
        raise PatternError(str(getattr(exc, "msg", None) or exc), pos if same else None) from None
    except (OverflowError, RecursionError, MemoryError, ValueError) as exc:
        raise PatternError(f"{type(exc).__name__}: {str(exc)[:80]}", None) from None
    anchors = ("G" if "\\G" in source else "") + ("A" if "\\A" in source else "")
    return Pattern(source, compiled, where, anchors)


def has_backreferences(source: str) -> bool:
    """Tell whether an `end`/`while` pattern refers to the `begin` match (\\1 ... \\9)."""
    i = 0
    while True:
        i = source.find("\\", i)
        if i == -1 or i + 1 >= len(source):
            return False
        if source[i + 1].isdigit() and source[i + 1] != "0":
            return True
        i += 2


def substitute_backreferences(source: str, groups: tuple[str | None, ...]) -> str:
    """Replace \\N in an `end`/`while` pattern with the `begin` match's group N, escaped (as vscode-textmate)."""
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\" and i + 1 < n:
            j = i + 1
            while j < n and j < i + 3 and source[j].isdigit():
                j += 1
            if j > i + 1 and source[i + 1] != "0":
                index = int(source[i + 1 : j])
                value = groups[index] if index < len(groups) else None
                out.append(regex.escape(value or ""))
            else:
                out.append(source[i : i + 2])
                j = i + 2
            i = j
            continue
        out.append(ch)
        i += 1
    return "".join(out)
