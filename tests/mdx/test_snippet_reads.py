"""A snippet imported by page after page is checked, read and parsed once per process (docsgen/mdx/files.py `kept`),
and again when it changes; a snippet that comes to lead outside the docs folder is refused as before."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docsgen.mdx import files, snippets
from docsgen.mdx.parser import MD
from docsgen.pages.markdown_export import page_markdown_of
from tests.conftest import write_tree
from tests.htmldom import parse
from tests.mdx_helpers import render

PAGE = (
    'import Intro from "/snippets/intro.mdx";\n'
    'import { plan, Badge } from "/snippets/values.mdx";\n\n'
    "# Page\n\n<Intro />\n\nThe plan is {plan}.\n\n<Badge />\n"
)
SNIPPETS = {
    "snippets/intro.mdx": "Intro **text**.\n",
    "snippets/values.mdx": 'export const plan = "pro";\n\nexport const Badge = () => <b className="badge">B</b>;\n',
}


@pytest.fixture
def reads(monkeypatch):
    """Every snippet file opened for its bytes, every snippet resolved, every snippet parsed for its ESM."""
    seen: dict[str, list[str]] = {"bytes": [], "resolved": [], "parsed": []}
    read_bytes, check = snippets.read_source_bytes, files._check

    def counted_read(path: Path):
        seen["bytes"].append(path.name)
        return read_bytes(path)

    def counted_check(docs_dir: Path, normal: str) -> str:
        seen["resolved"].append(normal)
        return check(docs_dir, normal)

    monkeypatch.setattr(snippets, "read_source_bytes", counted_read)
    monkeypatch.setattr(files, "_check", counted_check)
    parse_md = MD.parse

    def counted_parse(src, env=None):
        if src.startswith("export const plan"):
            seen["parsed"].append("values.mdx")
        return parse_md(src, env)

    monkeypatch.setattr(MD, "parse", counted_parse)
    return seen


def test_each_snippet_is_read_once_for_many_pages(tmp_path, reads):
    docs = write_tree(tmp_path / "docs", SNIPPETS)
    for n in range(5):
        result = render(PAGE, docs, source=f"v{n}/page.mdx")
        assert result.diagnostics == []
        tree = parse(result.html)
        assert "Intro text." in tree.text and "The plan is pro." in tree.text
        assert tree.find("b", cls="badge").text == "B"
    assert sorted(reads["bytes"]) == ["intro.mdx", "values.mdx"]
    assert sorted(set(reads["resolved"])) == ["snippets/intro.mdx", "snippets/values.mdx"]
    assert len(reads["resolved"]) == 2
    assert reads["parsed"] == ["values.mdx"]  # the components' loader parses it once, not once a page


def test_a_changed_snippet_is_read_again(tmp_path, reads):
    docs = write_tree(tmp_path / "docs", SNIPPETS)
    assert "Intro text." in parse(render(PAGE, docs, source="a.mdx").html).text
    (docs / "snippets/intro.mdx").write_text("Changed intro, longer.\n", encoding="utf-8")
    assert "Changed intro, longer." in parse(render(PAGE, docs, source="b.mdx").html).text
    replaced = docs / "snippets/new.mdx"
    replaced.write_text("Other **file**.\n", encoding="utf-8")
    os.replace(replaced, docs / "snippets/intro.mdx")  # another file under the name, same size as before
    assert "Other file." in parse(render(PAGE, docs, source="c.mdx").html).text


def test_a_snippet_that_comes_to_lead_outside_is_refused(tmp_path, reads):
    docs = write_tree(tmp_path / "docs", SNIPPETS)
    outside = write_tree(tmp_path / "outside", {"intro.mdx": "SECRET outside text.\n"})
    assert "Intro text." in parse(render(PAGE, docs, source="a.mdx").html).text
    (docs / "snippets/intro.mdx").unlink()
    (docs / "snippets/intro.mdx").symlink_to(outside / "intro.mdx")
    result = render(PAGE, docs, source="b.mdx")
    assert "SECRET" not in result.html
    assert [d.code for d in result.diagnostics] == ["mdx.missing-snippet"]


def test_the_markdown_twin_reads_each_snippet_once(tmp_path, monkeypatch):
    docs = write_tree(tmp_path / "docs", SNIPPETS)
    opened: list[str] = []
    read_text = Path.read_text

    def counted(self, *args, **kwargs):
        opened.append(self.name)
        return read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", counted)
    for n in range(4):
        twin = page_markdown_of(PAGE, docs, {}, f"v{n}/page.mdx")
        assert "Intro **text**." in twin
    assert opened and sorted(opened) == sorted(set(opened))  # each file once, not once a page


def test_a_page_looks_at_each_snippet_file_once(tmp_path, monkeypatch):
    """Asking whether a snippet may be read, for its text and for its exports takes its identity once a page (the
    page's own `seen`); every page, and the same page rendered again, looks again, so an edit shows."""
    docs = write_tree(tmp_path / "docs", SNIPPETS)
    looked: list[str] = []
    identity = files._identity

    def counted(path: Path):
        looked.append(path.name)
        return identity(path)

    monkeypatch.setattr(files, "_identity", counted)
    for n in range(3):
        assert "The plan is pro." in parse(render(PAGE, docs, source=f"v{n}/page.mdx").html).text
    assert sorted(looked) == sorted(["intro.mdx", "values.mdx"] * 3)  # was 5 a page
    (docs / "snippets/values.mdx").write_text(SNIPPETS["snippets/values.mdx"].replace("pro", "team"), "utf-8")
    assert "The plan is team." in parse(render(PAGE, docs, source="v0/page.mdx").html).text
