"""Incremental rebuilds for `docsgen dev`: re-render only what a change touches, publish complete snapshots.

A full build reads the site (config, pages, navigation) and publishes it with every page Claimed, not rendered:
the server has a page rendered when it is first asked for (render_claimed), and a background pass
(docsgen.dev.background) renders the others, feeds the search index and makes the files that need every page.
Rendered pages live in the page store (files on disk); what dev keeps of each render is docsgen.dev.rendered's
PageResult. With lazy=False (tests, tools) build() renders everything before it returns.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path

from docsgen.common.errors import Diagnostic, DocsgenError, error
from docsgen.common.urls import twin_path
from docsgen.dev import background
from docsgen.dev.classify import classify, theme_css_changed
from docsgen.dev.pagestore import PageStore
from docsgen.dev.proxy import spec_files
from docsgen.dev.publish import publish
from docsgen.dev.rendered import PageResult, render_result
from docsgen.dev.scope import (
    api_backed,
    nav_signature,
    refresh_sidebars,
    section_links,
    structure_signature,
    uses_generated_pages,
)
from docsgen.dev.snapshot import (
    FULL,
    BuildCancelled,
    Change,
    OnRequest,
    RebuildKind,
    Served,
    Snapshot,
    Update,
    servable,
)
from docsgen.dev.tailwind import refresh_tailwind
from docsgen.dev.themes import reset_theme_caches
from docsgen.dev.turns import Turns
from docsgen.engine.write import Claimed, SiteFiles
from docsgen.mdx import MdxResult
from docsgen.nav.tree import build_nav
from docsgen.outputs import add_before_pages
from docsgen.outputs.pagefind import RunGroup
from docsgen.pages.page import Page, read_page
from docsgen.render import SiteContext, site_context
from docsgen.site.read import Site, read_site
from docsgen.sources.walk import PageFile, read_ignore_file


def _quiet(_: str) -> None:
    """Print nothing (the app sets the terminal)."""


class DevSite:
    """The dev server's build state: the last site read, its rendered files, and per-page diagnostics."""

    def __init__(
        self, docs_dir: Path, out_dir: Path | None = None, *, lazy: bool = False, workers: int | None = None
    ) -> None:
        """lazy: build() publishes the site unrendered (pages render when asked for and in the background).
        workers: render processes of the background pass (None: as docsgen build, docsgen.engine.pool)."""
        self.docs_dir = docs_dir.resolve()
        self.out_dir = out_dir.resolve() if out_dir else None
        self.lazy = lazy
        self.workers = workers
        self.changes = 0  # rebuilds applied: renders made from an older state are stale (render processes)
        self.site: Site | None = None
        self.ctx: SiteContext | None = None
        self.files: dict[str, Served] = {}
        self.store = PageStore()  # rendered pages and twins, on disk
        self.epoch = 0  # full builds published: a background pass of an older one stops
        self.background: background.Pass | None = None
        self.bodies: dict[
            str, MdxResult
        ] = {}  # page key -> what the site's files read of its body (when any)
        self.vendor: set[str] = set()  # vendored bundles some rendered page uses (mermaid, react)
        self.outputs: dict[str, str] = {}  # page key -> its HTML path (pages that become files)
        self.garbage: list[tuple[str, Path]] = []  # (path, store file) replaced: deleted once published
        self.on_background: Callable[[str], None] = _quiet  # terminal lines of the background pass
        self.read_diags: dict[str, list[Diagnostic]] = {}  # page key -> frontmatter diagnostics
        self.render_diags: dict[str, list[Diagnostic]] = {}  # page key -> MDX/link diagnostics
        self.site_errors: list[Diagnostic] = []
        self.site_warnings: list[Diagnostic] = []
        self.snapshot = Snapshot(0, {})
        self.renders = 0  # pages rendered since start (tests count it)
        self.full_builds = 0
        self.ignore_patterns: list[str] = []
        self.asset_epoch = 0  # stylesheet edits so far: part of the assets' ?v= in served pages
        self.spec_paths: set[str] = set()  # local OpenAPI files the site uses: editing one rebuilds all
        self.twin_paths: dict[str, str] = {}  # page key -> its Markdown twin's path (when the page owns it)
        self.turns = Turns()  # rebuilds, renders and the background pass: a turn at a time (requests first)
        self.closed = False
        self._pagefind = RunGroup()  # Pagefind runs of the build in progress, killed by close()
        self.rendered_now: list[str] = []  # pages rendered by the rebuild in progress
        self._nav_changed = False
        self._by_source: dict[str, str] = {}  # page source -> page key

    # ------------------------------------------------------------------ public
    def build(self) -> Update:
        """Build the whole site and publish it."""
        with self.turns, self._pagefind.active():
            self._check_open()
            started = time.perf_counter()
            self.rendered_now = []
            self._full()
            self._check_open()  # stopped meanwhile (its Pagefind killed): nothing to publish
            job = self._new_pass()
            update = publish(self, FULL, started)
        if job is not None:
            job.start()
        return update

    def apply(self, paths: Iterable[Path]) -> Update:
        """Rebuild what the changed files affect and publish the result as one new snapshot."""
        with self.turns.urgent(), self._pagefind.active():
            self._check_open()
            started = time.perf_counter()
            self.rendered_now = []
            self._nav_changed = False
            self.changes += 1  # what render processes of the background pass were forked with is old now
            change = self._apply(sorted({Path(p).resolve() for p in paths}))
            self._check_open()
            if change.kind == "none":
                self.changes -= 1  # (nothing changed: they render on)
                return Update(self.snapshot.generation, "none", set(), [], [], time.perf_counter() - started)
            job = self._new_pass() if change.kind == "full" else None
            update = publish(self, change, started)
        if job is not None:
            job.start()
        return update

    def render_claimed(self, path: str) -> Snapshot:
        """Render the page that claimed an output path now, if it still waits; return the current snapshot.

        Called by the server for a page asked for before the background pass reached it. The page's file and
        errors go into the current snapshot in place: the rendered page is what that snapshot stood for.
        """
        with self.turns.urgent():
            self._check_open()
            claim = self.files.get(path)
            page = self.site.pages.get(claim.by) if self.site and isinstance(claim, Claimed) else None
            if page is not None:
                self._keep(page, self._render(page))
            elif isinstance(claim, OnRequest):
                background.make_agent_files(self)
            return self.snapshot

    def pending_pages(self) -> int:
        """Return how many pages are not rendered yet."""
        return sum(1 for output in self.outputs.values() if isinstance(self.files.get(output), Claimed))

    def wait_rendered(self, timeout: float | None = None) -> bool:
        """Wait for the background pass to finish (every page rendered, search index added); False on timeout."""
        job = self.background
        return job is None or job.wait(timeout)

    def _new_pass(self) -> background.Pass | None:
        """Return the pass rendering what a full build left Claimed, to start once published (lazy); without
        lazy, render it all now (the pass runs here, under the lock: an RLock) and return None."""
        if self.site is None or self.closed:
            return None
        if self.background is not None:
            self.background.stop()  # its render processes too: they render the old site
        job = background.Pass(self, self.epoch)
        self.background = job
        if self.lazy:
            return job
        job.run()
        return None

    def close(self) -> None:
        """Stop for good, from any thread: a build in progress stops rendering and its Pagefind is killed.

        That build raises BuildCancelled; later build() and apply() calls raise it at once.
        """
        self.closed = True
        self._pagefind.cancel()
        job = self.background
        if job is not None:
            job.stop(wait=5)
        self.store.close()

    def _check_open(self) -> None:
        if self.closed:
            raise BuildCancelled

    def classify(self, path: Path) -> str:
        """Name the kind of a changed file: config, theme, theme-css, page, snippet, static, ignored."""
        return classify(self, path)

    # ------------------------------------------------------------------ rebuilds
    def _apply(self, paths: list[Path]) -> Change:
        if self.site is None:  # recovering from an error: theme files may have changed meanwhile, unseen
            reset_theme_caches()
            self._full()
            return FULL
        kinds = {path: self.classify(path) for path in paths}
        if any(kind == "theme" for kind in kinds.values()):
            reset_theme_caches()  # templates are not re-checked on each render (auto_reload off): load them anew
        if any(k in ("config", "theme") for k in kinds.values()):
            self._full()
            return FULL
        css: list[str] = []
        edited: list[str] = []
        snippets: list[str] = []
        reload_all = False
        for path, file_kind in kinds.items():
            rel = path.relative_to(self.docs_dir).as_posix() if path.is_relative_to(self.docs_dir) else ""
            if file_kind == "page":
                key = self._by_source.get(rel)
                page = self.site.pages.get(key) if key else None
                if page is None or not path.is_file():
                    self._full()  # a page appeared or disappeared: URLs, links and navigation change
                    return FULL
                edited.append(page.key)
            elif file_kind == "snippet":
                snippets.append(rel)
            elif file_kind == "theme-css":
                css.extend(theme_css_changed(self.ctx, self.files, path))
            elif file_kind == "static":
                known = rel in self.site.sources.static
                if known != path.is_file():
                    self._full()  # added or removed files change which links resolve
                    return FULL
                if path.suffix == ".css":
                    css.append("/" + rel)
                else:
                    reload_all = True
                    if path.suffix.lower() in (".jsx", ".tsx", ".js", ".ts", ".mjs", ".cjs"):
                        snippets.append(rel)  # React component code: re-render the pages that import it
        reload: set[str] = set()
        kind: RebuildKind = "css" if css else "none"
        if css:
            self.asset_epoch += 1
        if edited:
            result = self._pages_edited(edited)
            if result is None:
                self._full()
                return FULL
            reload |= result
            kind = "nav" if self._nav_changed else "page"
        if snippets:
            reload |= self._snippets_edited(snippets)
            kind = "snippet" if kind in ("none", "css") else kind
        if (edited or snippets) and self.ctx and (tw := refresh_tailwind(self.ctx, self.site, self.files)):
            if tw == "full":  # pages gain or lose the stylesheet's link
                self._full()
                return FULL
            css.append(tw)  # the new classes' stylesheet: the browser loads it anew
        if reload_all:
            return Change("static", None, tuple(css))
        return Change(kind, frozenset(reload), tuple(css))

    def _full(self) -> None:
        """Read and render everything; on a config error keep the last files and show the errors."""
        self.read_diags, self.render_diags = {}, {}
        self.full_builds += 1
        self.ignore_patterns = read_ignore_file(self.docs_dir)
        try:
            site = read_site(
                self.docs_dir, self.out_dir, dev=True
            )  # a missing snippet shows as a note on its page
        except DocsgenError as exc:
            self.site, self.ctx = None, None
            self.site_errors = [d for d in exc.diagnostics if d.is_error]
            self.site_warnings = [d for d in exc.diagnostics if not d.is_error]
            return
        except Exception as exc:  # noqa: BLE001 - a bug, not the user's input: show it and keep serving
            self._internal_error(exc, "reading")
            return
        try:
            self._render_site(site)
        except Exception as exc:  # noqa: BLE001 - a bug: shown, the server keeps serving
            self._internal_error(exc, "rendering")

    def _internal_error(self, exc: Exception, stage: str) -> None:
        """Keep serving the last complete build, with the error shown on every page."""
        traceback.print_exc()
        self.site, self.ctx = None, None
        self.site_errors = [error("dev.internal", f"internal error while {stage} the site: {exc}")]
        self.site_warnings = []

    def _render_site(self, site: Site) -> None:
        """Make a freshly read site the current one, its pages Claimed (rendered later), its other files made."""
        ctx = site_context(site)
        out = SiteFiles()
        pages = site.pages_to_render()
        add_before_pages(ctx, site, pages, out)
        general = background.site_files(ctx, site, pages, out)  # 404, redirects, SEO: no page needed
        self.site, self.ctx = site, ctx
        self.epoch += 1
        specs = spec_files(site)
        self.spec_paths = {
            p.relative_to(self.docs_dir).as_posix() for p in specs if p.is_relative_to(self.docs_dir)
        }
        self._by_source = {p.source: p.key for p in site.pages.values() if p.source}
        for d in site.diagnostics:
            key = self._by_source.get(d.path)
            if key is not None:
                self.read_diags.setdefault(key, []).append(d)
            else:
                general.append(d)
        self.outputs = {p.key: p.output for p in pages}
        self.twin_paths = {p.key: twin_path(p.url) for p in pages if out.claimed(twin_path(p.url), p.key)}
        self.bodies, self.vendor = {}, set()
        self.site_errors = [d for d in general if d.is_error]
        self.site_warnings = [d for d in general if not d.is_error]
        self.garbage += [(rel, old) for rel, old in self.files.items() if isinstance(old, Path)]
        self.files = {}
        for path, content in out.files.items():
            data = content if isinstance(content, Claimed) else servable(content)
            if data is not None:
                self.files[path] = data
        for path in background.LLMS:
            if not out.has(path):  # a file of the docs folder of that name wins
                self.files[path] = background.AGENTS

    def _render(self, page: Page) -> PageResult:
        """Render one page here (docsgen.render.render_page through docsgen.dev.rendered)."""
        assert self.ctx is not None
        self._check_open()  # a big rebuild stops between pages when the server stops
        result = render_result(self.ctx, page, self.store, searchable=self._searchable(page))
        self.renders += 1
        self.rendered_now.append(page.key)
        return result

    def _adopt(self, page: Page, result: PageResult) -> None:
        """Apply the render of a page made by a render process of the background pass (current state)."""
        self.renders += 1
        self.rendered_now.append(page.key)
        self._keep(page, result)

    def _searchable(self, page: Page) -> bool:
        """Tell whether a render should make the page's search record (its first one, for the index being fed)."""
        job, site = self.background, self.site
        first = isinstance(self.files.get(page.output), Claimed)
        return job is not None and job.feeding and first and site is not None and site.policy(page).searchable

    def _keep(self, page: Page, result: PageResult, *, current: bool = True) -> None:
        """Apply a render: its files in place of the old ones (and, current: in the served snapshot too)."""
        key = page.key
        first = isinstance(self.files.get(page.output), Claimed)
        if result.diagnostics:
            self.render_diags[key] = list(result.diagnostics)
        else:
            self.render_diags.pop(key, None)
        changed: dict[str, Path | None] = {page.output: result.html}
        if key in self.twin_paths:
            changed[self.twin_paths[key]] = result.twin
        elif result.twin is not None:
            self.store.discard(result.twin)
        for path, new in changed.items():
            old = self.files.get(path)
            for files in (self.files, self.snapshot.files) if current else (self.files,):
                if new is None:
                    files.pop(path, None)
                else:
                    files[path] = new
            if isinstance(old, Path):
                self.garbage.append((path, old))  # deleted once no snapshot serves it
        if any((result.body.dependencies, result.body.assets, result.body.classes, result.body.changelog)):
            self.bodies[key] = result.body
        else:  # (most pages: nothing the site's files read)
            self.bodies.pop(key, None)
        for name in result.vendor - self.vendor:
            self.vendor.add(name)
            background.add_vendor(self, name, current=current)
        if first and result.record is not None and self.background is not None:
            self.background.add_record(result.search_folder, result.record)
        if current:
            errors = [d for d in (*self.read_diags.get(key, []), *result.diagnostics) if d.is_error]
            if errors:
                self.snapshot.page_errors[page.output] = errors
            else:
                self.snapshot.page_errors.pop(page.output, None)

    def _rerender(self, keys: Iterable[str], edited: Iterable[str] = ()) -> set[str]:
        """Render pages again: the edited ones (their errors show at once) and those rendered already (the
        others render when asked for); return their URLs."""
        edited = set(edited)
        assert self.site is not None
        urls = set()
        for key in sorted(set(keys)):
            page = self.site.pages.get(key)
            if page is None or key not in self.outputs:
                continue
            if key in edited or not isinstance(self.files.get(page.output), Claimed):
                self._keep(page, self._render(page), current=False)
            urls.add("/" + page.url)
        return urls

    def _pages_edited(self, keys: list[str]) -> set[str] | None:
        """Re-read edited pages; re-render them, plus neighbours and sidebars if nav fields changed."""
        site = self.site
        assert site is not None
        nav_changed = hidden_changed = False
        for key in keys:
            old = site.pages[key]
            new, diags = read_page(self.docs_dir, PageFile(old.key, old.source or "", old.url, old.output))
            if structure_signature(new) != structure_signature(old) or api_backed(old):
                return None
            if nav_signature(new) != nav_signature(old):
                nav_changed = True
                hidden_changed |= new.hidden != old.hidden
            self.read_diags[key] = diags
            site.pages[key] = new
        if not nav_changed:
            return self._rerender(keys, keys)
        self._nav_changed = True
        if uses_generated_pages(site):
            return None  # generated API pages hang off the navigation: rebuild it the full way
        old_nav = site.nav
        new_nav = build_nav(site.config, site.pages, None, site.config.locate)
        site.nav = new_nav  # the site context reads the site's navigation
        if hidden_changed and section_links(old_nav) != section_links(new_nav):
            return None  # section switchers and the home page point elsewhere now
        affected = set(keys)
        for other in set(old_nav.order) | set(new_nav.order):
            before, after = old_nav.neighbours(other), new_nav.neighbours(other)
            if before != after or any(k in before or k in after for k in keys):
                affected.add(other)
        urls = self._rerender(affected, keys)
        assert self.ctx is not None
        urls |= refresh_sidebars(self.ctx, site, self.files, new_nav)
        return urls

    def _snippets_edited(self, snippets: list[str]) -> set[str]:
        """Re-render the pages that import an edited snippet (and, for a new one, pages with errors)."""
        site = self.site
        assert site is not None
        wanted = set(snippets)
        keys = {key for key, body in self.bodies.items() if body.dependencies & wanted}
        # a page with errors may have failed to import a snippet that now exists
        keys |= {key for key, diags in self.render_diags.items() if any(d.is_error for d in diags)}
        return self._rerender(keys)
