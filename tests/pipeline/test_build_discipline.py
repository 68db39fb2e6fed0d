"""Build discipline: atomic output, refused clashes, deterministic bytes, --strict, init, golden output."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from docsgen.build import build
from docsgen.cli import main
from docsgen.common.errors import DocsgenError, warning
from tests.conftest import FIXTURES, REPO

BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}


def site_files(nav: dict, **pages: str) -> dict[str, str]:
    return {"docs.json": json.dumps({**BASE, "navigation": nav}, indent=2), **pages}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_failed_build_leaves_previous_output_untouched(make_site, tmp_path):
    site = make_site(site_files({"pages": ["index"]}, **{"index.mdx": "# Home\n"}))
    out = tmp_path / "out"
    build(site, out)
    before = snapshot(out)
    (site / "docs.json").write_text('{"name": "X",,}')
    result = CliRunner().invoke(main, ["build", str(site), "-o", str(out)])
    assert result.exit_code == 1 and "invalid JSON" in result.output
    assert snapshot(out) == before
    assert [
        p.name for p in tmp_path.iterdir() if p.name.startswith(".out")
    ] == []  # no temp folder left behind


def test_two_pages_writing_one_path_are_refused(make_site, tmp_path):
    site = make_site(
        site_files({"pages": ["guide", "guide/index"]}, **{"guide.mdx": "a", "guide/index.mdx": "b"})
    )
    with pytest.raises(DocsgenError) as exc:
        build(site, tmp_path / "out")
    assert any(
        d.code == "write.duplicate-output" and "guide/index.html" in d.message for d in exc.value.diagnostics
    )
    assert not (tmp_path / "out").exists()


def test_output_is_byte_identical_across_builds(tmp_path):
    build(FIXTURES / "nav-languages", tmp_path / "a")
    build(FIXTURES / "nav-languages", tmp_path / "b")
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_strict_turns_warnings_into_errors(make_site, tmp_path):
    site = make_site(site_files({"pages": ["index", "missing"]}, **{"index.mdx": "# Home\n"}))
    result = build(site, tmp_path / "ok")
    assert [d.code for d in result.warnings] == ["nav.missing-page"]
    with pytest.raises(DocsgenError):
        build(site, tmp_path / "strict", strict=True)
    assert not (tmp_path / "strict").exists()


def test_cli_summary_line(make_site, tmp_path):
    site = make_site(site_files({"pages": ["index"]}, **{"index.mdx": "# Home\n"}))
    result = CliRunner().invoke(main, ["build", str(site), "-o", str(tmp_path / "o")])
    assert result.exit_code == 0
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Built 1 pages") and "0 warning(s)" in last and "s ->" in last


def test_init_writes_a_site_that_builds_and_refuses_to_overwrite(tmp_path):
    runner = CliRunner()
    first = runner.invoke(main, ["init", "-o", str(tmp_path / "starter")])
    assert first.exit_code == 0, first.output
    result = build(tmp_path / "starter", tmp_path / "out")
    assert result.pages == 4 and not result.warnings
    second = runner.invoke(main, ["init", "-o", str(tmp_path / "starter")])
    assert second.exit_code == 1 and "already exists" in second.output
    here_dir = tmp_path / "here"
    here_dir.mkdir()
    cwd = os.getcwd()
    os.chdir(here_dir)
    try:
        here = runner.invoke(main, ["init"])
    finally:
        os.chdir(cwd)
    assert here.exit_code == 0 and (here_dir / "docs.json").is_file()  # without -o: the working directory


def test_static_files_are_copied_and_pages_are_pretty_urls(make_site, tmp_path):
    site = make_site(
        {
            **site_files(
                {"pages": ["index", "a/b"]},
                **{"index.mdx": "![logo](/images/logo.svg)\n\n[b](a/b)", "a/b.mdx": "[home](../index)"},
            ),
            "images/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
            "snippets/s.mdx": "snippet",
            ".git/config": "x",
            "node_modules/x.js": "x",
        }
    )
    out = tmp_path / "out"
    build(site, out)
    assert (out / "images/logo.svg").is_file() and (out / "a/b/index.html").is_file()
    assert (
        not (out / "snippets").exists()
        and not (out / ".git").exists()
        and not (out / "node_modules").exists()
    )
    index = (out / "index.html").read_text()
    assert 'src="images/logo.svg"' in index and 'href="a/b/"' in index
    assert 'href="../../"' in (out / "a/b/index.html").read_text()
    assert (out / "404.html").is_file()


GOLDEN = REPO / "tests" / "golden"


@pytest.mark.parametrize("fixture", ["nav-tabs", "api-site", "components"])
def test_golden_output(tmp_path, fixture, monkeypatch):
    """Compare a fixture build with committed output; DOCSGEN_UPDATE_GOLDEN=1 accepts intended changes.

    nav-tabs: navigation; api-site: generated OpenAPI pages, playground data, twins; components: MDX components.
    """
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # "last updated" dates do not follow file times
    out = tmp_path / "out"
    build(FIXTURES / fixture, out)
    golden = GOLDEN / fixture
    # Theme assets and the Pagefind index (binary, versioned by Pagefind) are checked by their own tests.
    got = {k: v for k, v in snapshot(out).items() if not k.startswith(("_static/", "pagefind/"))}
    if os.environ.get("DOCSGEN_UPDATE_GOLDEN"):
        shutil.rmtree(golden, ignore_errors=True)
        for rel, data in got.items():
            (golden / rel).parent.mkdir(parents=True, exist_ok=True)
            (golden / rel).write_bytes(data)
    expected = {k: v for k, v in snapshot(golden).items()}
    assert sorted(got) == sorted(expected)
    for rel in expected:
        assert got[rel].decode() == expected[rel].decode(), (
            f"{rel} differs from tests/golden (DOCSGEN_UPDATE_GOLDEN=1 to accept)"
        )


def test_search_index_is_collected_while_pages_are_written_and_a_late_strict_error_leaves_no_output(
    make_site, tmp_path, monkeypatch
):
    import docsgen.outputs.search as search

    monkeypatch.setenv("DOCSGEN_CACHE", "0")
    site = make_site(site_files({"pages": ["index", "a"]}, **{"index.mdx": "# Home\n", "a.mdx": "# A\n"}))
    out = tmp_path / "out"
    seen: list[list[str]] = []
    real_add_to = search.PendingIndex.add_to

    def add_to(self, files):
        # the pages are already in the temporary output folder when the build waits for Pagefind
        (tmp,) = [p for p in tmp_path.iterdir() if p.name.startswith(".out.tmp-")]
        seen.append(sorted(p.relative_to(tmp).as_posix() for p in tmp.rglob("index.html")))
        real_add_to(self, files)

    monkeypatch.setattr(search.PendingIndex, "add_to", add_to)
    build(site, out)
    assert seen == [["a/index.html", "index.html"]]
    assert (out / "pagefind" / "pagefind-entry.json").is_file()
    before = snapshot(out)

    def failing(self, files):
        files.diagnostics.append(warning("search.index", "the search index could not be built: boom"))

    monkeypatch.setattr(search.PendingIndex, "add_to", failing)
    result = build(site, tmp_path / "lenient")  # a warning without --strict: the site is written
    assert any(d.code == "search.index" for d in result.diagnostics)
    with pytest.raises(DocsgenError) as refused:
        build(site, out, strict=True)
    assert "search.index" in str(refused.value.diagnostics)
    assert snapshot(out) == before  # refused after the pages were written: the old site stays, whole
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]
