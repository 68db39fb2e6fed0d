"""Component code is untrusted: errors are located warnings, loops and memory hogs are stopped, nothing escapes."""

from __future__ import annotations

import sys

import pytest

from docsgen.build import build
from docsgen.mdx import render_mdx
from docsgen.mdx.react import js_engine
from tests.conftest import write_tree
from tests.htmldom import parse
from tests.mdx_helpers import make_ctx

OK = 'export const Fine = () => <p className="fine">still fine</p>;\n\n'


def render(docs, body: str, source: str = "page.mdx"):
    return render_mdx(body, make_ctx(docs, source=source))


@pytest.fixture
def docs(tmp_path):
    return write_tree(
        tmp_path / "docs",
        {
            "snippets/thrower.jsx": (
                "export const Thrower = ({ items }) => {\n"
                "  const first = items[0];\n"
                "  return <p>{first.name.toUpperCase()}</p>;\n"
                "};\n"
            )
        },
    )


def test_a_component_that_throws_is_a_located_warning_and_renders_its_children(docs):
    body = (
        "import { Thrower } from '/snippets/thrower.jsx';\n\n"
        + OK
        + "<Thrower items={[{}]}>\n  Kept **child**\n</Thrower>\n\n<Fine />\n"
    )
    result = render(docs, body)
    [diag] = result.diagnostics
    assert (diag.code, diag.severity.value, diag.path, diag.line, diag.column) == (
        "react.component-error",
        "warning",
        "page.mdx",
        5,
        1,
    )
    assert "TypeError" in diag.message and "snippets/thrower.jsx:3" in diag.message
    root = parse(result.html)
    assert root.find("strong").text == "child"
    assert root.find("p", cls="fine").text == "still fine"


def test_a_syntax_error_names_the_file_line_and_column(docs):
    (docs / "snippets" / "broken.jsx").write_text(
        "export const Broken = function () {\n  const x = ;\n  return <div />;\n};\n"
    )
    body = "import { Broken } from '/snippets/broken.jsx';\n\n<Broken>\n  kids\n</Broken>\n"
    result = render(docs, body)
    [diag] = result.diagnostics
    assert (diag.code, diag.path, diag.line, diag.column) == ("react.compile", "snippets/broken.jsx", 2, 13)
    assert "kids" in result.html


def test_an_endless_loop_is_a_located_warning_and_the_page_goes_on(docs, monkeypatch):
    monkeypatch.setattr(js_engine, "TIME_LIMIT", 0.3)
    body = OK + "export const Spin = () => { while (true) {} };\n\n<Spin>\n  fallback\n</Spin>\n\n<Fine />\n"
    result = render(docs, body)
    [diag] = result.diagnostics
    assert (diag.code, diag.severity.value, diag.line) == ("react.limit", "warning", 5)
    assert "endless loop" in diag.message
    assert "fallback" in result.html and "still fine" in result.html


def test_memory_is_limited(docs):
    body = (
        OK
        + "export const Hog = () => { const a = []; while (true) a.push(new Array(100000).fill(7)); };\n\n<Hog />\n\n<Fine />\n"
    )
    result = render(docs, body)
    [diag] = result.diagnostics
    assert diag.code == "react.limit" and "memory" in diag.message
    assert "still fine" in result.html  # a fresh engine takes over


@pytest.mark.parametrize(
    "code",
    [
        "fetch('http://127.0.0.1:9/').then(() => 1)",
        "require('fs').readFileSync('/etc/passwd', 'utf8')",
        "process.env.HOME",
        "globalThis.std.loadFile('/etc/passwd')",
        "new Function('return this')().os.exec(['id'])",
    ],
)
def test_no_network_file_system_or_process(docs, code):
    body = f"export const Escape = () => <p>{{String({code})}}</p>;\n\n<Escape>\n  safe\n</Escape>\n"
    result = render(docs, body)
    [diag] = [d for d in result.diagnostics if d.code != "react.missing-import"]  # require('fs'): also that
    assert diag.code == "react.component-error" and diag.line == 3
    assert "Error" in diag.message
    assert "safe" in result.html and "root:" not in result.html


def test_package_imports_other_than_react_are_reported_at_the_import(docs):
    body = "import fs from 'fs';\n\nexport const Files = () => <p>{fs.readFileSync('/etc/passwd')}</p>;\n\n<Files />\n"
    result = render(docs, body)
    codes = {(d.code, d.line) for d in result.diagnostics}
    assert codes == {("react.missing-import", 1), ("react.component-error", 5)}


def test_without_the_engine_the_site_builds_with_one_warning(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "quickjs", None)  # as on a platform without the wheel
    js_engine.engine_module.cache_clear()
    monkeypatch.setattr(js_engine, "_engines", {})
    page = "export const Hi = () => <p>hi</p>;\n\n<Hi>\n  Child **text**\n</Hi>\n"
    docs = write_tree(
        tmp_path / "docs",
        {
            "docs.json": '{"name": "T", "theme": "mint", "colors": {"primary": "#0D9373"},'
            ' "navigation": {"pages": ["index", "other"]}}',
            "index.mdx": "---\ntitle: One\n---\n" + page,
            "other.mdx": "---\ntitle: Two\n---\n" + page + "\n<Hi />\n",
        },
    )
    try:
        result = build(docs, tmp_path / "out")
    finally:
        js_engine.engine_module.cache_clear()
    react = [d for d in result.diagnostics if d.code.startswith(("react.", "mdx.react"))]
    assert [d.code for d in react] == ["react.engine-missing"]
    assert "quickjs" in react[0].message
    html = (tmp_path / "out" / "index.html").read_text()
    assert "<strong>text</strong>" in html and "<p>hi</p>" not in html


@pytest.mark.parametrize(
    ("component", "expected"),
    [
        ("export const A = () => <div><A /></div>;", "stack overflow"),
        ("export const A = () => <p>{'x'.repeat(6000000)}</p>;", "characters"),
    ],
)
def test_endless_recursion_and_huge_output_are_limits(docs, component, expected):
    result = render(docs, OK + component + "\n\n<A>\n  kept\n</A>\n\n<Fine />\n")
    [diag] = result.diagnostics
    assert diag.code == "react.limit" and diag.severity.value == "warning" and expected in diag.message
    assert "kept" in result.html and "still fine" in result.html and "xxxxxxxxxx" not in result.html
