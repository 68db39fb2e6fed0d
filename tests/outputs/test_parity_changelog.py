"""Changelog parity: an RSS 2.0 feed per changelog page, the `rss: true` button, ?tags= deep links, and tag filters
that keep only the updates carrying every selected tag."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from email.utils import parsedate_to_datetime

import pytest

from docsgen.build import build
from tests.htmldom import parse
from tests.readers_sites import serve

CHANGELOG = """---
title: Product updates
description: New updates and improvements
rss: true
---

<Update label="March 14, 2025" description="v0.0.10" tags={["Wintergreen", "Spearmint"]}>
  Added a new Wintergreen flavor & more.
</Update>

<Update label="February 2025" description="v0.0.09" tags={["Spearmint"]} rss={{ title: "Spearmint v9", description: "Custom text for RSS" }}>
  <Frame>not in the feed</Frame>
</Update>

<Update label="January 2025" description="v0.0.08" tags={["Peppermint", "Spearmint"]}>
  Deprecated the Peppermint flavor.
</Update>

<Update label="Untagged" description="v0.0.07">
  Old news.
</Update>

<Update label="December 2024" description="v0.0.06">
  Two things shipped.

  ## Faster builds

  Builds are **twice** as fast, see [the guide](/index).

  <Frame>a component</Frame>

  ```bash
  not in the feed
  ```

  ## New flavor

  - Peppermint is back
</Update>
"""


def _site(make_site, **extra):
    config = {
        "name": "Acme",
        "theme": "mint",
        "colors": {"primary": "#0a7"},
        "navigation": {"pages": ["index", "changelog"]},
        **extra,
    }
    return make_site(
        {
            "docs.json": json.dumps(config),
            "index.mdx": "---\ntitle: Home\n---\nHi\n",
            "changelog.mdx": CHANGELOG,
        }
    )


def test_changelog_page_writes_a_valid_rss_feed(make_site, tmp_path):
    root = _site(make_site)
    build(root, tmp_path / "out", site_url="https://docs.acme.dev")
    feed = tmp_path / "out" / "changelog" / "rss.xml"
    tree = ET.fromstring(feed.read_bytes())
    assert tree.tag == "rss" and tree.attrib["version"] == "2.0"
    channel = tree.find("channel")
    assert channel.findtext("title") == "Product updates - Acme"
    assert channel.findtext("link") == "https://docs.acme.dev/changelog/"
    assert channel.findtext("description") == "New updates and improvements"
    self_link = channel.find("{http://www.w3.org/2005/Atom}link")
    assert self_link.attrib["href"] == "https://docs.acme.dev/changelog/rss.xml"
    items = channel.findall("item")
    assert [i.findtext("title") for i in items] == [
        "March 14, 2025",
        "Spearmint v9",
        "January 2025",
        "Untagged",
        "Faster builds",  # an update with headings: one item per heading
        "New flavor",
    ]
    first = items[0]
    assert first.findtext("link") == "https://docs.acme.dev/changelog/#march-14-2025"
    assert first.findtext("guid") == first.findtext("link")
    assert first.findtext("description") == "Added a new Wintergreen flavor & more."  # the Markdown text
    assert parsedate_to_datetime(first.findtext("pubDate")).date().isoformat() == "2025-03-14"
    assert [c.text for c in first.findall("category")] == ["Wintergreen", "Spearmint"]
    assert items[1].findtext("description") == "Custom text for RSS"
    assert items[3].find("pubDate") is None  # no date in the label: none invented
    faster, flavor = items[4], items[5]
    assert faster.findtext("link") == "https://docs.acme.dev/changelog/#faster-builds"
    assert faster.findtext("description") == (
        "Two things shipped.\n\nBuilds are **twice** as fast, see [the guide](/index)."
    )  # Markdown, without the component's tags or the code block
    assert flavor.findtext("description") == "- Peppermint is back"
    # rss: true shows the feed's link on the page; the home page has no updates and no feed
    page = parse((tmp_path / "out" / "changelog" / "index.html").read_text(encoding="utf-8"))
    assert page.find("a", cls="dg-rss").attrs["href"] == "../changelog/rss.xml"
    assert not (tmp_path / "out" / "rss.xml").exists()


def test_feed_without_a_site_url_uses_root_relative_links_and_says_so(make_site, tmp_path):
    root = _site(make_site)
    result = build(root, tmp_path / "out")
    channel = ET.fromstring((tmp_path / "out" / "changelog" / "rss.xml").read_bytes()).find("channel")
    assert channel.findtext("link") == "/changelog/"
    assert any(d.code == "changelog.rss-site-url" for d in result.diagnostics)


@pytest.mark.browser
def test_tag_filters_match_all_selected_tags_and_follow_the_url(browser, make_site, tmp_path):
    build(_site(make_site), tmp_path / "out")
    server, url = serve(tmp_path / "out")
    try:
        page = browser.new_page()

        def visible() -> list[str]:
            return page.eval_on_selector_all(
                ".dg-update",
                "els => els.filter(e => !e.hidden).map(e => e.querySelector('.dg-update-label').textContent)",
            )

        page.goto(url + "changelog/?tags=Spearmint,Peppermint")
        assert visible() == ["January 2025"]  # every selected tag, not any
        pressed = page.eval_on_selector_all(
            ".dg-update-filter[aria-pressed=true]", "els => els.map(e => e.dataset.tag)"
        )
        assert sorted(pressed) == ["Peppermint", "Spearmint"]
        page.click(".dg-update-filter[data-tag=Peppermint]")
        assert visible() == ["March 14, 2025", "February 2025", "January 2025"]  # untagged hidden
        assert page.evaluate("location.search") == "?tags=Spearmint"
        page.click(".dg-update-filter[data-tag=Spearmint]")
        # no filter left: every update shows again (the four tagged and untagged ones, and December's)
        assert visible() == ["March 14, 2025", "February 2025", "January 2025", "Untagged", "December 2024"]
        assert page.evaluate("location.search") == ""
        page.close()
    finally:
        server.shutdown()


def test_feed_stays_valid_xml_whatever_the_entry_text():
    from docsgen.mdx.changelog import ChangelogEntry
    from docsgen.outputs.changelog import rss_xml
    from docsgen.pages.page import Page

    hostile = "bell\x07 </title><script>x</script> & ]]> \ufffe"
    page = Page("changelog", "changelog/", "changelog/index.html", "changelog.mdx", {"title": hostile})
    entries = [ChangelogEntry(id='a"b<', label=hostile, description=hostile, tags=(hostile,), text=hostile)]
    channel = ET.fromstring(rss_xml("S & <Co>", page, entries, "https://d.example").encode()).find("channel")
    item = channel.find("item")
    assert item.findtext("title") == "bell </title><script>x</script> & ]]> "
    assert item.findtext("link") == 'https://d.example/changelog/#a"b<'
    assert channel.findtext("title").endswith("S & <Co>")
