"""Incremental rebuilds for `docsgen dev`: re-render only what a change touches, publish complete snapshots."""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Iterable
from pathlib import Path

from docsgen.dev.firstbuild import PoolRender, render_on_pool
from docsgen.dev.proxy import spec_files
from docsgen.dev.scope import (
    api_backed,
    nav_signature,
    pages_to_render_keys,
    section_links,
    structure_signature,
    uses_generated_pages,
)
from docsgen.dev.snapshot import Snapshot, Update
from docsgen.dev.themes import reset_theme_caches
from docsgen.errors import Diagnostic, DocsgenError, error
from docsgen.nav import Navigation, build_nav
from docsgen.outputs import SiteSearch, add_after_pages, add_before_pages, add_vendor_assets
from docsgen.outputs.pagefind import RunGroup
from docsgen.pages import Page, read_page
from docsgen.render import RenderedPage, SiteContext, render_page, sidebar_html, site_context
from docsgen.resources import themes_dir
from docsgen.site import Site, read_site
from docsgen.sources import IGNORED_DIRS, PAGE_SUFFIXES, PageFile, is_ignored, read_ignore_file
from docsgen.urls import content_hash, twin_path
from docsgen.write import SiteFiles, Streamed

CONFIG_NAMES = frozenset({"docs.json", "mint.json", ".mintignore", ".docsgenignore"})


class BuildCancelled(BaseException):
    """The dev server is stopping: the build in progress is abandoned (a BaseException: no handler keeps it)."""


class DevSite:
    """The dev server's build state: the last site read, its rendered files, and per-page diagnostics."""

    def __init__(self, docs_dir: Path, out_dir: Path | None = None) -> None:
        self.docs_dir = docs_dir.resolve()
        self.out_dir = out_dir.resolve() if out_dir else None
        self.site: Site | None = None
        self.ctx: SiteContext | None = None
        self.files: dict[str, bytes | Path] = {}
        self.read_diags: dict[str, list[Diagnostic]] = {}  # page key -> frontmatter diagnostics
        self.render_diags: dict[str, list[Diagnostic]] = {}  # page key -> MDX/link diagnostics
        self.site_errors: list[Diagnostic] = []
        self.site_warnings: list[Diagnostic] = []
        self.snapshot = Snapshot(0, {})
        self.renders = 0  # pages rendered since start (tests count it)
        self.full_builds = 0
        self.first_build_workers = 1  # render processes the first build used (docsgen.dev.firstbuild)
        self.ignore_patterns: list[str] = []
        self.asset_epoch = 0  # stylesheet edits so far: part of the assets' ?v= in served pages
        self.spec_paths: set[str] = set()  # local OpenAPI files the site uses: editing one rebuilds all
        self.twin_paths: dict[str, str] = {}  # page key -> its Markdown twin's path (when the page owns it)
        self.lock = threading.Lock()
        self.closed = False
        self._pagefind = RunGroup()  # Pagefind runs of the build in progress, killed by close()
        self._rendered: list[str] = []
        self._nav_changed = False

    # ------------------------------------------------------------------ public
    def build(self) -> Update:
        """Build the whole site and publish it."""
        with self.lock, self._pagefind.active():
            self._check_open()
            started = time.perf_counter()
            self._rendered = []
            self._full()
            self._check_open()  # stopped meanwhile (its Pagefind killed): nothing to publish
            return self._publish("full", None, [], started)

    def apply(self, paths: Iterable[Path]) -> Update:
        """Rebuild what the changed files affect and publish the result as one new snapshot."""
        with self.lock, self._pagefind.active():
            self._check_open()
            started = time.perf_counter()
            self._rendered = []
            self._nav_changed = False
            kind, reload, css = self._apply(sorted({Path(p).resolve() for p in paths}))
            self._check_open()
            if kind == "none":
                return Update(self.snapshot.generation, "none", set(), [], [], time.perf_counter() - started)
            return self._publish(kind, reload, css, started)

    def close(self) -> None:
        """Stop for good, from any thread: a build in progress stops rendering and its Pagefind is killed.

        That build raises BuildCancelled; later build() and apply() calls raise it at once.
        """
        self.closed = True
        self._pagefind.cancel()

    def _check_open(self) -> None:
        if self.closed:
            raise BuildCancelled

    # ------------------------------------------------------------------ classify
    def classify(self, path: Path) -> str:
        """Name the kind of a changed file: config, theme, theme-css, page, snippet, static, ignored."""
        theme_root = themes_dir().resolve()
        if path.is_relative_to(theme_root):
            return "theme-css" if path.suffix == ".css" and "static" in path.parts else "theme"
        config_files = set(self.site.config.files) if self.site else set()
        rel = path.relative_to(self.docs_dir).as_posix() if path.is_relative_to(self.docs_dir) else None
        if rel is None:
            # $ref'd config parts may live outside the docs folder
            outside = {(self.docs_dir / f).resolve() for f in config_files}
            return "config" if path in outside else "ignored"
        if self.out_dir and path.is_relative_to(self.out_dir):
            return "ignored"
        parts = rel.split("/")
        if any(p in IGNORED_DIRS for p in parts[:-1]):
            return "ignored"
        if rel in CONFIG_NAMES or rel in config_files or rel in self.spec_paths:
            return "config"
        if self.ignore_patterns and is_ignored(rel, self.ignore_patterns):
            return "ignored"  # .mintignore / .docsgenignore: not part of the site
        if path.suffix.lower() in PAGE_SUFFIXES:
            if rel.startswith(("snippets/", "_snippets/")) or "/snippets/" in rel:
                return "snippet"
            return "page"
        if any(p.startswith(".") for p in parts):
            return "ignored"
        return "static"

    # ------------------------------------------------------------------ rebuilds
    def _apply(self, paths: list[Path]) -> tuple[str, set[str] | None, list[str]]:
        if self.site is None:  # recovering from an error: theme files may have changed meanwhile, unseen
            reset_theme_caches()
            self._full()
            return "full", None, []
        kinds = {path: self.classify(path) for path in paths}
        if any(kind == "theme" for kind in kinds.values()):
            reset_theme_caches()  # templates are not re-checked on each render (auto_reload off): load them anew
        if any(k in ("config", "theme") for k in kinds.values()):
            self._full()
            return "full", None, []
        pages_by_source = {p.source: p for p in self.site.pages.values() if p.source}
        css: list[str] = []
        edited: list[str] = []
        snippets: list[str] = []
        reload_all = False
        for path, kind in kinds.items():
            rel = path.relative_to(self.docs_dir).as_posix() if path.is_relative_to(self.docs_dir) else ""
            if kind == "page":
                page = pages_by_source.get(rel)
                if page is None or not path.is_file():
                    self._full()  # a page appeared or disappeared: URLs, links and navigation change
                    return "full", None, []
                edited.append(page.key)
            elif kind == "snippet":
                snippets.append(rel)
            elif kind == "theme-css":
                css.extend(self._theme_css_urls(path))
            elif kind == "static":
                known = rel in self.site.sources.static
                if known != path.is_file():
                    self._full()  # added or removed files change which links resolve
                    return "full", None, []
                if path.suffix == ".css":
                    css.append("/" + rel)
                else:
                    reload_all = True
                    if path.suffix.lower() in (".jsx", ".tsx", ".js", ".ts", ".mjs", ".cjs"):
                        snippets.append(rel)  # React component code: re-render the pages that import it
        reload: set[str] = set()
        kind = "css" if css else "none"
        if css:
            self.asset_epoch += 1
        if edited:
            result = self._pages_edited(edited)
            if result is None:
                self._full()
                return "full", None, []
            reload |= result
            kind = "nav" if self._nav_changed else "page"
        if snippets:
            reload |= self._snippets_edited(snippets)
            kind = "snippet" if kind in ("none", "css") else kind
        if reload_all:
            return "static", None, css
        return kind, reload, css

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
        """Render a freshly read site completely, then make it the current one."""
        ctx = site_context(site)
        self.site, self.ctx = site, ctx
        self.spec_paths = {
            p.relative_to(self.docs_dir).as_posix()
            for p in spec_files(site)
            if p.is_relative_to(self.docs_dir)
        }
        by_source = {p.source: p.key for p in site.pages.values() if p.source}
        general: list[Diagnostic] = []
        for d in site.diagnostics:
            key = by_source.get(d.path)
            if key is not None:
                self.read_diags.setdefault(key, []).append(d)
            else:
                general.append(d)
        out = SiteFiles()
        pages = site.pages_to_render()
        add_before_pages(ctx, site, pages, out)
        self.twin_paths = {p.key: twin_path(p.url) for p in pages if out.claimed(twin_path(p.url), p.key)}
        pool = render_on_pool(ctx, site, pages) if self.full_builds == 1 else None
        twins: dict[str, str] = {}
        for page in pages:
            rendered = self._render(page) if pool is None else self._from_pool(pool, page)
            if rendered is not None:
                out.fill(page.output, rendered.html, page.key)
                out.fill(twin_path(page.url), rendered.twin, page.key)
                twins[page.key] = rendered.twin
        self.first_build_workers = pool.workers if pool else 1
        add_after_pages(ctx, site, pages, twins, out)
        with (
            pool.search if pool else SiteSearch(ctx, site, stream=False) as search
        ):  # the pool's was fed as pages rendered
            search.add_to(out)
        general += out.diagnostics
        self.site_errors = [d for d in general if d.is_error]
        self.site_warnings = [d for d in general if not d.is_error]
        self.files = {
            path: data.read() if isinstance(data, Streamed) else data
            for path, data in out.files.items()
            if isinstance(data, bytes | Path | Streamed)
        }

    def _render(self, page: Page) -> RenderedPage | None:
        """Render one page and apply the result: its body on the page, its diagnostics kept per page."""
        assert self.ctx is not None
        self._check_open()  # a big rebuild stops between pages when the server stops
        rendered: RenderedPage | None = None
        try:
            rendered = render_page(self.ctx, page)
            page.content = rendered.content
            self.render_diags[page.key] = rendered.diagnostics
        except Exception as exc:  # noqa: BLE001 - a bug: report it on the page instead of stopping the server
            traceback.print_exc()
            where = page.source or page.key
            self.render_diags[page.key] = [
                error("dev.internal", f"internal error while rendering this page: {exc}", where)
            ]
        self.renders += 1
        self._rendered.append(page.key)
        return rendered

    def _from_pool(self, pool: PoolRender, page: Page) -> RenderedPage | None:
        """Take one page of the first build from what the process pool rendered."""
        rendered = pool.rendered.get(page.key)
        self.render_diags[page.key] = rendered.diagnostics if rendered else []
        self.renders += 1
        self._rendered.append(page.key)
        return rendered

    def _rerender(self, keys: Iterable[str]) -> set[str]:
        """Render pages again into the current files; return their URL paths."""
        assert self.site is not None
        urls = set()
        rendered = set(pages_to_render_keys(self.site))
        pages = []
        for key in sorted(set(keys)):
            page = self.site.pages.get(key)
            if page is None or key not in rendered:
                continue
            result = self._render(page)
            if result is not None:
                self.files[page.output] = result.html.encode("utf-8")
                if key in self.twin_paths:
                    self.files[self.twin_paths[key]] = result.twin.encode("utf-8")
            else:
                self.files.pop(page.output, None)
            urls.add("/" + page.url)
            pages.append(page)
        if pages and self.ctx is not None:
            vendor = SiteFiles()
            add_vendor_assets(self.ctx, pages, vendor)
            for path, data in vendor.files.items():
                if isinstance(data, bytes | Path):
                    self.files.setdefault(path, data)
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
            return self._rerender(keys)
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
        urls = self._rerender(affected)
        urls |= self._refresh_sidebars(new_nav)
        return urls

    def _refresh_sidebars(self, nav: Navigation) -> set[str]:
        """Render every sidebar again; return the URLs of pages whose sidebar changed."""
        assert self.site is not None and self.ctx is not None
        changed = set()
        for section in nav.leaf_sections():
            html = sidebar_html(self.ctx, section)
            path = f"_nav/{section.id}.html"
            data = html.encode("utf-8")
            if self.files.get(path) != data:
                self.files[path] = data
                self.ctx.nav_files[section.id] = f"{path}?v={content_hash(html)}"
                changed.add(section.id)
        return {
            "/" + self.site.pages[key].url
            for key, place in nav.placements.items()
            if place.section.id in changed and key in self.site.pages
        }

    def _snippets_edited(self, snippets: list[str]) -> set[str]:
        """Re-render the pages that import an edited snippet (and, for a new one, pages with errors)."""
        site = self.site
        assert site is not None
        wanted = set(snippets)
        keys = set()
        for key, page in site.pages.items():
            if page.content is not None and page.content.dependencies & wanted:
                keys.add(key)
            elif any(d.is_error for d in self.render_diags.get(key, [])):
                keys.add(key)  # it may have failed to import a snippet that now exists
        for key in keys:
            site.pages[key].content = None
        return self._rerender(keys)

    def _theme_css_urls(self, path: Path) -> list[str]:
        """Return the served URL of a theme stylesheet."""
        if self.ctx is None:
            return []
        for folder in self.ctx.theme.folders:
            static = (folder / "static").resolve()
            if path.is_relative_to(static):
                return ["/_static/" + path.relative_to(static).as_posix()]
        return []

    # ------------------------------------------------------------------ publish
    def _publish(self, kind: str, reload: set[str] | None, css: list[str], started: float) -> Update:
        site = self.site
        warnings: list[Diagnostic] = list(self.site_warnings) if kind == "full" else []
        page_errors: dict[str, list[Diagnostic]] = {}
        if site is not None:
            # after a partial rebuild only the rendered pages' diagnostics can have changed
            keys = list(site.pages) if kind == "full" else self._rendered
            if kind != "full":
                page_errors = dict(self.snapshot.page_errors)
            for key in keys:
                page = site.pages[key]
                diags = self.read_diags.get(key, []) + self.render_diags.get(key, [])
                errs = [d for d in diags if d.is_error]
                if errs:
                    page_errors[page.output] = errs
                else:
                    page_errors.pop(page.output, None)
                warnings += [d for d in diags if not d.is_error]
        nav_versions = {}
        if self.ctx is not None:
            for value in self.ctx.nav_files.values():
                path, _, version = value.partition("?v=")
                nav_versions[path] = version
        generation = self.snapshot.generation + 1
        static_version = self.ctx.static_version if self.ctx else ""
        self.snapshot = Snapshot(
            generation,
            dict(self.files),
            page_errors,
            list(self.site_errors),
            nav_versions,
            static_version,
            f"{static_version}-{self.asset_epoch}" if self.asset_epoch else static_version,
        )
        errors = list(self.site_errors) + sorted(d for errs in page_errors.values() for d in errs)
        return Update(
            generation,
            kind,
            reload,
            css,
            list(self._rendered),
            time.perf_counter() - started,
            errors,
            warnings,
        )
