"""Links as Mintlify resolves them: without the version on a versioned page, and through wildcard redirects."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.build import build
from docsgen.commands.broken_links import check_site
from tests.htmldom import parse

BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}


def content_links(out: Path, rel: str) -> dict[str, str]:
    """Return {link text: href} of the links in a built page's content."""
    doc = parse((out / rel).read_text(encoding="utf-8"))
    article = doc.find("article") or doc
    return {a.text.strip(): a.attrs.get("href", "") for a in article.find_all("a") if a.text.strip()}


def versioned_site(make_site) -> Path:
    navigation = {
        "versions": [
            {
                "version": "v2",
                "default": True,
                "groups": [{"group": "G", "pages": ["v2/en/index", "v2/en/concepts/x"]}],
            },
            {
                "version": "v1",
                "groups": [{"group": "G", "pages": ["en/index", "en/concepts/x", "en/only-v1"]}],
            },
        ]
    }
    page = "# {t}\n\n[Concept](/en/concepts/x) [Only](/en/only-v1) [Other](/v2/en/concepts/x)\n"
    return make_site(
        {
            "docs.json": json.dumps({**BASE, "navigation": navigation}),
            "v2/en/index.mdx": page.format(t="Two"),
            "v2/en/concepts/x.mdx": "# X2\n",
            "en/index.mdx": page.format(t="One"),
            "en/concepts/x.mdx": "# X1\n",
            "en/only-v1.mdx": "# Only\n",
        },
        name="versioned",
    )


def test_a_link_without_the_version_goes_to_the_pages_own_version(make_site, tmp_path):
    out = tmp_path / "out"
    result = build(versioned_site(make_site), out)
    assert [d for d in result.diagnostics if d.code == "link.broken"] == []
    v2 = content_links(out, "v2/en/index.html")
    assert v2["Concept"] == "../../v2/en/concepts/x/"  # not v1's en/concepts/x
    assert v2["Only"] == "../../en/only-v1/"  # no v2 page of that name: the page as written
    v1 = content_links(out, "en/index.html")
    assert v1["Concept"] == "../en/concepts/x/"
    assert v1["Other"] == "../v2/en/concepts/x/"


def test_every_version_in_its_own_folder(make_site, tmp_path):
    navigation = {
        "versions": [
            {"version": f"v{n}", "groups": [{"group": "G", "pages": [f"v{n}/index", f"v{n}/guide"]}]}
            for n in (1, 2)
        ]
    }
    page = "# Home\n\n[Guide](/guide)\n"
    files = {
        f"v{n}/{name}.mdx": page if name == "index" else "# G\n"
        for n in (1, 2)
        for name in ("index", "guide")
    }
    site = make_site({"docs.json": json.dumps({**BASE, "navigation": navigation}), **files}, name="folders")
    out = tmp_path / "out"
    result = build(site, out)
    assert [d for d in result.diagnostics if d.code == "link.broken"] == []
    assert content_links(out, "v1/index.html")["Guide"] == "../v1/guide/"
    assert content_links(out, "v2/index.html")["Guide"] == "../v2/guide/"


WILDCARDS = [
    {"source": "/old-guides/:slug*", "destination": "/guides/:slug*"},
    {"source": "/docs/:path*", "destination": "/:path*"},
    {"source": "/ext/:slug*", "destination": "https://elsewhere.example/:slug*"},
]


def wildcard_site(make_site) -> Path:
    body = "# Home\n\n[A](/old-guides/a) [Deep](/docs/guides/deep/b#part) [Ext](/ext/x/y) [Gone](/old-guides/none)\n"
    return make_site(
        {
            "docs.json": json.dumps(
                {
                    **BASE,
                    "navigation": {"pages": ["index", "guides/a", "guides/deep/b"]},
                    "redirects": WILDCARDS,
                }
            ),
            "index.mdx": body,
            "guides/a.mdx": "# A\n",
            "guides/deep/b.mdx": "# B\n\n## Part\n",
        },
        name="wildcards",
    )


def test_links_matching_a_wildcard_redirect_go_to_its_destination(make_site, tmp_path):
    out = tmp_path / "out"
    result = build(wildcard_site(make_site), out)
    broken = [d.message for d in result.diagnostics if d.code == "link.broken"]
    assert broken == [
        "link to '/old-guides/none' does not match any page or file"
    ]  # its destination is no page
    links = content_links(out, "index.html")
    assert links["A"] == "guides/a/"
    assert links["Deep"] == "guides/deep/b/#part"
    assert links["Ext"] == "https://elsewhere.example/x/y"


def test_wildcard_redirects_get_redirect_pages_for_the_pages_they_lead_to(make_site, tmp_path):
    out = tmp_path / "out"
    build(wildcard_site(make_site), out)
    for source, target in [
        ("old-guides/a", "../../guides/a/"),
        ("old-guides/deep/b", "../../../guides/deep/b/"),
        ("docs/guides/a", "../../../guides/a/"),
        ("docs", "../"),
    ]:
        doc = parse((out / source / "index.html").read_text(encoding="utf-8"))
        assert doc.find("meta", http_equiv="refresh").attrs["content"] == f"0; url={target}", source
    assert not (out / "ext").exists()  # an external destination cannot be run backwards: _redirects has it
    assert "/ext/* https://elsewhere.example/:splat 308" in (out / "_redirects").read_text()


def test_broken_links_command_follows_wildcard_redirects_and_versions(make_site):
    report = check_site(wildcard_site(make_site))
    assert [f.message for f in report.findings] == ["broken link '/old-guides/none' (no page or file)"]
    assert check_site(versioned_site(make_site)).findings == []
