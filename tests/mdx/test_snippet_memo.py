"""A snippet used as content is rendered once per process where its HTML does not depend on the page
(docsgen/mdx/snippet_memo.py): every page after the first takes the kept render, and gets exactly what rendering
it again would give: the same HTML, ids, TOC, assets, icons, warnings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docsgen.mdx import snippet_memo
from docsgen.mdx.parser import MD
from docsgen.mdx.types import MdxResult
from tests.conftest import write_tree
from tests.mdx_helpers import render as render_page

SNIPPET = (
    '<Info>\n  You need a key. <Icon icon="key" /> Keys are in **Settings**.\n</Info>\n\n'
    "```bash\npip install acme\n```\n"
)


SITE_VARIABLES: dict[str, str] = {}  # a build gives every page the site's one dict


def render(body: str, docs: Path, **kwargs) -> MdxResult:
    kwargs.setdefault("variables", SITE_VARIABLES)
    return render_page(body, docs, **kwargs)


@pytest.fixture(autouse=True)
def fresh_memo():
    snippet_memo.clear()
    snippet_memo.Counts.hits = snippet_memo.Counts.misses = 0
    yield
    snippet_memo.clear()


@pytest.fixture
def snippet_parses(monkeypatch):
    """How often a snippet's text was parsed (its first line starts with `<Info>` or `## `)."""
    seen: list[str] = []
    parse = MD.parse

    def counted(src, env=None):
        if src.startswith(("<Info>", "## ", "See ", "Plan ", "Hi ")):
            seen.append(src)
        return parse(src, env)

    monkeypatch.setattr(MD, "parse", counted)
    return seen


def facts(result: MdxResult) -> tuple:
    return (
        result.html,
        result.toc,
        [str(d) for d in result.diagnostics],
        result.assets,
        result.icons,
        result.classes,
        result.dependencies,
    )


def fresh(body: str, docs: Path, **kwargs) -> tuple:
    """The page rendered with nothing kept (what a render without the memo gives)."""
    kept = dict(snippet_memo._kept)
    snippet_memo.clear()
    try:
        return facts(render(body, docs, **kwargs))
    finally:
        snippet_memo._kept.clear()
        snippet_memo._kept.update(kept)


def page(before: str = "", use: str = "<Prerequisites />") -> str:
    return f'import Prerequisites from "/snippets/pre.mdx";\n\n# Page\n\n{before}\n\n{use}\n\nAfter.\n'


def test_second_page_takes_the_kept_render(tmp_path, snippet_parses):
    docs = write_tree(tmp_path / "docs", {"snippets/pre.mdx": SNIPPET})
    first = render(page(), docs, source="v1/a.mdx")
    second = render(page("Other text."), docs, source="v2/de/b.mdx")
    assert len(snippet_parses) == 1  # the snippet's text was parsed for the first page only
    assert snippet_memo.Counts.hits >= 1
    assert '<div class="dg-callout' in second.html and "pip" in second.html
    assert second.icons == first.icons and any("key" in icon for icon in second.icons)
    assert second.assets == first.assets
    assert facts(second) == fresh(page("Other text."), docs, source="v2/de/b.mdx")
    assert second.dependencies == {"snippets/pre.mdx"}


def test_code_index_and_ids_are_the_pages_own(tmp_path):
    snippet = "## Setup\n\nSee the steps.\n\n```bash\nmake\n```\n"
    docs = write_tree(tmp_path / "docs", {"snippets/pre.mdx": snippet})
    bodies = [
        page(),
        page("## Setup\n\n```python\nx = 1\n```\n\n```python\ny = 2\n```"),
        page(),
        page("## Setup-1\n\n## Setup"),
    ]
    for n, body in enumerate(bodies):
        got = facts(render(body, docs, source=f"p{n}.mdx"))
        assert got == fresh(body, docs, source=f"p{n}.mdx"), n
    twice = page("", "<Prerequisites />\n\n<Prerequisites />")
    got = facts(render(twice, docs, source="twice.mdx"))
    assert got == fresh(twice, docs, source="twice.mdx")
    assert 'id="setup"' in got[0] and 'id="setup-1"' in got[0]
    assert 'data-code-index="0"' in got[0] and 'data-code-index="1"' in got[0]


def test_links_resolve_for_each_page(tmp_path):
    docs = write_tree(
        tmp_path / "docs", {"snippets/pre.mdx": "See [the guide](/guide) and ![x](/img/x.png).\n"}
    )
    for source in ("a.mdx", "v2/fr/deep/b.mdx"):
        depth = source.count("/")

        def relative(href: str, depth: int = depth) -> str:
            return "../" * depth + href.lstrip("/")

        got = facts(render(page(), docs, source=source, resolve_link=relative, resolve_asset=relative))
        assert got == fresh(page(), docs, source=source, resolve_link=relative, resolve_asset=relative)
        assert f'href="{"../" * depth}guide"' in got[0]
    assert snippet_memo.Counts.hits == 0  # a render that resolved a link is not kept


def test_warnings_are_reported_on_every_page(tmp_path):
    docs = write_tree(
        tmp_path / "docs", {"snippets/pre.mdx": '<Icon icon="not-an-icon-9" /> and <Widget />\n'}
    )
    for n in range(3):
        result = render(page(), docs, source=f"p{n}.mdx")
        codes = sorted(d.code for d in result.diagnostics)
        assert codes == ["mdx.unknown-component", "mdx.unknown-icon"], codes
        assert all(d.path == "snippets/pre.mdx" for d in result.diagnostics)


def test_props_children_and_variables_are_part_of_the_key(tmp_path):
    docs = write_tree(tmp_path / "docs", {"snippets/pre.mdx": "Hi {name}, plan {{plan}}: {children}\n"})
    pro, team = {"plan": "pro"}, {"plan": "team"}  # a site's variables: one dict for every page
    cases = [
        ('<Prerequisites name="Ada" />', pro),
        ('<Prerequisites name="Bob" />', pro),
        ('<Prerequisites name="Bob" />', team),
        ('<Prerequisites name="Bob">**inner**</Prerequisites>', team),
        ('<Prerequisites name="Bob" />', pro),
    ]
    for use, variables in cases:
        got = facts(render(page("", use), docs, variables=variables))
        assert got == fresh(page("", use), docs, variables=variables)
    htmls = [facts(render(page("", use), docs, variables=v))[0] for use, v in cases]
    assert "Ada" in htmls[0] and "Bob" in htmls[1] and "team" in htmls[2] and "<strong>inner" in htmls[3]
    assert snippet_memo.Counts.hits >= 5


def test_a_changed_snippet_is_rendered_again(tmp_path):
    docs = write_tree(tmp_path / "docs", {"snippets/pre.mdx": "Hi old text.\n"})
    assert "old text" in render(page(), docs).html
    target = docs / "snippets/pre.mdx"
    target.write_text("Hi new text.\n", encoding="utf-8")
    stat = target.stat()
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    html = render(page(), docs).html
    assert "new text" in html and "old text" not in html


def test_memory_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(snippet_memo, "MAX_ENTRIES", 3)
    docs = write_tree(tmp_path / "docs", {"snippets/pre.mdx": "Hi {name}.\n"})
    for n in range(10):
        render(page("", f'<Prerequisites name="n{n}" />'), docs)
    assert len(snippet_memo._kept) == 3
