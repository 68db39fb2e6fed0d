"""The access manifest a build writes for a site that marks access, its search bundles per access class, the
static-host rules (`_headers`) and the warning that static hosts cannot enforce access."""

from __future__ import annotations

import json

from docsgen.build import build
from tests.server.gate_helpers import FIXTURE


def test_marked_site_splits_search_and_writes_rules(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_BASIC_AUTH", "team:s3cret")
    result = build(FIXTURE, tmp_path / "out")
    out = tmp_path / "out"
    manifest = json.loads((out / "_access.json").read_text(encoding="utf-8"))
    labels = {url: entry["access"] for url, entry in manifest["pages"].items()}
    assert labels["/"] == "public" and labels["/guides/public-intro/"] == "public"  # a public group
    assert labels["/guides/members-guide/"] == "members"
    assert labels["/admin/console/"] == "groups:admin"
    assert labels["/api-reference/list-ledgers/"] == "groups:billing"  # x-mint.groups on the operation
    assert manifest["specs"] == {"api/openapi.json": ["groups:billing", "members"]}
    bundles = {folder: entry["access"] for folder, entry in manifest["search"].items()}
    assert bundles["pagefind"] == "public" and bundles["pagefind/access-members"] == "members"
    assert sorted(v for v in bundles.values() if v.startswith("groups:")) == [
        "groups:admin",
        "groups:billing",
    ]
    # a static host lists the members' bundle for the search box, never a group's
    assert json.loads((out / "pagefind/access.json").read_text()) == {"pagefind": ["pagefind/access-members"]}
    headers = (out / "_headers").read_text(encoding="utf-8")
    assert (
        "/admin/console/\n  X-Robots-Tag: noindex\n  Cache-Control: private, no-store\n  Basic-Auth: team:s3cret"
        in headers
    )
    assert "/guides/public-intro/" not in headers and "/pagefind/access-members/*" in headers
    assert not [d for d in result.diagnostics if d.code == "mdx.expression"]  # {user.firstName} is known
    console = (out / "admin/console/index.html").read_text(encoding="utf-8")
    assert (
        'Hello <span data-dg-user="firstName"></span>, welcome to <span data-dg-user="company.name">'
        in console
    )
    [note] = [d for d in result.diagnostics if d.code == "access.static-host"]
    assert "5 page(s)" in note.message and "Netlify" in note.message


def test_unmarked_site_writes_no_manifest(make_site, tmp_path):
    docs = {
        "name": "x",
        "theme": "mint",
        "colors": {"primary": "#4F46E5"},
        "navigation": {"pages": ["index"]},
    }
    root = make_site({"docs.json": json.dumps(docs), "index.mdx": "---\ntitle: Home\n---\nHi\n"})
    result = build(root, tmp_path / "out")
    assert not (tmp_path / "out" / "_access.json").exists() and not (tmp_path / "out" / "_headers").exists()
    assert not [d for d in result.diagnostics if d.code == "access.static-host"]
    assert "data-access" not in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")


ASSET_SITE = {
    "docs.json": json.dumps(
        {
            "name": "A",
            "theme": "mint",
            "colors": {"primary": "#4F46E5"},
            "navigation": {"groups": [{"group": "G", "pages": ["index", "guides/private", "guides/team"]}]},
        }
    ),
    "index.mdx": "---\ntitle: Home\npublic: true\n---\n\n![Pub](/images/public.png) ![S](/images/shared.png)\n",
    "guides/private.mdx": (
        "---\ntitle: Private\ngroups: [admin]\n---\n\n![Secret](/images/secret.png) "
        '<img src="../images/shared.png" /> [the manual](/guides/manual.pdf) '
        '<img src="https://docs.acme.test/images/absolute.png" />\n'
    ),
    "guides/team.mdx": '---\ntitle: Team\n---\n\n<Frame><img src="/images/secret.png" /></Frame>\n',
    "images/public.png": "p",
    "images/shared.png": "s",
    "images/secret.png": "x",
    "images/absolute.png": "a",
    "images/nobody.png": "n",
    "guides/manual.pdf": "pdf",
    "style.css": "body { color: #111; }",
}


def _rules(headers: str) -> dict[str, list[str]]:
    rules: dict[str, list[str]] = {}
    for block in headers.strip().split("\n/"):
        path, *lines = block.splitlines()
        rules["/" + path.lstrip("/")] = [line.strip() for line in lines]
    return rules


def test_files_only_restricted_pages_show_get_the_per_file_rule(tmp_path, monkeypatch):
    """Images and downloads shown only by restricted pages get their own `_headers` rule (with the Netlify
    password when set); a file a public page shows, a file no page shows and the site's stylesheet do not."""
    from tests.conftest import write_tree

    monkeypatch.setenv("DOCSGEN_BASIC_AUTH", "team:s3cret")
    docs = write_tree(tmp_path / "docs", ASSET_SITE)
    result = build(docs, tmp_path / "out", site_url="https://docs.acme.test")
    rules = _rules((tmp_path / "out" / "_headers").read_text(encoding="utf-8"))
    for path in ("/images/secret.png", "/guides/manual.pdf", "/images/absolute.png"):
        assert rules[path] == [
            "X-Robots-Tag: noindex",
            "Cache-Control: private, no-store",
            "Basic-Auth: team:s3cret",
        ]
    for path in ("/images/public.png", "/images/shared.png", "/images/nobody.png", "/style.css"):
        assert path not in rules, path
    assert "/guides/private/" in rules and "/guides/team.md" in rules
    [note] = [d for d in result.diagnostics if d.code == "access.static-host"]
    assert "3 file(s) only they show" in note.message and "no static host tells one group" in note.message
