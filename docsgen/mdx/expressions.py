"""Evaluate the small JavaScript subset MDX pages use in `{...}`: literals, arrays, objects, names."""

from __future__ import annotations

import json
import re
from typing import Any

from docsgen.mdx.limits import MAX_EXPRESSION_DEPTH

_NUMBER_RE = re.compile(
    r"-?(?:0[xX][0-9a-fA-F]+|\d+(?:_\d+)*(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)"
)
_IDENT_RE = re.compile(r"[A-Za-z_$][\w$]*")


class Unevaluable(Exception):
    """The expression is outside the subset we evaluate (a function call, JSX, an unknown name...)."""


def is_comment(expr: str) -> bool:
    """Tell whether an expression holds only comments (`{/* ... */}`)."""
    stripped = re.sub(r"/\*.*?\*/", "", expr, flags=re.S).strip()
    stripped = re.sub(r"^//.*$", "", stripped, flags=re.M).strip()
    return not stripped


def evaluate(expr: str, scope: dict[str, Any]) -> Any:
    """Evaluate one expression against scope (variables, snippet props, exports); raise Unevaluable."""
    parser = _Parser(expr, scope)
    value = parser.parse_expression()
    parser.skip()
    if parser.pos != len(parser.src):
        raise Unevaluable(f"cannot evaluate {expr.strip()!r}")
    return value


class _Parser:
    def __init__(self, src: str, scope: dict[str, Any]):
        self.src = src
        self.pos = 0
        self.scope = scope
        self.depth = 0

    def skip(self) -> None:
        src = self.src
        while self.pos < len(src):
            ch = src[self.pos]
            if ch.isspace():
                self.pos += 1
            elif src.startswith("/*", self.pos):
                end = src.find("*/", self.pos + 2)
                if end < 0:
                    raise Unevaluable("unclosed comment")
                self.pos = end + 2
            elif src.startswith("//", self.pos):
                end = src.find("\n", self.pos)
                self.pos = len(src) if end < 0 else end
            else:
                break

    def peek(self) -> str:
        self.skip()
        return self.src[self.pos] if self.pos < len(self.src) else ""

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            raise Unevaluable(f"expected {ch!r}")
        self.pos += 1

    def parse_expression(self) -> Any:
        value = self.parse_primary()
        while True:
            ch = self.peek()
            if self.src.startswith("||", self.pos) or self.src.startswith("??", self.pos):
                op = self.src[self.pos : self.pos + 2]
                self.pos += 2
                other = self.parse_primary()
                value = value if (value if op == "||" else value is not None) else other
            elif ch == "+" and not self.src.startswith("++", self.pos):
                self.pos += 1
                other = self.parse_primary()
                if isinstance(value, str) or isinstance(other, str):
                    value = to_text(value) + to_text(other)
                elif isinstance(value, (int, float)) and isinstance(other, (int, float)):
                    value = value + other
                else:
                    raise Unevaluable("unsupported '+'")
            else:
                return value

    def parse_primary(self) -> Any:
        self.depth += 1
        if self.depth > MAX_EXPRESSION_DEPTH:
            raise Unevaluable(f"nested more than {MAX_EXPRESSION_DEPTH} levels deep")
        try:
            return self._primary()
        finally:
            self.depth -= 1

    def _primary(self) -> Any:
        ch = self.peek()
        src = self.src
        if not ch:
            raise Unevaluable("empty expression")
        if ch in "\"'":
            return self.parse_string(ch)
        if ch == "`":
            return self.parse_template()
        if ch == "[":
            return self.parse_array()
        if ch == "{":
            return self.parse_object()
        if ch == "(":
            self.pos += 1
            value = self.parse_expression()
            self.expect(")")
            return value
        if ch == "!":
            self.pos += 1
            return not self.parse_primary()
        m = _NUMBER_RE.match(src, self.pos)
        if m and (ch.isdigit() or ch in "-."):
            self.pos = m.end()
            text = m.group(0).replace("_", "")
            if text.lower().startswith(("0x", "-0x")):
                return int(text, 16)
            number = float(text)
            return int(number) if number.is_integer() and not re.search(r"[.eE]", text) else number
        m = _IDENT_RE.match(src, self.pos)
        if not m:
            raise Unevaluable(f"unexpected {ch!r}")
        name = m.group(0)
        self.pos = m.end()
        if name in ("true", "false"):
            return name == "true"
        if name in ("null", "undefined"):
            return None
        if name not in self.scope:
            raise Unevaluable(f"unknown name {name!r}")
        value = self.scope[name]
        while True:
            ch = self.peek()
            if ch == "." and not src.startswith("...", self.pos):
                self.pos += 1
                self.skip()
                m = _IDENT_RE.match(src, self.pos)
                if not m:
                    raise Unevaluable("expected a property name")
                self.pos = m.end()
                value = _member(value, m.group(0))
            elif ch == "?" and src.startswith("?.", self.pos):
                self.pos += 2
                m = _IDENT_RE.match(src, self.pos)
                if not m:
                    raise Unevaluable("expected a property name")
                self.pos = m.end()
                value = None if value is None else _member(value, m.group(0))
            elif ch == "[":
                self.pos += 1
                key = self.parse_expression()
                self.expect("]")
                value = _member(value, key)
            elif ch == "(":
                raise Unevaluable(f"function calls are not supported ({name}(...))")
            else:
                return value

    def parse_string(self, quote: str) -> str:
        src = self.src
        i = self.pos + 1
        out = []
        while i < len(src):
            ch = src[i]
            if ch == "\\" and i + 1 < len(src):
                nxt = src[i + 1]
                out.append({"n": "\n", "t": "\t", "r": "\r"}.get(nxt, nxt))
                i += 2
                continue
            if ch == quote:
                self.pos = i + 1
                return "".join(out)
            out.append(ch)
            i += 1
        raise Unevaluable("unclosed string")

    def parse_template(self) -> str:
        src = self.src
        i = self.pos + 1
        out = []
        while i < len(src):
            ch = src[i]
            if ch == "\\" and i + 1 < len(src):
                out.append(src[i + 1])
                i += 2
                continue
            if ch == "`":
                self.pos = i + 1
                return "".join(out)
            if ch == "$" and src.startswith("${", i):
                self.pos = i + 2
                value = self.parse_expression()
                self.expect("}")
                out.append(to_text(value))
                i = self.pos
                continue
            out.append(ch)
            i += 1
        raise Unevaluable("unclosed template string")

    def parse_array(self) -> list[Any]:
        self.pos += 1
        items: list[Any] = []
        while True:
            if self.peek() == "]":
                self.pos += 1
                return items
            items.append(self.parse_expression())
            ch = self.peek()
            if ch == ",":
                self.pos += 1
            elif ch != "]":
                raise Unevaluable("expected ',' or ']' in array")

    def parse_object(self) -> dict[str, Any]:
        self.pos += 1
        obj: dict[str, Any] = {}
        while True:
            ch = self.peek()
            if ch == "}":
                self.pos += 1
                return obj
            if ch in "\"'":
                key = self.parse_string(ch)
            elif self.src.startswith("...", self.pos):
                self.pos += 3
                spread = self.parse_primary()
                if isinstance(spread, dict):
                    obj.update(spread)
                key = None
            else:
                m = _IDENT_RE.match(self.src, self.pos) or _NUMBER_RE.match(self.src, self.pos)
                if not m:
                    raise Unevaluable("expected a key in object")
                key = m.group(0)
                self.pos = m.end()
            if key is not None:
                ch = self.peek()
                if ch == ":":
                    self.pos += 1
                    obj[key] = self.parse_expression()
                elif ch in ",}":
                    if key not in self.scope:
                        raise Unevaluable(f"unknown name {key!r}")
                    obj[key] = self.scope[key]
                else:
                    raise Unevaluable("expected ':' in object")
            ch = self.peek()
            if ch == ",":
                self.pos += 1
            elif ch != "}":
                raise Unevaluable("expected ',' or '}' in object")


def _member(value: Any, key: Any) -> Any:
    if isinstance(value, dict):
        return value.get(str(key))
    if isinstance(value, (list, str)):
        if key == "length":
            return len(value)
        if isinstance(key, (int, float)) and int(key) < len(value):
            return value[int(key)]
        return None
    if value is None:
        raise Unevaluable(f"cannot read {key!r} of undefined")
    raise Unevaluable(f"cannot read {key!r}")


def to_text(value: Any) -> str:
    """Convert a value to text the way JSX renders it in children."""
    if value is None or value is True or value is False:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return "".join(to_text(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)
