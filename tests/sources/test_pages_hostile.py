"""Reading pages: frontmatter YAML and page bytes, bounded and located (issue 16 items 6-8)."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from docsgen.cli import main
from docsgen.mdx.limits import MAX_FRONTMATTER_BYTES, MAX_PAGE_BYTES, MAX_YAML_NODES
from docsgen.pages.page import read_page, split_frontmatter
from docsgen.sources.walk import PageFile
from tests.conftest import write_tree

DOCS_JSON = (
    '{"name": "T", "theme": "mint", "colors": {"primary": "#123456"}, '
    '"navigation": {"pages": ["index", "other"]}}'
)
LAUGHS = "lol: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"l{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)
)


def site(tmp_path, index: str | bytes):
    other = "---\ntitle: Other\n---\n\nOther page.\n"
    return write_tree(tmp_path / "docs", {"docs.json": DOCS_JSON, "index.mdx": index, "other.mdx": other})


def build(docs, tmp_path, *extra: str):
    return CliRunner().invoke(main, ["build", str(docs), "-o", str(tmp_path / "out"), *extra])


def only(diags):
    [diag] = diags
    return diag.code, diag.severity.value, diag.line, diag.column


def test_billion_laughs_is_a_located_error_and_validate_fails(tmp_path):
    docs = site(tmp_path, f"---\ntitle: Home\n{LAUGHS}---\n\nBody\n")
    result = CliRunner().invoke(main, ["validate", str(docs)])
    assert result.exit_code == 1
    assert "index.mdx:" in result.output and "[page.frontmatter]" in result.output
    assert f"more than {MAX_YAML_NODES} values once aliases are expanded" in result.output


def test_billion_laughs_located_at_the_expanding_alias():
    meta, _, _, diags = split_frontmatter(f"---\n{LAUGHS}---\nBody\n", "p.mdx")
    code, severity, line, column = only(diags)
    assert (code, severity) == ("page.frontmatter", "error") and meta == {}
    assert 2 < line <= 2 + LAUGHS.count("\n") and column > 1


def test_recursive_alias_is_a_located_error():
    meta, body, _, diags = split_frontmatter("---\ntitle: T\nloop: &a [*a]\n---\nBody\n", "p.mdx")
    assert only(diags) == ("page.frontmatter", "error", 3, 11)
    assert body == "Body\n"


def test_yaml_nested_deeper_than_the_limit_is_a_located_error():
    _, _, _, diags = split_frontmatter("---\nx: " + "[" * 50_000 + "]" * 50_000 + "\n---\n", "p.mdx")
    code, severity, line, _ = only(diags)
    assert (code, severity, line) == ("page.frontmatter", "error", 2)


def test_oversized_frontmatter_is_refused_before_parsing():
    big = "---\ntitle: " + "a" * (MAX_FRONTMATTER_BYTES + 10) + "\n---\nBody\n"
    meta, body, _, diags = split_frontmatter(big, "p.mdx")
    assert only(diags) == ("page.frontmatter", "error", 2, 1) and meta == {} and body == "Body\n"


def test_impossible_date_stays_text_with_a_warning(tmp_path):
    docs = site(tmp_path, "---\ntitle: 2024-13-45\n---\n\nBody\n")
    result = build(docs, tmp_path)
    assert result.exit_code == 0, result.output
    assert "index.mdx:2:8: warning:" in result.output and "not a valid date" in result.output
    assert "<title>2024-13-45" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")


def test_valid_date_title_is_text():
    meta, _, _, diags = split_frontmatter("---\ntitle: 2024-01-02\n---\n", "p.mdx")
    assert meta["title"] == "2024-01-02" and diags == []


@pytest.mark.parametrize(
    ("yaml_line", "key"),
    [("title: {a: 1}", "title"), ("openapi: 12", "openapi"), ("description: [a]", "description")],
)
def test_wrong_type_for_a_text_key_is_a_located_warning(yaml_line, key):
    meta, _, _, diags = split_frontmatter(f"---\nsidebarTitle: S\n{yaml_line}\n---\nBody\n", "p.mdx")
    assert only(diags) == ("page.frontmatter", "warning", 3, 1)
    assert f"`{key}` must be text" in diags[0].message and key not in meta and meta["sidebarTitle"] == "S"


def test_unterminated_frontmatter_is_a_located_warning(tmp_path):
    docs = site(tmp_path, "---\ntitle: Home\n\nBody text\n")
    result = build(docs, tmp_path)
    assert result.exit_code == 0, result.output
    assert "index.mdx:1:1: warning:" in result.output and "never closed" in result.output


def test_nul_bytes_are_located_and_the_page_builds(tmp_path):
    docs = site(tmp_path, "---\ntitle: Home\n---\n\nBefore\n\nbad\x00byte\n")
    result = build(docs, tmp_path)
    assert result.exit_code == 0, result.output
    assert "index.mdx:7:4: warning:" in result.output and "[page.encoding]" in result.output
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "bad\ufffdbyte" in html and "\x00" not in html


def test_non_utf8_page_is_located_and_still_built(tmp_path):
    docs = site(tmp_path, b"---\ntitle: Home\n---\n\nok line\ncaf\xe9 here\n")
    result = build(docs, tmp_path)
    assert result.exit_code == 0, result.output
    assert "index.mdx:6:4: warning:" in result.output and "[page.encoding]" in result.output
    assert "ok line" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    strict = build(docs, tmp_path, "--strict")
    assert strict.exit_code == 1 and "index.mdx:6:4: error:" in strict.output


def test_page_over_the_size_limit_is_not_read(tmp_path):
    docs = site(tmp_path, "---\ntitle: Home\n---\n\nx\n")
    with (docs / "index.mdx").open("ab") as handle:
        handle.truncate(MAX_PAGE_BYTES + 1)
    page, diags = read_page(docs, PageFile("index", "index.mdx", "", "index.html"))
    [diag] = diags
    assert (
        diag.code == "page.unreadable" and diag.path == "index.mdx" and f"{MAX_PAGE_BYTES:,}" in diag.message
    )
    assert page.body == ""


def test_fifo_page_is_not_read(tmp_path):
    docs = write_tree(tmp_path / "docs", {"docs.json": DOCS_JSON})
    os.mkfifo(docs / "index.mdx")
    page, diags = read_page(docs, PageFile("index", "index.mdx", "", "index.html"))
    [diag] = diags
    assert diag.code == "page.unreadable" and "not a regular file" in diag.message
