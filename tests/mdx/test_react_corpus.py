"""Real pages that use custom components show their output, not only their children."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docsgen.mdx import render_mdx
from docsgen.mdx.react import js_engine
from docsgen.mdx.text import html_to_text
from tests.conftest import CORPUS, REAL_SITES
from tests.mdx_helpers import make_ctx

FRONTMATTER = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*(\n|\Z)", re.S)


def render_page(docs: Path, page: str):
    text = (docs / page).read_text(encoding="utf-8")
    m = FRONTMATTER.match(text)
    offset = m.group(0).count("\n") if m else 0
    return render_mdx(text[m.end() :] if m else text, make_ctx(docs, source=page, line_offset=offset))


def children_only(docs: Path, page: str, monkeypatch):
    """The page as docsgen rendered it before components ran (the engine switched off)."""
    with monkeypatch.context() as patch:
        patch.setenv("DOCSGEN_REACT", "0")
        js_engine.engine_module.cache_clear()
        patch.setattr(js_engine, "_engines", {})
        try:
            return render_page(docs, page)
        finally:
            js_engine.engine_module.cache_clear()


def test_mintlify_home_hero_cards_render(monkeypatch):
    result = render_page(CORPUS, "index.mdx")
    assert not [d for d in result.diagnostics if d.code.startswith("react.")]
    text = html_to_text(result.html)
    before = html_to_text(children_only(CORPUS, "index.mdx", monkeypatch).html)
    for title in ("CLI installation", "Web editor", "Quickstart"):
        assert title in text and title not in before


def test_mintlify_counter_example_renders_and_is_interactive():
    result = render_page(CORPUS, "customize/react-components.mdx")
    html = result.html
    assert '<dg-island style="display:contents" data-module="page:customize/react-components.mdx"' in html
    assert "react" in result.assets


REAL_PAGES = [
    ("continuedev__continue", "ide-extensions/chat/model-setup.mdx", "Qwen3 Coder"),
    ("upstash__docs", "redis/overall/getstarted.mdx", None),
    ("upstash__docs", "introduction.mdx", "Build with Upstash"),
]


@pytest.mark.shared
@pytest.mark.parametrize(("site", "page", "expected"), REAL_PAGES)
def test_real_site_component_pages_render_component_output(site, page, expected, monkeypatch):
    docs = REAL_SITES / site
    if not docs.is_dir():
        pytest.fail(f"corpus not found at {docs}")
    result = render_page(docs, page)
    assert [d.format() for d in result.diagnostics if d.code.startswith("react.")] == []
    text = html_to_text(result.html)
    before = children_only(docs, page, monkeypatch)
    assert len(result.html) > len(before.html)  # the components added their output
    assert any(d.code == "react.engine-missing" for d in before.diagnostics)
    if expected:
        assert expected in text and expected not in html_to_text(before.html)
