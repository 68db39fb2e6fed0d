"""Offline site search: a Pagefind index of every searchable page, written under /pagefind/ with the site."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from markupsafe import escape

from docsgen.cachedir import code_fingerprint
from docsgen.errors import Diagnostic, warning
from docsgen.outputs import pagefind
from docsgen.outputs.pagefind import INDEX_DIR, SearchRecord
from docsgen.pages import Page
from docsgen.policies import PagePolicy
from docsgen.render import SiteContext
from docsgen.render.html import language_of
from docsgen.site import Site
from docsgen.write import SiteFiles

_MAX_WEIGHT = 10.0  # Pagefind weights range from 0 to 10
_HEADING_LINK = re.compile(r'<a class="anchor" href="#[^"]*" aria-label="[^"]*">#</a>')
_COPY_BUTTON = re.compile(
    r'<button type="button" class="dg-copy" aria-label="Copy code"[^>]*>(?:<svg\b.*?</svg>)?</button>', re.S
)
_CODE_BLOCK = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)
_TAG = re.compile(r"<[^>]*>")
# Code stays searchable but weighs little: results and their excerpts come from the prose readers see,
# not from MDX or code samples (`</Accordion> <Accordion title=...`).
_CODE_WEIGHT = '<pre data-pagefind-weight="0.1">'
_CACHE_FILE = "search-bundle.bin"  # the previous build's bundle, reused when nothing it depends on changed
_CACHE_MAGIC = b"docsgen-search-bundle 1\n"
_CACHE_FORMAT = 1


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
    return lang or "en"


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
    and results no longer end headings with the "#" of their anchor link.
    """
    if 'class="anchor"' in html:
        html = _HEADING_LINK.sub("", html)
    if "<pre" not in html:
        return html
    html = _COPY_BUTTON.sub("", html)
    return _CODE_BLOCK.sub(lambda m: _CODE_WEIGHT + _TAG.sub("", m[2]) + m[3], html)


def page_records(ctx: SiteContext, site: Site, pages: list[Page]) -> Iterator[SearchRecord]:
    """Yield the record of each of these (rendered) pages that is searchable."""
    for page in pages:
        policy = site.policy(page)
        if policy.searchable and page.content:
            yield record_for(ctx, site, page, policy)


def search_records(ctx: SiteContext, site: Site) -> list[SearchRecord]:
    """Return the record of every searchable page, in page order."""
    return [record_for(ctx, site, page, policy) for page, policy in searchable_pages(site)]


class PendingIndex:
    """A search index being built in Pagefind's own process (or reused) while the build does other work."""

    def __init__(
        self,
        run: pagefind.PagefindRun | None = None,
        error: Exception | None = None,
        bundle: dict[str, bytes] | None = None,
        store: Callable[[dict[str, bytes]], None] | None = None,
    ) -> None:
        self._run, self._error, self._bundle, self._store = run, error, bundle, store
        self.reused = bundle is not None  # the previous build's bundle: Pagefind does not run

    def add_to(self, files: SiteFiles) -> None:
        """Wait for the bundle and add it under /pagefind/; a missing or failing Pagefind only warns."""
        for path, data in self.collect(files.diagnostics).items():
            files.add(path, data, "search index")

    def collect(self, diagnostics: list[Diagnostic]) -> dict[str, bytes]:
        """Wait for the bundle and return {site path: bytes}; a missing or failing Pagefind adds a warning."""
        bundle = self._bundle
        if bundle is None and (self._run is not None or self._error is not None):
            try:
                if self._error is not None:
                    raise self._error
                assert self._run is not None
                bundle = self._run.result()
            except Exception as exc:  # noqa: BLE001 - a missing or failing Pagefind must not break the build
                diagnostics.append(
                    warning(
                        "search.index",
                        f"the search index could not be built: {exc}",
                        hint="install Pagefind with `pip install 'pagefind[extended]'`",
                    )
                )
                return {}
            finally:
                self._run = self._error = None
            if self._store is not None:
                self._store(bundle)
            self._bundle = bundle
        return {f"{INDEX_DIR}/{rel}": data for rel, data in (bundle or {}).items()}

    def cancel(self) -> None:
        """Stop the indexing (the build failed before collecting it)."""
        if self._run is not None:
            self._run.close()
            self._run = None


def cache_enabled(cache: bool | None = None) -> bool:
    """Return whether build caches are used: cache when given, else on unless $DOCSGEN_CACHE is 0/off/false/no."""
    if cache is not None:
        return cache
    return os.environ.get("DOCSGEN_CACHE", "").strip().lower() not in ("0", "off", "false", "no")


class IndexKey:
    """What the bundle depends on, taken record by record: every record, the Pagefind binary, docsgen's code."""

    def __init__(self, binary: str) -> None:
        stat = Path(binary).stat()
        self._digest = hashlib.sha256()
        for part in (str(_CACHE_FORMAT), code_fingerprint(), binary, f"{stat.st_size}:{stat.st_mtime_ns}"):
            self._update(part)

    def _update(self, part: str) -> None:
        data = part.encode("utf-8")
        self._digest.update(b"%d:%b" % (len(data), data))

    def add(self, record: SearchRecord) -> None:
        """Take one more record into the key."""
        for part in (record.url, record.lang, record.html):
            self._update(part)

    def hexdigest(self) -> str:
        return self._digest.hexdigest()


def index_key(records: Iterable[SearchRecord], binary: str) -> str:
    """Return what the bundle made of these records depends on (see IndexKey)."""
    key = IndexKey(binary)
    for record in records:
        key.add(record)
    return key.hexdigest()


class RecordSpool:
    """Records kept in a temporary file as pages render (a rebuild that may reuse the last bundle): their key is
    known when the last page is in, and only when it differs are they read back, one at a time, for Pagefind."""

    def __init__(self, binary: str) -> None:
        self.key = IndexKey(binary)
        self.count = 0
        self._file = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed in close()

    def add(self, record: SearchRecord) -> None:
        self.key.add(record)
        self.count += 1
        self._file.write(json.dumps([record.url, record.lang, record.html], ensure_ascii=False) + "\n")

    def records(self) -> Iterator[SearchRecord]:
        """Yield the records in the order they were added (once every record is in)."""
        self._file.flush()
        self._file.seek(0)
        for line in self._file:
            url, lang, html = json.loads(line)
            yield SearchRecord(url, lang, html)
        self.close()

    def close(self) -> None:
        self._file.close()


def bundle_cache_file(docs_dir: Path) -> Path:
    """Return where the previous build's search bundle is kept (outside the docs folder: docsgen.cachedir)."""
    from docsgen.cachedir import cache_dir

    return cache_dir(docs_dir) / _CACHE_FILE


def load_bundle(path: Path, key: str) -> dict[str, bytes] | None:
    """Return the bundle stored at path under this key, or None (absent, other key, damaged)."""
    try:
        with path.open("rb") as stream:
            if stream.readline() != _CACHE_MAGIC:
                return None
            header = json.loads(stream.readline())
            if header.get("key") != key:
                return None
            bundle = {}
            for name, size in header["files"]:
                data = stream.read(size)
                if len(data) != size:
                    return None
                bundle[str(name)] = data
            return bundle if not stream.read(1) else None
    except (OSError, ValueError, TypeError, KeyError):
        return None


def save_bundle(path: Path, key: str, bundle: dict[str, bytes]) -> None:
    """Store the bundle under its key (atomically; a cache that cannot be written is skipped)."""
    header = {"key": key, "files": [[name, len(data)] for name, data in bundle.items()]}
    temp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=".search-", delete=False) as stream:
            temp = Path(stream.name)
            stream.write(_CACHE_MAGIC + json.dumps(header, separators=(",", ":")).encode("utf-8") + b"\n")
            for data in bundle.values():
                stream.write(data)
        os.replace(temp, path)
    except OSError:
        if temp is not None:
            temp.unlink(missing_ok=True)


def start_search_index(ctx: SiteContext, site: Site, *, cache: bool | None = None) -> PendingIndex:
    """Start indexing every searchable page now (hidden, noindex, `searchable: false` left out); collect later.

    With the cache on, a build whose records, Pagefind and docsgen code equal the previous build's reuses
    its bundle instead of running Pagefind.
    """
    records = search_records(ctx, site)
    if not records:
        return PendingIndex()
    try:
        binary = pagefind.pagefind_binary()
        store = None
        if cache_enabled(cache):
            path, key = bundle_cache_file(site.docs_dir), index_key(records, binary)
            bundle = load_bundle(path, key)
            if bundle is not None:
                return PendingIndex(bundle=bundle)
            store = functools.partial(save_bundle, path, key)
        return PendingIndex(pagefind.PagefindRun(records, binary), store=store)
    except Exception as exc:  # noqa: BLE001 - reported as a warning when collected
        return PendingIndex(error=exc)


class StreamingIndex:
    """Pagefind indexing pages as they come back from the renderers (a build with no bundle to reuse).

    Pagefind parses and indexes each page when it arrives, on the CPU time the render workers leave (the
    main process mostly waits for them); only writing the bundle is left for the end. Records are added in
    page order, as start_search_index would send them, so the bundle is the same.
    """

    def __init__(self, ctx: SiteContext, site: Site, run: pagefind.PagefindRun, binary: str) -> None:
        self.ctx, self.site, self.run, self.binary = ctx, site, run, binary
        self.key, self.count = IndexKey(binary), 0

    def add_pages(self, pages: list[Page]) -> None:
        """Index these freshly rendered pages (the searchable ones)."""
        for record in page_records(self.ctx, self.site, pages):
            self.key.add(record)
            self.count += 1
            self.run.add(record)

    def pending(self, *, cache: bool | None = None) -> PendingIndex:
        """Every page is in: let Pagefind write the bundle, to be collected (and stored for reuse) later."""
        self.run.finish()
        if not self.count:
            self.run.close()
            return PendingIndex()
        store = None
        if cache_enabled(cache):
            key = self.key.hexdigest()
            store = functools.partial(save_bundle, bundle_cache_file(self.site.docs_dir), key)
        return PendingIndex(self.run, store=store)

    def cancel(self) -> None:
        """Stop Pagefind (the build failed)."""
        self.run.close()


def spooled_search_index(site: Site, spool: RecordSpool, *, cache: bool | None = None) -> PendingIndex:
    """Every page's record is in the spool: reuse the last bundle when its key is the same, else run Pagefind."""
    if not spool.count:
        spool.close()
        return PendingIndex()
    try:
        binary = pagefind.pagefind_binary()
        store = None
        if cache_enabled(cache):
            path, key = bundle_cache_file(site.docs_dir), spool.key.hexdigest()
            bundle = load_bundle(path, key)
            if bundle is not None:
                spool.close()
                return PendingIndex(bundle=bundle)
            store = functools.partial(save_bundle, path, key)
        return PendingIndex(pagefind.PagefindRun(spool.records(), binary), store=store)
    except Exception as exc:  # noqa: BLE001 - reported as a warning when collected
        spool.close()
        return PendingIndex(error=exc)


def stream_search_index(ctx: SiteContext, site: Site, *, cache: bool | None = None) -> StreamingIndex | None:
    """Start Pagefind before the pages render, when there is no previous bundle it could reuse; else None.

    A rebuild with a stored bundle keeps start_search_index's way (records compared first, Pagefind run only
    when they changed); a cold build indexes while it renders. Any problem starting Pagefind: None (the
    later start_search_index reports it).
    """
    if cache_enabled(cache) and bundle_cache_file(site.docs_dir).is_file():
        return None
    try:
        binary = pagefind.pagefind_binary()
        return StreamingIndex(ctx, site, pagefind.PagefindRun(None, binary), binary)
    except Exception:  # noqa: BLE001 - start_search_index will try again and warn
        return None


class SiteSearch:
    """The search index through a build: fed as pages render when no previous bundle can be reused (a cold
    build), else started from every record once the pages are rendered; collected last. Pagefind runs in its
    own process meanwhile. Used as a context manager: leaving it on an error stops Pagefind."""

    def __init__(
        self, ctx: SiteContext, site: Site, *, cache: bool | None = None, stream: bool = True
    ) -> None:
        """stream=False: the pages are rendered already (or will not be passed to add_pages)."""
        self.ctx, self.site, self.cache = ctx, site, cache
        self._streaming = stream_search_index(ctx, site, cache=cache) if stream else None
        self._spool: RecordSpool | None = None
        self._pending: PendingIndex | None = None
        if stream and self._streaming is None:
            try:
                self._spool = RecordSpool(pagefind.pagefind_binary())
            except Exception as exc:  # noqa: BLE001 - no Pagefind: a warning when the index is collected
                self._pending = PendingIndex(error=exc)

    def add_pages(self, pages: list[Page]) -> None:
        """Take freshly rendered pages' records: indexed now (a cold build) or spooled (a rebuild)."""
        if self._streaming is not None:
            self._streaming.add_pages(pages)
        elif self._spool is not None:
            for record in page_records(self.ctx, self.site, pages):
                self._spool.add(record)

    def start(self) -> None:
        """Every page is rendered: let Pagefind finish the index (or start it, or reuse the last bundle)."""
        if self._pending is not None:
            return
        if self._streaming is not None:
            self._pending = self._streaming.pending(cache=self.cache)
        elif self._spool is not None:
            self._pending = spooled_search_index(self.site, self._spool, cache=self.cache)
            self._spool = None
        else:
            self._pending = start_search_index(self.ctx, self.site, cache=self.cache)

    def add_to(self, files: SiteFiles) -> None:
        """Wait for the bundle and add it under /pagefind/ (a missing or failing Pagefind only warns)."""
        if self._pending is None:
            self.start()
        assert self._pending is not None
        self._pending.add_to(files)

    def cancel(self) -> None:
        """Stop Pagefind (a no-op once collected)."""
        if self._pending is not None:
            self._pending.cancel()
        elif self._streaming is not None:
            self._streaming.cancel()
        if self._spool is not None:
            self._spool.close()

    def __enter__(self) -> SiteSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()
