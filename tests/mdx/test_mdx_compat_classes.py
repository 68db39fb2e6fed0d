"""Classes of real Mintlify pages that lost content: each case is the smallest page of its class."""

from __future__ import annotations

from tests.mdx_helpers import render


def test_line_starting_with_an_html_block_tag_and_more_is_jsx_not_raw_html():
    # `<div/>` and `<br />` open CommonMark raw HTML blocks; MDX reads them as JSX followed by content.
    html = render('<div/>{/* note */}\n<Frame caption="Cap">\n  Inside\n</Frame>\n').html
    assert "{/*" not in html and "note" not in html
    assert "<figcaption>Cap</figcaption>" in html and "&lt;Frame" not in html and "<Frame" not in html
    html = render("<br /> Click **here** and see [the docs](/docs) <Badge>New</Badge>\n").html
    assert "<strong>here</strong>" in html and 'href="/docs/"' in html
    assert "dg-badge" in html and "<Badge" not in html and "**" not in html


def test_closing_tag_with_a_space_after_the_slash_closes_the_component():
    result = render("<Note>\nhello\n</ Note>\n\nafter\n")
    assert "&lt;/ Note&gt;" not in result.html and not result.diagnostics
    callout_end = result.html.index("</div></div>")
    assert result.html.index("after") > callout_end


def test_export_const_component_keeps_a_template_literal_spanning_lines(tmp_path):
    body = (
        "export const Styled = () => {\n"
        "  const css = `\n"
        ".card { color: red; }\n"
        "}\n"
        "import x from 'y'\n"
        "`;\n"
        '  return <div className="card"><style>{css}</style>Card body text</div>;\n'
        "};\n\n"
        "<Styled />\n\ndone\n"
    )
    result = render(body, tmp_path)
    assert [d.code for d in result.diagnostics] == []
    assert 'class="card"' in result.html and "Card body text" in result.html
    assert "return" not in result.html and "<p>done</p>" in result.html


def test_export_const_component_children_get_no_line_break(tmp_path):
    body = (
        "export const Term = ({ children, tip }) => <Tooltip tip={tip}>{children}</Tooltip>;\n\n"
        'The <Term tip="an API path">Endpoint</Term>s are here.\n'
    )
    html = render(body, tmp_path).html
    assert ">Endpoint</span>" in html and "Endpoint\n" not in html


def test_import_line_after_prose_is_hoisted_and_its_snippet_inlined(tmp_path):
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "snip.mdx").write_text("Snippet text here.\n")
    body = (
        "Some prose first.\nimport Snip from '/snippets/snip.mdx';\n\n<Snip />\n\n"
        "1. Step\n   import Third from '/snippets/snip.mdx';\n   <Third />\n"
    )
    result = render(body, tmp_path)
    assert "import" not in result.html and not result.diagnostics
    assert result.html.count("Snippet text here.") == 2


def test_unevaluable_block_expression_renders_nothing_and_warns_on_one_line():
    result = render(
        "Intro\n\n{items.map((item) => (\n  <div key={item}>{item}</div>\n))}\n\nafter\n", line_offset=2
    )
    assert "items.map" not in result.html and "<p>after</p>" in result.html
    (diag,) = result.diagnostics
    assert (diag.code, diag.line, diag.column) == ("mdx.expression", 5, 1)
    assert "\n" not in diag.message and "not rendered" in diag.message
