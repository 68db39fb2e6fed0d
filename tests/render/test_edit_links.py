""" "Edit this page" and "Report an issue": repository URLs of GitHub, GitLab and Bitbucket (from docs.json or the
git remote, credentials never kept), drawn on pages by docs.json feedback.suggestEdit / raiseIssue and by a
legacy mint.json's feedback keys; a located warning when the repository is unknown."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from docsgen.build import build
from docsgen.render.edit_links import Repository, parse_remote
from tests.conftest import write_tree


@pytest.mark.parametrize(
    ("remote", "expected"),
    [
        ("git@github.com:acme/docs.git", ("github", "https://github.com/acme/docs")),
        (
            "https://x-access-token:s3cret@github.com/acme/docs.git",
            ("github", "https://github.com/acme/docs"),
        ),
        (
            "ssh://git@gitlab.acme.com:2222/team/sub/docs.git",
            ("gitlab", "https://gitlab.acme.com/team/sub/docs"),
        ),
        ("https://gitlab.com/team/docs", ("gitlab", "https://gitlab.com/team/docs")),
        ("git@bitbucket.org:ws/docs.git", ("bitbucket", "https://bitbucket.org/ws/docs")),
        ("https://github.example.com/org/docs/", ("github", "https://github.example.com/org/docs")),
        ("https://example.com/org/docs.git", None),
        ("file:///srv/git/docs.git", None),
        ("git@github.com:docs", None),
        ("https://github.com/acme/../docs", None),
    ],
)
def test_remote_shapes(remote, expected):
    assert parse_remote(remote) == expected
    if expected:
        assert "s3cret" not in expected[1]


def test_edit_and_issue_urls_per_host():
    github = Repository("github", "https://github.com/acme/docs", "main", "docs")
    assert github.edit_url("guides/a b.mdx") == "https://github.com/acme/docs/edit/main/docs/guides/a%20b.mdx"
    issue = urlsplit(github.issue_url("Issue on docs: A", "Page: /a/"))
    assert issue.path == "/acme/docs/issues/new" and parse_qs(issue.query)["body"] == ["Page: /a/"]
    gitlab = Repository("gitlab", "https://gitlab.com/team/docs", "release/2", "")
    assert gitlab.edit_url("index.mdx") == "https://gitlab.com/team/docs/-/edit/release%2F2/index.mdx"
    query = parse_qs(urlsplit(gitlab.issue_url("T", "B")).query)
    assert query == {"issue[title]": ["T"], "issue[description]": ["B"]}
    bitbucket = Repository("bitbucket", "https://bitbucket.org/ws/docs", "main", "site")
    assert bitbucket.edit_url("x.mdx") == "https://bitbucket.org/ws/docs/src/main/site/x.mdx?mode=edit"
    assert urlsplit(bitbucket.issue_url("T", "B")).path == "/ws/docs/issues/new"


DOCS = {
    "name": "Acme",
    "theme": "mint",
    "colors": {"primary": "#4F46E5"},
    "navigation": {"pages": ["index", "guide"]},
}
PAGES = {"index.mdx": "---\ntitle: Home\n---\nHi\n", "guide.mdx": "---\ntitle: The guide\n---\nRead me\n"}


def _repo(tmp_path: Path, docs_json: dict, name: str = "docs.json") -> Path:
    repo = tmp_path / "repo"
    write_tree(repo / "site", {name: json.dumps(docs_json), **PAGES})
    for args in (("init", "-q", "-b", "trunk"), ("remote", "add", "origin", "git@github.com:acme/docs.git")):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)
    return repo / "site"


def _links(out: Path, page: str) -> dict[str, str]:
    html = (out / page / "index.html").read_text(encoding="utf-8")
    found = {}
    for kind in ("edit", "issue"):
        marker = f'class="dg-{kind}-link" href="'
        if marker in html:
            found[kind] = html.split(marker)[1].split('"')[0].replace("&amp;", "&")
    return found


def test_links_from_the_git_remote(tmp_path):
    docs = _repo(tmp_path, {**DOCS, "feedback": {"suggestEdit": True, "raiseIssue": True}})
    build(docs, tmp_path / "out", site_url="https://docs.acme.test")
    links = _links(tmp_path / "out", "guide")
    assert links["edit"] == "https://github.com/acme/docs/edit/trunk/site/guide.mdx"
    query = parse_qs(urlsplit(links["issue"]).query)
    assert query["title"] == ["Issue on docs: The guide"]
    assert query["body"][0].startswith("Page: https://docs.acme.test/guide/\nSource: guide.mdx")


def test_docs_json_repository_wins_and_each_switch_is_separate(tmp_path):
    feedback = {"raiseIssue": True, "repository": "https://gitlab.com/team/handbook", "branch": "live"}
    docs = _repo(tmp_path, {**DOCS, "feedback": feedback})
    build(docs, tmp_path / "out")
    links = _links(tmp_path / "out", "guide")
    assert set(links) == {"issue"} and links["issue"].startswith(
        "https://gitlab.com/team/handbook/-/issues/new?"
    )


def test_legacy_mint_json_feedback_keys(tmp_path):
    mint = {
        "name": "Acme",
        "navigation": [{"group": "Start", "pages": ["index", "guide"]}],
        "feedback": {"suggestEdit": True},
    }
    docs = _repo(tmp_path, mint, "mint.json")
    build(docs, tmp_path / "out")
    assert _links(tmp_path / "out", "guide") == {
        "edit": "https://github.com/acme/docs/edit/trunk/site/guide.mdx"
    }


def test_unknown_repository_is_a_located_warning(make_site, tmp_path):
    root = make_site({"docs.json": json.dumps({**DOCS, "feedback": {"suggestEdit": True}}), **PAGES})
    result = build(root, tmp_path / "out")
    [note] = [d for d in result.diagnostics if d.code == "feedback.no-repository"]
    assert note.path == "docs.json" and note.json_path == "feedback.suggestEdit"
    assert _links(tmp_path / "out", "guide") == {}
