"""Inline rules tried by the character at the position: only those that can start there.

markdown-it's inline tokenizer lets the `text` rule take each run of ordinary characters; at a marker
character (`*`, `[`, `:`, `-`, `<`, ...) it tries every other rule in order (15 here), and where none
matches it keeps the character as text. Most markers in prose start nothing (`:`, `-`, `(`, `#`), so every
rule is tried and fails. The `dispatch` rule, right after `text` and `newline`, runs instead the rules
that may start on that character (in their order), and where none matches keeps the character as text
itself, as the tokenizer would (or skips it, in the look-ahead markdown-it runs for link labels). A rule
skipped is one that would have returned False, so the tokens are the same. A character the table does
not know (no marker) goes on through markdown-it's own chain; a rule the table does not know is tried at
every marker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

RuleFunc = Callable[[StateInline, bool], bool]

NAME = "dg_inline_dispatch"
AFTER = "newline"  # dispatch goes after `text` (ordinary characters) and `newline` (line ends)
# The characters each rule after AFTER can start on (it returns False at any other character).
STARTS: dict[str, str] = {
    "math_inline": "$",
    "escape": "\\",
    "backticks": "`",
    "strikethrough": "~",
    "emphasis": "*_",
    "link": "[",
    "image": "!",
    "footnote_inline": "^",
    "footnote_ref": "[",
    "autolink": "<",
    "jsx_inline": "<{}",
    "html_inline": "<",
    "entity": "&",
}


class _Table:
    """The candidate rules by character, built from the ruler's current chain."""

    def __init__(self, chain: Sequence[RuleFunc], names: Sequence[str], markers: set[str]):
        self.chain = chain  # the chain this table was built from (rebuilt when the ruler changes)
        pairs = list(zip(names, chain, strict=True))
        after = pairs[[name for name, _ in pairs].index(NAME) + 1 :]
        chars = markers.union(*(STARTS.get(name, "") for name, _ in after))
        self.by_char: dict[str, list[RuleFunc]] = {
            char: [rule for name, rule in after if name not in STARTS or char in STARTS[name]]
            for char in chars
        }


def dispatch_plugin(md: MarkdownIt) -> None:
    """Put the `dispatch` rule after `newline` in the inline chain (call after every other inline rule is set)."""
    ruler = md.inline.ruler
    table: list[_Table] = []

    def current() -> _Table:
        chain = ruler.getRules("")
        if not table or table[0].chain is not chain:
            names = [rule.name for rule in ruler.__rules__ if rule.enabled]
            # the ASCII characters that end a text run (markdown-it's terminators, with any a plugin added)
            markers = {chr(code) for code in range(128) if md.inline.terminator_re.match(chr(code))}
            table[:] = [_Table(chain, names, markers)]
        return table[0]

    def dispatch(state: StateInline, silent: bool) -> bool:
        char = state.src[state.pos]
        candidates = current().by_char.get(char)
        if candidates is None:
            return False  # not a marker: markdown-it's own chain goes on
        for rule in candidates:
            if rule(state, silent):
                return True
        # No rule starts here: the character is text (what the tokenizer does when every rule fails).
        if not silent:
            state.append_pending(char)
        state.pos += 1
        return True

    ruler.after(AFTER, NAME, dispatch)
