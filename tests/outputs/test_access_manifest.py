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
