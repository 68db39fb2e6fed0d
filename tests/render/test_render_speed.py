"""What the render path's speed-ups must keep: the same HTML, and a build's start-up without modules it does not use."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from docsgen.render.hooks import _NOT_WITH, CLASS_HOOKS, add_hooks


def _classes_reference(html: str) -> str:
    """The class pass as written before: every class attribute handed to Python."""

    def classes(match: re.Match[str]) -> str:
        tokens = match[1].split()
        extra = [
            CLASS_HOOKS[t]
            for t in tokens
            if t in CLASS_HOOKS and CLASS_HOOKS[t] not in tokens and _NOT_WITH.get(t) not in tokens
        ]
        return f'class="{match[1]} {" ".join(dict.fromkeys(extra))}"' if extra else match[0]

    return re.sub(r'class="([^"<>]*)"', classes, html)


@pytest.mark.parametrize(
    "html",
    [
        '<div class="dg-code"><span class="k">def</span><span class="nf">f</span></div>',
        '<span class="k">x</span><p class="a dg-callout b">y</p><p class="dg-copy dg-prompt-copy">',
        '<a class="dg-prev">p</a><a class="x">n</a><a class="dg-next pagination-next">n</a>',
        '<i class="a<b dg-icon">',  # not a class attribute either way
        '<i class="dg-icon\n dg-card">',  # whitespace of any kind separates classes
        'class="dg-" class=" dg-tile " data-x=\'class="dg-step"\' <b class="dg-stepx">',
        '<p>class="dg-steps"</p>' * 3,
        '<div class="dg-prose"><div class="dg-request-example">a</div><div class="dg-request-example">b</div>',
        '<div id="x" class="dg-view-select">a</div><span class="dg-view-select">b</span>',
    ],
)
def test_hooks_match_the_plain_class_pass(html):
    """Only attributes naming a "dg-" class reach Python now; the result is what the pass over every one gave."""
    expected = _classes_reference(html)
    got = add_hooks(html)
    # the id hooks come after the class pass: remove what they added to compare the class pass alone
    for hook in ("request-example", "response-example", "changelog-filters", "multi-view-dropdown"):
        got = got.replace(f'id="{hook}" ', "", 1) if f'id="{hook}" ' not in expected else got
    assert got == expected


def test_id_hooks_go_on_the_first_element_only():
    html = '<div class="dg-request-example">a</div><div class="dg-request-example">b</div>'
    out = add_hooks(html)
    assert out.count('id="request-example"') == 1
    assert out.index('id="request-example"') < out.index(">a<")
    assert add_hooks('<div class="x">dg-request-example</div>') == '<div class="x">dg-request-example</div>'


def test_a_build_starts_without_modules_a_plain_site_does_not_use():
    """`regex` (custom TextMate grammars), urllib.request (font downloads, and xml.sax.saxutils, which imports
    it), Pygments' Markdown/HTML lexer modules (the MDX and Prisma lexers), tomllib and docsgen.mdx.react (QuickJS, for
    Tailwind's compiler and React components) load when first used."""
    code = (
        "import sys, docsgen.build, docsgen.cli, docsgen.render, docsgen.mdx.page_body, docsgen.outputs;"
        "print([m for m in ('regex', 'urllib.request', 'pygments.lexers.markup', 'docsgen.mdx.lexers',"
        " 'docsgen.mdx.textmate', 'tomllib', 'xml.sax.saxutils', 'docsgen.mdx.react') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_lexers_loaded_on_first_use_highlight_as_before():
    from docsgen.mdx.code import get_lexer, highlight_lines

    assert type(get_lexer("mdx")).__name__ == "MdxLexer"
    assert type(get_lexer("Prisma")).__name__ == "PrismaLexer"
    lines = highlight_lines("model User {\n  id Int @id\n}", "prisma")
    assert len(lines) == 3 and "<span" in lines[0]
