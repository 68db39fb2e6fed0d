"""Bounded JSON and YAML loading: the nesting depth is checked on the text BEFORE a parser sees it.

libyaml composes nodes recursively in C: a document nested 50,000 deep overflows the C stack and kills the
process (no Python exception to catch). Python's own walkers hit RecursionError much earlier. So every
untrusted JSON or YAML text is measured first:

    check_nesting(text, max_depth=256, syntax="yaml")   # raises NestingError(line, column, depth, limit)
    data = load_json(text, max_depth=256)              # NestingError, or json.JSONDecodeError
    data = load_yaml(text, max_depth=256)              # NestingError, or yaml.YAMLError

The checks cost linear time: JSON is measured exactly with C-speed regular expressions; YAML is first bounded
from its indentation and bracket counts, and only texts that could be too deep are measured exactly, from
libyaml's event stream (which is iterative, never recursive).
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

import yaml

DEFAULT_MAX_DEPTH = 256
# The largest integer a document may hold: 4,300 decimal digits, under Python's int <-> text conversion limit
# (4,300 digits: past it, int("9" * 5000) and str(16 ** 5000) raise ValueError). A larger one is a located
# problem of the document, never an exception while it is read or shown.
MAX_INT_BITS = 14_284  # 4,300 * log2(10)
_SAFE_LOADER: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)
# The indentation and block indicators ("- ", "? ") that start a YAML line.
_YAML_LEAD = re.compile(r"^[ \t]*(?:[-?:](?:[ \t]+|$))*", re.M)
_DELTA = {"[": 1, "{": 1, "]": -1, "}": -1}


class NestingError(ValueError):
    """A document nested deeper than allowed: where the limit is first passed (1-based line and column)."""

    def __init__(self, depth: int, limit: int, line: int = 0, column: int = 0):
        where = f" (line {line}, column {column})" if line else ""
        super().__init__(f"nested more than {limit} levels deep{where}")
        self.depth = depth
        self.limit = limit
        self.line = line
        self.column = column


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _json_depth_error(text: str, limit: int) -> NestingError | None:
    """Measure JSON nesting exactly; strings are removed first so brackets inside them do not count."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    if not brackets or max(accumulate(map(_DELTA.__getitem__, brackets))) <= limit:
        return None
    depth = 0  # too deep: find where, on the text itself (only on this error path)
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token[0] == '"':
            continue
        depth += _DELTA[token]
        if depth > limit:
            return NestingError(depth, limit, *_position(text, match.start()))
    return NestingError(limit + 1, limit)  # pragma: no cover - the two measures agree


def _yaml_could_be_deeper(text: str, limit: int) -> bool:
    """Tell cheaply whether a YAML text might nest deeper than `limit` (False is a proof that it does not).

    Block nesting needs more indentation (or a "- "/"? " indicator) for every level but one in two, so it is at
    most twice the widest line lead; flow nesting needs one bracket per level.
    """
    widest = max((len(m.group()) for m in _YAML_LEAD.finditer(text)), default=0)
    openers = text.count("[") + text.count("{")
    return 2 * (widest + 1) + openers > limit


def _yaml_depth_error(text: str, limit: int) -> NestingError | None:
    """Measure YAML nesting exactly from libyaml's events (iterative: safe at any depth).

    PyYAML 6.0.4's libyaml scanner refuses deep nesting itself ("exceeded maximum nesting depth"), sometimes
    before the parser yields the event past `limit`: the walk is then made again with the pure-Python scanner,
    which has no such limit, to locate the first level past ours.
    """
    if not _yaml_could_be_deeper(text, limit):
        return None
    try:
        return _walk_yaml_depth(text, limit, _SAFE_LOADER)
    except yaml.YAMLError as exc:
        if "nesting depth" not in str(exc) or _SAFE_LOADER is yaml.SafeLoader:
            return None  # a syntax error: the parser reports it, located
    try:
        return _walk_yaml_depth(text, limit, yaml.SafeLoader)
    except yaml.YAMLError:
        return None


def _walk_yaml_depth(
    text: str, limit: int, loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
) -> NestingError | None:
    """Return the first level past `limit` in the events of `loader`'s parser (YAMLError on bad syntax)."""
    starts = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, starts):
            depth += 1
            if depth > limit:
                mark = event.start_mark  # the parser's events always carry their marks
                line, column = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
                return NestingError(depth, limit, line, column)
        elif isinstance(event, ends):
            depth -= 1
    return None


class NumberTooLarge(ValueError):
    """An integer literal beyond MAX_INT_BITS (or that Python cannot convert), at a 1-based line and column."""

    def __init__(self, line: int, column: int):
        super().__init__("a number of more than 4,300 digits; expected a shorter one")
        self.line, self.column = line, column


def bounded_yaml_int(loader: Any, node: yaml.ScalarNode) -> int:
    """The YAML int constructor (decimal, 0x, 0o, 0b, sexagesimal, `_` separators), refusing huge integers.

    Register it as the `tag:yaml.org,2002:int` constructor of a loader; it raises NumberTooLarge at the node.
    """
    try:
        value = yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    except ValueError:  # Python's conversion limit, hit while reading the decimal digits
        value = None
    if not isinstance(value, int) or value.bit_length() > MAX_INT_BITS:
        raise NumberTooLarge(node.start_mark.line + 1, node.start_mark.column + 1)
    return value


def huge_json_int(text: str) -> NumberTooLarge:
    """The NumberTooLarge of a JSON text json.loads refused with ValueError (its first very long digit run)."""
    found = re.search(r"-?\d{4000,}", text)
    offset = found.start() if found else 0
    line = text.count("\n", 0, offset) + 1
    return NumberTooLarge(line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def check_nesting(text: str, max_depth: int = DEFAULT_MAX_DEPTH, *, syntax: str = "json") -> None:
    """Raise NestingError when `text` (syntax "json" or "yaml") nests objects/arrays deeper than max_depth."""
    found = _json_depth_error(text, max_depth) if syntax == "json" else _yaml_depth_error(text, max_depth)
    if found is not None:
        raise found


def load_json(text: str, max_depth: int = DEFAULT_MAX_DEPTH, **kwargs: Any) -> Any:
    """json.loads after the nesting check (NestingError; json.JSONDecodeError for syntax errors)."""
    check_nesting(text, max_depth, syntax="json")
    return json.loads(text, **kwargs)


def load_yaml(
    text: str,
    max_depth: int = DEFAULT_MAX_DEPTH,
    loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader] | None = None,
) -> Any:
    """yaml.load (safe loader by default) after the nesting check (NestingError; yaml.YAMLError for syntax)."""
    check_nesting(text, max_depth, syntax="yaml")
    return yaml.load(text, Loader=loader or _SAFE_LOADER)
