"""Overview pages of a generated API reference: the spec's `info` at the reference's folder, each described tag
at its own.

Before these, /api-reference/ and /api-reference/<tag>/ only redirected to the first endpoint, and the spec's
`info.description` and tag descriptions (often the API's introduction) were not shown anywhere. A page of the
docs folder at the same path wins; overview pages are reachable by URL and listed in llms.txt, not in the
sidebar (the navigation stays Mintlify's).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from docsgen.common.urls import relative_url
from docsgen.mdx import MdxContext, MdxResult
from docsgen.mdx.types import TocItem
from docsgen.openapi import urls
from docsgen.openapi.render.fmt import esc
from docsgen.openapi.render.mdtext import inline
from docsgen.openapi.spec import Spec
from docsgen.pages.page import Page
from docsgen.sources.walk import page_url, url_output


def _links(page: Page, targets: list[Page]) -> tuple[str, str]:
    items = "".join(
        f'<li><a href="{esc(relative_url(page.output, t.url))}">'
        + (f'<span class="dg-method">{esc(t.method or "")}</span> ' if t.method else "")
        + f"{esc(t.title)}</a></li>"
        for t in targets
    )
    md = "\n".join(f"- [{inline(t.title)}](/{t.url})" for t in targets)
    return f'<ul class="dg-api-overview-list">{items}</ul>', md


# A relative link written in a spec description (./midnight/) means a page of the vendor's site: not ours.
_RELATIVE_LINK = re.compile(r'<a href="(?![a-zA-Z][a-zA-Z0-9+.-]*:|/|#)[^"]*"[^>]*>(.*?)</a>', re.S)

Fixer = Callable[[Page, str, str], tuple[str, str]]


def _page(
    key: str,
    title: str,
    description: str,
    spec: Spec,
    body: Callable[[Page, Mapping[str, str]], tuple[str, str, list[TocItem]]],
    fix: Fixer,
) -> Page:
    url = page_url(key)
    meta: dict[str, Any] = {"title": title}
    page = Page(key, url, url_output(url), meta=meta, kind="page", spec=spec.source)
    if description:
        page.summary = description.strip().split("\n\n")[0][:300]

    def generate(page: Page, ctx: MdxContext) -> MdxResult:
        html, md, toc = body(page, ctx.words or {})  # the page language's interface words
        html, md = fix(page, html, md)  # Redoc-style and rooted links, as on the endpoint pages
        wrapped = f'<div class="dg-api-overview">{html}</div>'
        return MdxResult(html=wrapped, toc=toc, markdown=md, search_html=wrapped)

    page.generate = generate
    return page


def add_overviews(
    pages: dict[str, Page],
    spec: Spec,
    directory: str | None,
    tagged: list[tuple[str, Page]],
    label: Callable[[str], str],
    markdown: Callable[[str], str],
    fix: Fixer,
) -> None:
    """Add the spec's overview page and one per described tag, unless a page already has their path."""

    def described_html(
        text: str,
    ) -> str:  # the descriptions' relative links, not the listings' links to our pages
        return _RELATIVE_LINK.sub(r"\1", markdown(text))

    base = (directory if directory is not None else urls.DEFAULT_DIRECTORY).strip("/").lower() or "index"
    tags = spec.data.get("tags")
    described = {
        str(t["name"]): t["description"]
        for t in (tags if isinstance(tags, list) else [])
        if isinstance(t, dict) and isinstance(t.get("name"), str) and isinstance(t.get("description"), str)
    }
    by_tag: dict[str, list[Page]] = {}
    for tag, page in tagged:
        by_tag.setdefault(tag, []).append(page)
    tag_pages: dict[str, Page] = {}
    for tag, members in by_tag.items():
        key = f"{base}/{urls.filename_part(tag)}".lower()
        text = described.get(tag, "")
        if not text.strip() or key in pages or not urls.filename_part(tag):
            continue  # a tag without a description: its folder keeps redirecting to its first page

        def tag_body(
            page: Page,
            words: Mapping[str, str],
            tag: str = tag,
            text: str = text,
            members: list[Page] = members,
        ):
            listing, listing_md = _links(page, members)
            intro = described_html(text) if text else ""
            return intro + listing, "\n\n".join(p for p in (text.strip(), listing_md) if p), []

        tag_pages[tag] = pages[key] = _page(key, label(tag), text, spec, tag_body, fix)
    info = spec.data.get("info")
    info = info if isinstance(info, dict) else {}
    if base in pages or f"{base}/index" in pages or not by_tag:
        return
    description = found if isinstance(found := info.get("description"), str) else ""
    title = str(info.get("title") or "API reference")

    def info_body(page: Page, words: Mapping[str, str]):
        html, md, toc = [], [], []
        if info.get("version"):
            version = words.get("version", "Version")
            html.append(f'<p class="dg-api-version">{esc(version)} <code>{esc(info["version"])}</code></p>')
            md.append(f"{version}: `{info['version']}`")
        if description:
            html.append(described_html(description))
            md.append(description.strip())
        for tag, members in by_tag.items():
            name = label(tag) if tag else "Endpoints"
            hid = "tag-" + (urls.filename_part(tag) or "endpoints")
            toc.append(TocItem(2, hid, name))
            own = tag_pages.get(tag)
            heading = esc(name)
            if own is not None:
                heading = f'<a href="{esc(relative_url(page.output, own.url))}">{heading}</a>'
            html.append(f'<h2 id="{esc(hid)}">{heading}</h2>')
            md.append(f"## {inline(name)}")
            if described.get(tag):
                html.append(described_html(described[tag]))
                md.append(described[tag].strip())
            listing, listing_md = _links(page, members)
            html.append(listing)
            md.append(listing_md)
        return "".join(html), "\n\n".join(md), toc

    pages[base] = _page(base, title, description, spec, info_body, fix)
