"""The tables of bench/corpus.py's case in RESULTS.md (and its raw samples for --json)."""

from __future__ import annotations

import statistics

import measure
from corpus import BIG_SITE, SiteResult, per_page


def _build_cells(s: measure.Stats | None, pages: int) -> list[str]:
    if s is None or not s.ok:
        return ["failed: " + (s.note if s else "not run"), "", "", ""]
    wall, peak = s.median("wall"), max(x.rss_mb for x in s.samples)
    return [f"{wall:.2f} s", f"{s.median('cpu'):.2f} s", f"{peak:.0f} MB", per_page(wall, peak, pages)]


def _ms(values: list[float]) -> str:
    if not values:
        return ""
    ms = sorted(v * 1000 for v in values)
    return f"{statistics.median(ms):.0f} ms ({ms[0]:.0f}-{ms[-1]:.0f}, {len(ms)} edits)"


def _dev_cells(r: SiteResult) -> list[str]:
    served = [d.first_served for d in r.dev if d.first_served is not None]
    cpu = [d.cpu_at_first for d in r.dev if d.cpu_at_first is not None]
    edits = [t for d in r.dev for t in d.edits]
    peak = max((d.rss_mb for d in r.dev), default=0.0)
    warm = r.dev_warm.first_served if r.dev_warm and r.dev_warm.first_served is not None else None
    notes = sorted({d.note for d in [*r.dev, r.dev_warm] if d and d.note})
    return [
        f"{statistics.median(served):.2f} s" + (f" ({statistics.median(cpu):.2f} s CPU)" if cpu else "")
        if served
        else "",
        f"{warm:.2f} s" if warm is not None else "",
        _ms(edits),
        f"{peak:.0f} MB ({peak * 1024 / r.pages:.0f} KB/page)" if peak and r.pages else "",
        "; ".join(notes),
    ]


def _api_cell(s: measure.Stats, peer: measure.Stats | None) -> str:
    if not s.ok:
        return "failed: " + s.note
    text = f"{s.median('wall'):.2f} s / {s.median('cpu'):.2f} s / {max(x.rss_mb for x in s.samples):.0f} MB"
    if peer is not None and peer.ok:
        text += f" (x{s.median('wall') / peer.median('wall'):.2f} wall, x{s.median('cpu') / peer.median('cpu'):.2f} CPU)"
    return text


def write_tables(
    report, results: list[SiteResult], with_peers: bool, load_start: str = "", load_end: str = ""
) -> None:
    """Add the three corpus tables, their JSON data and the dev targets to the report."""
    rows = [
        f"| {r.name} | {r.pages or ''} | {r.warnings} | {r.runs} | "
        + " | ".join(_build_cells(r.cold, r.pages) + _build_cells(r.warm, r.pages))
        + " |"
        for r in results
    ]
    report.text(
        "Real sites (corpus): build",
        "The sites of `../shared/corpus` (`mintlify-docs` and `real-sites/*`), each copied into the work folder "
        "and built there. Cold = output and caches removed before each run; warm = rebuilt with nothing changed "
        "(page cache filled by an untimed build). Per page = wall ms and peak memory KB divided by the pages "
        f"built (peak memory includes the fixed cost of the process, so small sites show more per page). Sites "
        f"of {BIG_SITE:,} source pages or more get one run. "
        + (
            f"Load average (1/5/15 min) at the start of the case {load_start}, at its end {load_end}: "
            if load_start
            else ""
        )
        + "two other sessions shared the 2 cores during this run, so wall times carry their load; CPU times are "
        "the steadier figure.\n\n"
        "| site | pages | warnings | runs | cold wall | cold CPU | cold peak memory | cold per page | warm wall | "
        "warm CPU | warm peak memory | warm per page |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        + "\n".join(rows),
    )
    rows = [
        f"| {r.name} | {r.pages or ''} | `{r.edited}` | " + " | ".join(_dev_cells(r)) + " |"
        for r in results
        if r.edited
    ]
    report.text(
        "Real sites (corpus): docsgen dev",
        "`docsgen dev` on another copy of each site, as its own process (one per run, empty cache folder), then "
        "started once more keeping the cache folder (restart): `docsgen dev` keeps no page cache (only OpenAPI "
        "data and the search bundle), so a restart renders every page again. First page = process start until a GET of a content page "
        "returns 200 (the server listens at once and answers after the first build; CPU of the process tree at "
        "that moment in brackets). Edit = bench/dev_reload.py's method: a paragraph appended to the page's source "
        "file, timed from the write until a GET returns the new text (5 edits per run). Peak memory = largest "
        "resident set of one process of the dev tree over the whole session.\n\n"
        "| site | pages | page edited | first page (empty cache) | first page (restart) | edit -> served: "
        "median (min-max) | dev peak memory | note |\n"
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- |\n" + "\n".join(rows),
    )
    _api_table(report, results, with_peers)
    _targets(report, results)
    report.data["corpus"] = [_json(r) for r in results]


def _api_table(report, results: list[SiteResult], with_peers: bool) -> None:
    rows, none = [], []
    for r in results:
        if len(r.api) == 3:
            redocly, each, together = r.api
            rows.append(
                f"| {r.name} | {len(r.specs)} | {r.api_pages} | {_api_cell(redocly, None)} | "
                f"{_api_cell(each, redocly)} | {_api_cell(together, redocly)} |"
            )
        elif r.runs == 0:  # the harness failed on this site (the build table says how)
            none.append(f"- {r.name}: not measured (see the build table)")
        elif r.specs and not with_peers:
            none.append(f"- {r.name}: {len(r.specs)} spec(s); peers not run (`--no-peers`)")
        elif r.specs:
            none.append(f"- {r.name}: no spec of the site that Redocly builds (see above)")
        else:
            why = "its build uses no local OpenAPI spec" + (f" ({r.api_note})" if r.api_note else "")
            none.append(f"- {r.name}: {why}; no peer builds its MDX pages and docs.json")
    body = (
        "No peer builds a Mintlify site as a whole: Mintlify's CLI (`mint dev`) previews through Mintlify's "
        "servers and cannot write a static site offline, and MkDocs (or any other generator) cannot read MDX "
        "with Mintlify's components. The OpenAPI specs a site's build uses are the input a peer can read: "
        "`redocly build-docs` makes one HTML page per spec (run once per spec, in turn); docsgen builds a site "
        "whose navigation names the spec (one page per operation, search index included): once per spec in "
        "turn (as many processes as Redocly), and once with all the site's specs in one site. "
        "Cells: median wall / CPU / peak memory, ratio docsgen / Redocly in brackets.\n\n"
        "| site | specs | API pages (docsgen) | redocly build-docs, each spec | docsgen, each spec | "
        "docsgen, all specs in one site |\n| --- | ---: | ---: | ---: | ---: | ---: |\n" + "\n".join(rows)
    )
    left_out = [f"- {r.name}: {r.peer_note}" for r in results if r.peer_note]
    if left_out:
        body += "\n\nSpecs left out:\n\n" + "\n".join(left_out)
    if none:
        body += "\n\nSites without a peer comparison:\n\n" + "\n".join(none)
    report.text("Real sites (corpus): OpenAPI specs, docsgen vs redocly build-docs", body)


def _targets(report, results: list[SiteResult]) -> None:
    edits = {
        r.name: statistics.median(t for d in r.dev for t in d.edits)
        for r in results
        if any(d.edits for d in r.dev)
    }
    if edits:
        slow = max(edits, key=edits.__getitem__)
        ms = edits[slow] * 1000
        report.target(
            "corpus: dev page edit to served page, slowest site (median)",
            f"{ms:.0f} ms ({slow})",
            "< 200 ms",
            ms < 200,
        )
    first = {
        r.name: (statistics.median(served), r.pages)
        for r in results
        if (served := [d.first_served for d in r.dev if d.first_served is not None])
    }
    if (
        first
    ):  # the slowest site, not the largest: one with a thousand thumbnails can be slower than a bigger one
        slow = max(first, key=lambda name: first[name][0])
        s, pages = first[slow]
        report.target(
            "corpus: dev first page served after start, slowest site (empty cache)",
            f"{s:.1f} s ({slow}, {pages:,} pages)",
            "<= 10 s (issue 22's bar for its generated 25,000-page site)",
            s <= 10,
        )


def _json(r: SiteResult) -> dict:
    def stats(s: measure.Stats | None) -> dict | None:
        return s.as_json() if s is not None else None

    return {
        "site": r.name,
        "pages": r.pages,
        "warnings": r.warnings,
        "runs": r.runs,
        "cold": stats(r.cold),
        "warm": stats(r.warm),
        "edited": r.edited,
        "dev": [vars(d) for d in r.dev],
        "dev_warm": vars(r.dev_warm) if r.dev_warm else None,
        "specs": r.specs,
        "api_pages": r.api_pages,
        "api": [stats(s) for s in r.api],
    }
