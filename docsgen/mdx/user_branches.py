"""Render a personalised `{condition ? A : B}` / `{condition && A}` on `user` (docsgen.mdx.user_conditions): each
branch in a `dg-user-if` element naming the condition, the branch a reader nobody signed in gets shown and the
other `hidden`. docsgen server's gate keeps only the branch its reader gets (docsgen.server.site_access)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING

from docsgen.mdx.expressions import Unevaluable, evaluate
from docsgen.mdx.user_conditions import MAX_CONDITION, evaluate_condition

if TYPE_CHECKING:
    from docsgen.mdx.state import RenderState

_OPEN = "([{"
_CLOSE = {")": "(", "]": "[", "}": "{"}


def split_condition(expr: str) -> tuple[str, str, str | None] | None:
    """Split `cond ? a : b` into (cond, a, b) and `cond && a` (a JSX element) into (cond, a, None); None otherwise."""
    if len(expr) > MAX_CONDITION * 20:
        return None
    marks = _top_level(expr)
    if marks is None:
        return None
    question = next((i for i, op in marks if op == "?"), None)
    if question is not None:
        depth = 0
        for i, op in marks:
            if i <= question:
                continue
            if op == "?":
                depth += 1
            elif op == ":":
                if depth == 0:
                    return expr[:question].strip(), expr[question + 1 : i].strip(), expr[i + 1 :].strip()
                depth -= 1
        return None
    ands = [
        i for i, op in marks if op == "&&" and expr[i + 2 :].lstrip().lstrip("(").lstrip().startswith("<")
    ]
    if ands:
        return expr[: ands[-1]].strip(), expr[ands[-1] + 2 :].strip(), None
    return None


def _top_level(src: str) -> list[tuple[int, str]] | None:
    """Return the positions of `?`, `:` and `&&` outside strings, brackets and JSX elements (None: unbalanced)."""
    out: list[tuple[int, str]] = []
    stack: list[str] = []
    i, previous = 0, ""
    while i < len(src):
        ch = src[i]
        if ch in "\"'`":
            end = _string_end(src, i)
            if end < 0:
                return None
            i, previous = end, "x"
            continue
        if (
            ch == "<"
            and previous in ("", "(", "?", ":", "&", "|", ",")
            and (src[i + 1 : i + 2].isalpha() or src[i + 1 : i + 2] == ">")
        ):
            end = _jsx_end(src, i)
            if end < 0:
                return None
            i, previous = end, "x"
            continue
        if ch in _OPEN:
            stack.append(ch)
        elif ch in _CLOSE:
            if not stack or stack.pop() != _CLOSE[ch]:
                return None
        elif not stack:
            if ch == "?" and src[i + 1 : i + 2] not in (".", "?") and src[i - 1 : i] != "?":
                out.append((i, "?"))
            elif ch == ":":
                out.append((i, ":"))
            elif src.startswith("&&", i):
                out.append((i, "&&"))
                i += 2
                previous = "&"
                continue
        if not ch.isspace():
            previous = ch if ch in "(?:&|," else "x"
        i += 1
    return out if not stack else None


def _string_end(src: str, start: int) -> int:
    quote, i = src[start], start + 1
    while i < len(src):
        if src[i] == "\\":
            i += 2
            continue
        if src[i] == quote:
            return i + 1
        i += 1
    return -1


def _braces_end(src: str, start: int) -> int:
    depth, i = 0, start
    while i < len(src):
        ch = src[i]
        if ch in "\"'`":
            i = _string_end(src, i)
            if i < 0:
                return -1
            continue
        depth += ch == "{"
        depth -= ch == "}"
        i += 1
        if depth == 0:
            return i
    return -1


def _jsx_end(src: str, start: int) -> int:
    """Return where the JSX element (or fragment) starting at `start` ends, or -1."""
    depth, i = 0, start
    while i < len(src):
        ch = src[i]
        if ch == "{":
            i = _braces_end(src, i)
            if i < 0:
                return -1
            continue
        if ch != "<":
            i += 1
            continue
        closing = src[i + 1 : i + 2] == "/"
        j = i + 1
        while j < len(src) and src[j] != ">":  # the tag: skip its quoted and braced attribute values
            if src[j] in "\"'":
                j = _string_end(src, j)
            elif src[j] == "{":
                j = _braces_end(src, j)
            else:
                j += 1
            if j < 0:
                return -1
        if j >= len(src):
            return -1
        if closing:
            depth -= 1
        elif src[j - 1] != "/":
            depth += 1
        i = j + 1
        if depth == 0:
            return i
    return -1


Nested = Callable[[str, "RenderState", int, int, bool], str]  # renders a branch that is an expression


def render_user_condition(
    state: RenderState, expr: str, line: int, col: int, block: bool, nested: Nested
) -> str | None:
    """Render a condition on `user` as both branches (see the module docstring); None when `expr` is no such
    condition. `nested` renders a branch that is itself an expression (renderer.expression)."""
    parts = split_condition(expr)
    if parts is None:
        return None
    condition, then_src, else_src = parts
    try:
        taken = evaluate_condition(condition, {})  # a reader nobody signed in: Mintlify's empty `user`
    except Unevaluable as exc:
        shown = " ".join(condition.split())
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        state.warn(
            "mdx.user-condition", f"cannot evaluate the condition {{{shown}}}: {exc}; not rendered", line, col
        )
        return ""
    tag = "div" if block else "span"
    out = []
    for branch, src, shown_now in (("then", then_src, taken), ("else", else_src, not taken)):
        if src is None:
            continue
        inner = _branch_html(state, src, line, col, block, nested)
        hidden = "" if shown_now else " hidden"
        out.append(
            f'<{tag} class="dg-user-if" data-dg-user-if="{html.escape(condition)}" data-dg-user-branch="{branch}"'
            f"{hidden}>{inner}</{tag}>"
        )
    return "".join(out) + ("\n" if block else "")


def _branch_html(state: RenderState, src: str, line: int, col: int, block: bool, nested: Nested) -> str:
    from docsgen.mdx.page_body import render_source

    text = src.strip()
    while text.startswith("(") and text.endswith(")") and _top_level(text[1:-1]) is not None:
        text = text[1:-1].strip()
    if text in ("", "null", "undefined", "false", "true"):
        return ""
    if text.startswith("<"):
        rendered = render_source(state, text, state.frame.path, line - 1, dict(state.frame.scope))
        if not block and rendered.startswith("<p>") and rendered.rstrip().endswith("</p>"):
            rendered = rendered.strip()[3:-4]
        return rendered
    if text[0] in "\"'`":
        try:
            return html.escape(str(evaluate(text, {})), quote=False)
        except Unevaluable:
            pass
    return nested(text, state, line, col, block)
