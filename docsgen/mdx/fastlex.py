"""Faster Pygments RegexLexer loop: one combined regex per state picks the rule, instead of trying each in turn.

Pygments tries a state's rules one by one at every position (~40 rules for Python), which makes highlighting
the largest cost of rendering a page with code. Python's regex alternation is ordered, so `(r0)|(r1)|...`
matched at a position selects exactly the rule the sequential loop would take; that rule's own pattern then
yields the match its action sees. Tokens are identical; states whose patterns cannot be combined (numbered
backreferences, conditional groups, mid-pattern global flags, mixed flags) keep the sequential loop.

A combined regex still tries its alternatives one after another (~2 us a position for Python's ~40 rules),
and most cannot start with the character at the position. So each run of combined rules, once tried
_SORT_AFTER times, also knows per ASCII character which of its rules can (docsgen.mdx.firstchars: a sound
over-estimate of each rule's first characters): when at most _ALONE_AT_MOST can (for Python's 56-rule root
state every ASCII character: a letter starts at most 13), those are tried alone in order with their own
regexes (trying 13 alone is faster than the 56 combined), and when none can, the run is skipped; the first rule to match is the same. Nothing more is compiled (a regex per subset of rules cost
more per process than it saved on a 1,000-page site), and a site with little code never works them out. A lexer
the pages rendered before the engine forks its workers used much has them worked out there, once (sort_tried).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pygments.lexer import RegexLexer
from pygments.token import Error, Whitespace, _TokenType

from docsgen.mdx.firstchars import first_chars

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
                steps.append((_RUN, _Run([r for _, r, _ in run], combined, table)))
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


_RUN = object()  # marks a step that is a _Run
_NO_MATCH = (None, None)  # no rule of the run can start with the character
_ALONE = object()  # the few rules that can start with the character, tried one by one (their own regexes)
_ALONE_AT_MOST = 16  # more candidates than this: the combined regex (with 4, lexing Python took 25 % longer)
_SORT_AFTER = 1000  # tries of a run before its rules' first characters are worked out
_SORT_BEFORE_FORK_AFTER = 32  # a lexer's tries in the pages rendered before the fork: its tables made there


class _Run:
    """A run of combined rules: per ASCII character (index 128: any other, or the end of the text) what to
    try, made when the character is first seen there: the combined regex, the few rules that can start with
    it, or nothing."""

    __slots__ = ("by_char", "full", "rules", "firsts", "subsets", "tries")

    def __init__(self, rules: list[tuple], combined: re.Pattern, table: dict) -> None:
        self.rules = rules
        self.full = (combined.match, table)
        self.firsts: list[frozenset[int] | None] = []  # made once the run is tried _SORT_AFTER times
        self.tries = 0
        self.by_char: list[tuple[Any, Any] | None] = [None] * 128 + [self.full]
        self.subsets: dict[tuple[int, ...], tuple[Any, Any]] = {}

    def pick(self, code: int) -> tuple[Any, Any]:
        """What to try at chr(code): (match, {group: rule}), (_ALONE, rules) or _NO_MATCH."""
        if not self.firsts:  # the estimates cost more than a few hundred tries save (a small site's code)
            self.tries += 1
            if self.tries < _SORT_AFTER:
                return self.full
            self.sort()
        keep = tuple(i for i, first in enumerate(self.firsts) if first is None or code in first)
        sub = self.subsets.get(keep)
        if sub is None:
            sub = self.subsets[keep] = self._combine(keep)
        self.by_char[code] = sub
        return sub

    def sort(self) -> None:
        """Work out each rule's first characters (once)."""
        if not self.firsts:
            self.firsts = [first_chars(getattr(rule[0], "__self__", None)) for rule in self.rules]

    def _combine(self, keep: tuple[int, ...]) -> tuple[Any, Any]:
        if not keep:
            return _NO_MATCH
        if len(keep) > _ALONE_AT_MOST:
            return self.full
        return (_ALONE, [self.rules[i] for i in keep])


def _dispatch(cls: type, state: str, rules: list[tuple]) -> list[tuple[Any, Any]]:
    table = _DISPATCH.setdefault(cls, {})
    if state not in table:
        table[state] = _steps(rules)
    return table[state]


def sort_tried(at_least: int = _SORT_BEFORE_FORK_AFTER) -> int:
    """Work out the first characters of every run tried so far of each lexer whose runs were tried at least
    `at_least` times in all in this process, and return how many runs that was. The engine calls it after the
    pages it renders before forking its workers: a lexer those few pages already used that much is the site's,
    and each forked worker would otherwise work its tables out again (~10-20 ms a large lexer, a worker) once
    they reach _SORT_AFTER tries; a site whose first pages have little code pays nothing."""
    sorted_runs = 0
    for states in _DISPATCH.values():
        runs = [run for steps in states.values() for marker, run in steps if marker is _RUN]
        if sum(run.tries for run in runs) < at_least:
            continue
        for run in runs:
            if run.tries and not run.firsts:
                run.sort()
                sorted_runs += 1
    return sorted_runs


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
        size = len(text)
        while 1:
            rule = m = None
            end = -1
            code = ord(text[pos]) if pos < size else 128
            if code > 128:
                code = 128
            for matcher, entry in steps:
                if matcher is None:
                    m = entry[0](text, pos)
                    if m:
                        rule, end = entry, m.end()
                        break
                else:
                    matcher, entry = entry.by_char[code] or entry.pick(code)
                    if matcher is None:
                        continue
                    if matcher is _ALONE:
                        for alone in entry:
                            m = alone[0](text, pos)
                            if m:
                                rule, end = alone, m.end()
                                break
                        if rule is not None:
                            break
                        continue
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
