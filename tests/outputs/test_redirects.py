"""Redirects: pattern matching, the `_redirects` file, static redirect pages and the 404 page's settings."""

from __future__ import annotations

import json
import re

import pytest

from docsgen.build import build
from docsgen.config import load_config
from docsgen.site.url_targets import Rule, match_redirect, redirect_sources, rules
from tests.htmldom import parse

DOCS = {
    "index.mdx": "---\ntitle: Home\n---\nWelcome.\n",
    "new/page.mdx": "---\ntitle: New page\n---\nMoved here.\n",
    "guides/a.mdx": "---\ntitle: Guide A\n---\nA.\n",
    "guides/deep/b.mdx": "---\ntitle: Guide B\n---\nB.\n",
}
REDIRECTS = [
    {"source": "/old", "destination": "/new/page"},
    {"source": "/legacy/page/", "destination": "new/page#moved", "permanent": False},
    {"source": "/blog/:slug*", "destination": "/guides/:slug*", "permanent": False},
    {"source": "/v1/:section/intro", "destination": "/guides/:section"},
    {"source": "/files/*", "destination": "/guides/*"},
    {"source": "/out", "destination": "https://example.com/elsewhere"},
]


def site(make_site, redirects=REDIRECTS, errors=None):
    config = {
        "name": "Redirects",
        "theme": "mint",
        "colors": {"primary": "#0D9373"},
        "navigation": {"pages": ["index", "new/page", "guides/a", "guides/deep/b"]},
        "redirects": redirects,
    }
    if errors is not None:
        config["errors"] = errors
    return make_site({"docs.json": json.dumps(config), **DOCS})


@pytest.mark.parametrize(
    ("source", "path", "expected"),
    [
        ("/blog/:slug*", "/blog/a", "/guides/a"),
        ("/blog/:slug*", "/blog/a/b/", "/guides/a/b"),
        ("/blog/:slug*", "/blog", "/guides"),
        ("/blog/:slug*", "/blogs/a", None),
        ("/v1/:section/intro", "/v1/auth/intro", "/guides/auth"),
        ("/v1/:section/intro", "/v1/a/b/intro", None),
        ("/files/*", "/files/x/y.png", "/guides/x/y.png"),
        ("/old", "/old/index.html", "/new"),
        ("/old", "/older", None),
    ],
)
def test_rule_matching(source, path, expected):
    destination = {
        "/blog/:slug*": "/guides/:slug*",
        "/v1/:section/intro": "/guides/:section",
        "/files/*": "/guides/*",
        "/old": "/new",
    }[source]
    assert Rule(source, destination, 308).match(path) == expected


def test_match_redirect_first_rule_wins_and_status(make_site):
    config, _ = load_config(site(make_site))
    assert match_redirect(config, "/blog/deep/b") == ("/guides/deep/b", 307)
    assert match_redirect(config, "/old/") == ("/new/page", 308)
    assert match_redirect(config, "/nothing") is None
    assert [r.status for r in rules(config)] == [308, 307, 307, 308, 308, 308]
    assert redirect_sources(config) == {
        "legacy/page": "new/page#moved",
        "old": "/new/page",
        "out": "https://example.com/elsewhere",
    }


def test_redirects_file_and_pages(make_site, tmp_path):
    out = tmp_path / "out"
    build(site(make_site), out, strict=True)
    assert (out / "_redirects").read_text().splitlines() == [
        "/old /new/page/ 308",
        "/legacy/page/ /new/page/#moved 307",
        "/blog/* /guides/:splat 307",
        "/v1/:section/intro /guides/:section 308",
        "/files/* /guides/:splat 308",
        "/out https://example.com/elsewhere 308",
    ]
    for source, target in [
        ("old", "../new/page/"),
        ("legacy/page", "../../new/page/#moved"),
        ("out", "https://example.com/elsewhere"),
    ]:
        doc = parse((out / source / "index.html").read_text())
        refresh = doc.find("meta", http_equiv="refresh")
        assert refresh is not None and refresh.attrs["content"] == f"0; url={target}"
    # wildcard sources get a redirect page for each existing page the rule leads to (its old URL)
    for source, target in [
        ("blog/a", "../../guides/a/"),
        ("blog/deep/b", "../../../guides/deep/b/"),
        ("files/deep/b", "../../../guides/deep/b/"),
        ("v1/a/intro", "../../../guides/a/"),
    ]:
        doc = parse((out / source / "index.html").read_text())
        assert doc.find("meta", http_equiv="refresh").attrs["content"] == f"0; url={target}"
    assert not (out / "blog" / "index.html").exists()  # /blog leads to /guides, which is no page
    assert not (out / "v1" / "deep").exists()  # /guides/:section is one segment: guides/deep/b is not reached


def test_no_redirects_no_file(make_site, tmp_path):
    out = tmp_path / "out"
    build(site(make_site, redirects=[]), out, strict=True)
    assert not (out / "_redirects").exists()


def _not_found_config(html: str) -> dict | None:
    match = re.search(r"var c=(\{.*?\}),p=", html)
    return json.loads(match.group(1)) if match else None


def test_404_page_carries_rules_and_settings(make_site, tmp_path):
    out = tmp_path / "out"
    build(site(make_site, errors={"404": {"title": "Lost?", "description": "Try the search."}}), out)
    html = (out / "404.html").read_text()
    doc = parse(html)
    assert doc.find("p", cls="dg-title").text == "Lost?"
    assert "Try the search." in doc.find("div", cls="dg-notfound").text
    data = _not_found_config(html)
    assert data["home"] is True
    assert data["rules"][2] == {"re": "^/blog(?:/(.*))?/?$", "names": ["slug"], "to": "/guides/:slug*"}
    assert _not_found_config((out / "new/page/index.html").read_text()) is None  # only the 404 page


def test_404_redirect_off_and_no_rules_adds_no_script(make_site, tmp_path):
    out = tmp_path / "out"
    build(site(make_site, redirects=[], errors={"404": {"redirect": False}}), out)
    assert _not_found_config((out / "404.html").read_text()) is None


def test_version_folders_are_those_whose_pages_another_version_has_without_them(make_site, tmp_path):
    from docsgen.site.read import read_site
    from docsgen.site.url_targets import version_folders

    pages = {
        "latest": ["en/a", "en/b", "fr/a"],
        "v2": ["v2/en/a", "v2/en/b", "v2/fr/a"],
        "v1": ["v1/en/a", "v1/x"],
    }
    nav = {
        "versions": [
            {"version": name, "groups": [{"group": "G", "pages": keys}]} for name, keys in pages.items()
        ]
    }
    config = {"name": "V", "theme": "mint", "colors": {"primary": "#0d9373"}, "navigation": nav}
    files = {"docs.json": json.dumps(config)}
    files.update(
        {f"{key}.mdx": f"---\ntitle: {key}\n---\n\nText.\n" for keys in pages.values() for key in keys}
    )
    site = read_site(make_site(files), tmp_path / "out")
    # v2/en/a is en/a of "latest" without its folder; so is v1/en/a; "latest" has no folder of its own
    assert version_folders(site) == {"v1", "v2"}
