"""A marker character tries only the inline rules that can start on it (docsgen.mdx.inline_dispatch)."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from docsgen.mdx.inline_dispatch import AFTER, NAME, STARTS
from docsgen.mdx.parser import build_markdown
from tests.mdx.test_block_dispatch import _sources, _tokens

MARKERS = (
    "Plain: text - with (markers) # + = % @ > ] } ! ^ & ~ | and *stars*, _under_, **strong**, ~~gone~~,\n"
    '`code`, [a link](/a "t"), ![img](/i.png), <https://x.dev>, <b>html</b>, <Tip>jsx</Tip>, {expr},\n'
    "&amp; &#35; &bogus; \\* escaped, $x^2$ and $$y$$, a footnote[^1] and ^[inline one], [ref][r], [^x]\n"
    "[[[nested [labels] ]]] [unclosed `tick` *and [link*](/b) <not a tag <b attr='x'> trailing \\\n"
    "end } unbalanced\n\n[r]: /ref\n[^1]: note\n"
)


def test_tokens_are_the_same_with_and_without_dispatch():
    with_dispatch = build_markdown()
    without = build_markdown()
    without.inline.ruler.disable(NAME)
    sources = [MARKERS, *_sources()]
    for src in sources:
        assert _tokens(with_dispatch, src) == _tokens(without, src), src[:200]


def test_every_marker_alone_and_doubled_parses_the_same():
    with_dispatch = build_markdown()
    without = build_markdown()
    without.inline.ruler.disable(NAME)
    for code in range(33, 127):
        char = chr(code)
        for src in (char, char * 2, f"a{char}b{char}c", f"[{char}]({char})", f"{char}x{char}\n{char}"):
            assert _tokens(with_dispatch, src) == _tokens(without, src), repr(src)


@pytest.fixture
def calls() -> tuple[MarkdownIt, list[str]]:
    """A fresh parser whose inline rules after `newline` note each call."""
    md = build_markdown()
    seen: list[str] = []
    for rule in md.inline.ruler.__rules__:
        if rule.name in STARTS:

            def counting(state, silent, _fn=rule.fn, _name=rule.name):
                seen.append(_name)
                return _fn(state, silent)

            md.inline.ruler.at(rule.name, counting)
    return md, seen


def test_a_marker_that_starts_nothing_tries_no_rule(calls):
    md, seen = calls
    tokens = md.parse("Note: one - two (three) # four\n", {})
    assert seen == []
    assert [child.content for child in tokens[1].children or []] == ["Note: one - two (three) # four"]
    md.inline.ruler.disable(NAME)
    md.parse("Note: one - two (three) # four\n", {})
    assert len(seen) == 3 * len(STARTS)  # markdown-it's own chain: every rule at `:`, `-` and `#`


def test_a_link_tries_only_the_rules_for_its_brackets(calls):
    md, seen = calls
    md.parse("See [the page](/a).\n", {})
    assert seen == ["link"]


def test_a_rule_the_table_does_not_know_is_tried_at_every_marker():
    md = build_markdown()
    tried: list[str] = []

    def custom(state, silent):
        tried.append(state.src[state.pos])
        return False

    md.inline.ruler.after(NAME, "custom_rule", custom)
    md.parse("a: b *c*\n", {})
    assert tried == [":", "*", "*"]


def test_the_table_names_every_inline_rule_after_newline():
    md = build_markdown()
    active = md.inline.ruler.get_active_rules()
    assert active[: active.index(NAME)] == ["text", AFTER]
    assert set(active[active.index(NAME) + 1 :]) == set(STARTS)
