"""The search index through one build: records taken as pages render, bundles made, reused or linked, collected.

A cold build streams each record to Pagefind as its page renders (docsgen.outputs.search.StreamingIndex). A
rebuild spools the records of each bundle (docsgen.outputs.search_store.FolderRecords) and, once every page is
in, links the previous output's bundle where every page was kept, reuses a stored bundle whose records are the
same, and runs Pagefind for the others. Every build with the cache on leaves each bundle's records for the next.

`docsgen dev` uses the same class (docsgen.dev.background): no cache, records fed one at a time in any order as
pages render (add_record), bundles handed to its page store as Pagefind finishes them, the rest collected once
every page is rendered.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from docsgen.common.errors import Diagnostic, warning
from docsgen.engine.write import Linked, OutputFolder, SiteFiles
from docsgen.outputs import pagefind
from docsgen.outputs.pagefind import SearchRecord
from docsgen.outputs.search import StreamingIndex, bundle_parts, record_for, start_search_index
from docsgen.outputs.search_bundles import (
    Part,
    PendingIndex,
    any_bundle_cached,
    bundle_cache_file,
    cache_enabled,
    load_bundle,
)
from docsgen.outputs.search_store import FolderRecords, read_records, records_file
from docsgen.pages.page import Page
from docsgen.render import SiteContext
from docsgen.site.read import Site

FLUSH_CHARS = (
    64 * 1024
)  # a bundle's records file is appended to once this much waits (bounded: folders x this)

# (bundle folder) -> the previous build's bundle there when its files are intact: (its key, {name: (file, size)})
PreviousBundle = Callable[[str], tuple[str, dict[str, tuple[Path, int]]] | None]
# Where a bundle file Pagefind finished while pages still render goes at once: (site path, its bytes) -> stored;
# the build's output folder (written_to), or dev's page store.
BundleOutput = Callable[[str, bytes], object]


def written_to(files: SiteFiles, folder: OutputFolder) -> BundleOutput:
    """Return the output that writes bundle files into the build's output folder (claimed in its files)."""
    return functools.partial(_write_now, files, folder)


def _write_now(files: SiteFiles, folder: OutputFolder, path: str, data: bytes) -> bool:
    return folder.write_now(files, path, data, "search index")


def stream_search_index(
    ctx: SiteContext, site: Site, *, cache: bool | None = None, count: bool = True
) -> StreamingIndex | None:
    """Index pages as they render when there is no previous bundle they could reuse (a cold build); else None.

    A rebuild with a stored bundle spools its records instead (compared first, Pagefind run only for bundles
    whose records changed). Any problem finding Pagefind: None (reported when the index is collected).
    """
    if cache_enabled(cache) and any_bundle_cached(site.docs_dir):
        return None
    try:
        return StreamingIndex(ctx, site, pagefind.pagefind_binary(), count=count)
    except Exception:  # noqa: BLE001 - the spooled or later path reports it
        return None


class SiteSearch:
    """The search index through a build: fed as pages render (a cold build), or their records spooled and
    compared with the last build's bundles once the pages are rendered (a rebuild); collected last. Pagefind runs
    in its own processes meanwhile. Used as a context manager: leaving it on an error stops Pagefind."""

    def __init__(
        self,
        ctx: SiteContext,
        site: Site,
        *,
        cache: bool | None = None,
        stream: bool = True,
        previous: PreviousBundle | None = None,
        output: BundleOutput | None = None,
        count: bool = True,
    ) -> None:
        """stream=False: the pages are rendered already (or will not be passed to add_pages). previous: the last
        build's bundles, for bundles whose pages were all kept (docsgen.engine.reuse). output: where a bundle
        Pagefind finishes while pages still render is written at once (else all are added by add_to).
        count=False: the searchable pages are counted by count(), later (records may come before)."""
        self.ctx, self.site, self.cache, self.previous = ctx, site, cache, previous
        self._output = output
        self._problems: list[str] = []  # bundles written early that failed
        self.keep = cache_enabled(cache)  # records are left for the next build
        self._streaming = stream_search_index(ctx, site, cache=cache, count=count) if stream else None
        self.closed = False  # close() was called: records are ignored, Pagefind is killed
        self._folders: dict[str, FolderRecords] = {}
        self._spooling = False
        self._binary = ""
        self._pending: PendingIndex | None = None
        self._last: dict[
            str, dict[str, tuple[str, SearchRecord]]
        ] = {}  # last build's records, read on demand
        self.missing: list[Page] = []  # kept pages whose record could not be found
        if stream and self._streaming is None:
            try:
                self._binary, self._spooling = pagefind.pagefind_binary(), True
            except Exception as exc:  # noqa: BLE001 - no Pagefind: a warning when the index is collected
                self._pending = PendingIndex(error=exc)

    def add_pages(self, pages: list[Page], *_: object) -> None:
        """Take freshly rendered pages' records (made from their bodies): indexed now (a cold build) or spooled
        (a rebuild)."""
        self.add_records(pages, None)

    def add_records(
        self,
        pages: list[Page],
        records: Sequence[SearchRecord | None] | None,
        body_keys: Sequence[str | None] | None = None,
        kept: Sequence[bool] | None = None,
    ) -> None:
        """Take these pages' records (made where they rendered: record_maker; None: made here from the bodies);
        body_keys: each page's page-cache key; kept: which pages were kept whole from the last build (they come
        without a record: theirs is the last build's)."""
        rows = list(self._rows(pages, records, body_keys, kept))
        if self._streaming is not None:
            resolved: list[SearchRecord | None] = []
            for folder, page, record, body_key, was_kept in rows:
                if was_kept:
                    record = self._last_record(folder, page, body_key)
                if record is not None and self.keep:
                    self._records(folder).add(page.key, body_key, record)
                resolved.append(record)
            self._streaming.add_pages([row[1] for row in rows], resolved)
            self._write_ready()
        elif self._spooling:
            for folder, page, record, body_key, was_kept in rows:
                if was_kept and body_key:
                    self._records(folder).add_kept(page.key, body_key)
                elif record is not None:
                    self._records(folder).add(page.key, body_key, record)
        for folder in {row[0] for row in rows} & self._folders.keys():
            self._folders[folder].flush(at_least=FLUSH_CHARS)

    def add_record(self, folder: str, record: SearchRecord) -> None:
        """Take one page's record for this bundle folder, in any order (`docsgen dev`: pages render as they are
        asked for and in the background); not kept for a next build."""
        if self._streaming is not None and not self.closed:
            self._streaming.add(folder, record)
            self._write_ready()

    def count(self) -> None:
        """Count each bundle's searchable pages now (when made with count=False)."""
        if self._streaming is not None:
            self._streaming.count()

    def _write_ready(self) -> None:
        """Write the bundles Pagefind finished meanwhile (a version whose pages are all in) to the output folder,
        so their files are not held until the end, nor all written after the last page."""
        if self._streaming is None or self._output is None:
            return
        for part in self._streaming.take_ready(cache=self.cache):
            bundle = PendingIndex.finish(part, self._problems)  # stored for the next build as well
            if bundle is None:
                continue
            part.written = {name: len(data) for name, data in bundle.items()}
            part.bundle = None
            for name, data in bundle.items():
                self._output(f"{part.folder}/{name}", data)

    def _rows(
        self,
        pages: list[Page],
        records: Sequence[SearchRecord | None] | None,
        body_keys: Sequence[str | None] | None,
        kept: Sequence[bool] | None,
    ) -> Iterator[tuple[str, Page, SearchRecord | None, str, bool]]:
        """Yield (bundle folder, page, its record, body key, kept) for each searchable page of these."""
        table = self.site.policies()
        for number, page in enumerate(pages):
            policy = self.site.policy(page)
            if not policy.searchable:
                continue
            record = records[number] if records is not None else None
            if records is None and page.content:
                record = record_for(self.ctx, self.site, page, policy)
            body_key = (body_keys[number] if body_keys is not None else None) or ""
            yield table.search_folder(policy), page, record, body_key, bool(kept and kept[number])

    def _records(self, folder: str) -> FolderRecords:
        if folder not in self._folders:
            self._folders[folder] = FolderRecords(self.site.docs_dir, folder, keep=self.keep)
        return self._folders[folder]

    def _last_record(self, folder: str, page: Page, body_key: str) -> SearchRecord | None:
        """Return a kept page's record from the last build's records file (noted missing when it is not there)."""
        if folder not in self._last:
            self._last[folder] = read_records(records_file(self.site.docs_dir, folder))
        found = self._last[folder].get(page.key)
        if found is None or found[0] != body_key:
            self.missing.append(page)
            return None
        return found[1]

    def start(self) -> None:
        """Every page is rendered: let Pagefind finish the index (or start it, or reuse the last bundles)."""
        if self._pending is not None:
            return
        if self._streaming is not None:
            self._pending = self._streaming.pending(cache=self.cache)
            self._pending.problems = self._problems
            self._last.clear()
            for records in self._folders.values():
                records.complete()
        elif self._spooling:
            self._pending = self._spooled_bundles()
        else:
            self._pending = start_search_index(self.ctx, self.site, cache=self.cache)

    def _spooled_bundles(self) -> PendingIndex:
        """Link each bundle whose pages were all kept from the previous output; reuse or make the others."""
        linked: list[Part] = []
        keys: dict[str, str] = {}
        runs: dict[str, Callable[[], pagefind.PagefindRun]] = {}
        for folder, records in sorted(self._folders.items()):
            previous = self.previous(folder) if self.previous and records.all_kept else None
            if previous is not None:
                key, files = previous
                fallback = functools.partial(_stored_file, bundle_cache_file(self.site.docs_dir, folder), key)
                bundle = {
                    name: Linked(path, size, functools.partial(fallback, name))
                    for name, (path, size) in files.items()
                }
                linked.append(Part(folder, key=key, linked=bundle))
                records.close()  # the last build's records file stays: they are these pages' records
                continue
            keys[folder] = records.resolve(self._binary)
            self.missing += [self.site.pages[key] for key in records.missing if key in self.site.pages]
            runs[folder] = functools.partial(pagefind.PagefindRun, records.records(), self._binary)
        pending = bundle_parts(self.site, keys, runs, cache=self.cache)
        pending.parts = sorted(pending.parts + linked, key=lambda part: part.folder)
        return pending

    def _collected(self) -> PendingIndex:
        if self._pending is None:
            self.start()
        assert self._pending is not None
        return self._pending

    def hand_over(self, output: BundleOutput) -> list[Diagnostic]:
        """Wait for the bundles and hand each file not handed over yet to `output` (`docsgen dev`: its page
        store), the listing of a split index too; return why the index could not be built, if it could not."""
        diagnostics: list[Diagnostic] = []
        pending = self._collected()
        for path, data in pending.collect(diagnostics).items():
            output(path, data)
        for part in pending.parts:
            for name, file in (part.linked or {}).items():
                output(f"{part.folder}/{name}", file.read())
        return diagnostics

    def add_to(self, files: SiteFiles) -> None:
        """Wait for the bundles and add them under /pagefind/ (a missing or failing Pagefind only warns)."""
        self._collected().add_to(files)
        if self.missing:
            first = self.missing[0]
            files.diagnostics.append(
                warning(
                    "search.record-missing",
                    f"{len(self.missing)} unchanged page(s) are not in the search index, {first.key!r} first: "
                    "the last build's search records of them are gone from the cache folder",
                    first.source or "",
                    hint="build again with --no-cache",
                )
            )

    def bundles(self) -> dict[str, list[Any]]:
        """Return each bundle this build wrote: folder -> [its key, [[file name, size], ...]] (for the next
        build's output reuse; only bundles made or reused whole)."""
        if self._pending is None:
            return {}
        return {
            p.folder: [p.key, p.files()]
            for p in self._pending.parts
            if p.key and (p.bundle or p.linked or p.written is not None)
        }

    def save(self) -> None:
        """The output folder is in place: leave this build's records for the next build."""
        for records in self._folders.values():
            records.save()
        self._folders.clear()

    def cancel(self) -> None:
        """Stop Pagefind (a no-op once collected); drop the spooled records."""
        if self._pending is not None:
            self._pending.cancel()
        elif self._streaming is not None:
            self._streaming.cancel()
        for records in self._folders.values():
            records.close()
        self._folders.clear()

    def close(self) -> None:
        """Kill Pagefind from any thread (`docsgen dev`: a newer build, or the server stops); what waits for a
        bundle then fails at once, and records are ignored from now on."""
        self.closed = True
        pending = self._pending
        for part in pending.parts if pending is not None else []:
            run = part.run
            if run is not None:
                run.cancel()
        if self._streaming is not None:
            self._streaming.kill()

    def __enter__(self) -> SiteSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()


def _stored_file(path: Path, key: str, name: str) -> bytes:
    """Return one file of a stored bundle (a linked bundle file that vanished while the build ran)."""
    bundle = load_bundle(path, key)
    if bundle is None or name not in bundle:
        raise OSError(f"the search index file {name} of the last build is gone: build again")
    return bundle[name]
