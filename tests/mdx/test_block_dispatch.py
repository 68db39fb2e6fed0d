"""A line tries only the block rules that can start on its first character (docsgen.mdx.block_dispatch)."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from docsgen.mdx.block_dispatch import ANY_START, NAME, STARTS
from docsgen.mdx.parser import build_markdown
from tests.mdx_helpers import FIXTURES, read_fixtures

ROOT = Path(__file__).resolve().parents[2]

# Every block kind, at the top level, nested in quotes, lists and components, indented and after tabs.
EVERY_KIND = """\
import Foo from "/snippets/foo.mdx";
export const size = { a: 1 };

# Heading {#custom}

Setext heading
==============

Paragraph with *emphasis*, `code` and a [link](/a).
  continued line
# heading interrupting

> quote
> - list in a quote
>   > deeper quote
> ```js
> code();
> ```

- item
  * nested
    1. ordered
    2) other
+ plus list
- [ ] task
- [x] done

10. ten
***
___
- - -

| a | b |
| --- | :-: |
| 1 | 2 |

x | y
-- | --
1 | 2

$$
x^2
$$

~~~python
print(1)
~~~

[ref]: /target "title"
[^note]: A footnote.

Term
: Definition
~ other definition

<div class="raw">
html block
</div>

<!-- comment -->

<Note>
  Inside a component
  - with a list
  > and a quote

  ## heading inside
</Note>

<Tip>one line</Tip>

{size.a}

\t- tab list
\t\tdeep tab

    indented text (no code blocks in MDX)
    ```
    deep fence
    ```

_not a rule_ and *not a list*
1.5 is a number
+ also a list
$ not math
[not a reference]
! bang
e-mail is not an export
import is not a statement here
"""


def _sources() -> list[str]:
    """Markdown and MDX sources: the case above, the MDX fixtures' inputs, the golden sites, our docs."""
    sources = [EVERY_KIND, EVERY_KIND.replace("\n", "\r\n"), "", "\n\n", "   \n\t\n", "no newline at end"]
    for fixture in sorted(FIXTURES.glob("*.txt")):
        sources.extend(case[2] for case in read_fixtures(fixture))
    for folder in ("tests/golden", "docs", "tests/mdx_fixtures"):
        for path in sorted((ROOT / folder).rglob("*.md*")):
            sources.append(path.read_text(encoding="utf-8"))
    return sources


def _tokens(md: MarkdownIt, src: str) -> list[dict]:
    env: dict = {"mdx_imported": {"Foo"}}  # no env["mdx"]: markdown-it's own inline children
    return [token.as_dict() for token in md.parse(src, env)] + [env.get("mdx_errors", [])]


def test_tokens_are_the_same_with_and_without_dispatch():
    with_dispatch = build_markdown()
    without = build_markdown()
    without.block.ruler.disable(NAME)
    sources = _sources()
    assert len(sources) > 100
    for src in sources:
        assert _tokens(with_dispatch, src) == _tokens(without, src), src[:200]


@pytest.fixture
def calls() -> tuple[MarkdownIt, list[tuple[str, bool]]]:
    """A fresh parser whose block rules note each call (name, silent)."""
    md = build_markdown()
    seen: list[tuple[str, bool]] = []
    for rule in md.block.ruler.__rules__:
        if rule.name == NAME:
            continue

        def counting(state, start, end, silent, _fn=rule.fn, _name=rule.name):
            seen.append((_name, silent))
            return _fn(state, start, end, silent)

        md.block.ruler.at(rule.name, counting)
    return md, seen


def test_a_prose_line_tries_only_the_rules_that_read_no_first_character(calls):
    md, seen = calls
    md.parse("Just a sentence.\n", {})
    assert seen == [("table", False), ("lheading", False), ("deflist", False), ("paragraph", False)]


def test_a_heading_line_tries_the_heading_rule_and_not_the_list_or_fence_rules(calls):
    md, seen = calls
    md.parse("## Title\n", {})
    assert [name for name, _ in seen] == ["table", "heading"]


def test_without_dispatch_every_rule_is_tried(calls):
    md, seen = calls
    md.block.ruler.disable(NAME)
    md.parse("Just a sentence.\n", {})
    assert len(seen) == len(STARTS) + len(ANY_START)


def test_a_rule_the_table_does_not_know_is_tried_on_every_line(calls):
    md, seen = calls
    tried: list[int] = []

    def custom(state, start, end, silent):
        tried.append(start)
        return False

    md.block.ruler.after(NAME, "custom_rule", custom)  # first of all the rules
    tokens = md.parse("one\n\n# two\n\n- three\n", {})
    assert tried == [0, 2, 4, 4]  # the list item's content is a block too
    tried.clear()
    md.block.ruler.disable(NAME)
    assert [t.as_dict() for t in md.parse("one\n\n# two\n\n- three\n", {})] == [t.as_dict() for t in tokens]
    assert tried == [0, 2, 4, 4]
    assert [t.type for t in tokens if t.type.endswith("_open")] == [
        "paragraph_open",
        "heading_open",
        "bullet_list_open",
        "list_item_open",
        "paragraph_open",
    ]


def test_the_table_names_every_block_rule_of_the_parser():
    """A rule renamed or added upstream is noticed here (it would be tried on every line, only slower)."""
    md = build_markdown()
    active = set(md.block.ruler.get_active_rules()) - {NAME}
    assert active == set(STARTS) | ANY_START
    assert md.block.ruler.get_active_rules()[0] == NAME
    # continuation checks (does this line end a paragraph, a list, a quote?) keep markdown-it's own chains
    assert all(rule.name != NAME or not rule.alt for rule in md.block.ruler.__rules__)
