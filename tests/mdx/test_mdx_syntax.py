"""MDX syntax: props, expressions, comments, variables, block/inline JSX and located diagnostics."""

from __future__ import annotations

import pytest

from docsgen.mdx.expressions import Unevaluable, evaluate
from docsgen.mdx.jsx_syntax import JsxSyntaxError, scan_tag
from tests.htmldom import parse
from tests.mdx_helpers import render


def test_scan_tag_props_of_every_kind():
    src = '<Card title="T" cols={3} open flag={true} tags={["a", "b"]} style={{ color: "red" }} {...rest} />'
    tag = scan_tag(src, 0)
    assert tag.name == "Card" and tag.self_closing and tag.end == len(src)
    assert [(a.name, a.kind) for a in tag.attrs] == [
        ("title", "string"),
        ("cols", "expr"),
        ("open", "bool"),
        ("flag", "expr"),
        ("tags", "expr"),
        ("style", "expr"),
        ("rest", "spread"),
    ]


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("3", 3),
        ("-1.5", -1.5),
        ("true", True),
        ("[\"a\", 'b']", ["a", "b"]),
        ('{ light: "#fff", "dark": `#000` }', {"light": "#fff", "dark": "#000"}),
        ("name", "Ada"),
        ("user.profile.city", "Paris"),
        ("`Hi ${name}!`", "Hi Ada!"),
        ('"a" + name', "aAda"),
        ("null ?? 'x'", "x"),
    ],
)
def test_evaluate_subset(expr, value):
    assert evaluate(expr, {"name": "Ada", "user": {"profile": {"city": "Paris"}}}) == value


@pytest.mark.parametrize("expr", ["foo()", "unknownName", "() => 1", "a ? b : c"])
def test_evaluate_refuses_what_it_cannot_do(expr):
    with pytest.raises(Unevaluable):
        evaluate(expr, {"a": 1})


def test_bad_tag_raises_with_position():
    with pytest.raises(JsxSyntaxError) as info:
        scan_tag('<Card title="unclosed >', 0)
    assert info.value.pos == 12


def test_nested_components_with_markdown_at_any_depth():
    source = (
        '<Tabs>\n  <Tab title="A">\n    <Steps>\n      <Step title="S">\n        <Note>\n'
        "          - **deep** list\n          - item\n\n          ```js\n          x\n          ```\n"
        "        </Note>\n      </Step>\n    </Steps>\n  </Tab>\n</Tabs>\n"
    )
    result = render(source)
    dom = parse(result.html)
    note = dom.find("div", cls="dg-callout-note")
    assert note is not None and note.find("strong").text == "deep"
    assert len(note.find_all("li")) == 2 and note.find("div", cls="dg-code") is not None
    assert result.diagnostics == []


def test_inline_component_stays_in_paragraph():
    result = render('Press <Icon icon="rocket" /> then <Tooltip tip="t">hover</Tooltip> now.\n')
    dom = parse(result.html)
    paragraph = dom.find("p")
    assert paragraph is not None and paragraph.find("span", cls="dg-tooltip") is not None
    assert paragraph.text.startswith("Press ") and paragraph.text.endswith(" now.")


def test_expressions_and_comments():
    source = 'export const release = "v2"\n\nCurrent: {release}, {1 + 2}, {"literal"}{/* hidden */}.\n\n{/*\n multi\n*/}\n'
    result = render(source)
    assert "<p>Current: v2, 3, literal.</p>" in result.html
    assert "multi" not in result.html and result.diagnostics == []


def test_unevaluable_expression_is_literal_with_located_warning():
    result = render("Line one\n\nValue {a.b()} here.\n", line_offset=2)
    assert "{a.b()}" in result.html
    [diag] = result.diagnostics
    assert (diag.code, diag.line, diag.column, diag.severity.value) == ("mdx.expression", 5, 7, "warning")


def test_variables_double_braces_everywhere():
    source = "Welcome to {{product}} v{{ version }}.\n\n```bash\ninstall {{product}}\n```\n\n{{unknown}}\n"
    result = render(source, variables={"product": "Acme", "version": 3})
    assert "Welcome to Acme v3." in result.html and "install Acme" in result.text
    [diag] = result.diagnostics
    assert diag.code == "mdx.expression" and diag.line == 7


def test_unclosed_block_tag_is_located_error():
    result = render("Intro\n\n<Note>\n  never closed\n", line_offset=4)
    [diag] = result.diagnostics
    assert (diag.code, diag.line, diag.column, diag.severity.value) == ("mdx.unclosed-tag", 7, 1, "error")
    assert "never closed" in result.html  # still rendered


def test_unclosed_inline_tag_is_located_error():
    result = render('A <Tooltip tip="x">b\n', line_offset=1)
    [diag] = result.diagnostics
    assert (diag.code, diag.line, diag.column) == ("mdx.unclosed-tag", 2, 3)


def test_bad_prop_syntax_is_located_error():
    result = render('# T\n\n<Card title="A" icon={oops\n/>\n', line_offset=10)
    [diag] = result.diagnostics
    assert diag.code == "mdx.syntax" and diag.line == 13 and diag.column == 22
    assert "icon" in diag.message


def test_stray_closing_tag_is_error():
    result = render("Text\n\n</Note>\n")
    [diag] = result.diagnostics
    assert diag.code == "mdx.unexpected-close" and diag.line == 3


def test_html_passes_through_with_markdown_inside_and_links_resolved():
    source = '<div className="grid">\n  <a href="/setup">Setup</a>\n\n  **bold**\n</div>\n\n<br>\n<img src="images/x.png" alt="x">\n'
    result = render(source)
    assert '<div class="grid">' in result.html and '<a href="/setup/">Setup</a>' in result.html
    assert "<strong>bold</strong>" in result.html and '<img src="/images/x.png" alt="x">' in result.html


def test_lowercase_non_html_words_stay_text():
    result = render("Replace <your-api-key> and use a<b.\n")
    assert "&lt;your-api-key&gt;" in result.html and result.diagnostics == []


def test_react_component_export_runs():
    source = "export const Counter = () => {\n  return <div>hi</div>\n}\n\n<Counter>\n  kids\n</Counter>\n"
    result = render(source)
    assert result.diagnostics == []  # it runs (docsgen.mdx.react); it does not render its children
    assert "<div>hi</div>" in result.html and "kids" not in result.html and "return" not in result.html


def test_math_inline_and_display_become_mathml():
    result = render("Inline $a^2$ and $$x$$ here; prices $5 and $10.\n\n$$\n\\frac{1}{2}\n$$\n")
    dom = parse(result.html)
    paragraph = dom.find("p")
    assert len(paragraph.find_all("math")) == 2 and paragraph.find("div") is None
    assert "prices $5 and $10." in paragraph.text
    assert dom.find("div", cls="math-display").find("mfrac") is not None
    assert result.diagnostics == []


def test_single_brace_variable_falls_back_to_docs_json_variables():
    result = render(
        'export const plan = "Pro"\n\n{product} {plan}\n', variables={"product": "Acme", "plan": "Free"}
    )
    assert "<p>Acme Pro</p>" in result.html and result.diagnostics == []


def test_lone_brace_stays_text_with_warning():
    result = render("Intro\n\nUse { to open and \\{ escaped.\n")
    assert "<p>Use { to open and { escaped.</p>" in result.html
    [diag] = result.diagnostics
    assert (diag.code, diag.line, diag.column) == ("mdx.expression", 3, 5)


def test_deep_nesting_renders_and_too_deep_is_a_located_error():
    deep = "".join("<Note>\n" for _ in range(30)) + "deep text\n" + "".join("</Note>\n" for _ in range(30))
    result = render(deep)
    assert "deep text" in result.html and result.diagnostics == []
    too_deep = "".join("<div>\n" for _ in range(200)) + "x\n" + "".join("</div>\n" for _ in range(200))
    result = render(too_deep)
    assert [d.code for d in result.diagnostics] == ["mdx.too-deep"]


def test_prose_starting_with_import_or_export_stays_text():
    result = render("You can\nexport your data or\nimport it later.\n\nexport the file too.\n")
    assert "export your data" in result.html and "export the file too." in result.html


def test_import_statement_shapes():
    from docsgen.mdx.jsx_rules import ESM_RE

    for statement in [
        "import A from '/a.mdx'",
        'import { A, B } from "/b.mdx"',
        "import {",
        "import A, {",
        "import './x.css'",
    ]:
        assert ESM_RE.match(statement), statement
    for prose in ["import it later.", "import the file", "export the file", "exports are fun"]:
        assert not ESM_RE.match(prose), prose
