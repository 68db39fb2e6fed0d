"""Which ASCII characters a regex can match at its start: a sound over-estimate, for docsgen.mdx.fastlex.

A lexer rule that cannot start with the character at a position cannot match there, so fastlex leaves it out of
the regex it tries at that position. The estimate must never leave out a character the rule can start with; it
may include ones it cannot (that only costs time). It walks the parsed pattern (Python's own parser): the first
element of a sequence, and the next ones while those before can match empty; lookarounds and anchors match
empty; whatever the walk does not know (backreferences, conditionals) can start anywhere, as does a rule that
can match the empty string. Which characters a single-character element (a literal, a class, `.`) matches is
asked of Python's regex engine itself, with the element's flags, so case-insensitive matching and Unicode
classes are what the engine makes of them.
"""

from __future__ import annotations

import re
from re import _compiler as sre_compile  # type: ignore[attr-defined]
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

ASCII = range(128)
_C = sre_constants
_ONE_CHAR = frozenset({_C.LITERAL, _C.NOT_LITERAL, _C.IN, _C.ANY})
_REPEATS = frozenset(
    op for op in (_C.MAX_REPEAT, _C.MIN_REPEAT, getattr(_C, "POSSESSIVE_REPEAT", None)) if op is not None
)
_ZERO_WIDTH = frozenset({_C.AT, _C.ASSERT, _C.ASSERT_NOT})
_ATOMIC = getattr(_C, "ATOMIC_GROUP", None)
Chars = frozenset[int] | None  # None: any character


def first_chars(pattern: Any) -> Chars:
    """The ASCII codes a compiled str pattern can start a match with; None when it may start with anything
    (or match the empty string, or is not understood)."""
    if not isinstance(pattern, re.Pattern) or not isinstance(pattern.pattern, str):
        return None
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
        chars, nullable = _first(list(parsed), parsed.state.flags)
    except Exception:  # anything the walk does not expect: no estimate  # noqa: BLE001
        return None
    return None if chars is None or nullable else chars


def _first(items: list, flags: int) -> tuple[Chars, bool]:
    """(first characters, whether the sequence can match empty) of a parsed sequence."""
    chars: set[int] = set()
    for op, av in items:
        got, nullable = _first_item(op, av, flags)
        if got is None:
            return None, True
        chars |= got
        if not nullable:
            return frozenset(chars), False
    return frozenset(chars), True


def _first_item(op: Any, av: Any, flags: int) -> tuple[Chars, bool]:
    if op in _ONE_CHAR:
        key = (repr((op, av)), flags)
        got = _MATCHED.get(key)
        if got is None:
            got = _MATCHED[key] = _matched((op, av), flags)
        return got, False
    if op is _C.SUBPATTERN:
        _group, add, remove, sub = av
        return _first(list(sub), (flags | add) & ~remove)
    if op in _REPEATS:
        low, _high, sub = av
        got, nullable = _first(list(sub), flags)
        return got, nullable or low == 0
    if op is _C.BRANCH:
        chars: set[int] = set()
        empty = False
        for alternative in av[1]:
            got, nullable = _first(list(alternative), flags)
            if got is None:
                return None, True
            chars |= got
            empty = empty or nullable
        return frozenset(chars), empty
    if _ATOMIC is not None and op is _ATOMIC:
        return _first(list(av), flags)
    if op in _ZERO_WIDTH:
        return frozenset(), True
    return None, True  # backreferences, conditionals, anything else


_MATCHED: dict[tuple[str, int], frozenset[int]] = {}  # (element's repr, flags): a few hundred per lexer


def _matched(item: tuple, flags: int) -> frozenset[int]:
    """The ASCII codes one single-character element matches, asked of the regex engine."""
    sub = sre_parse.SubPattern(sre_parse.State(), [item])
    sub.state.flags = flags
    compiled = sre_compile.compile(sub, flags)
    return frozenset(code for code in ASCII if compiled.match(chr(code)))
