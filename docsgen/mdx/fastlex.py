"""Faster Pygments RegexLexer loop: one combined regex per state picks the rule, instead of trying each in turn.

Pygments tries a state's rules one by one at every position (~40 rules for Python), which makes highlighting
the largest cost of rendering a page with code. Python's regex alternation is ordered, so `(r0)|(r1)|...`
matched at a position selects exactly the rule the sequential loop would take; that rule's own pattern then
yields the match its action sees. Tokens are identical; states whose patterns cannot be combined (numbered
backreferences, conditional groups, mid-pattern global flags, mixed flags) keep the sequential loop.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pygments.lexer import RegexLexer
from pygments.token import Error, Whitespace, _TokenType

_UNSAFE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")  # backreferences and conditionals count groups
_LEADING_FLAGS = re.compile(r"^(?:\(\?[imsux]+\))+")
_SCOPED = ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"), (re.VERBOSE, "x"))
# lexer class -> state -> steps: (combined match, {top-level group: rule}) or (None, rule) for a rule tried alone
_DISPATCH: dict[type, dict[str, list[tuple[Any, Any]]]] = {}


def _scoped(compiled: re.Pattern) -> str | None:
    """Return a rule's pattern as a group carrying its own flags, or None when it must be tried alone."""
    pattern = compiled.pattern
    if not isinstance(pattern, str) or _UNSAFE.search(pattern) or compiled.flags & (re.ASCII | re.LOCALE):
        return None
    pattern = _LEADING_FLAGS.sub("", pattern)  # already in compiled.flags
    on = "".join(letter for flag, letter in _SCOPED if compiled.flags & flag)
    off = "".join(letter for flag, letter in _SCOPED if not compiled.flags & flag)
    # A verbose pattern may end in a comment: the closing parenthesis goes on its own line.
    tail = "\n" if compiled.flags & re.VERBOSE else ""
    return f"((?{on}-{off}:{pattern}{tail}))" if on else f"((?-{off}:{pattern}{tail}))"


def _steps(rules: list[tuple]) -> list[tuple[Any, Any]]:
    """Split a state's rules into runs matched by one combined regex, and rules tried alone, in order."""
    steps: list[tuple[Any, Any]] = []
    run: list[tuple[str, tuple, int]] = []

    def close_run() -> None:
        if not run:
            return
        if len(run) == 1:
            steps.append((None, run[0][1]))
        else:
            try:
                combined = re.compile("|".join(p for p, _, _ in run))
            except (re.error, OverflowError, RecursionError):
                combined = None
            table, group = {}, 1
            for _, rule, groups in run:
                table[group] = rule
                group += 1 + groups
            if combined is not None and combined.groups == group - 1:
                steps.append((combined.match, table))
            else:
                steps.extend((None, rule) for _, rule, _ in run)
        run.clear()

    for rule in rules:
        compiled: Any = getattr(rule[0], "__self__", None)
        pattern = _scoped(compiled) if isinstance(compiled, re.Pattern) else None
        if pattern is None:
            close_run()
            steps.append((None, rule))
        else:
            run.append((pattern, rule, compiled.groups))
    close_run()
    return steps


def _dispatch(cls: type, state: str, rules: list[tuple]) -> list[tuple[Any, Any]]:
    table = _DISPATCH.setdefault(cls, {})
    if state not in table:
        table[state] = _steps(rules)
    return table[state]


def accelerate(lexer: Any) -> Any:
    """Give a RegexLexer instance the combined-regex loop (other lexers are returned unchanged)."""
    if (
        isinstance(lexer, RegexLexer)
        and type(lexer).get_tokens_unprocessed is RegexLexer.get_tokens_unprocessed
    ):
        # an instance attribute shadows the class's method, for this lexer only
        lexer.get_tokens_unprocessed = _Loop(lexer)  # type: ignore[method-assign, assignment]
    return lexer


class _Loop:
    """RegexLexer.get_tokens_unprocessed with the rule chosen by a combined regex (same tokens)."""

    def __init__(self, lexer: RegexLexer):
        self.lexer = lexer

    def __call__(self, text: str, stack: tuple | list = ("root",)) -> Iterator[tuple[int, Any, str]]:
        lexer = self.lexer
        cls = type(lexer)
        pos = 0
        # the processed rules Pygments itself runs (set by RegexLexerMeta; not in the stubs)
        tokendefs = lexer._tokens  # type: ignore[attr-defined]
        statestack = list(stack)
        state = statestack[-1]
        statetokens = tokendefs[state]
        steps = _dispatch(cls, state, statetokens)
        while 1:
            rule = m = None
            end = -1
            for matcher, entry in steps:
                if matcher is None:
                    m = entry[0](text, pos)
                    if m:
                        rule, end = entry, m.end()
                        break
                else:
                    picked = matcher(text, pos)
                    if picked is not None:
                        group = picked.lastindex
                        rule = entry[group]
                        if type(rule[1]) is _TokenType or rule[1] is None:
                            m, end = picked, picked.end(group)  # the rule's group is its whole match
                        else:
                            m = rule[0](text, pos)  # callbacks read the rule's own groups
                            end = m.end()
                        break
            if rule is not None:
                _, action, new_state = rule
                if action is not None:
                    if type(action) is _TokenType:
                        yield pos, action, text[pos:end]
                    else:
                        yield from action(lexer, m)
                pos = end
                if new_state is not None:
                    if isinstance(new_state, tuple):
                        for name in new_state:
                            if name == "#pop":
                                if len(statestack) > 1:
                                    statestack.pop()
                            elif name == "#push":
                                statestack.append(statestack[-1])
                            else:
                                statestack.append(name)
                    elif isinstance(new_state, int):
                        if abs(new_state) >= len(statestack):
                            del statestack[1:]
                        else:
                            del statestack[new_state:]
                    elif new_state == "#push":
                        statestack.append(statestack[-1])
                    else:
                        raise AssertionError(f"wrong state def: {new_state!r}")
                    state = statestack[-1]
                    statetokens = tokendefs[state]
                    steps = _dispatch(cls, state, statetokens)
                continue
            try:
                if text[pos] == "\n":
                    statestack = ["root"]
                    state = "root"
                    statetokens = tokendefs["root"]
                    steps = _dispatch(cls, state, statetokens)
                    yield pos, Whitespace, "\n"
                    pos += 1
                    continue
                yield pos, Error, text[pos]
                pos += 1
            except IndexError:
                break
