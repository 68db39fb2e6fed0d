"""Plain Markdown through the MDX reader: headings, TOC, links, images, code, tables, footnotes."""

from __future__ import annotations

import pytest

from tests.mdx_helpers import fixture_params, normalize, render


@pytest.mark.parametrize("case", fixture_params("markdown.txt"))
def test_markdown_fixtures(case):
    _name, line, title, source, expected = case
    result = render(source)
    assert normalize(result.html) == normalize(expected), f"mdx_fixtures/markdown.txt:{line + 1} {title}"


def test_heading_ids_are_unique_and_listed_in_toc():
    result = render("## Setup\n\n### Install it!\n\n## Setup\n\n#### Deep\n\n##### Too deep\n")
    assert [(t.level, t.id, t.title) for t in result.toc] == [
        (2, "setup", "Setup"),
        (3, "install-it", "Install it!"),
        (2, "setup-1", "Setup"),
        (4, "deep", "Deep"),
    ]
    assert '<a class="anchor" href="#setup-1"' in result.html


def test_custom_heading_id():
    result = render("## Configuration options {#config}\n")
    assert result.toc[0].id == "config"
    assert 'id="config"' in result.html and "{#config}" not in result.html


def test_links_and_images_go_through_context():
    seen = []
    result = render(
        "[a](/quickstart) ![b](images/b.png)\n",
        resolve_link=lambda h: seen.append(h) or "/X/",
        resolve_asset=lambda s: seen.append(s) or "/A.png",
    )
    assert seen == ["/quickstart", "images/b.png"]
    assert 'href="/X/"' in result.html and 'src="/A.png"' in result.html


def test_unknown_language_is_plain_and_pygments_highlights_known():
    result = render("```nosuchlang\n<x> & y\n```\n\n```python\nimport os\n```\n")
    assert "&lt;x&gt; &amp; y" in result.html
    assert '<span class="kn">import</span>' in result.html
    assert result.diagnostics == []


def test_plain_text_is_extracted():
    result = render("# Title\n\nHello **world**.\n\n```bash\necho hi\n```\n")
    assert "Hello world." in result.text
    assert "echo hi" in result.text
    assert "#" not in result.text.replace("# ", "")


def test_toc_title_leaves_out_tooltip_text():
    result = render('## Use the <Tooltip tip="Application">API</Tooltip> now\n')
    assert [(t.id, t.title) for t in result.toc] == [("use-the-api-now", "Use the API now")]
