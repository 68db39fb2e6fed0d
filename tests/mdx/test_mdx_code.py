"""Code blocks: meta parsing, highlighting options, diff markers, copy buttons and feedback hooks."""

from __future__ import annotations

from docsgen.mdx.code import highlight_css, parse_line_ranges, parse_meta
from tests.conftest import REPO
from tests.htmldom import parse
from tests.mdx_helpers import render


def test_parse_meta_title_and_options():
    meta = parse_meta('python My Script.py icon="python" lines wrap expandable nocopy {1,3-4} focus={2}')
    assert (meta.lang, meta.title, meta.icon) == ("python", "My Script.py", "python")
    assert meta.lines and meta.wrap and meta.expandable and meta.nocopy
    assert meta.highlight == {1, 3, 4} and meta.focus == {2}


def test_parse_meta_title_attribute_and_highlight_attribute():
    meta = parse_meta('js title="app.js" highlight={2-3}')
    assert (meta.title, meta.highlight) == ("app.js", {2, 3})
    assert parse_line_ranges("{1, 5-6}") == {1, 5, 6}


def code_lines(html):
    dom = parse(html)
    return [(line.attrs["class"], line.text) for line in dom.find_all("span", cls="line")]


def test_highlight_focus_and_line_numbers():
    result = render("```python app.py lines {1} focus={3}\na = 1\nb = 2\nc = 3\n```\n")
    dom = parse(result.html)
    block = dom.find("div", cls="dg-code")
    assert {"dg-code-lines", "has-focus"} <= set(block.attrs["class"].split())
    assert block.attrs["data-lang"] == "python" and block.attrs["data-code-index"] == "0"
    assert dom.find("span", cls="dg-code-title").text == "app.py"
    assert code_lines(result.html) == [
        ("line highlighted", "a = 1"),
        ("line", "b = 2"),
        ("line focused", "c = 3"),
    ]


def test_diff_markers_are_removed_and_marked():
    source = "```js\nconst a = 1 // [!code --]\nconst a = 2 // [!code ++]\nx // [!code ++:2]\ny\nz\n```\n"
    result = render(source)
    lines = code_lines(result.html)
    assert lines[0] == ("line diff-remove", "const a = 1")
    assert lines[1] == ("line diff-add", "const a = 2")
    assert lines[2:] == [("line diff-add", "x"), ("line diff-add", "y"), ("line", "z")]
    assert "[!code" not in result.html


def test_copy_button_nocopy_and_assets():
    result = render("```bash\nls\n```\n\n```bash nocopy\nls\n```\n")
    assert result.html.count('class="dg-copy"') == 1 and "copy" in result.assets


def test_code_indices_are_stable_and_unique():
    result = render(
        "```a\n1\n```\n\n<CodeGroup>\n```b B\n2\n```\n```c C\n3\n```\n</CodeGroup>\n\n```d\n4\n```\n"
    )
    dom = parse(result.html)
    blocks = dom.find_all("div", cls="dg-code")
    assert [b.attrs["data-code-index"] for b in blocks] == ["0", "1", "2", "3"]
    assert [b.attrs["data-lang"] for b in blocks] == ["a", "b", "c", "d"]


def test_expandable_long_blocks_start_collapsed():
    long_code = "\n".join(f"line {i}" for i in range(30))
    result = render(f"```text expandable\n{long_code}\n```\n\n```text expandable\nshort\n```\n")
    dom = parse(result.html)
    first, second = dom.find_all("div", cls="dg-code")
    assert "dg-overflows" in first.attrs["class"] and "dg-overflows" not in second.attrs["class"]
    assert "code" in result.assets


def test_unknown_language_and_odd_content_never_crash():
    result = render("```brainf*ck {oops\n<>&\n```\n\n```\nno language\n```\n")
    assert "&lt;&gt;&amp;" in result.html and result.diagnostics == []


def test_mermaid_fence_requests_asset():
    result = render("```mermaid\ngraph TD; A-->B\n```\n")
    assert "mermaid" in result.assets and "dg-code" not in result.html


def test_highlight_css_is_current():
    shipped = (REPO / "themes" / "base" / "static" / "highlight.css").read_text(encoding="utf-8")
    assert shipped == highlight_css(), (
        "regenerate with: python -c 'from docsgen.mdx.code import highlight_css; ...'"
    )
    assert ':is(html[data-theme="dark"], .dg-api-aside) .dg-code .k' in shipped
