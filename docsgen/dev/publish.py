"""Turn the dev build state into the next Snapshot the server reads, and the Update the terminal and pages get."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from docsgen.common.errors import Diagnostic
from docsgen.dev.snapshot import Change, Snapshot, Update

if TYPE_CHECKING:
    from docsgen.dev.incremental import DevSite


def publish(dev: DevSite, change: Change, started: float) -> Update:
    """Make the build state the current snapshot; return what changed."""
    kind = change.kind
    site = dev.site
    warnings: list[Diagnostic] = list(dev.site_warnings) if kind == "full" else []
    page_errors: dict[str, list[Diagnostic]] = {}
    if site is not None:
        # after a partial rebuild only the rendered pages' diagnostics can have changed
        keys = list(site.pages) if kind == "full" else dev.rendered_now
        if kind != "full":
            page_errors = dict(dev.snapshot.page_errors)
        for key in keys:
            page = site.pages[key]
            diags = dev.read_diags.get(key, []) + dev.render_diags.get(key, [])
            errs = [d for d in diags if d.is_error]
            if errs:
                page_errors[page.output] = errs
            else:
                page_errors.pop(page.output, None)
            warnings += [d for d in diags if not d.is_error]
    nav_versions = {}
    if dev.ctx is not None:
        for value in dev.ctx.nav_files.values():
            path, _, version = value.partition("?v=")
            nav_versions[path] = version
    generation = dev.snapshot.generation + 1
    static_version = dev.ctx.static_version if dev.ctx else ""
    dev.snapshot = Snapshot(
        generation,
        dict(dev.files),
        page_errors,
        list(dev.site_errors),
        nav_versions,
        static_version,
        f"{static_version}-{dev.asset_epoch}" if dev.asset_epoch else static_version,
    )
    for rel, old in dev.garbage:  # store files the new snapshot no longer serves
        if dev.snapshot.files.get(rel) is not old:
            dev.store.discard(old)
    dev.garbage = []
    errors = list(dev.site_errors) + sorted(d for errs in page_errors.values() for d in errs)
    pending = dev.pending_pages() if kind == "full" else 0
    return Update(
        generation,
        kind,
        None if change.reload is None else set(change.reload),
        list(change.css),
        list(dev.rendered_now),
        time.perf_counter() - started,
        errors,
        warnings,
        pending,
    )
