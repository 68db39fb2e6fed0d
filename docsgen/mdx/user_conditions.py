"""Mintlify's personalised conditions in pages: `{user.plan === "pro" ? <A/> : <B/>}` and `{user.beta && <A/>}`.

`user` is the reader's user data `content` with their `groups` (a list) added: `{user.groups?.includes("admin") &&
<Note/>}` shows content to one group (an empty object for a reader nobody signed in, as on Mintlify). The build
renders both branches and shows the one a reader without user data gets; `docsgen server`'s gate, which
serves each page to one reader, evaluates the condition again with that reader's data and sends only the branch
it selects (docsgen.server.site_access). The conditions are a small JavaScript subset, evaluated here without
running any code: literals, `user` and its fields (`.`, `?.`, `[...]`), `!`, `===`, `!==`, `==`, `!=`, `<`,
`<=`, `>`, `>=`, `&&`, `||`, `??`, `? :`, and the string and array methods `includes`, `startsWith`,
`endsWith`, `toLowerCase`, `toUpperCase`, `trim`.
"""

from __future__ import annotations

import re
from typing import Any

from docsgen.mdx.expressions import Unevaluable

MAX_CONDITION = 2000  # characters of one condition
MAX_DEPTH = 40
# Linear when searched too (the regex fuzz test): blanks are taken only from the start of a run of them, a string
# starts only at an unescaped quote, and nothing taken is given back. A token never ends in a blank or follows a
# backslash, so `_tokens` (which matches at the end of the previous token) is unchanged by either lookbehind.
_TOKEN = re.compile(
    r"(?<!\s)\s*+(?:(?P<num>\d++(?:\.\d++)?)"
    r"|(?P<str>(?<!\\)\"(?:[^\"\\]++|\\.)*+\"|(?<!\\)'(?:[^'\\]++|\\.)*+'|`[^`$\\]*+`)"
    r"|(?P<name>[A-Za-z_$][\w$]*+)|(?P<op>===|!==|==|!=|<=|>=|&&|\|\||\?\?|\?\.|[!<>()\[\].,?:-]))"
)
_USER = re.compile(r"(?<![\w$.])user\s*(?:\?\.|\.|\[)")
_METHODS = {"includes", "startsWith", "endsWith", "toLowerCase", "toUpperCase", "trim"}


def condition_user(signed_in: bool, content: Any, groups: Any) -> dict[str, Any]:
    """Return the `user` conditions read for a reader: their `content` with `groups` (their user data's, sorted;
    it wins over a `groups` key of `content`), or an empty object when nobody signed in."""
    if not signed_in:
        return {}
    user = dict(content) if isinstance(content, dict) else {}
    user["groups"] = (
        sorted(str(g) for g in groups) if isinstance(groups, list | set | frozenset | tuple) else []
    )
    return user


def mentions_user(expr: str) -> bool:
    """Tell whether an expression reads the `user` variable."""
    return bool(_USER.search(expr))


def evaluate_condition(src: str, user: dict[str, Any]) -> bool:
    """Return whether a condition holds for a reader whose user data `content` is `user`; raise Unevaluable."""
    if len(src) > MAX_CONDITION:
        raise Unevaluable(f"longer than {MAX_CONDITION} characters")
    parser = _Condition(_tokens(src), user)
    value = parser.ternary()
    if parser.pos != len(parser.tokens):
        raise Unevaluable(f"unexpected {parser.tokens[parser.pos][1]!r}")
    return truthy(value)


def truthy(value: Any) -> bool:
    """JavaScript's truthiness: empty arrays and objects are true."""
    if isinstance(value, list | dict):
        return True
    return bool(value)


def _tokens(src: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    stripped = src.rstrip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if not m or m.end() == pos:
            raise Unevaluable(f"unsupported syntax at {stripped[pos : pos + 12].strip()!r}")
        kind = m.lastgroup or "op"
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Condition:
    def __init__(self, tokens: list[tuple[str, str]], user: dict[str, Any]) -> None:
        self.tokens, self.user, self.pos, self.depth = tokens, user, 0, 0

    def peek(self) -> str | None:
        return self.tokens[self.pos][1] if self.pos < len(self.tokens) else None

    def take(self, op: str) -> bool:
        if self.peek() == op and self.tokens[self.pos][0] == "op":
            self.pos += 1
            return True
        return False

    def need(self, op: str) -> None:
        if not self.take(op):
            raise Unevaluable(f"expected {op!r}")

    def ternary(self) -> Any:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unevaluable(f"nested more than {MAX_DEPTH} levels deep")
        try:
            value = self.either()
            if self.take("?"):
                yes = self.ternary()
                self.need(":")
                no = self.ternary()
                return yes if truthy(value) else no
            return value
        finally:
            self.depth -= 1

    def either(self) -> Any:
        value = self.both()
        while self.peek() in ("||", "??"):
            op = self.tokens[self.pos][1]
            self.pos += 1
            other = self.both()
            value = (value if truthy(value) else other) if op == "||" else (other if value is None else value)
        return value

    def both(self) -> Any:
        value = self.equality()
        while self.take("&&"):
            other = self.equality()
            value = other if truthy(value) else value
        return value

    def equality(self) -> Any:
        value = self.relation()
        while self.peek() in ("===", "!==", "==", "!="):
            op = self.tokens[self.pos][1]
            self.pos += 1
            other = self.relation()
            same = _strict_equal(value, other) if op in ("===", "!==") else _loose_equal(value, other)
            value = same if op in ("===", "==") else not same
        return value

    def relation(self) -> Any:
        value = self.unary()
        while self.peek() in ("<", ">", "<=", ">="):
            op = self.tokens[self.pos][1]
            self.pos += 1
            other = self.unary()
            value = _compare(op, value, other)
        return value

    def unary(self) -> Any:
        if self.take("!"):
            return not truthy(self.unary())
        if self.take("-"):
            value = self.unary()
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise Unevaluable("'-' needs a number")
            return -value
        return self.postfix(self.primary())

    def postfix(self, value: Any) -> Any:
        short = False  # `a?.b...` with `a` undefined: the rest of the chain is undefined, nothing is called
        while True:
            if self.take(".") or self.take("?."):
                optional = self.tokens[self.pos - 1][1] == "?."
                kind, name = self.tokens[self.pos] if self.pos < len(self.tokens) else ("", "")
                if kind != "name":
                    raise Unevaluable("expected a property name")
                self.pos += 1
                short = short or (optional and value is None)
                if self.peek() == "(":
                    args = self.arguments()
                    if not short:
                        value = self.call(value, name, args)
                elif not short:
                    value = _member(value, name)
            elif self.take("["):
                key = self.ternary()
                self.need("]")
                value = None if short else _member(value, key)
            elif self.peek() == "(":
                raise Unevaluable(
                    "only the methods includes, startsWith, endsWith, toLowerCase, toUpperCase, trim"
                )
            else:
                return None if short else value

    def arguments(self) -> list[Any]:
        self.need("(")
        args = []
        while not self.take(")"):
            args.append(self.ternary())
            if self.peek() != ")":
                self.need(",")
        return args

    def call(self, value: Any, name: str, args: list[Any]) -> Any:
        if name not in _METHODS or not isinstance(value, str | list):
            raise Unevaluable(f"only the methods {', '.join(sorted(_METHODS))} of text and lists")
        if name in ("toLowerCase", "toUpperCase", "trim"):
            if not isinstance(value, str):
                raise Unevaluable(f"{name} of a list")
            if name == "trim":
                return value.strip()
            return value.lower() if name == "toLowerCase" else value.upper()
        arg = args[0] if args else None
        if name == "includes":
            if isinstance(value, list):
                return any(_strict_equal(item, arg) for item in value)
            return isinstance(arg, str) and arg in value
        if not isinstance(value, str) or not isinstance(arg, str):
            return False
        return value.startswith(arg) if name == "startsWith" else value.endswith(arg)

    def primary(self) -> Any:
        if self.pos >= len(self.tokens):
            raise Unevaluable("the condition ends too soon")
        kind, text = self.tokens[self.pos]
        self.pos += 1
        if kind == "num":
            return float(text) if "." in text else int(text)
        if kind == "str":
            return re.sub(r"\\(.)", r"\1", text[1:-1])
        if kind == "name":
            if text in ("true", "false"):
                return text == "true"
            if text in ("null", "undefined"):
                return None
            if text == "user":
                return self.user
            raise Unevaluable(f"unknown name {text!r} (conditions read only `user`)")
        if text == "(":
            value = self.ternary()
            self.need(")")
            return value
        if text == "[":
            items = []
            while not self.take("]"):
                items.append(self.ternary())
                if self.peek() != "]":
                    self.need(",")
            return items
        raise Unevaluable(f"unexpected {text!r}")


def _member(value: Any, key: Any) -> Any:
    """Read a field; reading one of undefined gives undefined (Mintlify asks for `?.`; a missing field is no error)."""
    if isinstance(value, dict):
        return value.get(str(key))
    if isinstance(value, list | str):
        if key == "length":
            return len(value)
        if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(value):
            return value[key]
    return None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _strict_equal(a: Any, b: Any) -> bool:
    if _number(a) and _number(b):
        return bool(a == b)
    return type(a) is type(b) and a == b and not isinstance(a, list | dict)


def _loose_equal(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, str) and _number(b) or _number(a) and isinstance(b, str):
        try:
            return float(a) == float(b)
        except ValueError:
            return False
    return _strict_equal(a, b)


def _compare(op: str, a: Any, b: Any) -> bool:
    if not ((_number(a) and _number(b)) or (isinstance(a, str) and isinstance(b, str))):
        return False  # JavaScript compares other values through NaN: false
    return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
