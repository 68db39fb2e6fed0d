"""Snippets: imports (absolute, relative, .md), props, children, nested imports, missing files, cycles."""

from __future__ import annotations

from tests.conftest import write_tree
from tests.mdx_helpers import render


def site(tmp_path):
    return write_tree(
        tmp_path / "docs",
        {
            "snippets/hello.mdx": (
                "---\ntitle: x\n---\nimport Inner from '/snippets/nested/inner.md'\n\n"
                "Hello **{name}**, {word}.\n\n<Inner />\n\n{children}\n"
            ),
            "snippets/nested/inner.md": 'export const greeting = "hi there"\n\nInner says {greeting} to {{product}}.\n',
            "snippets/values.mdx": 'export const planName = "Pro"\nexport const Widget = () => <div />\n\nvalues\n',
            "snippets/loop.mdx": "import Loop from '/snippets/loop.mdx'\n\n<Loop />\n",
            "snippets/bad.mdx": "Line one\n\n<Note>\n  never closed\n",
            "guides/local.mdx": "Relative **snippet**.\n",
        },
    )


def test_snippet_with_props_children_and_nested_import(tmp_path):
    docs = site(tmp_path)
    source = (
        "import Hello from '/snippets/hello.mdx'\nimport Local from './local.mdx'\n\n"
        'export const word = "bananas"\n\n<Hello name="Ada" word={word}>\n  Child *content*\n</Hello>\n\n<Local />\n'
    )
    result = render(source, docs_dir=docs, source="guides/page.mdx", variables={"product": "Acme"})
    html = result.html
    assert "<p>Hello <strong>Ada</strong>, bananas.</p>" in html
    assert "<p>Inner says hi there to Acme.</p>" in html
    assert "<p>Child <em>content</em></p>" in html
    assert "<p>Relative <strong>snippet</strong>.</p>" in html
    assert result.dependencies == {"snippets/hello.mdx", "snippets/nested/inner.md", "guides/local.mdx"}
    assert result.diagnostics == []


def test_named_import_of_exported_value(tmp_path):
    docs = site(tmp_path)
    result = render(
        "import { planName, Widget } from '/snippets/values.mdx'\n\nPlan: {planName}\n\n<Widget />\n",
        docs_dir=docs,
    )
    assert "Plan: Pro" in result.html
    assert "<div></div>" in result.html and result.diagnostics == []  # Widget runs (docsgen.mdx.react)


def test_missing_snippet_is_located_warning(tmp_path):
    docs = site(tmp_path)
    result = render(
        "# T\n\nimport Gone from '/snippets/gone.mdx'\n\n<Gone />\n", docs_dir=docs, line_offset=3
    )
    [diag] = result.diagnostics
    assert (diag.code, diag.line, diag.column, diag.severity.value) == (
        "mdx.missing-snippet",
        6,
        1,
        "warning",
    )
    assert "snippets/gone.mdx" in diag.message


def test_jsx_import_warns_at_use_and_renders_children(tmp_path):
    docs = site(tmp_path)
    result = render(
        "import { Btn } from '/snippets/btn.jsx'\n\n<Btn href=\"/x\">\n  Click **me**\n</Btn>\n",
        docs_dir=docs,
    )
    # btn.jsx is not in the docs folder: a warning at the import and one at the use (docsgen.mdx.react)
    codes = {(d.code, d.line, d.severity.value) for d in result.diagnostics}
    assert codes == {("react.missing-import", 1, "warning"), ("react.component-error", 3, "warning")}
    assert "<strong>me</strong>" in result.html


def test_snippet_cycle_is_error_not_recursion(tmp_path):
    docs = site(tmp_path)
    result = render("import Loop from '/snippets/loop.mdx'\n\n<Loop />\n", docs_dir=docs)
    assert [d.code for d in result.diagnostics] == ["mdx.snippet-cycle"]


def test_errors_inside_snippet_name_the_snippet_file(tmp_path):
    docs = site(tmp_path)
    result = render("import Bad from '/snippets/bad.mdx'\n\n<Bad />\n", docs_dir=docs)
    [diag] = result.diagnostics
    assert (diag.path, diag.line, diag.code) == ("snippets/bad.mdx", 3, "mdx.unclosed-tag")
