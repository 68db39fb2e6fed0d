"""Offline site search: a Pagefind index of every searchable page, written under /pagefind/ with the site."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterator, Mapping

from markupsafe import escape

from docsgen.config.model import bcp47
from docsgen.mdx import MdxResult
from docsgen.outputs import pagefind
from docsgen.outputs.pagefind import SearchRecord
from docsgen.outputs.search_bundles import (
    IndexKey,
    Part,
    PendingIndex,
    bundle_cache_file,
    cache_enabled,
    index_key,
    load_bundle,
    save_bundle,
)
from docsgen.pages.page import Page
from docsgen.render import SiteContext
from docsgen.render.html import language_of
from docsgen.site.policies import PagePolicy
from docsgen.site.read import Site

_MAX_WEIGHT = 10.0  # Pagefind weights range from 0 to 10
_HEADING_LINK = re.compile(r'<a class="anchor" href="#[^"]*" aria-label="[^"]*">#</a>')
_COPY_BUTTON = re.compile(
    r'<button type="button" class="dg-copy(?: code-block-copy-button)?" aria-label="Copy code"[^>]*>(?:<svg\b.*?</svg>)?</button>',
    re.S,
)
_CODE_BLOCK = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)
_TAG = re.compile(r"<[^>]*>")
# Code stays searchable but weighs little: results and their excerpts come from the prose readers see,
# not from MDX or code samples (`</Accordion> <Accordion title=...`).
_CODE_WEIGHT = '<pre data-pagefind-weight="0.1">'


def searchable_pages(site: Site) -> list[tuple[Page, PagePolicy]]:
    """Return the rendered pages that go into the search index, with their policies."""
    pages = [(p, site.policy(p)) for p in site.pages_to_render()]
    return [(p, policy) for p, policy in pages if policy.searchable and p.content]


def page_language(ctx: SiteContext, site: Site, page: Page) -> str:
    """Return the page's language code, as its <html lang> says."""
    place = site.nav.placements.get(page.key)
    lang = language_of(place.section if place else None)
    if lang is None and isinstance(site.config.raw.get("language"), str):
        lang = site.config.raw["language"]
    return bcp47(lang) if lang else "en"


def record_for(ctx: SiteContext, site: Site, page: Page, policy: PagePolicy) -> SearchRecord:
    """Return the HTML document Pagefind indexes for a page: title, body, scope filters, boost."""
    lang = page_language(ctx, site, page)
    weight = ""
    if policy.boost != 1.0:
        weight = f' data-pagefind-weight="{min(_MAX_WEIGHT, max(0.0, policy.boost)):g}"'
    tags = [
        f'<span data-pagefind-filter="{kind}:{escape(value)}"></span>' for kind, value in policy.scope.items()
    ]
    crumbs = " › ".join(policy.crumbs)
    if crumbs:
        tags.append(f'<span data-pagefind-meta="crumbs:{escape(crumbs)}"></span>')
    if policy.boost != 1.0:
        tags.append(f'<span data-pagefind-meta="boost:{policy.boost:g}"></span>')
    description = f"<p>{escape(page.meta_description)}</p>" if page.meta_description else ""
    keywords = page.meta.get("keywords")
    if isinstance(keywords, list) and keywords:
        description += f'<p data-pagefind-weight="2">{escape(" ".join(str(k) for k in keywords))}</p>'
    # Generated API pages carry a compact search_html (no nested rows or code samples): far fewer words to index.
    body = (page.content.search_html or page.content.html) if page.content else ""
    body = slim_html(body)
    html = (
        f'<!doctype html><html lang="{escape(lang)}"><head><title>{escape(page.title)}</title></head><body>'
        f"<main data-pagefind-body{weight}>{''.join(tags)}<h1>{escape(page.title)}</h1>{description}{body}</main>"
        "</body></html>"
    )
    return SearchRecord("/" + page.url, lang, html)


def slim_html(html: str) -> str:
    """Drop markup that carries no words (heading "#" links, copy buttons, code token spans): less to parse.

    Pagefind's time grows with the HTML it parses; the words, headings and ids it indexes stay the same,
    and results no longer end headings with the "#" of their anchor link. SVG elements (icons) go too: Pagefind
    leaves them out of the index, and their path data was a third of a real-shaped page's record.
    """
    if "<svg" in html:
        html = without_svg(html)
    if 'class="anchor"' in html:
        html = _HEADING_LINK.sub("", html)
    if "<pre" not in html:
        return html
    html = _COPY_BUTTON.sub("", html)
    return _CODE_BLOCK.sub(lambda m: _CODE_WEIGHT + _TAG.sub("", m[2]) + m[3], html)


def without_svg(html: str) -> str:
    """Return the HTML without its <svg> elements (nested ones included), found with str.find: a regex scanning
    every character cost more than the bytes it saved. Left as it is when it holds a comment (an `<svg` in one
    is not an element) or an <svg> without its end. Each character is looked at a bounded number of times, however
    deep the nesting (a page of 40,000 nested <svg> took 6 s when the next "<svg" was searched for at every end
    tag)."""
    if "<!--" in html:
        return html
    parts: list[str] = []
    start = 0
    while (begin := html.find("<svg", start)) != -1:
        if html[begin + 4 : begin + 5] not in (" ", ">", "/", "\n", "\t"):  # <svgfoo>: not an SVG element
            parts.append(html[start : begin + 4])
            start = begin + 4
            continue
        depth, at = 1, begin + 4
        # the next "<svg" and "</svg>" at or after `at`, each searched for again only once passed
        opened, closed = html.find("<svg", at), html.find("</svg>", at)
        while depth:
            if closed == -1:
                return html
            if opened != -1 and opened < closed:
                depth, at = depth + 1, opened + 4
                opened = html.find("<svg", at)
            else:
                depth, at = depth - 1, closed + 6
                closed = html.find("</svg>", at)
        parts.append(html[start:begin])
        start = at
    if not parts:
        return html
    parts.append(html[start:])
    return "".join(parts)


def record_maker(ctx: SiteContext, site: Site) -> Callable[[Page, MdxResult], SearchRecord | None]:
    """Return what the render engine calls where each page renders: (page, its body) -> its search record, or
    None for a page left out of search. The body's HTML then never travels to the main process."""

    def record(page: Page, content: MdxResult) -> SearchRecord | None:
        policy = site.policy(page)
        if not policy.searchable:
            return None
        return record_for(ctx, site, dataclasses.replace(page, content=content), policy)

    return record


def folder_records(
    ctx: SiteContext, site: Site, pages: list[Page], records: list[SearchRecord | None] | None
) -> Iterator[tuple[str, SearchRecord | None]]:
    """Yield (its search bundle's folder, its record) for each searchable page of these: the record given (made
    where the page rendered: record_maker), else made here from the page's body (None: no body)."""
    for number, page in enumerate(pages):
        policy = site.policy(page)
        if not policy.searchable:
            continue
        record = records[number] if records is not None else None
        if records is None and page.content:
            record = record_for(ctx, site, page, policy)
        yield site.policies().search_folder(policy), record


def search_records(ctx: SiteContext, site: Site) -> list[SearchRecord]:
    """Return the record of every searchable page, in page order."""
    return [record_for(ctx, site, page, policy) for page, policy in searchable_pages(site)]


def start_search_index(ctx: SiteContext, site: Site, *, cache: bool | None = None) -> PendingIndex:
    """Start indexing every searchable page now (hidden, noindex, `searchable: false` left out); collect later.

    Used where the rendered pages are all held (the dev server). With the cache on, a bundle whose records,
    Pagefind and docsgen code equal the previous build's is reused instead of running Pagefind.
    """
    groups: dict[str, list[SearchRecord]] = {}
    for page, policy in searchable_pages(site):
        folder = site.policies().search_folder(policy)
        groups.setdefault(folder, []).append(record_for(ctx, site, page, policy))
    if not groups:
        return PendingIndex()
    try:
        binary = pagefind.pagefind_binary()
    except Exception as exc:  # noqa: BLE001 - reported as a warning when collected
        return PendingIndex(error=exc)
    keys = {folder: index_key(records, binary) for folder, records in groups.items()}
    runs = {
        folder: functools.partial(pagefind.PagefindRun, records, binary) for folder, records in groups.items()
    }
    return bundle_parts(site, keys, runs, cache=cache)


def bundle_parts(
    site: Site,
    keys: dict[str, str],
    runs: Mapping[str, Callable[[], pagefind.PagefindRun]],
    *,
    cache: bool | None,
) -> PendingIndex:
    """Return the pending index of these folders: each bundle reused when its key is the last build's, else
    made by its run (the first one started now, the others one at a time as they are collected)."""
    parts, started = [], False
    for folder in sorted(keys):
        store = None
        if cache_enabled(cache):
            path = bundle_cache_file(site.docs_dir, folder)
            bundle = load_bundle(path, keys[folder])
            if bundle is not None:
                parts.append(Part(folder, bundle=bundle, key=keys[folder]))
                continue
            store = functools.partial(save_bundle, path, keys[folder])
        part = Part(folder, store=store, start=runs[folder], key=keys[folder])
        if not started:
            try:
                part.run, part.start, started = runs[folder](), None, True
            except Exception as exc:  # noqa: BLE001 - reported as a warning when collected
                part.error, part.start = exc, None
        parts.append(part)
    return PendingIndex(parts=parts)


class StreamingIndex:
    """Pagefind indexing pages as they come back from the renderers (a build with no bundle to reuse).

    Pagefind parses and indexes each page when it arrives, on the CPU time the render workers leave (the
    main process mostly waits for them); only writing the bundle is left for the end. On a site split by product
    and version, each bundle's run starts with its first page and is told to write as soon as its last page is
    in, so one version's index is in memory at a time when versions are contiguous in page order (folders).
    Records are added in page order, as start_search_index would send them, so the bundles are the same.
    """

    def __init__(self, ctx: SiteContext, site: Site, binary: str, *, count: bool = True) -> None:
        """count=False: the searchable pages are counted by count(), later (records may come before)."""
        self.ctx, self.site, self.binary = ctx, site, binary
        self.left: dict[
            str, int
        ] = {}  # searchable pages of each folder not seen yet (less those seen, uncounted)
        self.counted = False
        self.runs: dict[str, tuple[pagefind.PagefindRun, IndexKey]] = {}
        self.errors: dict[str, Exception] = {}  # bundles whose Pagefind could not start
        self.finished: set[str] = set()
        self.parts: dict[str, Part] = {}  # bundles whose pages are all in, once taken (take_ready, pending)
        if count:
            self.count()

    def count(self) -> None:
        """Count each bundle's searchable pages: a bundle's run is told to write once all of them are in."""
        if self.counted:
            return
        for page in self.site.pages_to_render():
            policy = self.site.policy(page)
            if policy.searchable:
                folder = self.site.policies().search_folder(policy)
                self.left[folder] = self.left.get(folder, 0) + 1
        self.counted = True
        for folder in list(self.runs):
            self._finish_when_done(folder)

    def add_pages(self, pages: list[Page], records: list[SearchRecord | None] | None = None) -> None:
        """Index these freshly rendered pages (the searchable ones): their records when given (record_maker),
        else made from their bodies."""
        for folder, record in folder_records(self.ctx, self.site, pages, records):
            self.add(folder, record)

    def add(self, folder: str, record: SearchRecord | None) -> None:
        """Index one searchable page's record, in any order (None: a page seen without one)."""
        if record is not None and folder not in self.finished and folder not in self.errors:
            if folder not in self.runs:
                try:
                    self.runs[folder] = (pagefind.PagefindRun(None, self.binary), IndexKey(self.binary))
                except Exception as exc:  # noqa: BLE001 - Pagefind cannot start: a warning when collected
                    self.errors[folder] = exc
                    return
            run, key = self.runs[folder]
            key.add(record)
            run.add(record)
        self.left[folder] = self.left.get(folder, 1 if self.counted else 0) - 1
        self._finish_when_done(folder)

    def _finish_when_done(self, folder: str) -> None:
        if (
            self.counted
            and self.left.get(folder, 0) <= 0
            and folder in self.runs
            and folder not in self.finished
        ):
            self.runs[folder][0].finish()  # its last page is in: Pagefind writes this bundle now
            self.finished.add(folder)

    def _part(self, folder: str, cache: bool | None) -> Part:
        """Return the part of a bundle whose pages are all in (made once: take_ready() may have taken it)."""
        if folder not in self.parts:
            run, key = self.runs[folder]
            store = None
            if cache_enabled(cache):
                path = bundle_cache_file(self.site.docs_dir, folder)
                store = functools.partial(save_bundle, path, key.hexdigest())
            self.parts[folder] = Part(folder, run, store=store, key=key.hexdigest())
        return self.parts[folder]

    def take_ready(self, *, cache: bool | None = None) -> list[Part]:
        """Return the bundles Pagefind has finished while pages still render (each once), to be written now."""
        ready = [f for f in sorted(self.finished) if f not in self.parts and self.runs[f][0].ready]
        return [self._part(folder, cache) for folder in ready]

    def pending(self, *, cache: bool | None = None) -> PendingIndex:
        """Every page is in: let Pagefind write the bundles, to be collected (and stored for reuse) later."""
        parts = []
        for folder in sorted(self.runs):
            if folder not in self.finished:
                self.runs[folder][0].finish()
            parts.append(self._part(folder, cache))
        self.finished.update(self.runs)
        parts += [Part(folder, error=exc) for folder, exc in sorted(self.errors.items())]
        return PendingIndex(parts=parts)

    def cancel(self) -> None:
        """Stop Pagefind (the build failed)."""
        for run, _ in self.runs.values():
            run.close()

    def kill(self) -> None:
        """Kill every run from any thread (what waits for a bundle then fails at once)."""
        for run, _ in list(self.runs.values()):
            run.cancel()
