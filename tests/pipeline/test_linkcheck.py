"""`docsgen broken-links`: the exact report for a fixture with known broken links, anchors and nav entries."""

from __future__ import annotations

import json

from click.testing import CliRunner

from docsgen.cli import main
from docsgen.commands.broken_links import check_site, html_facts
from tests.conftest import FIXTURES

FIXTURE = FIXTURES / "broken-links"

# The documented format of every docsgen problem: file:line:column: severity: message [code]
BROKEN_PAGES = [
    "docs.json:7:43: error: broken link '/status-page' (no page or file) [link.broken]",
    "docs.json:13:60: error: broken link 'guides/removed' (no page or file) [link.broken]",
    "docs.json:19:45: error: broken link '/guides/gone' (no page or file) [link.broken]",
    "guides/usage.mdx:7:56: error: broken link '../guides/old-page' (no page or file) [link.broken]",
    "guides/usage.mdx:9:60: error: broken link '/does/not/exist' (no page or file) [link.broken]",
    "index.mdx:9:28: error: broken link '/guides/missing' (no page or file) [link.broken]",
    "index.mdx:9:73: error: broken link './nope.mdx' (no page or file) [link.broken]",
    "index.mdx:15:18: error: broken link '/images/missing.png' (no page or file) [link.broken]",
    "snippets/setup-tip.mdx:2:53: error: broken link '/guides/nothing-here' (no page or file) [link.broken]",
]
MISSING_ANCHORS = [
    "guides/setup.mdx:15:33: error: missing anchor '#no-such-section' on page /guides/usage/ [link.missing-anchor]",
    "index.mdx:7:68: error: missing anchor '#uninstall' on page /guides/setup/ [link.missing-anchor]",
    "index.mdx:11:45: error: missing anchor '#nowhere' on page / [link.missing-anchor]",
]


def _sort_key(line: str) -> tuple[str, int, int, str]:
    path, number, column, message = line.split(":", 3)
    return path, int(number), int(column), message


def run(*args: str):
    return CliRunner().invoke(main, ["broken-links", *args])


def test_exact_report_with_anchors():
    result = run(str(FIXTURE), "--check-anchors")
    assert result.exit_code == 1, result.output
    expected = sorted(BROKEN_PAGES + MISSING_ANCHORS, key=_sort_key)
    assert result.stdout.splitlines() == expected
    assert "12 broken link(s)" in result.stderr


def test_anchors_checked_only_on_request():
    result = run(str(FIXTURE))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == sorted(BROKEN_PAGES, key=_sort_key)


def test_json_format():
    result = run(str(FIXTURE), "--format", "json")
    data = json.loads(result.stdout)
    assert data["pages"] == 3
    assert {
        "path": "index.mdx",
        "line": 9,
        "column": 28,
        "code": "link.broken",
        "message": "broken link '/guides/missing' (no page or file)",
    } in data["broken"]


def test_clean_site_exits_zero(make_site):
    docs = make_site(
        {
            "docs.json": json.dumps(
                {
                    "name": "Clean",
                    "theme": "maple",
                    "colors": {"primary": "#0D9373"},
                    "navigation": {"pages": ["index", "other"]},
                }
            ),
            "index.mdx": "# Hi\n\n[Other](/other#part) and [top](#hi) and [mail](mailto:a@b.c).\n",
            "other.mdx": "## Part\n\nBack [home](/).\n",
        }
    )
    result = run(str(docs), "--check-anchors")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert "0 broken link(s)" in result.stderr


def test_missing_folder_is_a_clean_error(tmp_path):
    result = run(str(tmp_path / "nope"))
    assert result.exit_code != 0
    assert "Traceback" not in result.output


def test_generated_html_is_checked_too():
    report = check_site(FIXTURE, anchors=True)
    assert report.links > 30  # page bodies, sidebars, header, pagination and redirect pages
    assert report.pages == 3


def test_html_facts_collects_ids_and_links():
    facts = html_facts('<h2 id="a">A</h2><a name="b"></a><a href="x/">x</a><img src="i.png"><a href="#a">')
    assert facts.ids == {"a", "b"}
    assert facts.links == ["x/", "i.png", "#a"]
