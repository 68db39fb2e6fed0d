"""bench/compat_units.py: the fidelity measure reads a source page as a reader sees it, and never goes blind."""

from __future__ import annotations

import importlib.util
import sys

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
_spec = importlib.util.spec_from_file_location("compat_units", REPO / "bench" / "compat_units.py")
assert _spec and _spec.loader
units_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(units_module)


def units(tmp_path, text: str, files: dict[str, str] | None = None) -> list[str]:
    for name, body in (files or {}).items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    page = tmp_path / "page.mdx"
    page.write_text(text, encoding="utf-8")
    return units_module.source_units(text, docs_dir=tmp_path, source=page)


def test_link_text_counts_not_its_url(tmp_path):
    got = units(tmp_path, "See [the guide](https://example.com/a_(b)/c) for more.\n")
    assert got == ["See the guide for more."]


def test_reference_links_resolve_and_definitions_are_not_text(tmp_path):
    got = units(tmp_path, "Read [the docs][d] today.\n\n[d]: https://example.com/docs\n")
    assert got == ["Read the docs today."]


def test_code_spans_count_by_content_even_over_two_lines(tmp_path):
    got = units(tmp_path, "Use `{/* note */}` or `a\nb c` here.\n")
    assert got == ["Use {/* note */} or a b c here."]


def test_emphasis_markers_and_heading_ids_are_syntax(tmp_path):
    got = units(tmp_path, "## A *very* **bold** title {#custom}\n\nSome _quiet_ words.\n")
    assert got == ["A very bold title", "Some quiet words."]


def test_comments_imports_and_exports_count_for_nothing(tmp_path):
    text = (
        "import X from '/snippets/x.mdx';\nexport const Y = () => <div>hidden code</div>;\n\n"
        "{/* a comment with words */}\n\nVisible line of text.\n"
    )
    assert units(tmp_path, text, {"snippets/x.mdx": "unused"}) == ["Visible line of text."]


def test_code_blocks_count_line_by_line_without_notation(tmp_path):
    got = units(tmp_path, "```python title.py\nprint('hello')  # [!code ++]\n\nx = 1\n```\n")
    assert got == ["print('hello')", "x = 1"]


def test_visible_props_count_as_written_or_read_as_markdown(tmp_path):
    text = '<Card title="The **card** title" href="/x" icon="rocket">\n  Body of the card.\n</Card>\n'
    alternative = units_module.ALTERNATIVE
    assert units(tmp_path, text) == [f"The **card** title{alternative}The card title", "Body of the card."]


def test_only_props_the_component_shows_count(tmp_path):
    text = '<Note title="Not shown by Mintlify">\n  Note body text.\n</Note>\n\n<Step title="First step here">\n  Do it.\n</Step>\n'
    assert units(tmp_path, text) == ["Note body text.", "First step here", "Do it."]


def test_snippets_are_inlined_where_used(tmp_path):
    text = "import Intro from '/snippets/intro.mdx';\n\nFirst line here.\n\n<Intro />\n"
    got = units(tmp_path, text, {"snippets/intro.mdx": "Snippet sentence here.\n"})
    assert got == ["First line here.", "Snippet sentence here."]


def test_legacy_snippet_file_is_inlined(tmp_path):
    got = units(
        tmp_path, '<Snippet file="note.mdx" />\n', {"snippets/note.mdx": "A note from the snippet.\n"}
    )
    assert got == ["A note from the snippet."]


def test_text_inside_jsx_html_and_tables_counts(tmp_path):
    text = "<div>\n<p>Raw paragraph text</p>\n</div>\n\n| Name | Value here |\n| --- | --- |\n| cell one | `a \\| b` |\n"
    got = units(tmp_path, text)
    assert got == ["Raw paragraph text", "Name", "Value here", "cell one"]


def test_text_the_build_might_lose_still_counts(tmp_path):
    """Broken markup is not dropped from the measure: its text is still expected on the page."""
    got = units(tmp_path, "<Card title='Unclosed card'>\nText after an unclosed tag.\n")
    assert "Text after an unclosed tag." in got


def test_a_placeholder_in_angle_brackets_is_text(tmp_path):
    assert units(tmp_path, "Replace <your-api-key> with yours.\n") == ["Replace <your-api-key> with yours."]


def test_a_pages_title_and_description_count(tmp_path):
    text = "---\ntitle: The page title\ndescription: What the *page* is about\nsidebarTitle: Short\n---\nBody text here.\n"
    alternative = units_module.ALTERNATIVE
    got = units(tmp_path, text)
    assert got == [
        "The page title",
        f"What the *page* is about{alternative}What the page is about",
        "Body text here.",
    ]


def test_custom_and_frame_pages_show_no_title_or_description(tmp_path):
    text = "---\ntitle: Landing title words\ndescription: A page description here\nmode: custom\n---\n\nBody text here.\n"
    assert units(tmp_path, text) == ["Body text here."]
    assert "Landing title words" in units(tmp_path, text.replace("mode: custom", "mode: wide"))
