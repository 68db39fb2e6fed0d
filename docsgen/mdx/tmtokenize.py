"""Run a compiled TextMate grammar over a code block, within bounds, and write Pygments-classed HTML lines.

The tokenizer follows vscode-textmate: a stack of open `begin` rules; at each position the earliest match among
the open rule's `end` and its patterns wins (ties: the first, `end` first unless `applyEndPatternLast`);
`while` rules are checked at the start of each line. Every search has a timeout, and a block has a time budget,
a token budget, a line length and a stack depth limit; past any of them (or when a rule begins again and again
at the same place) the block is given up: Overrun says where, and the caller shows the block as plain text.

TextMate scope names are mapped to the Pygments token classes docsgen's highlighter emits (`c1`, `s2`, `k`,
`nf`...), so the site's code themes colour them like any built-in language.
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass

import regex

from docsgen.mdx.textmate import Capture, Grammar, Rule
from docsgen.mdx.tmregex import (
    MATCH_TIMEOUT,
    Pattern,
    PatternError,
    compile_pattern,
    substitute_backreferences,
)

MAX_LINE_CHARS = 10_000
MAX_DEPTH = 200  # open begin rules
MAX_TOKENS = 200_000  # matches per block
BLOCK_SECONDS = 1.0  # time budget of one block (all its searches)
MAX_STALLS = 100  # matches in a row that consume nothing

# TextMate scope prefix -> Pygments short class; the longest prefix of a scope wins, the innermost scope first
# ("": the enclosing scope's class, so a comment's or a string's delimiters take its colour).
SCOPE_CLASSES = {
    "comment": "c", "comment.line": "c1", "comment.block": "cm", "comment.block.documentation": "cs",
    "punctuation.definition.comment": "", "string": "s", "string.quoted.double": "s2",
    "string.quoted.single": "s1", "string.quoted.triple": "s2", "string.quoted.other": "s",
    "string.interpolated": "si", "string.regexp": "sr", "string.unquoted": "s", "string.other": "sx",
    "punctuation.definition.string": "", "constant.character.escape": "se", "constant.character": "sc",
    "constant.numeric": "m", "constant.numeric.integer": "mi", "constant.numeric.float": "mf",
    "constant.numeric.decimal": "m", "constant.numeric.hex": "mh", "constant.numeric.octal": "mo",
    "constant.numeric.binary": "mb", "constant.language": "kc", "constant.other": "no", "constant": "no",
    "keyword": "k", "keyword.control": "k", "keyword.control.import": "kn", "keyword.operator": "o",
    "keyword.operator.new": "k", "keyword.other": "k", "storage": "k", "storage.type": "kt",
    "storage.modifier": "kd", "entity.name.function": "nf", "entity.name.type": "nc", "entity.name.class": "nc",
    "entity.name.namespace": "nn", "entity.name.tag": "nt", "entity.name.label": "nl", "entity.name.section": "gh",
    "entity.name.constant": "no", "entity.name": "nx", "entity.other.attribute-name": "na",
    "entity.other.inherited-class": "nc", "variable": "nv", "variable.parameter": "nv",
    "variable.language": "bp", "variable.other.constant": "no", "variable.function": "nf",
    "support.function": "nb", "support.class": "nc", "support.type": "kt", "support.constant": "no",
    "support.variable": "nv", "support": "nb", "punctuation": "p", "meta.decorator": "nd",
    "entity.name.decorator": "nd", "markup.heading": "gh", "markup.bold": "gs", "markup.italic": "ge",
    "markup.inserted": "gi", "markup.deleted": "gd", "markup.changed": "gu", "markup.underline.link": "nl",
    "markup.raw": "sb", "markup.quote": "c", "invalid": "err",
}  # fmt: skip


class Overrun(Exception):
    """A block given up: why, and where (line, column in the block; the rule's JSON path)."""

    def __init__(self, message: str, line: int, column: int, where: str = ""):
        super().__init__(message)
        self.message, self.line, self.column, self.where = message, line, column, where


def scope_class(scope: str) -> str | None:
    """Return the Pygments class for one TextMate scope name (None when it has no colour of its own, "" when it
    takes its enclosing scope's)."""
    parts = scope.split(".")
    for size in range(len(parts), 0, -1):
        found = SCOPE_CLASSES.get(".".join(parts[:size]))
        if found is not None:
            return found
    return None


def token_class(scopes: tuple[str, ...]) -> str | None:
    """Return the class of a token: its innermost scope that has one."""
    for scope in reversed(scopes):
        found = scope_class(scope)
        if found:
            return found
    return None


@dataclass
class _Frame:
    rule: Rule
    scopes: tuple[str, ...]  # inside the rule: its name and contentName
    end: Pattern | None  # end or while, back-references substituted
    line: int  # where it began: line and position after its begin match
    pos: int
    anchor: int  # the anchor before it began (restored when it ends on the same line)


class _Run:
    """One block being tokenized: its output lines (lists of (class, text)) and its budget."""

    def __init__(self, grammar: Grammar, deadline: float):
        self.grammar = grammar
        self.deadline = deadline
        self.tokens = 0
        self.line = 0
        self.out: list[list[tuple[str | None, str]]] = []
        self._ends: dict[tuple[int, tuple[str | None, ...]], Pattern] = {}
        # this line's searches: pattern -> (searched from, match). A match found from p0 at s is also the first
        # match from any pos in [p0, s] (a match's start does not depend on where the search began, but for \G)
        self.text = ""
        self.seen: dict[int, tuple[int, regex.Match | None]] = {}
        self.anchor = -1  # where the last `begin` (or `while`) match of this line ended: where \G matches

    def emit(self, scopes: tuple[str, ...], text: str) -> None:
        if text:
            self.out[-1].append((token_class(scopes), text))

    def search(self, pattern: Pattern, text: str, pos: int, endpos: int | None = None) -> regex.Match | None:
        """Search from pos within the block's budget; `\\G` matches only at the anchor, `\\A` on the first line."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Overrun("the block's time ran out", self.line + 1, pos + 1, pattern.where)
        at_anchor = pos == self.anchor
        compiled = pattern.variant(at_anchor, self.line == 0)
        cache = endpos is None and text is self.text and not (at_anchor and "G" in pattern.anchors)
        if cache:
            hit = self.seen.get(id(compiled))
            if hit is not None and hit[0] <= pos and (hit[1] is None or hit[1].start() >= pos):
                return hit[1]
        try:
            found = compiled.search(
                text, pos, len(text) if endpos is None else endpos, timeout=min(MATCH_TIMEOUT, left)
            )
        except TimeoutError:
            raise Overrun(
                f"the pattern took over {MATCH_TIMEOUT * 1000:g} ms (catastrophic backtracking?)",
                self.line + 1,
                pos + 1,
                pattern.where,
            ) from None
        if cache:
            self.seen[id(compiled)] = (pos, found)
        return found

    def end_pattern(self, rule: Rule, begin: regex.Match) -> Pattern | None:
        if rule.end is not None:
            return rule.end
        groups = tuple(begin.groups())
        key = (rule.id, groups)
        found = self._ends.get(key)
        if found is None:
            source = substitute_backreferences(rule.end_source, (begin.group(0), *groups))
            try:
                found = compile_pattern(source, rule.end_where)
            except PatternError as exc:
                raise Overrun(
                    f"the end pattern cannot be compiled with the begin match ({exc.message})",
                    self.line + 1,
                    begin.start() + 1,
                    rule.end_where,
                ) from None
            if len(self._ends) < 1000:
                self._ends[key] = found
        return found

    def captured(
        self, m: regex.Match, base: tuple[str, ...], captures: dict[int, Capture], depth: int
    ) -> None:
        """Emit a match's text with its capture groups' scopes (nested groups inside outer ones)."""
        if not captures:
            self.emit(base, m.group(0))
            return
        spans: list[tuple[int, int, Capture]] = []
        for index, capture in sorted(captures.items()):
            if index <= (m.re.groups or 0) and m.end(index) > m.start(index) >= 0:
                spans.append((m.start(index), m.end(index), capture))
        spans.sort(key=lambda s: (s[0], -s[1]))
        self.spans(m.string, m.start(), m.end(), base, spans, depth)

    def spans(
        self,
        text: str,
        start: int,
        end: int,
        scopes: tuple[str, ...],
        spans: list[tuple[int, int, Capture]],
        depth: int,
    ) -> None:
        """Emit text[start:end]: the capture spans in it (sorted, outer first) with their scopes added."""
        pos, i = start, 0
        while i < len(spans):
            s, e, capture = spans[i]
            j = i + 1
            while j < len(spans) and spans[j][0] < e:
                j += 1
            if s < pos or e > end:  # overlapping groups (lookarounds): the first one wins
                i += 1
                continue
            self.emit(scopes, text[pos:s])
            inner = scopes + capture.scopes
            if capture.rule is not None and depth < 4:
                self.nested(capture.rule, inner, text, s, e, depth + 1)
            else:
                self.spans(text, s, e, inner, spans[i + 1 : j], depth)
            pos, i = e, j
        self.emit(scopes, text[pos:end])

    def nested(
        self, rule_id: int, scopes: tuple[str, ...], text: str, start: int, end: int, depth: int
    ) -> None:
        """Tokenize a capture (text[start:end]) with the capture's own patterns (vscode-textmate's retokenize)."""
        pos, anchor = start, self.anchor
        self.anchor = -1
        candidates = self.grammar.candidates(rule_id)
        while pos < end:
            best = self.first(candidates, text, pos, None, end)
            if best is None:
                break
            rule, m = best
            assert rule is not None  # (no `end` here)
            self.step(m.start())
            self.emit(scopes, text[pos : m.start()])
            if m.end() == m.start():
                self.emit(scopes, text[m.start() : m.start() + 1])
                pos = m.start() + 1
                continue
            self.captured(m, scopes + rule.scopes, rule.captures, depth)  # (a begin: its begin text only)
            pos = m.end()
        self.emit(scopes, text[pos:end])
        self.anchor = anchor

    def step(self, column: int) -> None:
        self.tokens += 1
        if self.tokens > MAX_TOKENS:
            raise Overrun(f"more than {MAX_TOKENS} tokens", self.line + 1, column + 1)

    def first(
        self,
        candidates: tuple[int, ...],
        text: str,
        pos: int,
        end: tuple[Pattern, bool] | None,
        endpos: int | None = None,
    ) -> tuple[Rule | None, regex.Match] | None:
        """Return the earliest match at or after pos (ties: the first tried), and its rule (None for `end`)."""
        best: tuple[Rule | None, regex.Match] | None = None
        if end is not None and not end[1]:
            m = self.search(end[0], text, pos)
            if m is not None:
                best = (None, m)
                if m.start() == pos:
                    return best
        for rid in candidates:
            rule = self.grammar.rules[rid]
            pattern = rule.match or rule.begin
            assert pattern is not None
            m = self.search(pattern, text, pos, endpos)
            if m is not None and (best is None or m.start() < best[1].start()):
                best = (rule, m)
                if m.start() == pos:
                    break
        if end is not None and end[1]:
            m = self.search(end[0], text, pos)
            if m is not None and (best is None or m.start() < best[1].start()):  # (ties: the patterns)
                best = (None, m)
        return best


def tokenize(
    grammar: Grammar, code: str, seconds: float = BLOCK_SECONDS
) -> list[list[tuple[str | None, str]]]:
    """Return each line of code as (Pygments class or None, text) pieces; Overrun when a bound is passed."""
    run = _Run(grammar, time.monotonic() + seconds)
    root = grammar.rules[grammar.root]
    stack = [_Frame(root, (grammar.scope_name,) if grammar.scope_name else (), None, 0, 0, -1)]
    stalls = 0
    for number, line in enumerate(code.split("\n")):
        run.line = number
        run.out.append([])
        if len(line) > MAX_LINE_CHARS:
            raise Overrun(f"a line of {len(line)} characters (at most {MAX_LINE_CHARS})", number + 1, 1)
        text = line + "\n"
        run.text, run.seen, run.anchor = text, {}, -1
        pos = _check_while(run, stack, text)
        while pos < len(text):
            frame = stack[-1]
            rule = frame.rule
            end = (frame.end, rule.apply_end_last) if frame.end is not None and not rule.is_while else None
            best = run.first(grammar.candidates(rule.id), text, pos, end)
            if best is None:
                run.emit(frame.scopes, text[pos:])
                break
            matched, m = best
            run.step(m.start())
            run.emit(frame.scopes, text[pos : m.start()])
            before = (len(stack), pos)
            if matched is None:  # the open rule ends
                outer = stack[-2].scopes if len(stack) > 1 else ()
                run.captured(m, outer + rule.scopes, rule.end_captures, 0)
                if len(stack) > 1:
                    stack.pop()
                    run.anchor = frame.anchor if frame.line == number else -1
            elif matched.match is not None:
                run.captured(m, frame.scopes + matched.scopes, matched.captures, 0)
            else:
                where = matched.begin.where if matched.begin else matched.where
                if len(stack) >= MAX_DEPTH:
                    raise Overrun(
                        f"rules nested more than {MAX_DEPTH} deep", number + 1, m.start() + 1, where
                    )
                if m.end() == m.start() and any(
                    f.rule is matched and (f.line, f.pos) == (number, m.end()) for f in stack
                ):
                    raise Overrun(
                        "a rule begins again where it began without reading any text (endless recursion)",
                        number + 1,
                        m.start() + 1,
                        where,
                    )
                run.captured(m, frame.scopes + matched.scopes, matched.captures, 0)
                inner = frame.scopes + matched.scopes + matched.content_scopes
                stack.append(_Frame(matched, inner, run.end_pattern(matched, m), number, m.end(), run.anchor))
                run.anchor = m.end()
            pos = m.end()
            if (len(stack), pos) == before or m.end() == m.start():
                stalls += 1
                if stalls > MAX_STALLS:
                    raise Overrun("the grammar keeps matching without reading text", number + 1, pos + 1)
                if (len(stack), pos) == before:  # nothing changed: read one character as it is
                    run.emit(frame.scopes, text[pos : pos + 1])
                    pos += 1
            else:
                stalls = 0
        # the "\n" added to each line is not part of the output
        pieces = run.out[-1]
        if pieces and pieces[-1][1].endswith("\n"):
            cls, piece = pieces[-1]
            pieces[-1] = (cls, piece[:-1])
    return run.out


def _check_while(run: _Run, stack: list[_Frame], text: str) -> int:
    """Check the open `while` rules at the start of a line, outermost first: one that does not match ends (with
    every rule inside it). Return where the line's tokens start (after the `while` matches)."""
    pos = 0
    for depth in range(1, len(stack)):
        frame = stack[depth]
        if not frame.rule.is_while or frame.end is None:
            continue
        m = run.search(frame.end, text, pos)
        if m is None or m.start() != pos:
            del stack[depth:]
            break
        run.emit(stack[depth - 1].scopes, text[pos : m.start()])
        run.captured(m, stack[depth - 1].scopes + frame.rule.scopes, frame.rule.end_captures, 0)
        pos = run.anchor = m.end()
    return pos


def html_lines(pieces: list[list[tuple[str | None, str]]]) -> list[str]:
    """Return one HTML string per line: `<span class="k">...</span>` as Pygments' HtmlFormatter writes them."""
    out = []
    for line in pieces:
        merged: list[tuple[str | None, str]] = []
        for cls, text in line:
            if not text:
                continue
            if merged and merged[-1][0] == cls:
                merged[-1] = (cls, merged[-1][1] + text)
            else:
                merged.append((cls, text))
        out.append(
            "".join(
                f'<span class="{cls}">{html.escape(text, quote=False)}</span>'
                if cls
                else html.escape(text, quote=False)
                for cls, text in merged
            )
        )
    return out
