"""Broken or hostile MDX: each problem is a located diagnostic, never a traceback or silence (issue 16 items 6-8)."""

from __future__ import annotations

from docsgen.mdx.limits import MAX_JSX_NESTING, MAX_PAGE_DIAGNOSTICS
from docsgen.mdx.text import html_to_text
from tests.mdx_helpers import render


def located(result) -> list[tuple[str, str, int, int]]:
    return [(d.code, d.severity.value, d.line, d.column) for d in result.diagnostics]


def test_inline_elements_nested_400_deep_are_a_located_error_not_a_crash():
    result = render("Text " + "<span>" * 400 + "x" + "</span>" * 400 + "\n", line_offset=4)
    codes = [d.code for d in result.diagnostics]
    assert "mdx.internal" not in codes  # before: RecursionError reported as an internal error
    [diag] = result.diagnostics
    assert (diag.code, diag.severity.value, diag.line) == ("mdx.too-deep", "error", 5)
    assert diag.column == 6 + 6 * MAX_JSX_NESTING
    assert str(MAX_JSX_NESTING) in diag.message


def test_block_divs_nested_400_deep_are_a_located_error():
    result = render("<div>\n" * 400 + "x\n" + "</div>\n" * 400)
    assert [d.code for d in result.diagnostics] == ["mdx.too-deep"]
    assert result.diagnostics[0].line > 1


def test_deeply_nested_expression_is_a_warning_not_a_crash():
    result = render("{" + "[" * 5000 + "]" * 5000 + "}\n")
    assert [(d.code, d.severity.value) for d in result.diagnostics] == [("mdx.expression", "warning")]


def test_crossed_html_tags_are_located():
    result = render("Intro\n\n<div><span>x</div></span>\n", line_offset=1)
    assert located(result) == [("mdx.html-nesting", "warning", 4, 6)]  # at the <span> left open
    assert "<span>" in result.diagnostics[0].message


def test_crossed_inline_tags_inside_a_paragraph_are_located():
    result = render("a <b><i>x</b></i> c\n")
    assert [d.code for d in result.diagnostics] == ["mdx.html-nesting"]
    assert result.diagnostics[0].column == 6


def test_stray_closing_html_tag_is_located_and_dropped():
    result = render("text </em> more\n")
    assert located(result) == [("mdx.html-nesting", "warning", 1, 6)]
    assert "</em>" not in result.html


def test_html_split_over_paragraphs_is_not_reported():
    result = render("<p>one\n\ntwo</p>\n\na <script>var x = 1;</script> b\n")
    assert result.diagnostics == []


def test_tag_name_starting_with_a_digit_is_located_text():
    result = render("before\n\n<1abc>\n\nafter\n")
    assert located(result) == [("mdx.syntax", "warning", 3, 1)]
    assert "<1abc>" in html_to_text(result.html)


def test_duplicate_props_are_located():
    result = render('<Card title="a" title="b">x</Card>\n')
    assert located(result) == [("mdx.duplicate-prop", "warning", 1, 1)]
    assert "title" in result.diagnostics[0].message


def test_lone_closing_brace_is_located_text():
    result = render("a } b\n\n}\n")
    assert located(result) == [("mdx.expression", "warning", 1, 3), ("mdx.expression", "warning", 3, 1)]
    assert html_to_text(result.html) == "a } b\n\n}"


def test_escaped_brace_pair_is_not_reported():
    result = render('Click the "\\{...}" icon\n')
    assert result.diagnostics == [] and "{...}" in result.html


def test_diagnostics_per_page_are_capped_and_errors_still_count():
    result = render("} " * 5000 + "\n\n</Tab>\n")
    assert len(result.diagnostics) == MAX_PAGE_DIAGNOSTICS + 1
    assert result.diagnostics[-1].code == "mdx.too-many-problems"
    assert any(d.is_error and d.code == "mdx.unexpected-close" for d in result.diagnostics)


def test_markdown_twin_of_400_deep_elements_does_not_crash():
    from docsgen.pages.markdown_export import mdx_to_markdown

    text = mdx_to_markdown("<div>" * 400 + "deep text" + "</div>" * 400 + "\n")
    assert "deep text" in text and "<div>" not in text
