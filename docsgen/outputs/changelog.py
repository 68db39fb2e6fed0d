"""RSS 2.0 feeds of changelog pages: every page with <Update> entries gets `<page URL>/rss.xml`, as on Mintlify.

An entry with an `rss` prop is one item with its title and description; else an entry with Markdown headings is
one item per heading (linked to the heading); else one item titled by its label. Items carry the entry's
Markdown text, without components, code or HTML, as Mintlify's feeds do. Links are
absolute when the site URL is known (--site-url, $DOCSGEN_SITE_URL, seo.metatags.canonical); otherwise they are
relative to the site root and a note says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import format_datetime

from docsgen.common.errors import info
from docsgen.engine.write import SiteFiles
from docsgen.mdx import MdxResult
from docsgen.mdx.changelog import ChangelogEntry, changelog_entries
from docsgen.pages.page import Page
from docsgen.render import SiteContext
from docsgen.site.policies import site_url
from docsgen.site.read import Site

FEED_NAME = "rss.xml"
MAX_ITEMS = 500
MAX_DESCRIPTION = 20_000
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
         "november", "december"]
    )
}  # fmt: skip


def escape(text: str, entities: dict[str, str] | None = None) -> str:
    """XML-escape text (xml.sax.saxutils.escape, imported here: it loads urllib.request, 40 ms of a start-up)."""
    from xml.sax.saxutils import escape as xml_escape

    return xml_escape(text, entities or {})


def feed_path(page: Page) -> str:
    """Return the feed's path in the site: `changelog/rss.xml` for the page at `changelog/`."""
    url = page.url if page.url.endswith("/") or not page.url else page.url + "/"
    return url + FEED_NAME


def entry_date(label: str) -> datetime | None:
    """Read a date from an entry label: `2025-03-14`, `March 14, 2025`, `14 March 2025` or `March 2025`."""
    text = label.strip().lower()
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", text)
    try:
        if m:
            return datetime(int(m[1]), int(m[2]), int(m[3]), tzinfo=UTC)
        m = re.search(r"\b([a-z]+)\s+(\d{1,2}),?\s+(\d{4})\b", text)
        if m and m[1] in _MONTHS:
            return datetime(int(m[3]), _MONTHS[m[1]], int(m[2]), tzinfo=UTC)
        m = re.search(r"\b(\d{1,2})\s+([a-z]+),?\s+(\d{4})\b", text)
        if m and m[2] in _MONTHS:
            return datetime(int(m[3]), _MONTHS[m[2]], int(m[1]), tzinfo=UTC)
        m = re.search(r"\b([a-z]+)\s+(\d{4})\b", text)
        if m and m[1] in _MONTHS:
            return datetime(int(m[2]), _MONTHS[m[1]], 1, tzinfo=UTC)
    except ValueError:
        return None
    return None


_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _cdata(text: str) -> str:
    """Escape text for an XML element, dropping the characters XML 1.0 cannot carry (the feed stays valid)."""
    return escape(_NOT_XML.sub("", text))


def _items(entry: ChangelogEntry, page_link: str) -> str:
    """Return an entry's feed items, as Mintlify makes them: the `rss` prop's one item; else one item per
    heading inside the entry; else one item titled by the label. Each carries the entry's Markdown text."""
    if entry.rss_set or not entry.sections:
        description = entry.rss_description if entry.rss_set else entry.markdown or entry.description
        title = entry.rss_title or entry.label or entry.id
        return _item(entry, title, f"{page_link}#{entry.id}", description or entry.text)
    return "".join(
        _item(entry, heading, f"{page_link}#{anchor or entry.id}", text)
        for heading, anchor, text in entry.sections
    )


def _item(entry: ChangelogEntry, title: str, link: str, description: str) -> str:
    description = re.sub(r"[ \t]+", " ", description).strip()[:MAX_DESCRIPTION]
    parts = [
        f"<title>{_cdata(title)}</title>",
        f"<link>{_cdata(link)}</link>",
        f'<guid isPermaLink="true">{_cdata(link)}</guid>',
    ]
    if description:
        parts.append(f"<description>{_cdata(description)}</description>")
    date = entry_date(entry.label)
    if date is not None:
        parts.append(f"<pubDate>{format_datetime(date, usegmt=True)}</pubDate>")
    parts += [f"<category>{_cdata(t)}</category>" for t in entry.tags]
    return "    <item>\n      " + "\n      ".join(parts) + "\n    </item>\n"


def rss_xml(site_name: str, page: Page, entries: list[ChangelogEntry], base: str | None) -> str:
    """Return the RSS 2.0 document of one changelog page."""
    root = f"{base}/" if base else "/"
    page_link = root + page.url
    self_link = root + feed_path(page)
    title = page.title if not site_name else f"{page.title} - {site_name}"
    description = page.description or f"Updates from {page.title}"
    items = "".join(_items(e, page_link) for e in entries[:MAX_ITEMS])
    dates = [d for d in (entry_date(e.label) for e in entries) if d is not None]
    built = (
        f"    <lastBuildDate>{format_datetime(max(dates), usegmt=True)}</lastBuildDate>\n" if dates else ""
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n'
        "  <channel>\n"
        f"    <title>{_cdata(title)}</title>\n"
        f"    <link>{escape(page_link)}</link>\n"
        f"    <description>{_cdata(description)}</description>\n"
        f'    <atom:link href="{escape(self_link, {chr(34): "&quot;"})}" rel="self" type="application/rss+xml"/>\n'
        "    <generator>docsgen</generator>\n"
        f"{built}"
        f"{items}"
        "  </channel>\n"
        "</rss>\n"
    )


def add_changelog_feeds(
    ctx: SiteContext, site: Site, bodies: Mapping[str, MdxResult], files: SiteFiles
) -> None:
    """Write `rss.xml` beside every changelog page: each page whose rendered body (bodies: by page key) has
    <Update> entries, in page-key order (a file of that name in the docs folder wins)."""
    base = site_url(site)
    written = 0
    for key in sorted(site.pages):
        body = bodies.get(key)
        entries = changelog_entries(body) if body is not None else []
        if not entries:
            continue
        page = site.pages[key]
        # a file of that name in the docs folder wins
        if files.add(
            feed_path(page), rss_xml(site.config.name, page, entries, base), "changelog", on_clash="yield"
        ):
            written += 1
    if written and base is None:
        files.diagnostics.append(
            info(
                "changelog.rss-site-url",
                f"{written} changelog RSS feed(s) written with links relative to the site root: the public site "
                "URL is unknown",
                hint="pass --site-url https://docs.example.com (or set seo.metatags.canonical) for absolute links",
            )
        )
