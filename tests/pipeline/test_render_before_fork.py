"""Before the render workers fork, the main process renders the first page and the first page of each other kind
(an API site's first endpoint page): what those load lazily is loaded once and inherited by every worker."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from docsgen.engine import pool
from docsgen.engine.rendering import Job, render_pages
from docsgen.engine.write import SiteFiles
from docsgen.outputs import add_before_pages
from docsgen.render import render_page, site_context
from docsgen.site.read import read_site
from tests.pipeline.test_build_cache import site_files


def test_the_first_page_of_each_kind_renders_before_the_fork_and_every_page_stays_in_order(
    make_site, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(pool, "MIN_PAGES_PER_WORKER", 1)
    site = read_site(make_site(site_files(40)))
    ctx, files, pages = site_context(site), SiteFiles(), site.pages_to_render()
    add_before_pages(ctx, site, pages, files)
    pages[23].kind = "endpoint"  # the site's first (and only) page of another kind
    log = tmp_path / "renders.txt"

    def render(ctx, page, **options):
        with log.open("a") as out:  # the workers are other processes: they append their pid
            out.write(f"{page.key} {os.getpid()}\n")
        return render_page(ctx, dataclasses.replace(page, kind="page"), **options)

    fed: list[str] = []
    rendering = render_pages(
        Job(ctx, pages, render), workers=2, on_rendered=lambda done, _: fed.extend(p.key for p in done)
    )
    where = dict(line.split() for line in log.read_text().splitlines())
    here = str(os.getpid())
    assert where[pages[0].key] == here and where[pages[23].key] == here  # before the fork
    assert {where[p.key] for i, p in enumerate(pages) if i not in (0, 23)} - {here}, "the rest in the workers"
    assert len(where) == len(pages)  # each page rendered once
    assert [one.key for one in rendering.renders] == [p.key for p in pages] == fed  # in page order
