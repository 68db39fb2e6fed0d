"""The search index of `docsgen dev`, fed as pages render: one Pagefind run per bundle, as `docsgen build` splits
them (pagefind/<group>/ per product and version, docsgen.site.policies; else one bundle, pagefind/).

Pages come in page order from the background pass, which keeps a version's pages together, and in any order
from requests. A bundle whose every searchable page has come in is written and collected at once, so only the
bundles being fed have a Pagefind process. Bundles go to the page store, not memory.
"""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.common.errors import Diagnostic
from docsgen.dev.pagestore import PageStore
from docsgen.outputs.pagefind import INDEX_DIR, PagefindRun, SearchRecord
from docsgen.outputs.search_bundles import Part, PendingIndex
from docsgen.site.read import Site

LISTING = f"{INDEX_DIR}/indexes.json"  # the other bundles, for "search all" (docsgen.outputs.search_bundles)


class DevSearch:
    """Pagefind runs fed record by record; finished bundles kept as store files."""

    def __init__(self, store: PageStore) -> None:
        self.store = store
        self.fed: dict[str, int] = {}  # bundle folder -> records fed
        self.totals: dict[str, int] | None = None  # bundle folder -> searchable pages (once counted)
        self.runs: dict[str, PagefindRun] = {}
        self.files: dict[str, Path] = {}  # site path -> store file, of the collected bundles
        self.collected: list[str] = []
        self.bundled: list[str] = []  # folders of a split index whose bundle was made
        self.problems: list[str] = []
        self.closed = False
        self._collecting: PagefindRun | None = None  # the run collect() waits for (close() cancels it)

    def count(self, site: Site) -> None:
        """Count each bundle's searchable pages (a bundle is written once all of them came in)."""
        totals: dict[str, int] = {}
        table = site.policies()
        for page in site.pages_to_render():
            policy = site.policy(page)
            if policy.searchable:
                folder = table.search_folder(policy)
                totals[folder] = totals.get(folder, 0) + 1
        self.totals = totals

    def add(self, folder: str, record: SearchRecord) -> None:
        """Feed one page's record to its bundle's run (started with the bundle's first record)."""
        if self.closed or folder in self.collected:
            return
        run = self.runs.get(folder)
        if run is None:
            try:
                run = self.runs[folder] = PagefindRun()
            except Exception as exc:  # noqa: BLE001 - no Pagefind: search is unavailable, pages are not
                self.problems.append(str(exc))
                self.collected.append(folder)
                return
        run.add(record)
        self.fed[folder] = self.fed.get(folder, 0) + 1

    def complete(self) -> list[str]:
        """Return the bundles whose every searchable page has been fed."""
        totals = self.totals or {}
        return [f for f in self.runs if f not in self.collected and self.fed.get(f, 0) >= totals.get(f, 1)]

    def collect(self, folders: list[str]) -> None:
        """Let Pagefind write these bundles and keep them as store files (blocks: call it without the lock)."""
        for folder in folders:
            run = self.runs.pop(folder, None)
            self.collected.append(folder)
            if run is None or self.closed:
                continue
            run.finish()
            diagnostics: list[Diagnostic] = []
            self._collecting = run
            try:
                bundle = PendingIndex(parts=[Part(folder, run)]).collect(diagnostics)
            finally:
                self._collecting = None
            if self.closed:
                return
            self.problems += [d.message for d in diagnostics]
            if bundle and folder != INDEX_DIR:
                self.bundled.append(folder)
            for path, data in bundle.items():
                if path != LISTING:
                    self.files[path] = self.store.write(data, "." + path.rpartition(".")[2])

    def finish(self) -> dict[str, Path | bytes]:
        """Collect every bundle left; return the index's files (with the listing of a split index)."""
        self.collect(list(self.runs))
        out: dict[str, Path | bytes] = dict(self.files)
        if self.bundled:  # as PendingIndex.collect lists them
            out[LISTING] = json.dumps([f.rpartition("/")[2] for f in sorted(set(self.bundled))]).encode(
                "utf-8"
            )
        return out

    def close(self) -> None:
        """Kill every Pagefind run still going."""
        self.closed = True
        collecting = self._collecting
        if collecting is not None:
            collecting.cancel()  # (from another thread: the collecting one cleans up)
        for run in list(self.runs.values()):
            run.cancel()
        self.runs.clear()
