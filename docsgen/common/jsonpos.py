"""Source positions for JSON documents, so every config error can name its line and column."""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field

JsonPath = tuple[str | int, ...]

_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'(?<!\\)"(?:[^"\\]|\\.)*+"', re.S)  # no start at an escaped quote: linear on '\\"' * n
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")


class JsonSyntaxError(ValueError):
    """Malformed JSON, with the 1-based line and column of the problem."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def format_path(path: JsonPath) -> str:
    """Format a JSON path the way users read it: navigation.tabs[1].groups[0]."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_$][\w$-]*", part):
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(part)}]"
    return out


def loads(text: str) -> object:
    """Parse JSON with a located JsonSyntaxError instead of json's bare message."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonSyntaxError(_explain(exc), exc.lineno, exc.colno) from None
    except ValueError:  # an integer of more than 4,300 digits (Python's conversion limit)
        found = re.search(r"-?\d{4000,}", text)
        offset = found.start() if found else 0
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        raise JsonSyntaxError(
            "a number of more than 4,300 digits; expected a shorter one", line, column
        ) from None


def _explain(exc: json.JSONDecodeError) -> str:
    msg = exc.msg
    if msg.startswith("Expecting property name enclosed in double quotes"):
        before = exc.doc[: exc.pos].rstrip()
        if before.endswith(","):
            return "trailing comma before '}' (JSON does not allow it); expected a property name in double quotes"
        return "expected a property name in double quotes"
    if msg.startswith("Expecting value"):
        before = exc.doc[: exc.pos].rstrip()
        if before.endswith(","):
            return "trailing comma (JSON does not allow it); expected a value"
        return "expected a value (string, number, object, array, true, false or null)"
    if msg.startswith("Expecting ',' delimiter"):
        return "expected ',' between items (or a closing bracket)"
    return msg[0].lower() + msg[1:]


@dataclass
class PositionIndex:
    """Line/column of every value and key in one JSON text, built lazily on first lookup."""

    text: str
    _values: dict[JsonPath, int] = field(default_factory=dict, repr=False)
    _keys: dict[JsonPath, int] = field(default_factory=dict, repr=False)
    _duplicates: list[tuple[JsonPath, int]] = field(default_factory=list, repr=False)
    _built: bool = False
    _line_starts: list[int] = field(default_factory=list, repr=False)

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        starts = [0]
        for m in re.finditer("\n", self.text):
            starts.append(m.end())
        self._line_starts = starts
        # Malformed text is reported by loads(); positions then stay partial.
        with contextlib.suppress(IndexError, ValueError):
            self._value(self._skip(_WS, 0), ())

    def _skip(self, pattern: re.Pattern[str], pos: int) -> int:
        """Return the end of `pattern` matched at pos; ValueError when the text does not match there."""
        m = pattern.match(self.text, pos)
        if m is None:
            raise ValueError(f"{pattern.pattern} expected at {pos}")
        return m.end()

    def _value(self, pos: int, path: JsonPath) -> int:
        self._values[path] = pos
        ch = self.text[pos]
        if ch == "{":
            pos = self._skip(_WS, pos + 1)
            seen: set[str] = set()
            if self.text[pos] == "}":
                return pos + 1
            while True:
                m = _STRING.match(self.text, pos)
                if not m:
                    raise ValueError("key expected")
                key = json.loads(m.group(0))
                if key in seen:
                    self._duplicates.append(((*path, key), pos))
                seen.add(key)
                self._keys[(*path, key)] = pos
                pos = self._skip(_WS, m.end()) + 1  # skip ':'
                pos = self._skip(_WS, pos)
                pos = self._skip(_WS, self._value(pos, (*path, key)))
                if self.text[pos] == ",":
                    pos = self._skip(_WS, pos + 1)
                    continue
                return pos + 1
        if ch == "[":
            pos = self._skip(_WS, pos + 1)
            if self.text[pos] == "]":
                return pos + 1
            index = 0
            while True:
                pos = self._skip(_WS, self._value(pos, (*path, index)))
                index += 1
                if self.text[pos] == ",":
                    pos = self._skip(_WS, pos + 1)
                    continue
                return pos + 1
        if ch == '"':
            return self._skip(_STRING, pos)
        for literal in ("true", "false", "null"):
            if self.text.startswith(literal, pos):
                return pos + len(literal)
        m = _NUMBER.match(self.text, pos)
        if not m:
            raise ValueError("value expected")
        return m.end()

    def _line_col(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self._line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self._line_starts[lo] + 1

    def locate(self, path: JsonPath, *, key: bool = False) -> tuple[int, int]:
        """Return (line, column) of the value at path (or its key), falling back to the nearest ancestor."""
        self._build()
        path = tuple(path)
        while True:
            table = self._keys if key and path in self._keys else self._values
            if path in table:
                return self._line_col(table[path])
            if not path:
                return (1, 1)
            path = path[:-1]

    def duplicate_keys(self) -> list[tuple[JsonPath, int, int]]:
        """Return (path, line, column) for every key that appears twice in one object."""
        self._build()
        return [(p, *self._line_col(off)) for p, off in self._duplicates]


def type_name(value: object) -> str:
    """Name a JSON value's type the way the JSON Schema vocabulary does."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"
