"""build(): the whole pipeline, stage by stage: read, render, outputs, check, write."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsgen.common.errors import Diagnostic, DocsgenError, Severity, has_errors, sort_diagnostics
from docsgen.engine.site_engine import Engine, EngineOptions, RenderedSite, render_in_memory
from docsgen.engine.timings import Timings
from docsgen.engine.write import SiteFiles
from docsgen.site.read import Site, read_site

Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass(frozen=True)
class BuildOptions:
    """How to build: the `docsgen build` options."""

    strict: bool = False  # warnings are errors
    verbose: bool = False  # also list accepted-but-ignored docs.json fields
    site_url: str | None = None  # the public URL (sitemap, canonical links)
    cache: bool | None = None  # reuse unchanged pages' bodies (None: on unless $DOCSGEN_CACHE=0)
    workers: int | None = None  # render processes (None: every CPU, or $DOCSGEN_WORKERS; small sites: 1)
    progress: Progress | None = None  # called as pages render

    def engine(self) -> EngineOptions:
        """Return the options the engine reads."""
        return EngineOptions(self.strict, self.cache, self.workers, self.progress)


@dataclass
class BuildResult:
    """What a build produced: counts, time and every diagnostic (warnings included)."""

    out_dir: Path
    pages: int
    seconds: float
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    timings: Timings = field(default_factory=Timings)

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    def summary(self) -> str:
        """Return the one-line summary printed at the end of a build."""
        return f"Built {self.pages} pages ({self.files} files) with {len(self.warnings)} warning(s) in {self.seconds:.2f}s -> {self.out_dir}"


def build(
    docs_dir: Path, out_dir: Path, options: BuildOptions | None = None, **overrides: Any
) -> BuildResult:
    """Build the site in docs_dir into out_dir; raise DocsgenError (out_dir untouched) when it has errors."""
    opts = dataclasses.replace(options or BuildOptions(), **overrides)
    started, timings = time.perf_counter(), Timings()
    with Engine(out_dir, opts.engine(), timings) as engine:
        site = read_site(docs_dir, out_dir, verbose=opts.verbose, timings=timings)
        site.site_url = opts.site_url
        rendered = engine.render(site)
        files = engine.outputs(rendered)
        diagnostics = check(site, rendered, files, strict=opts.strict)
        engine.write(files)
    seconds = time.perf_counter() - started
    return BuildResult(
        out_dir.resolve(), len(rendered.pages), seconds, diagnostics, len(files.files), timings
    )


def check(site: Site, rendered: RenderedSite, files: SiteFiles, *, strict: bool) -> list[Diagnostic]:
    """Return every diagnostic, sorted (warnings as errors under --strict); raise DocsgenError when any is an
    error. In a plain build a problem of one page's own text is a warning: it never fails the site."""
    found = site.diagnostics + rendered.diagnostics + files.diagnostics
    diagnostics = sort_diagnostics(found)
    if strict:
        diagnostics = [d.as_error() if d.severity is Severity.WARNING else d for d in diagnostics]
    else:
        diagnostics = confine_to_pages(site, diagnostics)
    if has_errors(diagnostics):
        raise DocsgenError(diagnostics)
    return diagnostics


# Problems of a page's own text: in a plain build they stay with that page (built as far as it could be read).
PAGE_SCOPED = ("mdx.", "page.")


def confine_to_pages(site: Site, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Return diagnostics with each error confined to one page's (or snippet's) text turned into a warning."""
    sources = site.page_sources()
    return [
        d.as_warning() if d.is_error and d.code.startswith(PAGE_SCOPED) and d.path in sources else d
        for d in diagnostics
    ]


def render_site(site: Site, *, strict: bool = False, workers: int | None = None) -> SiteFiles:
    """Render the whole site in memory as build() does, without the search index and without writing (the link
    checker reads it); its diagnostics are in the returned files' diagnostics."""
    return render_in_memory(site, strict=strict, workers=workers)
