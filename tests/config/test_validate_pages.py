"""`docsgen validate` reads every page as `build` does: what a build reports about a page, validate reports too.

And `docsgen dev` shows a missing snippet as a note on its page, where `build` renders nothing.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from docsgen.cli import main
from docsgen.commands.validate_site import check_pages
from docsgen.render import render_body, site_context
from docsgen.site.read import read_site

BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}


def site(make_site, pages: dict[str, str]):
    nav = {"pages": sorted(p.removesuffix(".mdx") for p in pages)}
    return make_site({"docs.json": json.dumps({**BASE, "navigation": nav}), **pages})


def test_validate_finds_a_page_error_that_build_finds(make_site, tmp_path):
    """A page's own error: build confines it to the page (a warning, the site built); validate and --strict fail."""
    page = '# Bad\n\n<Tabs>\n<Tab title="a">\nx\n</Tabs>\n</Tab>\n'
    docs = site(make_site, {"index.mdx": "# Home\n", "bad.mdx": page})
    build = CliRunner().invoke(main, ["build", str(docs), "-o", str(tmp_path / "out")])
    strict = CliRunner().invoke(main, ["build", str(docs), "-o", str(tmp_path / "strict"), "--strict"])
    validate = CliRunner().invoke(main, ["validate", str(docs)])
    assert build.exit_code == 0, build.output
    assert (tmp_path / "out" / "index.html").is_file() and (tmp_path / "out" / "bad" / "index.html").is_file()
    found = [
        line.split(": warning: ")[1] for line in build.output.splitlines() if line.startswith("bad.mdx:")
    ]
    assert found and strict.exit_code == 1 and validate.exit_code == 1, validate.output
    for message in found:
        assert message in strict.output and message in validate.output


def test_validate_reports_page_warnings_and_strict_fails_on_them(make_site):
    docs = site(
        make_site,
        {"index.mdx": "# Home\n\n[Gone](/nowhere)\n\nimport S from '/snippets/none.mdx';\n\n<S />\n"},
    )
    result = CliRunner().invoke(main, ["validate", str(docs)])
    assert result.exit_code == 0, result.output
    assert "index.mdx:3:" in result.output and "[link.broken]" in result.output
    assert "[mdx.missing-snippet]" in result.output
    assert CliRunner().invoke(main, ["validate", str(docs), "--strict"]).exit_code == 1


def test_check_pages_renders_no_generated_page_and_writes_nothing(make_site):
    docs = site(make_site, {"index.mdx": "# Home\n\nText.\n"})
    before = sorted(p.name for p in docs.rglob("*"))
    diagnostics = check_pages(read_site(docs))
    assert [d for d in diagnostics if d.is_error] == []
    assert sorted(p.name for p in docs.rglob("*")) == before


def test_a_missing_snippet_is_a_note_in_dev_and_nothing_in_build(make_site):
    docs = site(
        make_site,
        {"index.mdx": "# Home\n\nimport S from '/snippets/none.mdx';\n\nBefore.\n\n<S />\n\nAfter.\n"},
    )
    html = {}
    for dev in (False, True):
        built = read_site(docs, dev=dev)
        html[dev] = render_body(site_context(built), built.pages["index"], []).html
    assert "Before." in html[False] and "After." in html[False] and "none.mdx" not in html[False]
    assert (
        "snippet not found" in html[True]
        and "After." in html[True]
        and "snippet not found" not in html[False]
    )
