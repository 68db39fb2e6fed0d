"""The one tag matcher of the MDX renderer: which close token ends each open JSX tag token of a token list."""

from __future__ import annotations

from collections.abc import Sequence

from markdown_it.token import Token


def pair_tags(tokens: Sequence[Token], inline: bool) -> dict[int, int]:
    """Map the index of each open tag token to the index of the close token of the same name that ends it.

    One pass with a stack per tag name (looking ahead from each open tag was quadratic on a line of thousands of
    unclosed `<svg>`). Block tags always come in nested pairs; an inline open tag without its close is absent.
    """
    open_type, close_type = (
        ("jsx_inline_open", "jsx_inline_close") if inline else ("jsx_block_open", "jsx_block_close")
    )
    opened: dict[str, list[int]] = {}
    found: dict[int, int] = {}
    for index, token in enumerate(tokens):
        if token.type == open_type:
            opened.setdefault(token.meta["tag"].name, []).append(index)
        elif token.type == close_type:
            waiting = opened.get(token.meta["tag"].name)
            if waiting:
                found[waiting.pop()] = index
    return found
