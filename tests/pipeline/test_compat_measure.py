"""bench/compat.py: how a page's units are looked for in its built text (no corpus needed)."""

from __future__ import annotations

import importlib.util
import sys

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "bench"))
_spec = importlib.util.spec_from_file_location("compat_measure", REPO / "bench" / "compat.py")
assert _spec and _spec.loader
compat = importlib.util.module_from_spec(_spec)
sys.modules["compat_measure"] = compat
_spec.loader.exec_module(compat)


def _text(tmp_path, html: str) -> str:
    page = tmp_path / "index.html"
    page.write_text(f"<html><body>{html}</body></html>", encoding="utf-8")
    full, _ = compat.page_text(page)
    return compat.SPACE.sub("", full)


def test_a_link_title_does_not_split_the_sentence_it_is_in(tmp_path):
    text = _text(
        tmp_path, '<p>Uses the <a href="/x" title="Open Source">open library</a> here.</p><img alt="A chart">'
    )
    assert compat.missing_units(["Uses the open library here.", "A chart"], text) == []


def test_a_line_written_twice_must_appear_twice(tmp_path):
    text = _text(tmp_path, "<p>Replace the name with yours.</p><p>Other text here.</p>")
    units = ["Replace the name with yours.", "Other text here.", "Replace the name with yours."]
    assert compat.missing_units(units, text) == ["Replace the name with yours."]


def test_a_prop_counts_in_either_form(tmp_path):
    text = _text(tmp_path, "<div>Python: `script.py`</div>")
    assert compat.missing_units(["Python: `script.py`\x02Python: script.py"], text) == []
    assert compat.missing_units(["Lost title **x**\x02Lost title x"], text) == ["Lost title x"]


def test_only_the_pages_own_column_counts_not_its_table_of_contents(tmp_path):
    """A heading dropped from the page is missed even though the table of contents still names it."""
    page = (
        '<nav class="dg-sidebar-nav"><a>Sidebar entry text</a></nav><main><article><nav>Crumb text here</nav>'
        "<h2>Kept heading</h2><p>Body text.</p></article></main>"
        '<aside class="dg-toc"><a>Dropped heading</a><a>Kept heading</a></aside>'
        '<aside class="dg-toc dg-panel"><p>Panel text here</p></aside>'
    )
    text = _text(tmp_path, page)
    units = [
        "Kept heading",
        "Dropped heading",
        "Body text.",
        "Sidebar entry text",
        "Panel text here",
        "Crumb text here",
    ]
    assert compat.missing_units(units, text) == ["Dropped heading", "Sidebar entry text", "Crumb text here"]


def test_a_new_kind_of_warning_on_a_site_is_reported_against_the_previous_run():
    previous = [{"site": "a", "warnings": {"link.broken": 3}, "errors": {}}, {"site": "gone", "warnings": {}}]
    now = [
        compat.SiteReport("a", 0, 1.0, False, warnings={"link.broken": 5, "openapi.overlay": 1}),
        compat.SiteReport(
            "b", 0, 1.0, False, warnings={"x.y": 1}
        ),  # not in the previous run: nothing to compare
    ]
    new, changed = compat.warning_changes(previous, now)
    assert new == ["a: new openapi.overlay (1)"]
    assert changed == ["a: link.broken 3 -> 5"]
    assert "**a: new openapi.overlay (1)**" in compat.comparison_markdown(new, changed)
    assert compat.warning_changes(previous[:1], [compat.SiteReport("a", 0, 1.0, False, warnings={})]) == (
        [],
        ["a: link.broken 3 -> 0"],
    )
