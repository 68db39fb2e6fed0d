"""Nothing written in a page is lost on the way to the reader (issue 15): each case seen on real sites."""

from __future__ import annotations

from pathlib import Path

from docsgen.mdx.text import html_to_text
from tests.conftest import write_tree
from tests.htmldom import parse
from tests.mdx_helpers import render


def snippets(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "docs",
        {
            "snippets/cli.mdx": "```bash CLI\nunstructured-ingest kafka\n```\n",
            "snippets/python.mdx": "```python Python\nfrom unstructured import x\n```\n",
            "snippets/pair.mdx": "```js JS\nconsole.log(1)\n```\n\n```go Go\nfmt.Println(1)\n```\n",
            "snippets/inner.mdx": "Inner snippet text.\n",
            "_snippets/legacy.mdx": "Legacy snippet text.\n",
        },
    )


def tab_titles(html: str) -> list[str]:
    return [b.text for b in parse(html).find_all("button", role="tab")]


def panels_text(html: str) -> list[str]:
    return [p.text.strip() for p in parse(html).find_all("div", role="tabpanel")]


def test_codegroup_keeps_every_child_after_a_self_closing_one(tmp_path):
    docs = snippets(tmp_path)
    source = (
        "import Cli from '/snippets/cli.mdx'\nimport Py from '/snippets/python.mdx'\n\n"
        "<CodeGroup>\n  <Cli />\n  <Py />\n  ```ruby Ruby\n  puts 1\n  ```\n  <Cli />\n</CodeGroup>\n"
    )
    result = render(source, docs_dir=docs)
    # Before: every child right after a self-closing one was dropped (2 of 4 shown).
    assert len(panels_text(result.html)) == 4
    assert panels_text(result.html) == [
        "unstructured-ingest kafka",
        "from unstructured import x",
        "puts 1",
        "unstructured-ingest kafka",
    ]
    # Tabs are labelled with the code block's title, not the component's name ("Cli").
    assert tab_titles(result.html) == ["CLI", "Python", "Ruby", "CLI"]
    assert result.diagnostics == []


def test_codegroup_snippet_with_two_blocks_gives_two_tabs(tmp_path):
    docs = snippets(tmp_path)
    source = "import Pair from '/snippets/pair.mdx'\n\n<CodeGroup>\n<Pair />\n</CodeGroup>\n"
    result = render(source, docs_dir=docs)
    assert tab_titles(result.html) == ["JS", "Go"]
    assert panels_text(result.html) == ["console.log(1)", "fmt.Println(1)"]


def test_request_and_response_examples_keep_all_samples(tmp_path):
    docs = snippets(tmp_path)
    source = (
        "import Cli from '/snippets/cli.mdx'\n\n"
        "<RequestExample>\n<Cli />\n```python Python\nrequests.get(url)\n```\n</RequestExample>\n\n"
        "<ResponseExample>\n```json 200\n{}\n```\n</ResponseExample>\n"
    )
    result = render(source, docs_dir=docs)
    assert tab_titles(result.aside_html) == ["CLI", "Python", "200"]


def test_fragment_prop_is_rendered_not_printed_as_source():
    result = render("<Update label={<>v2.0 <strong>beta</strong></>}>\nShipped.\n</Update>\n")
    label = parse(result.html).find("a", cls="dg-update-label")
    assert label is not None and label.text == "v2.0 beta"
    assert label.find("strong").text == "beta"
    assert "<>" not in result.html and "&lt;&gt;" not in result.html
    assert [item.title for item in result.toc] == ["v2.0 beta"]


def test_latex_component_renders_math():
    result = render("Energy: <Latex>E = mc^2</Latex>.\n\n<Latex>\n\\frac{a}{b}\n</Latex>\n")
    dom = parse(result.html)
    maths = dom.find_all("math")
    assert [m.attrs.get("display") for m in maths] == ["inline", "block"]
    assert "E = mc^2" in result.html and "<Latex>" not in result.html
    assert not [d for d in result.diagnostics if d.code == "mdx.unknown-component"]


def test_link_component_keeps_its_link():
    result = render('Read <Link href="/guides/setup">the **setup** guide</Link> first.\n')
    link = parse(result.html).find("a")
    assert link is not None and link.attrs["href"] == "/guides/setup/"
    assert link.text == "the setup guide"
    assert result.diagnostics == []


def test_fence_inside_jsx_with_mixed_indentation_is_code():
    source = (
        "<Tabs>\n  <Tab title='Python'>\n    Example:\n\n    :::python\n"
        "    ```python\n    x = 1\n```\n    After.\n  </Tab>\n</Tabs>\n"
    )
    result = render(source)
    dom = parse(result.html)
    code = dom.find("pre")
    assert code is not None and code.text.strip() == "x = 1"
    assert "```" not in html_to_text(result.html)
    assert "After." in html_to_text(result.html)


def test_block_tags_indented_under_a_paragraph_line_inside_tab():
    source = (
        "<Tabs>\n  <Tab title='npm'>\n    Install it:\n        <CodeGroup>\n        ```bash npm\n"
        "        npm i pkg\n        ```\n        </CodeGroup>\n  </Tab>\n</Tabs>\n"
    )
    result = render(source)
    assert [d.code for d in result.diagnostics] == []  # before: mdx.unclosed-tag
    text = html_to_text(result.html)
    assert "npm i pkg" in text and "<CodeGroup>" not in text and "```" not in text


def test_legacy_snippet_file_is_included(tmp_path):
    docs = snippets(tmp_path)
    result = render('<Snippet file="legacy.mdx" />\n\n<Snippet file="inner.mdx" />\n', docs_dir=docs)
    text = html_to_text(result.html)
    assert "Legacy snippet text." in text and "Inner snippet text." in text
    assert result.diagnostics == []
    assert result.dependencies == {"_snippets/legacy.mdx", "snippets/inner.mdx"}


def test_legacy_snippet_missing_file_is_a_located_warning(tmp_path):
    docs = snippets(tmp_path)
    result = render('Intro\n\n<Snippet file="gone.mdx" />\n', docs_dir=docs, line_offset=2)
    [diag] = result.diagnostics
    assert (diag.code, diag.severity.value, diag.line, diag.column) == (
        "mdx.missing-snippet",
        "warning",
        5,
        1,
    )
    assert "gone.mdx" in diag.message


def test_import_inside_a_jsx_block_of_a_snippet_is_not_text(tmp_path):
    docs = snippets(tmp_path)
    (docs / "snippets/tabs.mdx").write_text(
        "<Tabs>\n  <Tab title='A'>\n    import Inner from '/snippets/inner.mdx';\n\n    <Inner />\n  </Tab>\n</Tabs>\n",
        encoding="utf-8",
    )
    result = render("import T from '/snippets/tabs.mdx'\n\n<T />\n", docs_dir=docs)
    text = html_to_text(result.html)
    assert "import" not in text
    assert "Inner snippet text." in text
    assert result.diagnostics == []


def test_imported_name_shadows_a_builtin_component(tmp_path):
    docs = snippets(tmp_path)
    result = render("import Link from '/snippets/inner.mdx'\n\n<Link />\n", docs_dir=docs)
    assert "Inner snippet text." in html_to_text(result.html)


def test_fragment_prop_holding_a_component_renders_the_component():
    result = render('<Update label={<>v3 <Badge color="green">new</Badge></>}>\nShipped.\n</Update>\n')
    label = parse(result.html).find("a", cls="dg-update-label")
    assert label is not None and label.find("span", cls="dg-badge").text == "new"
    assert "<Badge" not in result.html and [item.title for item in result.toc] == ["v3 new"]


def test_lowercase_imported_snippet_is_rendered_not_printed(tmp_path):
    docs = snippets(tmp_path)
    result = render(
        "import innerText from '/snippets/inner.mdx';\n\n<innerText/>\n\nAnd <innerText /> inline.\n",
        docs_dir=docs,
    )
    text = html_to_text(result.html)
    assert text.count("Inner snippet text.") == 2 and "innerText" not in text
    assert result.diagnostics == []


def test_lowercase_imported_snippet_in_the_markdown_twin(tmp_path):
    from docsgen.pages.markdown_export import page_markdown_of

    docs = snippets(tmp_path)
    markdown = page_markdown_of(
        "import innerText from '/snippets/inner.mdx';\n\n<innerText/>\n", docs, {}, "p.mdx"
    )
    assert "Inner snippet text." in markdown and "<innerText" not in markdown
