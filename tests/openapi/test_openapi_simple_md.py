"""The fast path for simple descriptions renders exactly what markdown-it renders, and declines the rest."""

from __future__ import annotations

import random

from docsgen.openapi.pages import markdown_to_html
from docsgen.openapi.render.simple_md import simple_markdown

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
]
DECLINED = [
    "Use *emphasis*",
    "Use _emphasis_",
    "A [link](https://x.example)",
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
    ]
    checked = 0
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
        fast = simple_markdown(text)
        if fast is not None:
            checked += 1
            assert fast == markdown_to_html(text), repr(text)
    assert checked > 500  # the fast path was exercised, not just declined
