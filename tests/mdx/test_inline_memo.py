"""Plain inline text is parsed once per process: later pages get its HTML (docsgen.mdx.inline_memo)."""

from __future__ import annotations

import pytest

from docsgen.mdx import inline_memo
from docsgen.mdx.parser import MD
from tests.mdx_helpers import render

PROSE = (
    "## Configure the client\n\n"
    "The client reads **its settings** from the environment, then from `config.yaml`;\n"
    "a value set twice keeps the *first* one found, ~~not the last~~.\\\n"
    "Restart it after a change &amp; check the logs.\n\n"
    "| Name | Type |\n| --- | --- |\n| id | `string` |\n| count | integer |\n\n"
    "- one item\n- another item\n"
)


@pytest.fixture(autouse=True)
def empty_memo():
    inline_memo.forget_all()
    yield
    inline_memo.forget_all()


@pytest.fixture
def parsed(monkeypatch) -> list[str]:
    """The texts markdown-it's inline parser is run on."""
    seen: list[str] = []
    parse = MD.inline.parse

    def counting(src, md, env, tokens):
        seen.append(src)
        return parse(src, md, env, tokens)

    monkeypatch.setattr(MD.inline, "parse", counting)
    return seen


def test_a_text_seen_before_is_not_parsed_again(parsed):
    first = render(PROSE, source="a/one.mdx")
    parsed_first = list(parsed)
    parsed.clear()
    second = render(PROSE, source="b/two.mdx")
    assert (
        "The client reads **its settings** from the environment, then from `config.yaml`;" in parsed_first[1]
    )
    assert parsed == []  # heading, paragraph, table cells and list items: all served from the memo
    assert second.html == first.html
    assert [(item.level, item.id, item.title) for item in second.toc] == [
        (2, "configure-the-client", "Configure the client")
    ]
    assert inline_memo.Counts.hits == len(parsed_first)


def test_output_is_the_same_with_and_without_the_memo():
    page = PROSE + "\n## Configure the client\n\nThe client reads **its settings** again.\n"
    cold = render(page)
    warm = render(page)  # every plain text now comes from the memo
    assert inline_memo.Counts.hits > 0
    inline_memo.forget_all()
    assert render(page).html == cold.html == warm.html
    assert 'id="configure-the-client-1"' in warm.html  # heading ids stay unique within the page
    assert [item.id for item in warm.toc] == ["configure-the-client", "configure-the-client-1"]


def test_a_changed_text_is_parsed(parsed):
    render("Some *plain* text.\n")
    parsed.clear()
    result = render("Some *other* text.\n")
    assert parsed == ["Some *other* text."]
    assert "<em>other</em>" in result.html


@pytest.mark.parametrize(
    "text",
    [
        "Read [the guide](guide) first.",  # relative link: resolved against each page's folder
        "Plan {frontmatter.title} today.",  # an expression: each page's own value
        "Math $x^2$ here.",  # math follows docs.json
        "Go to <Tooltip tip='x'>here</Tooltip>.",  # components
        "A note[^1].\n\n[^1]: Footnote text.",  # footnotes are numbered per page
    ],
)
def test_text_that_reads_the_page_is_never_kept(parsed, text):
    render(text, source="a/one.mdx")
    parsed.clear()
    render(text, source="b/two.mdx")
    assert text.split("\n")[0] in parsed


def test_a_link_in_text_resolves_on_every_page():
    resolved: list[str] = []

    def resolve(href: str) -> str:
        resolved.append(href)
        return "/resolved/" + href

    for _ in range(2):
        html = render("See [the guide](guide) and *more*.", resolve_link=resolve).html
        assert '<a href="/resolved/guide" class="link">the guide</a>' in html
    assert resolved == ["guide", "guide"]


def test_warnings_in_text_are_reported_for_every_page():
    page = "Intro text.\n\nCall {unknownThing.call()} now.\n"
    for source, offset in (("a.mdx", 0), ("b.mdx", 4)):
        result = render(page, source=source, line_offset=offset)
        located = [(d.code, d.path, d.line, d.column) for d in result.diagnostics]
        assert located == [("mdx.expression", source, 3 + offset, 6)]


def test_the_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(inline_memo, "MAX_ENTRIES", 3)
    for n in range(10):
        render(f"Paragraph number {n} is *plain*.\n")
    assert len(inline_memo._kept) == 3
    assert list(inline_memo._kept) == [f"Paragraph number {n} is *plain*." for n in (7, 8, 9)]


def test_a_parse_docsgen_does_not_render_gets_markdown_its_own_children():
    """A text kept by a render is still parsed into its own tokens for a reader of the tokens (no MDX state)."""
    render("| Name | Value here |\n| --- | --- |\n| cell one | two |\n")
    render("| Name | Value here |\n| --- | --- |\n| cell one | two |\n")
    assert inline_memo.Counts.hits > 0  # the second render was served from what the first kept
    tokens = MD.parse("| Name | Value here |\n| --- | --- |\n", {})
    children = [child for token in tokens if token.type == "inline" for child in token.children or []]
    assert [child.type for child in children] == ["text", "text"]
    assert [child.content for child in children] == ["Name", "Value here"]
