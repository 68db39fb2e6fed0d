"""The fast path for simple descriptions renders exactly what markdown-it renders, and declines the rest."""

from __future__ import annotations

import json
import random

import pytest

from docsgen.openapi.pages import markdown_to_html
from docsgen.openapi.render.simple_md import simple_markdown
from tests.openapi_real import github_spec

SAMPLES = [
    "Gets a single check suite using its `id`.",
    'Can be `enabled` or `disabled`. Say "hi" and it\'s fine (really).',
    "Lists runners.\n\nOAuth app tokens need the `admin:org` scope.\nSecond line of the paragraph.",
    "`path` first, then text",
    'Code with specials: `a<b & "c"> d`',
    "Trailing newline\n",
    "\n\nLeading blank lines",
    "Three\n\n\nblank lines",
    "Unicode: naïve café — 4–6 hours",
    "Ends with a colon:",
    "Numbers inside 100 and 2.5 are fine",
    "A [link](https://x.example)",
    "**Note:** see [the docs](https://docs.github.com/rest/a#b-c) for `id`.",
    '[Start](/guide/start) and **"strong" text**; [anchor](#top), **a**.',
    "Lines\n**one** and\n[two](https://a.example/b?c=d)",
    "**Endpoint closing down notice.** Use [this](https://docs.github.com/x) instead.\n\nSecond paragraph.",
]
DECLINED = [
    "Use *emphasis*",
    "**a.**b",  # a closing run after punctuation and before a letter does not close
    "x**a**",
    "**a **",
    "** a**",
    "***a***",
    "[a](javascript:alert(1))",
    "[a](https://Example.com/x)",
    "[a](https://x.example/a%20b)",
    "[a](b c)",
    "[a](<b>)",
    "[a]",
    "[a][b]",
    "[`code` label](https://x.example)",
    "[a](https://x.example/(paren))",
    "Use _emphasis_",
    "An image ![x](y.png)",
    "Raw <b>html</b>",
    "Entity &amp; here",
    "Escaped \\* star",
    "Hard break  \nnext",
    "- a list",
    "1. ordered",
    "# Heading",
    "> quote",
    "    indented code",
    "Title\n===",
    "Title\n---",
    "```\nfence\n```",
    "a | b\n--|--\n1 | 2",
    "~~strike~~",
    "Double ``code`` span",
    "Unclosed `code",
    "Padded ` code ` span",
    "Tab\there",
    "line\n  indented continuation",
    "blank line with spaces\n  \nnext",
]


def test_simple_texts_render_exactly_as_markdown_it():
    for text in SAMPLES:
        fast = simple_markdown(text)
        assert fast is not None, text
        assert fast == markdown_to_html(text), text


def test_other_markdown_is_left_to_markdown_it():
    for text in DECLINED:
        fast = simple_markdown(text)
        assert fast is None or fast == markdown_to_html(text), text
    assert all(simple_markdown(t) is None for t in DECLINED[:-3])


def test_random_texts_agree_with_markdown_it():
    rng = random.Random(7)
    alphabet = list("abc xyz`\"'().,:;/-_*#>0123456789\n&<[]!|~=+\\\t\r\x00\x0c") + [
        " the ",
        "\n\n",
        "`id`",
        "é",
        "**",
        "**bold**",
        " **a b** ",
        "[a](/b)",
        "[x y](https://h.example/p#f)",
        "](",
    ]
    checked = 0
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
        fast = simple_markdown(text)
        if fast is not None:
            checked += 1
            assert fast == markdown_to_html(text), repr(text)
    assert checked > 500  # the fast path was exercised, not just declined


@pytest.mark.slow
def test_real_spec_descriptions_agree_with_markdown_it():
    """Every description of GitHub's spec: the fast path renders what markdown-it renders, or declines."""
    texts: set[str] = set()
    stack: list = [json.loads(github_spec().read_text())]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "description" and isinstance(value, str):
                    texts.add(value)
                elif isinstance(value, (dict, list)):
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    taken = 0
    for text in texts:
        fast = simple_markdown(text)
        if fast is not None:
            taken += 1
            assert fast == markdown_to_html(text), repr(text)
    assert taken > len(texts) // 2, (taken, len(texts))


def test_links_and_strong_text_take_the_fast_path_only_for_the_renderer_it_copies():
    """A page rendered with another Markdown renderer gets that renderer's output for links and strong text."""
    from docsgen.openapi.render import ApiSettings, render_operation

    spec = {
        "openapi": "3.0.0",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "description": "See [the guide](https://docs.example.com/guide) and **this**.",
                    "parameters": [{"name": "q", "in": "query", "description": "Uses `code` only."}],
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }

    def custom(text: str) -> str:
        return "<p>CUSTOM</p>\n"

    page = render_operation(spec, "get", "/a", settings=ApiSettings(), markdown=custom)
    assert "CUSTOM" in page.html and "docs.example.com" not in page.html
    assert "<code>code</code>" in page.html  # code spans: the same in every CommonMark renderer
    page = render_operation(spec, "get", "/a", settings=ApiSettings(), markdown=markdown_to_html)
    assert '<a href="https://docs.example.com/guide">the guide</a>' in page.html
    assert "<strong>this</strong>" in page.html
