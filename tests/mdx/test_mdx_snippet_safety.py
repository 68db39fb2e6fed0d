"""Snippet imports: a missing one is a located warning (the rest built), nothing outside the docs folder is read,
and fan-out, depth and cycles are bounded (issues 15 item 1, 16 items 5-7)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from docsgen.cli import main
from docsgen.mdx.limits import MAX_SNIPPET_EXPANSIONS
from docsgen.mdx.text import html_to_text
from tests.conftest import write_tree
from tests.mdx_helpers import render

DOCS_JSON = '{"name": "T", "theme": "mint", "colors": {"primary": "#123456"}, "navigation": {"pages": ["index", "other"]}}'


def test_missing_snippet_used_only_in_a_comment_warns_and_the_site_builds(tmp_path):
    docs = write_tree(
        tmp_path / "docs",
        {
            "docs.json": DOCS_JSON,
            "index.mdx": "---\ntitle: Home\n---\n\nimport Gone from '/snippets/gone.mdx'\n\nHome text.\n\n{/* <Gone /> */}\n",
            "other.mdx": "---\ntitle: Other\n---\n\nOther text.\n",
        },
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(docs), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "index.mdx:5:1: warning:" in result.output and "[mdx.missing-snippet]" in result.output
    assert "Home text." in (out / "index.html").read_text(encoding="utf-8")
    assert (out / "other" / "index.html").is_file()
    strict = CliRunner().invoke(main, ["build", str(docs), "-o", str(tmp_path / "out2"), "--strict"])
    assert strict.exit_code == 1 and "index.mdx:5:1: error:" in strict.output


def test_missing_snippet_renders_nothing_in_build_and_a_note_in_dev(tmp_path):
    source = "import Gone from '/snippets/gone.mdx'\n\nBefore.\n\n<Gone />\n\nAfter.\n"
    built = render(source, docs_dir=tmp_path)
    assert html_to_text(built.html) == "Before.\n\nAfter."
    dev = render(source, docs_dir=tmp_path, dev=True)
    assert "snippet not found" in html_to_text(dev.html)
    assert [d.code for d in dev.diagnostics] == ["mdx.missing-snippet"]


@pytest.mark.parametrize("target", ["../secret.mdx", "../../../../secret.mdx", "/../secret.mdx"])
def test_import_outside_the_docs_folder_is_never_read(tmp_path, target):
    (tmp_path / "secret.mdx").write_text("TOP SECRET\n", encoding="utf-8")
    docs = write_tree(tmp_path / "docs", {"page.mdx": "x"})
    result = render(f"import S from '{target}'\n\n<S />\n", docs_dir=docs, line_offset=1)
    assert "TOP SECRET" not in result.html
    [diag] = result.diagnostics
    assert (diag.code, diag.severity.value, diag.line, diag.column) == (
        "mdx.missing-snippet",
        "warning",
        2,
        1,
    )
    assert "outside the docs folder" in diag.message


def test_symlinked_snippet_pointing_outside_is_never_read(tmp_path):
    (tmp_path / "secret.mdx").write_text("TOP SECRET\n", encoding="utf-8")
    docs = write_tree(tmp_path / "docs", {"snippets/ok.mdx": "fine"})
    os.symlink(tmp_path / "secret.mdx", docs / "snippets" / "link.mdx")
    os.symlink("/dev/zero", docs / "snippets" / "zero.mdx")
    source = "import L from '/snippets/link.mdx'\nimport Z from '/snippets/zero.mdx'\n\n<L />\n\n<Z />\n"
    result = render(source, docs_dir=docs)
    assert "TOP SECRET" not in result.html
    assert [(d.code, d.line) for d in result.diagnostics] == [
        ("mdx.missing-snippet", 1),
        ("mdx.missing-snippet", 2),
    ]
    assert "outside the docs folder" in result.diagnostics[0].message


def test_legacy_snippet_file_outside_is_refused(tmp_path):
    (tmp_path / "secret.mdx").write_text("TOP SECRET\n", encoding="utf-8")
    docs = write_tree(tmp_path / "docs", {"page.mdx": "x"})
    result = render('<Snippet file="../../secret.mdx" />\n', docs_dir=docs)
    assert "TOP SECRET" not in result.html
    assert [d.code for d in result.diagnostics] == ["mdx.missing-snippet"]


def test_symlink_loop_between_snippets_is_a_located_warning(tmp_path):
    docs = write_tree(tmp_path / "docs", {"page.mdx": "x"})
    (docs / "snippets").mkdir()
    os.symlink(docs / "snippets" / "b.mdx", docs / "a.mdx")
    os.symlink(docs / "a.mdx", docs / "snippets" / "b.mdx")
    result = render("import A from '/a.mdx'\n\n<A />\n", docs_dir=docs)
    [diag] = result.diagnostics
    assert (diag.code, diag.line, diag.column) == ("mdx.missing-snippet", 1, 1)


def test_snippet_fan_out_is_bounded(tmp_path):
    """Each level imports the next twice: 2^20 renders unbounded; stops at the limit with one warning."""
    files = {}
    for level in range(20):
        files[f"snippets/s{level}.mdx"] = (
            f"import N from '/snippets/s{level + 1}.mdx'\n\n<N />\n\n<N />\n" if level < 19 else "leaf\n"
        )
    docs = write_tree(tmp_path / "docs", files)
    result = render("import S from '/snippets/s0.mdx'\n\n<S />\n", docs_dir=docs)
    codes = [d.code for d in result.diagnostics]
    assert codes == ["mdx.too-many-snippets"]
    assert result.diagnostics[0].path.startswith("snippets/")
    assert result.html.count("leaf") <= MAX_SNIPPET_EXPANSIONS


def test_snippet_cycle_is_a_warning_and_the_page_renders(tmp_path):
    docs = write_tree(
        tmp_path / "docs",
        {"snippets/loop.mdx": "Loop text.\n\nimport L from '/snippets/loop.mdx'\n\n<L />\n"},
    )
    result = render("import L from '/snippets/loop.mdx'\n\n<L />\n", docs_dir=docs)
    assert [(d.code, d.severity.value) for d in result.diagnostics] == [("mdx.snippet-cycle", "warning")]
    assert "Loop text." in result.html


def test_fifo_snippet_does_not_hang(tmp_path: Path):
    docs = write_tree(tmp_path / "docs", {"page.mdx": "x"})
    (docs / "snippets").mkdir()
    os.mkfifo(docs / "snippets" / "pipe.mdx")
    result = render("import P from '/snippets/pipe.mdx'\n\n<P />\n", docs_dir=docs)
    [diag] = result.diagnostics
    assert diag.code == "mdx.missing-snippet" and "not a regular file" in diag.message
