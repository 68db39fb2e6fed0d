"""One tag matcher pairs open and close JSX tokens for the block walk, the inline walk and child elements."""

from __future__ import annotations

from docsgen.mdx.parser import MD
from docsgen.mdx.tag_pairs import pair_tags
from tests.mdx_helpers import make_ctx


def _tokens(src: str) -> list:
    from docsgen.mdx.state import RenderState

    return MD.parse(src, {"mdx": RenderState(make_ctx()), "mdx_imported": set()})


def test_block_tags_pair_with_their_own_close_through_nesting():
    tokens = _tokens('<Tabs>\n<Tab title="a">\n\nOne\n\n</Tab>\n<Tab title="b">\n\nTwo\n\n</Tab>\n</Tabs>\n')
    pairs = pair_tags(tokens, inline=False)
    names = {(tokens[o].meta["tag"].name, tokens[c].meta["tag"].name) for o, c in pairs.items()}
    assert names == {("Tabs", "Tabs"), ("Tab", "Tab")} and len(pairs) == 3
    outer = next(o for o in pairs if tokens[o].meta["tag"].name == "Tabs")
    assert pairs[outer] == len(tokens) - 1  # the outer element ends at the last token, after both tabs


def test_inline_tags_pair_by_name_and_an_unclosed_one_is_left_out():
    [inline] = [
        t
        for t in _tokens(
            'A <Icon icon="x" /> <Tooltip tip="t">b <Tooltip tip="u">c</Tooltip></Tooltip> <b>d\n'
        )
        if t.type == "inline"
    ]
    children = inline.children
    pairs = pair_tags(children, inline=True)
    opens = [i for i, t in enumerate(children) if t.type == "jsx_inline_open"]
    closes = [i for i, t in enumerate(children) if t.type == "jsx_inline_close"]
    assert pairs[opens[0]] == closes[1] and pairs[opens[1]] == closes[0]  # outer Tooltip ends last
    assert opens[2] not in pairs  # <b> never closes
