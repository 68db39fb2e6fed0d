"""The paragraph rule as MDX reads it: a code fence or a JSX tag ends a paragraph at any indentation.

CommonMark reads a line indented 4+ spaces after a paragraph line as more paragraph text (it would be
indented code otherwise). MDX has no indented code, so a fence or a component written deeper than the
text above it (common inside <Tab> and <Step>) starts a block there, as it does in Mintlify.
"""

from __future__ import annotations

from markdown_it.common.utils import mdTrim
from markdown_it.rules_block import StateBlock, fence

from docsgen.mdx.jsx_rules import jsx_block

DEEP_TERMINATORS = (fence, jsx_block)  # rules that may end a paragraph from a deeply indented line


def paragraph(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's paragraph rule, except for DEEP_TERMINATORS on lines indented 4+ spaces."""
    next_line = start_line + 1
    ruler = state.md.block.ruler
    terminators = ruler.getRules("paragraph")
    end_line = state.lineMax
    old_parent = state.parentType
    state.parentType = "paragraph"
    while next_line < end_line:
        if state.isEmpty(next_line):
            break
        if state.sCount[next_line] - state.blkIndent > 3:
            if any(rule(state, next_line, end_line, True) for rule in DEEP_TERMINATORS):
                break
            next_line += 1
            continue
        if state.sCount[next_line] < 0:  # blockquote quirk: the line was already checked by that rule
            next_line += 1
            continue
        if any(rule(state, next_line, end_line, True) for rule in terminators):
            break
        next_line += 1
    content = mdTrim(state.getLines(start_line, next_line, state.blkIndent, False))
    state.line = next_line
    token = state.push("paragraph_open", "p", 1)
    token.map = [start_line, state.line]
    token = state.push("inline", "", 0)
    token.content = content
    token.map = [start_line, state.line]
    token.children = []
    state.push("paragraph_close", "p", -1)
    state.parentType = old_parent
    return True
