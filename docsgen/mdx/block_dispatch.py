"""Block rules tried by a line's first character: only those that can start a block there.

markdown-it tries every enabled block rule, in order, at the start of every block (14 rules here: JSX,
table, math, fence, quote, rule, list, footnote, reference, HTML, heading, setext heading, definition list,
paragraph), and most of them return at once because the line does not start with their marker. The
`dispatch` rule, first in the chain, runs instead the rules that may match a line starting with that
character (in their order) plus those that read no first character (table, setext heading, definition
list, paragraph); a rule skipped is one that would have returned False without doing anything, so the
tokens are the same. The paragraph rule matches every line, so the rules after `dispatch` in the chain are
reached only on a line with no character (never, as the tokenizer skips empty lines) or if a rule set
changes so that nothing matches: then the chain goes on as markdown-it's own, which is still right.

Continuation checks (a paragraph asking "does this line start a block?") use their own chains, which
`dispatch` is not in; they are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

RuleFunc = Callable[[StateBlock, int, int, bool], bool]

NAME = "dg_dispatch"
# Rules that look at no first character: tried on every line, as markdown-it does.
ANY_START = frozenset({"table", "lheading", "deflist", "paragraph"})
# The first non-space characters each other rule can start a block on (a rule not named here for a
# character returns False on a line starting with it).
STARTS: dict[str, str] = {
    "jsx_block": "<{ie",  # a tag, an expression, import/export
    "math_block": "$",
    "fence": "`~",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*-+0123456789",
    "footnote_def": "[",
    "reference": "[",
    "html_block": "<",
    "heading": "#",
}


class _Table:
    """The candidate rules by first character, built from the ruler's current chain."""

    def __init__(self, chain: Sequence[RuleFunc], names: Sequence[str]):
        self.chain = chain  # the chain this table was built from (rebuilt when the ruler changes)
        pairs = [(name, rule) for name, rule in zip(names, chain, strict=True) if name != NAME]
        unknown = [name for name, _ in pairs if name not in ANY_START and name not in STARTS]
        # A rule this table does not know is tried on every line (correct, just not faster).
        always = ANY_START.union(unknown)
        self.every: list[RuleFunc] = [rule for _, rule in pairs]
        self.default: list[RuleFunc] = [rule for name, rule in pairs if name in always]
        chars = {char for name, _ in pairs for char in STARTS.get(name, "")}
        self.by_char: dict[str, list[RuleFunc]] = {
            char: [rule for name, rule in pairs if name in always or char in STARTS.get(name, "")]
            for char in chars
        }


def dispatch_plugin(md: MarkdownIt) -> None:
    """Put the `dispatch` rule first in the block chain (call after every other block rule is set)."""
    ruler = md.block.ruler
    table: list[_Table] = []

    def current() -> _Table:
        chain = ruler.getRules("")
        if not table or table[0].chain is not chain:
            names = [rule.name for rule in ruler.__rules__ if rule.enabled]
            table[:] = [_Table(chain, names)]
        return table[0]

    def dispatch(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        rules = current()
        pos = state.bMarks[start_line] + state.tShift[start_line]
        if pos < state.eMarks[start_line]:
            candidates = rules.by_char.get(state.src[pos], rules.default)
        else:
            candidates = rules.every
        for rule in candidates:  # noqa: SIM110 - a loop, not any(): no generator per block
            if rule(state, start_line, end_line, silent):
                return True
        return False

    first = ruler.__rules__[0].name
    ruler.before(first, NAME, dispatch, {"alt": []})
