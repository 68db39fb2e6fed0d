"""The MCP server's index over a built site's Markdown twins: which files are pages, ranking, path resolution."""

from __future__ import annotations

import json
import os

import pytest

from docsgen.build import build
from docsgen.mcp.index import MAX_TWIN_BYTES, PageNotFound, SiteIndex


@pytest.fixture
def built(make_site, tmp_path):
    docs = make_site(
        {
            "docs.json": json.dumps(
                {
                    "name": "Zeta",
                    "theme": "mint",
                    "colors": {"primary": "#0d7f66"},
                    "navigation": {"pages": ["index", "alpha", "beta", "secret"]},
                }
            ),
            "index.mdx": "---\ntitle: Home\n---\nWelcome.",
            "alpha.mdx": "---\ntitle: Alpha tokens\ndescription: About tokens.\n---\nTokens expire after an hour.",
            "beta.mdx": "---\ntitle: Beta\n---\nWebhooks retry. Webhooks are signed. A token is mentioned once.",
            "secret.mdx": "---\ntitle: Secret\nnoindex: true\n---\nThe unicorn password.",
        }
    )
    out = tmp_path / "out"
    build(docs, out)
    return out


def test_pages_are_the_twins_of_indexed_pages(built):
    (built / "notes.md").write_text("# Notes\n\nA Markdown file with no page beside it: unicorn.")
    index = SiteIndex(built)
    assert set(index.pages) >= {"", "alpha", "beta"}
    assert "secret" not in index.pages  # noindex: the site asks not to index it
    assert index.search("unicorn") == []  # neither the noindex page nor a .md file that is no page's twin


def test_title_terms_rank_first_and_results_carry_links(built):
    hits = SiteIndex(built, site_url="https://docs.zeta.test/").search("token", 5)
    assert [h["url"] for h in hits][:2] == ["https://docs.zeta.test/alpha", "https://docs.zeta.test/beta"]
    assert hits[0]["title"] == "Alpha tokens" and hits[0]["excerpt"] == "About tokens."


def test_resolve_accepts_urls_paths_and_twin_paths_and_refuses_the_rest(built, tmp_path):
    index = SiteIndex(built, site_url="https://example.test/docs")
    for ask in ("alpha", "/alpha/", "alpha.md", "https://example.test/docs/alpha", "/alpha#x", "/alpha?q=1"):
        assert index.resolve(ask).url == "alpha", ask
    assert index.resolve("/").url == "" and index.resolve("index.md").url == ""
    for ask in ("../alpha", "/x/../../alpha", "file:///etc/passwd", "/secret", "/notes", "/llms.txt"):
        with pytest.raises(PageNotFound):
            index.resolve(ask)


def test_symlinked_and_oversized_twins_are_bounded(built, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("# Leak\n\nunicorn")
    (built / "leak").mkdir()
    (built / "leak" / "index.html").write_text("<html></html>")
    os.symlink(outside, built / "leak.md")
    (built / "beta.md").write_text("# Beta\n\n" + "w " * MAX_TWIN_BYTES)
    index = SiteIndex(built)
    assert "leak" not in index.pages
    assert len(index.pages["beta"].markdown) == MAX_TWIN_BYTES


def test_language_filter_follows_each_pages_html_lang(built):
    beta = next(p for p in (built / "beta" / "index.html", built / "beta.html") if p.is_file())
    html = beta.read_text(encoding="utf-8")
    assert 'lang="en"' in html
    beta.write_text(html.replace('lang="en"', 'lang="fr-CA"', 1), encoding="utf-8")
    index = SiteIndex(built)
    assert [h["url"] for h in index.search("token", 5, "fr")] == ["/beta"]
    assert "/beta" not in [h["url"] for h in index.search("token", 5, "en")]
    assert {h["language"] for h in index.search("token", 5)} == {"en", "fr-ca"}


def test_a_symlinked_folder_leading_outside_the_site_is_not_served(built, tmp_path):
    outside = tmp_path / "elsewhere"
    (outside / "leak").mkdir(parents=True)
    (outside / "leak.md").write_text("# Leak\n\nunicorn")
    (outside / "leak" / "index.html").write_text("<html></html>")
    os.symlink(outside, built / "linked")
    index = SiteIndex(built)
    assert not any(url.startswith("linked") for url in index.pages)
    with pytest.raises(PageNotFound):
        index.resolve("/linked/leak")
