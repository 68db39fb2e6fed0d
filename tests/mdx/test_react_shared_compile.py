"""A page's component code (its ESM) is compiled once per process for every file holding the same text (a page
copied into each version and language of the docs); what depends on the file (relative imports, the file and line
of a warning) is still the file's own (docsgen/mdx/react/modules.py, compiled_source)."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from docsgen.mdx import render_mdx
from docsgen.mdx.react import modules
from docsgen.mdx.react.js_engine import Engine
from tests.conftest import write_tree
from tests.htmldom import parse
from tests.mdx_helpers import make_ctx

HELLO = (
    'export const greeting = "Hello";\n'
    'export const Hello = ({ name }) => <b className="hi">{greeting} {name}</b>;\n\n'
    '<Hello name="x" />\n'
)


@pytest.fixture
def compiles(monkeypatch):
    """The module texts that reach the engine's compiler (nothing compiled before the test)."""
    monkeypatch.setattr(modules, "_compiled", OrderedDict(), raising=False)
    texts: list[str] = []
    original = Engine.compile

    def counted(self, source, digest, jsx=True, typescript=False):
        texts.append(source)
        return original(self, source, digest, jsx, typescript)

    monkeypatch.setattr(Engine, "compile", counted)
    return texts


def render(docs, body: str, source: str):
    return render_mdx(body, make_ctx(docs, source=source))


def test_the_same_statements_at_other_paths_compile_once(tmp_path, compiles):
    docs = write_tree(tmp_path / "docs", {})
    trees = []
    for source in ("v1/en/page.mdx", "v2/fr/page.mdx", "v3/de/guide/page.mdx"):
        result = render(docs, HELLO, source)
        assert result.diagnostics == []
        trees.append(parse(result.html))
    assert len(compiles) == 1
    assert [tree.find("b", cls="hi").text for tree in trees] == ["Hello x"] * 3


def test_other_statements_compile_their_own(tmp_path, compiles):
    docs = write_tree(tmp_path / "docs", {})
    render(docs, HELLO, "a.mdx")
    other = HELLO.replace('"Hello"', '"Bonjour"')
    tree = parse(render(docs, other, "b.mdx").html)
    assert len(compiles) == 2
    assert tree.find("b", cls="hi").text == "Bonjour x"


def test_a_relative_import_resolves_from_each_page(tmp_path, compiles):
    box = 'export const Box = () => <i className="box">{"%s"}</i>;\n'
    docs = write_tree(tmp_path / "docs", {"v1/box.jsx": box % "one", "v2/box.jsx": box % "two"})
    body = 'import { Box } from "./box.jsx";\n\n<Box />\n'
    texts = [parse(render(docs, body, f"v{v}/page.mdx").html).find("i", cls="box").text for v in (1, 2)]
    assert texts == ["one", "two"]
    assert len(compiles) == 3  # the page's statements once, each box.jsx (other text)


def test_warnings_name_each_page_and_line(tmp_path, compiles):
    docs = write_tree(tmp_path / "docs", {})
    missing = 'import { Gone } from "./gone.jsx";\n\n<Gone>kept</Gone>\n'
    broken = "export const Broken = () => <div>;\n\n<Broken />\n"
    for source in ("v1/page.mdx", "v2/fr/page.mdx"):
        found = {(d.code, d.path, d.line) for d in render(docs, missing, source).diagnostics}
        assert ("react.missing-import", source, 1) in found
        [diag] = [d for d in render(docs, broken, source).diagnostics if d.code == "react.compile"]
        assert (diag.path, diag.line) == (source, 1)
        assert diag.column > 0
    assert len(compiles) == 2  # each text once, its warnings located in each page


def test_a_snippet_module_is_not_looked_up_on_disk_again_and_edits_show(tmp_path, compiles, monkeypatch):
    import os

    regions = 'export const Regions = () => <ul className="regions"><li>{"%s"}</li></ul>;\n'
    docs = write_tree(tmp_path / "docs", {"snippets/regions.mdx": regions % "eu-west-1"})
    body = 'import { Regions } from "/snippets/regions.mdx";\n\n<Regions />\n'
    stats: list[str] = []
    original_stat, original_module = os.stat, modules.Loader._mdx_module

    def counted_stat(path, *args, **kwargs):
        stats.append(str(path))
        return original_stat(path, *args, **kwargs)

    def looked_up(self, spec, current):  # the file system calls made while loading the snippet's module
        monkeypatch.setattr(os, "stat", counted_stat)
        try:
            return original_module(self, spec, current)
        finally:
            monkeypatch.setattr(os, "stat", original_stat)

    monkeypatch.setattr(modules.Loader, "_mdx_module", looked_up)
    texts = [parse(render(docs, body, f"v{v}/page.mdx").html).find("li").text for v in (1, 2)]
    assert texts == ["eu-west-1"] * 2
    assert [s for s in stats if "regions" in s] == []  # the page's own read of the snippet is used
    (docs / "snippets/regions.mdx").write_text(regions % "us-east-1 (edited)", encoding="utf-8")
    assert parse(render(docs, body, "v3/page.mdx").html).find("li").text == "us-east-1 (edited)"
