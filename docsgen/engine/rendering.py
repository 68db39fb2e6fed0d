"""Render a build's pages on every CPU core (the engine's RenderPool); the output is byte-identical to a serial build.

Each page is rendered by the render function (docsgen.render.render_page) exactly as in a serial build, its body
from the page cache where valid, or its files kept from the previous build where every input is unchanged
(render_one). The pool's workers are forked after the site is read (docsgen.engine.pool): only chunks of page
indices go to them, and each page's rendered body, twin and diagnostics come back as an immutable PageRender.
With a writer, each page's HTML and twin are written where the page was rendered. Where fork is unavailable
(Windows, macOS defaults) or the site is small, pages render serially.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from docsgen.common.errors import Diagnostic
from docsgen.common.urls import twin_path
from docsgen.engine.cache import PageCache
from docsgen.engine.pool import Batch, RenderPool, release_memory, worker_count
from docsgen.engine.reuse import OutputReuse
from docsgen.mdx import MdxResult
from docsgen.mdx.fastlex import sort_tried
from docsgen.pages.page import Page
from docsgen.render import RenderedPage, SiteContext, render_page

TRIM_EVERY = 2000  # pages fed to the search index between two returns of freed memory to the system
SERIAL_PACK = 64  # a serial build writes its page cache entries in packs of this many pages

Progress = Callable[[str, int, int], None]
Render = Callable[..., RenderedPage]  # render_page(ctx, page, *, strict=..., body=...)
Writer = Callable[
    [str, str, str], bool
]  # (output path, text, page key) -> written (docsgen.engine.write.PageWriter)


@dataclass(frozen=True)
class PageRender:
    """One page as the engine rendered it: what the stages after rendering read, never changed once made.

    A page written to the output folder keeps only the facts of its body those stages read (assets, icons,
    snippets used, classes, changelog entries, diagnostics: see body_facts), and its html / twin are None (in
    the folder; a twin is read back from there): memory stays flat as the site grows.
    """

    key: str
    body: MdxResult
    html: str | None  # the complete HTML document; None: written to the output folder
    twin: str | None  # the Markdown twin; None: written to the output folder
    diagnostics: tuple[Diagnostic, ...]  # the body's and its links' problems
    # (cache key, JPEG) of its Open Graph image, drawn where it rendered (docsgen.render.thumbnails)
    thumbnail: tuple[str, bytes] | None = None


@dataclass(frozen=True)
class Ledger:
    """What the engine did with one page, for its own caches (never leaves the engine)."""

    cache_key: str | None = None  # the page cache entry restored or written for the page
    cache_pack: str | None = None  # the pack file holding that entry (set once the entry is flushed)
    sizes: tuple[int, int] | None = None  # bytes of the HTML and twin written (the next build may reuse them)
    reused: bool = False  # the previous build's files were kept: nothing of the page was rendered again
    written: bool = False  # the HTML is in the output folder
    twin_written: bool = False  # the Markdown twin is in the output folder


@dataclass(frozen=True)
class Done:
    """A page rendered by a worker, as it reaches the main process: its render, ledger and search record."""

    render: PageRender
    ledger: Ledger
    record: Any = None  # what Job.index made of the page where it rendered (its search record)


@dataclass
class Job:
    """What every render needs: forked workers inherit it."""

    ctx: SiteContext
    pages: list[Page]
    render: Render = render_page
    strict: bool = False
    cache: PageCache | None = None
    write: Writer | None = None
    index: Callable[[Page, Any], Any] | None = (
        None  # (page, its body) -> its search record, made where it renders
    )
    reuse: OutputReuse | None = None  # the previous build's files of pages whose every input is unchanged
    thumbnail: Callable[[Page], tuple[str, bytes] | None] | None = None  # page -> its drawn Open Graph image


def body_facts(content: MdxResult) -> MdxResult:
    """Return what the stages after rendering read of a written page's body: its assets, icons, snippets used,
    classes, changelog entries and diagnostics (its HTML went to the file, the search index and the twin)."""
    return MdxResult(
        html="",
        diagnostics=content.diagnostics,
        dependencies=content.dependencies,
        assets=content.assets,
        icons=content.icons,
        classes=content.classes,
        changelog=content.changelog,
    )


class SharedFacts:
    """Makes the sets of written pages' bodies (body_facts) that hold the same names one set: pages of a large site
    use the same icons, assets, classes and snippets, and the main process holds every page's facts to the end
    (about 1.8 KB a page of sets, 46 MB of the 25k-page versioned site). Those sets are only read after rendering.
    """

    def __init__(self) -> None:
        self._sets: dict[frozenset[str], set[str]] = {}

    def shared(self, names: set[str]) -> set[str]:
        """Return the set kept for these names (this one, the first time they are seen)."""
        return self._sets.setdefault(frozenset(names), names)

    def render(self, made: PageRender) -> PageRender:
        """Give a written page's body facts the shared sets (a page held whole keeps its own body as it is)."""
        body = made.body
        if made.html is None and not body.html:
            body.dependencies = self.shared(body.dependencies)
            body.assets = self.shared(body.assets)
            body.icons = self.shared(body.icons)
            body.classes = self.shared(body.classes)
        return made


def render_one(job: Job, page: Page) -> Done:
    """Render a page (its body from the page cache when valid), writing it out when the job has a writer.

    A page whose body is restored and whose every other input equals the previous build's keeps that build's
    files (job.reuse), and its search record is the previous build's: nothing of it is made again.
    """
    cache = job.cache
    # with output reuse, the body itself is read only when the page cannot keep its files
    restored = cache.restore(job.ctx, page, body=job.reuse is None) if cache else None
    if cache and restored and job.reuse is not None:
        sizes = job.reuse.keep(page, restored.key)
        if sizes is not None:  # as render_page reports them; no search record: the last build's (site_search)
            diagnostics = (*restored.diagnostics, *restored.content.diagnostics)
            kept = PageRender(page.key, restored.content, None, None, diagnostics)
            pack_kept = cache.pack_of(restored.key)
            return Done(
                kept, Ledger(restored.key, pack_kept, sizes, reused=True, written=True, twin_written=True)
            )
        restored = cache.restore_body(restored)
    key: str | None = None
    pack: str | None = None
    if restored:
        rendered = job.render(job.ctx, page, strict=job.strict, body=restored.content)
        key, pack = restored.key, cache.pack_of(restored.key) if cache else None
    else:
        rendered = job.render(job.ctx, page, strict=job.strict)
        key = cache.store(page, rendered.content, rendered.links) if cache else None
    record = job.index(page, rendered.content) if job.index is not None else None
    diagnostics = (*(restored.diagnostics if restored else ()), *rendered.diagnostics)
    if job.write is None:
        kept = PageRender(page.key, rendered.content, rendered.html, rendered.twin, diagnostics)
        return Done(kept, Ledger(key, pack), record)
    sizes = None  # (what the next build compares to keep the files: only where it may, with output reuse)
    if job.reuse is not None:
        sizes = (len(rendered.html.encode("utf-8")), len(rendered.twin.encode("utf-8")))
    written = job.write(page.output, rendered.html, page.key)
    twin_written = job.write(twin_path(page.url), rendered.twin, page.key)
    body = body_facts(rendered.content) if written else rendered.content
    html = None if written else rendered.html
    twin = None if twin_written else rendered.twin
    made = PageRender(page.key, body, html, twin, diagnostics)
    return Done(made, Ledger(key, pack, sizes, written=written, twin_written=twin_written), record)


def render_chunk(job: Job, indices: list[int]) -> list[Done]:
    """Render some pages of the job (their cache entries written as one pack): a worker's batch."""
    done = [render_one(job, job.pages[i]) for i in indices]
    ledgers = _flushed(job.cache, [one.ledger for one in done])
    done = [dataclasses.replace(one, ledger=ledger) for one, ledger in zip(done, ledgers, strict=True)]
    return with_thumbnails(job, [job.pages[i] for i in indices], done)


def with_thumbnails(job: Job, pages: list[Page], done: list[Done]) -> list[Done]:
    """Give the pages rendered (not those that kept the previous build's files) their Open Graph image, drawn
    here one after another once the batch rendered: the drawing's code, glyphs and tables stay in the CPU's
    caches, where drawing each between two page renders cost about a fifth more."""
    draw = job.thumbnail
    if draw is None:
        return done
    return [
        one
        if one.ledger.reused
        else dataclasses.replace(one, render=dataclasses.replace(one.render, thumbnail=draw(page)))
        for page, one in zip(pages, done, strict=True)
    ]


def _flushed(cache: PageCache | None, ledgers: list[Ledger]) -> list[Ledger]:
    """Write the page cache entries of these renders as one pack; return their ledgers with it noted on those that
    stored one (an entry not written is not kept)."""
    pack = cache.flush() if cache else None
    return [
        dataclasses.replace(one, cache_key=one.cache_key if pack else None, cache_pack=pack)
        if one.cache_key and one.cache_pack is None
        else one
        for one in ledgers
    ]


CHUNK_PAGES = 200  # at most this many pages a chunk (a fraction of a second's work)


def _chunks(count: int, workers: int, start: int = 0) -> list[list[int]]:
    """Split `count` page indices from `start` into contiguous chunks, several per worker to balance uneven pages.

    Chunks stay small on large sites: results reach the main process (and the search index) as a steady
    stream, and the last chunk leaves the other workers idle for a fraction of a second, not for seconds.
    """
    size = max(4, min(CHUNK_PAGES, count // (workers * 8)))
    end = start + count
    return [list(range(first, min(first + size, end))) for first in range(start, end, size)]


@dataclass(frozen=True)
class Rendering:
    """The job's pages rendered, in page order: what each became (renders) and what the engine did (ledgers)."""

    renders: tuple[PageRender, ...]
    ledgers: tuple[Ledger, ...]


OnRendered = Callable[[list[Page], list[Done]], Any]


def render_pages(
    job: Job,
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    on_rendered: OnRendered | None = None,
    release: bool = False,
) -> Rendering:
    """Render the job's pages (in this order) serially or on the engine's RenderPool; give each page its body.

    on_rendered(pages, done) is called in this process, in page order, as soon as pages are done (their search
    records are in `done` and dropped after). The pages are left as they are, but for release: each page's source
    text is dropped once rendered (memory stays flat as the site grows).
    """
    pages = job.pages
    count = worker_count(len(pages), workers)
    renders: list[PageRender] = []
    ledgers: list[Ledger] = []
    if job.cache:
        job.cache.load_index()  # once, here: forked workers inherit it

    facts = SharedFacts()
    trimmed = [0]  # pages rendered when freed memory was last handed back

    def done(chunk: list[int], finished: list[Done]) -> None:
        renders.extend(facts.render(one.render) for one in finished)
        ledgers.extend(one.ledger for one in finished)
        if on_rendered:
            on_rendered([pages[index] for index in chunk], finished)
        if release:  # the page's source is not needed again
            for index in chunk:
                pages[index].body = ""
            if len(renders) - trimmed[0] >= TRIM_EVERY:  # the records and bundles fed meanwhile are freed
                release_memory()
                trimmed[0] = len(renders)
        if progress:
            progress("render", len(renders), len(pages))

    if count <= 1:
        for index, page in enumerate(pages):
            done([index], with_thumbnails(job, [page], [render_one(job, page)]))
            if len(ledgers) % SERIAL_PACK == 0 or len(ledgers) == len(pages):
                ledgers[-SERIAL_PACK:] = _flushed(job.cache, ledgers[-SERIAL_PACK:])
        return Rendering(tuple(renders), tuple(ledgers))
    # The first page, and the first of each other kind (an API site's first endpoint page), render here before
    # the fork: the modules, templates and caches they load lazily (an endpoint page's: the spec's render
    # context, the sample languages' lexers, ~0.14 s on GitHub's spec) are then loaded once and inherited by
    # every worker instead of being loaded again in each. Each is handed on in page order.
    early = _first_of_each_kind(pages)
    held = dict(zip(early, render_chunk(job, early), strict=True))
    sort_tried()  # the lexers those pages used much: their first-character tables made once, inherited
    chunks = [run for chunk in _chunks(len(pages) - 1, count, start=1) for run in _runs_without(chunk, held)]
    done([0], [held.pop(0)])
    with RenderPool(count, prefix="b") as pool:
        pool.start(lambda indices, _name: render_chunk(job, indices))
        for chunk, finished in _in_order(pool, job, chunks):
            for index in [index for index in held if index < chunk[0]]:
                done([index], [held.pop(index)])
            done(chunk, finished)
    for index in list(held):
        done([index], [held.pop(index)])
    return Rendering(tuple(renders), tuple(ledgers))


def _first_of_each_kind(pages: list[Page]) -> list[int]:
    """Return the index of the first page and of the first page of each other kind (endpoint, webhook ...)."""
    first: dict[str, int] = {}
    for index, page in enumerate(pages):
        first.setdefault(page.kind, index)
    return sorted({0, *first.values()})


def _runs_without(chunk: list[int], taken: dict[int, Done]) -> list[list[int]]:
    """Return the chunk's runs of pages not taken (a chunk is cut where a page rendered before the fork was)."""
    runs: list[list[int]] = [[]]
    for index in chunk:
        if index in taken:
            runs.append([])
        else:
            runs[-1].append(index)
    return [run for run in runs if run]


DEPTH = 2  # chunks a worker has in hand (it never waits for this process between two)


def _in_order(pool: RenderPool, job: Job, chunks: list[list[int]]) -> Iterator[tuple[list[int], list[Done]]]:
    """Hand the chunks to the pool's workers, DEPTH each at a time; yield each chunk with its renders, in page
    order, as soon as it and every chunk before it are done. A chunk whose worker failed or ended renders here
    (an error in it is raised here, as in a serial build)."""
    waiting = list(reversed(chunks))
    answered: dict[int, list[Done]] = {}
    for chunk in chunks:
        while chunk[0] not in answered:
            for depth in range(1, DEPTH + 1):  # one chunk to each worker first, then a second
                for worker in pool.idle(depth):
                    if waiting and pool.send(worker, waiting[-1]):
                        waiting.pop()
            if not pool.workers:  # none could be forked, or every one ended: the rest renders here
                answered.update((one[0], render_chunk(job, one)) for one in reversed(waiting))
                waiting.clear()
            for sent, answer in pool.receive(None):
                answered[sent[0]] = _taken(job, sent, answer)
        yield chunk, answered.pop(chunk[0])


def _taken(job: Job, chunk: list[int], answer: Batch | None) -> list[Done]:
    """Return a worker's renders of a chunk, or render the chunk here when the worker failed or ended."""
    if answer is not None and answer.printed:
        sys.stderr.write(answer.printed)
    if answer is None or answer.failed:
        return render_chunk(job, chunk)
    return list(answer.results)
