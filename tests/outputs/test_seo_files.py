"""SEO: sitemap.xml, robots.txt, canonical/og/twitter meta, noindex and JSON-LD, parsed from a real build."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET

import pytest

from docsgen.build import build
from tests.conftest import FIXTURES
from tests.htmldom import parse as parse_html

SITE = FIXTURES / "site-features"
URL = "https://docs.widgetly.example"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("seo") / "out"
    result = build(SITE, out, site_url=URL + "/")
    return out, result


def head(out, rel: str):
    return parse_html((out / rel).read_text(encoding="utf-8"))


def metas(doc) -> dict[str, str]:
    found = {}
    for m in doc.find_all("meta"):
        key = m.attrs.get("name") or m.attrs.get("property")
        if key:
            found[key] = m.attrs.get("content")
    return found


def test_sitemap_lists_navigable_and_searchable_false_pages_only(built):
    out, _ = built
    root = ET.fromstring((out / "sitemap.xml").read_bytes())
    locs = [e.text for e in root.findall("s:url/s:loc", NS)]
    assert locs == [
        f"{URL}/",
        f"{URL}/quickstart/",
        f"{URL}/v2/setup/",
        f"{URL}/secret-notes/",
        f"{URL}/reference/widgets/",
        f"{URL}/archive/kept/",
        f"{URL}/v1/setup/",
    ]


def test_robots_txt_points_at_the_sitemap(built):
    out, _ = built
    lines = (out / "robots.txt").read_text().splitlines()
    assert lines[0] == "User-agent: *" and "Allow: /" in lines
    assert f"Sitemap: {URL}/sitemap.xml" in lines


def test_page_meta_canonical_og_twitter(built):
    out, _ = built
    doc = head(out, "quickstart/index.html")
    m = metas(doc)
    assert m["description"] == "Install Widgetly and make your first zebrafish widget."
    assert m["og:title"] == "Quickstart" and m["twitter:title"] == "Quickstart"
    assert m["og:url"] == f"{URL}/quickstart/"
    assert m["twitter:card"] == "summary" and m["twitter:site"] == "@widgetly"
    assert m["og:locale"] == "en_US" and m["keywords"] == "install, getting started"
    assert "robots" not in m
    links = {link.attrs.get("rel"): link.attrs.get("href") for link in doc.find_all("link")}
    assert links["canonical"] == f"{URL}/quickstart/"
    assert links["alternate"] == "../quickstart.md"


def test_frontmatter_canonical_wins(built):
    out, _ = built
    doc = head(out, "v1/setup/index.html")
    links = {link.attrs.get("rel"): link.attrs.get("href") for link in doc.find_all("link")}
    assert links["canonical"] == f"{URL}/v2/setup/"
    assert metas(doc)["og:url"] == f"{URL}/v2/setup/"


def test_noindex_for_hidden_and_noindex_pages_only(built):
    out, _ = built
    assert metas(head(out, "hidden-page/index.html"))["robots"] == "noindex"
    assert metas(head(out, "noindex-page/index.html"))["robots"] == "noindex"
    for rel in ("orphan/index.html", "legacy/old/index.html", "secret-notes/index.html"):
        assert "robots" not in metas(head(out, rel)), rel


def ld_json(doc) -> dict:
    scripts = [s for s in doc.find_all("script") if s.attrs.get("type") == "application/ld+json"]
    assert len(scripts) == 1
    return json.loads(scripts[0].text)


def test_json_ld_graph_with_organization_website_and_article(built):
    out, _ = built
    data = ld_json(head(out, "quickstart/index.html"))
    org, website, article = data["@graph"]
    assert org == {
        "@type": "Organization",
        "@id": f"{URL}/#organization",
        "name": "Widgetly Inc.",
        "url": "https://widgetly.example",
        "logo": "https://widgetly.example/logo.png",
        "sameAs": ["https://github.com/widgetly"],
    }
    assert website["@type"] == "WebSite" and website["publisher"] == {"@id": org["@id"]}
    assert article["@type"] == "TechArticle" and article["url"] == f"{URL}/quickstart/"
    assert article["headline"] == "Quickstart" and article["keywords"] == ["install", "getting started"]
    # noindex pages carry no article entity
    assert [e["@type"] for e in ld_json(head(out, "noindex-page/index.html"))["@graph"]] == [
        "Organization",
        "WebSite",
    ]


def test_seo_metatags_canonical_is_the_site_url(tmp_path, monkeypatch):
    monkeypatch.delenv("DOCSGEN_SITE_URL", raising=False)
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    config = json.loads((site / "docs.json").read_text())
    config["seo"]["metatags"]["canonical"] = "https://canonical.example/docs"
    (site / "docs.json").write_text(json.dumps(config))
    build(site, tmp_path / "out")
    root = ET.fromstring((tmp_path / "out" / "sitemap.xml").read_bytes())
    assert root.findall("s:url/s:loc", NS)[1].text == "https://canonical.example/docs/quickstart/"
    doc = head(tmp_path / "out", "quickstart/index.html")
    links = {link.attrs.get("rel"): link.attrs.get("href") for link in doc.find_all("link")}
    assert links["canonical"] == "https://canonical.example/docs/quickstart/"
    assert "canonical" not in metas(doc)


def test_without_site_url_no_sitemap_no_canonical_and_an_info(tmp_path, monkeypatch):
    monkeypatch.delenv("DOCSGEN_SITE_URL", raising=False)
    result = build(SITE, tmp_path / "out")
    out = tmp_path / "out"
    assert not (out / "sitemap.xml").exists()
    assert "Sitemap:" not in (out / "robots.txt").read_text()
    assert not result.warnings
    assert [d.code for d in result.diagnostics if d.code.startswith("seo.")] == ["seo.no-site-url"]
    assert "--site-url" in next(d.hint for d in result.diagnostics if d.code == "seo.no-site-url")
    doc = head(out, "quickstart/index.html")
    assert not [link for link in doc.find_all("link") if link.attrs.get("rel") == "canonical"]


def test_site_url_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_SITE_URL", "https://env.example/docs")
    build(SITE, tmp_path / "out")
    root = ET.fromstring((tmp_path / "out" / "sitemap.xml").read_bytes())
    assert root.findall("s:url/s:loc", NS)[0].text == "https://env.example/docs/"


def test_indexing_all_lists_hidden_pages_but_never_noindex(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    config = json.loads((site / "docs.json").read_text())
    config["seo"]["indexing"] = "all"
    (site / "docs.json").write_text(json.dumps(config))
    build(site, tmp_path / "out", site_url=URL)
    root = ET.fromstring((tmp_path / "out" / "sitemap.xml").read_bytes())
    locs = {e.text for e in root.findall("s:url/s:loc", NS)}
    assert {f"{URL}/hidden-page/", f"{URL}/legacy/old/", f"{URL}/orphan/"} <= locs
    assert f"{URL}/noindex-page/" not in locs
    assert "robots" not in metas(head(tmp_path / "out", "hidden-page/index.html"))


def test_docs_folder_robots_txt_wins(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    (site / "robots.txt").write_text("User-agent: *\nDisallow: /private\n")
    build(site, tmp_path / "out", site_url=URL)
    assert (tmp_path / "out" / "robots.txt").read_text() == "User-agent: *\nDisallow: /private\n"
