"""Benchmark docsgen against its peers in one run and write bench/RESULTS.md.

    .venv/bin/python bench/run.py [--quick] [--runs N] [--cases site,components,github,dev,startup,weight,corpus,scale,reader]
                                  [--no-peers] [--pages N] [--big-pages N] [--out FILE]

Peers are installed from the package registries into bench/.work (gitignored): MkDocs + Material for MkDocs
(PyPI, own venv), @redocly/cli and @octokit/openapi (npm). Every command runs as its own process; a case
reports medians of several runs: wall time, CPU time (user + system of the process tree, from wait4),
peak memory (largest ru_maxrss of the tree) and output size, and the ratio docsgen / peer.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
RECENTLY_DELETED_SECONDS = 65  # ext4 (no journal) skips inodes freed this recently when it creates files
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import jobs  # noqa: E402
import measure  # noqa: E402
import peers  # noqa: E402
import results_file  # noqa: E402
import sitegen  # noqa: E402
from jobs import (  # noqa: E402
    DOCSGEN,
    Report,
    docsgen_build,
    docsgen_job,
    env,
    fs_floor,
    mkdocs_build,
    mkdocs_job,
    search_floor,
    stage_breakdown,
)
from weight import page_weight  # noqa: E402

ALL_CASES = ("site", "hugo", "components", "github", "dev", "startup", "weight", "corpus", "scale", "reader")


def case_site(report: Report, work: Path, pages: int, runs: int, with_peers: bool) -> None:
    """1,000 pages of headings, paragraphs, code, a table and links: full build, docsgen vs MkDocs + Material."""
    site = sitegen.write_docsgen_site(work / f"site-{pages}" / "docs", pages)
    out = work / f"site-{pages}" / "out"
    cold_job = docsgen_job(site, out, "docsgen build (cold)")
    peer = None
    if with_peers:  # docsgen and MkDocs in turns: drifts of a shared machine weigh on both alike
        project = sitegen.write_mkdocs_site(work / f"mkdocs-{pages}", pages)
        cold, peer = measure.interleave(
            [cold_job, mkdocs_job(project, work / f"mkdocs-{pages}" / "site")], runs
        )
    else:
        [cold] = measure.interleave([cold_job], runs)
    floor = fs_floor(out, runs)
    warm = docsgen_build(site, out, "docsgen build (page cache warm, no change)", runs, warm=True)
    serial = docsgen_build(
        site, out, "docsgen build (cold, 1 process)", max(1, runs // 2), DOCSGEN_WORKERS="1"
    )
    rows = [cold, serial, warm, floor] + ([peer] if peer else [])
    report.table(f"{pages:,}-page site: full build", rows, peer, stage_breakdown(site, out))
    if peer is not None and peer.ok and cold.ok:
        ratio = cold.median("wall") / peer.median("wall")
        report.target(
            f"{pages:,}-page build wall time vs MkDocs + Material",
            f"{cold.median('wall'):.2f} s vs {peer.median('wall'):.2f} s (ratio {ratio:.3f})",
            "<= 0.100",
            ratio <= 0.1,
        )


def case_components(report: Report, work: Path, pages: int, runs: int, with_peers: bool) -> None:
    """The same site with tabs, cards, accordions, steps and code groups, at 5,000 pages (docsgen only)."""
    site = sitegen.write_docsgen_site(work / f"components-{pages}" / "docs", pages, components=True)
    out = work / f"components-{pages}" / "out"
    rows = [docsgen_build(site, out, "docsgen build (cold)", runs)]
    peer = None
    if with_peers:
        project = sitegen.write_mkdocs_site(work / f"mkdocs-components-{pages}", pages, components=True)
        peer = mkdocs_build(project, work / f"mkdocs-components-{pages}" / "site", runs)
        rows.append(peer)
    text = (
        "Each page adds Tabs, CardGroup/Card, AccordionGroup/Accordion, Steps and CodeGroup to the plain page."
        + (
            ""
            if peer
            else " MkDocs is not run for this case (`--peers-components` adds it: pymdownx tabbed, "
            "details, grid cards; it takes minutes per run at this size)."
        )
    )
    report.table(f"{pages:,}-page site with components: full build", rows, peer, text)


def case_github(report: Report, work: Path, runs: int, with_peers: bool) -> None:
    """GitHub's REST description: openapi-check vs redocly lint; one page per operation vs redocly build-docs."""
    try:
        spec = peers.github_spec()
    except Exception as exc:  # noqa: BLE001 - the report says why the case did not run
        report.text("GitHub REST description", f"Not run: the spec could not be downloaded ({exc}).")
        return
    check = measure.repeat(
        "docsgen openapi-check", [str(DOCSGEN), "openapi-check", str(spec)], runs, env=env()
    )
    rows, peer_rows = [check], []
    redocly = None
    if with_peers:
        redocly = peers.redocly()
        lint_command = [str(redocly), "lint", str(spec)]
        lint = measure.repeat("redocly lint", lint_command, runs, env=env(), ok_codes=(0, 1))
        lint.note = "exits 1 on findings of its recommended ruleset; timed to completion"
        rows.append(lint)
    report.table(
        "GitHub REST description (@octokit/openapi, 1,223 operations): check",
        rows,
        rows[-1] if redocly else None,
    )
    if redocly and check.ok:
        ratio = check.median("wall") / rows[-1].median("wall")
        report.target(
            "openapi-check vs redocly lint (wall)",
            f"{check.median('wall'):.2f} s vs {rows[-1].median('wall'):.2f} s (ratio {ratio:.3f})",
            "<= 0.5",
            ratio <= 0.5,
        )
    # the full build: only when docsgen generates endpoint pages from an `openapi` navigation field
    site = sitegen.write_openapi_site(work / "github" / "docs", spec)
    out = work / "github" / "out"
    cold_job = docsgen_job(site, out, "docsgen build (one page per operation, cold)")
    peer = None
    if with_peers:  # docsgen and Redocly in turns: drifts of a shared machine weigh on both alike
        redoc = work / "github" / "redoc.html"
        peer_job = measure.Job(
            "redocly build-docs (one page)",
            [str(redocly), "build-docs", str(spec), "-o", str(redoc)],
            env=env(),
            output=redoc,
        )
        build, peer = measure.interleave([cold_job, peer_job], runs)
    else:
        [build] = measure.interleave([cold_job], runs)
    pages = len(list(out.rglob("index.html"))) if out.exists() else 0
    floor = fs_floor(out, runs) if pages else None
    warm = docsgen_build(site, out, "docsgen build (page cache warm, no change)", runs, warm=True)
    if not build.ok or pages < 1000:
        report.text(
            "GitHub REST description: full build",
            "docsgen's OpenAPI page generation is not available yet in this checkout "
            f"(build {'failed: ' + build.note if not build.ok else f'produced {pages} pages'}); not compared.",
        )
        return
    build.note = f"{pages} pages"
    peer_rows = [build, warm, floor] + ([peer] if peer else [])
    report.table("GitHub REST description: full build", peer_rows, peer, stage_breakdown(site, out))
    if peer is not None and peer.ok:
        ratio = build.median("wall") / peer.median("wall")
        report.target(
            "GitHub full build vs redocly build-docs (wall)",
            f"{build.median('wall'):.2f} s vs {peer.median('wall'):.2f} s (ratio {ratio:.3f})",
            "<= 0.5",
            ratio <= 0.5,
        )
        seconds = floor.floor_seconds if floor else None
        if seconds is not None:
            report.target(
                "GitHub build: creating its output files alone (no content work) vs redocly build-docs (wall)",
                f"{seconds:.2f} s vs {peer.median('wall'):.2f} s (ratio {seconds / peer.median('wall'):.3f})",
                "(not a target: the disk's floor under the target above)",
                None,
            )
        search = search_floor(site, runs)
        if search:
            ready = search["ready_seconds"]
            report.target(
                f"GitHub build: Pagefind alone indexing its {search['pages']:,} pages vs redocly build-docs (wall)",
                f"{ready:.2f} s vs {peer.median('wall'):.2f} s (ratio {ready / peer.median('wall'):.3f}; "
                f"all pages added after {search['added_seconds']:.2f} s)",
                "(not a target: the search index's floor under the target above)",
                None,
            )
        if warm.ok:
            ratio = warm.median("wall") / peer.median("wall")
            report.target(
                "GitHub rebuild, nothing changed (page cache warm) vs redocly build-docs (wall)",
                f"{warm.median('wall'):.2f} s vs {peer.median('wall'):.2f} s (ratio {ratio:.3f})",
                "(not a target: the target above is the cold build)",
                None,
            )
    peak = max(s.rss_mb for s in build.samples)
    report.target("GitHub build peak memory", f"{peak:.0f} MB", "< 500 MB", peak < 500)


def case_dev(report: Report, pages: int, runs: int) -> None:
    """`docsgen dev`: save one page -> rebuilt page served, via bench/dev_reload.py (another helper's script)."""
    script = BENCH / "dev_reload.py"
    if not script.exists():
        report.text("docsgen dev: save to served", "Not available yet (bench/dev_reload.py is missing).")
        return
    lines, medians = [], {}
    for size in sorted({max(20, pages // 10), pages}):
        result = subprocess.run(
            [sys.executable, str(script), "--pages", str(size), "--runs", str(runs)],
            capture_output=True,
            text=True,
            env=env(),
            cwd=REPO,
            timeout=1800,
            check=False,
        )
        if result.returncode != 0:
            lines.append(
                f"- {size} pages: failed: {(result.stderr or result.stdout).strip().splitlines()[-1:]}"
            )
            continue
        for line in result.stdout.splitlines():
            lines.append(f"- {size} pages: {line.strip()}")
            m = re.match(r"page edit, served\s*: median\s+([\d.]+) ms", line.strip())
            if m:
                medians[size] = float(m.group(1))
    report.text("docsgen dev: time from saving a page to the rebuilt page being served", "\n".join(lines))
    if pages in medians:
        report.target(
            f"dev: page edit to served page at {pages:,} pages",
            f"{medians[pages]:.0f} ms",
            "< 200 ms",
            medians[pages] < 200,
        )
        small = min(medians)
        if small != pages:
            report.target(
                "dev: independent of site size",
                f"{medians[small]:.0f} ms at {small} pages vs {medians[pages]:.0f} ms at {pages}",
                "same order",
                medians[pages] < 2 * medians[small] + 20,
            )


def case_startup(report: Report, work: Path, runs: int) -> None:
    """`docsgen --help` and `docsgen validate` on a small site, and what dominates import time."""
    site = sitegen.write_docsgen_site(work / "small" / "docs", 10)
    help_ = measure.repeat("docsgen --help", [str(DOCSGEN), "--help"], runs, env=env())
    validate = measure.repeat(
        "docsgen validate (10 pages)", [str(DOCSGEN), "validate", str(site)], runs, env=env()
    )
    report.table("Start-up", [help_, validate])
    if help_.ok:
        report.target(
            "CLI start-up (`docsgen --help`)",
            f"{help_.median('wall') * 1000:.0f} ms",
            "< 300 ms",
            help_.median("wall") < 0.3,
        )
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import docsgen.cli"],
        capture_output=True,
        text=True,
        env=env(),
    )
    top = []
    for line in result.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if m and len(m.group(3)) <= 5:  # docsgen.cli and what it imports directly (and one level below)
            top.append((int(m.group(2)), "  " * ((len(m.group(3)) - 1) // 2) + m.group(4)))
    top.sort(reverse=True)
    body = "`python -X importtime -c 'import docsgen.cli'`, the largest imports by cumulative time:\n\n"
    body += "\n".join(f"- {name.strip()}: {us / 1000:.0f} ms" for us, name in top[:12])
    report.text("Start-up: what `import docsgen.cli` spends its time on", body)


def case_weight(report: Report, work: Path, small: int, large: int) -> None:
    """A page's HTML must not grow with the site; the JavaScript a content page loads stays < 30 KB gzip."""
    weights = {}
    for count in (small, large):
        site = sitegen.write_docsgen_site(work / f"weight-{count}" / "docs", count)
        out = work / f"weight-{count}" / "out"
        sample = measure.run([str(DOCSGEN), "build", str(site), "-o", str(out)], env=env())
        if sample.returncode != 0:
            report.text("Page weight", f"Build of {count} pages failed: {sample.output}")
            return
        weights[count] = page_weight(out, f"{sitegen.page_path(5)}/index.html")
    a, b = weights[small], weights[large]
    body = "\n".join(
        [
            "| site | page HTML | page HTML gzip | JS loaded (gzip) | sidebar fragment (gzip, shared) |",
            "| --- | ---: | ---: | ---: | ---: |",
            *(
                f"| {n:,} pages | {w.html_bytes:,} B | {w.html_gzip:,} B | {w.js_gzip:,} B | {w.nav_gzip:,} B |"
                for n, w in weights.items()
            ),
            "",
            f"Scripts of a content page: {', '.join(b.js_files)} (plus inline scripts).",
        ]
    )
    report.text(f"Page weight: one page at {small:,} vs {large:,} pages", body)
    growth = b.html_bytes / a.html_bytes
    report.target(
        f"page HTML at {large:,} vs {small:,} pages",
        f"{b.html_bytes:,} B vs {a.html_bytes:,} B (x{growth:.2f})",
        "does not grow",
        growth < 1.05,
    )
    report.target(
        "JS a content page loads (gzip)", f"{b.js_gzip / 1024:.1f} KB", "< 30 KB", b.js_gzip < 30 * 1024
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, smaller sites (a few minutes)")
    parser.add_argument("--runs", type=int, default=None, help="runs per command (default 3, --quick 1)")
    parser.add_argument(
        "--cases", default=",".join(ALL_CASES), help="comma-separated: " + ",".join(ALL_CASES)
    )
    parser.add_argument("--no-peers", action="store_true", help="docsgen only (no MkDocs, no redocly)")
    parser.add_argument(
        "--peers-components", action="store_true", help="also run MkDocs on the components case"
    )
    parser.add_argument("--pages", type=int, default=None, help="pages of the plain site (default 1000)")
    parser.add_argument(
        "--big-pages", type=int, default=None, help="pages of the components site (default 5000)"
    )
    parser.add_argument(
        "--corpus-sites", default="", help="corpus case: only these sites (comma-separated folder names)"
    )
    parser.add_argument("--corpus", type=Path, default=None, help="corpus case: default ../shared/corpus")
    parser.add_argument("--work", type=Path, default=BENCH / ".work" / "sites")
    parser.add_argument("--out", type=Path, default=BENCH / "RESULTS.md")
    parser.add_argument("--json", action="store_true", help="also write the raw samples next to --out")
    args = parser.parse_args(argv)
    jobs.CACHE = args.work / "cache"  # where every run's DOCSGEN_CACHE_DIR points (jobs.env)
    args.runs = args.runs or (1 if args.quick else 3)
    pages = args.pages or (300 if args.quick else 1000)
    big = args.big_pages or (1000 if args.quick else 5000)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = set(cases) - set(ALL_CASES)
    if unknown:
        parser.error(f"unknown case(s): {', '.join(sorted(unknown))}")
    with_peers = not args.no_peers
    machine = measure.machine()
    args.work.mkdir(parents=True, exist_ok=True)
    measure.TRASH = args.work / ".trash"
    if measure.TRASH.exists():  # left by an interrupted run: delete, then let the freed inodes age
        measure.empty_trash()
        os.sync()
        time.sleep(RECENTLY_DELETED_SECONDS)
    measure.compile_bytecode()
    report = Report()
    try:
        run_cases(report, args, cases, pages, big, with_peers)
    finally:
        measure.empty_trash()
    versions = peers.versions() if with_peers else {}
    results_file.write(report, args.out, args, machine, versions, cases, ALL_CASES, REPO)
    print(args.out.read_text(encoding="utf-8"))
    return 0


def run_cases(
    report: Report, args: argparse.Namespace, cases: list[str], pages: int, big: int, with_peers: bool
) -> None:
    """Run the chosen cases in order into the report."""
    for case in cases:
        print(f"== {case}", flush=True)
        report.case = case
        if case == "site":
            case_site(report, args.work, pages, args.runs, with_peers)
        elif case == "hugo":
            import hugo

            hugo.case_hugo(report, args.work, [pages, big], args.runs)
        elif case == "components":
            case_components(
                report, args.work, big, max(1, args.runs // 2), args.peers_components and with_peers
            )
        elif case == "github":
            case_github(report, args.work, args.runs, with_peers)
        elif case == "dev":
            case_dev(report, pages, max(3, args.runs * 2))
        elif case == "startup":
            case_startup(report, args.work, max(3, args.runs * 3))
        elif case == "weight":
            case_weight(report, args.work, max(10, pages // 10), pages)
        elif case == "corpus":
            import corpus

            corpus.case_corpus(
                report,
                args.work,
                args.runs,
                with_peers,
                env=env,
                docsgen=DOCSGEN,
                docsgen_job=docsgen_job,
                only=[n.strip() for n in args.corpus_sites.split(",") if n.strip()],
                root=args.corpus or corpus.CORPUS,
            )
        elif case == "reader":
            import reader

            reader.case_reader(report, args.work, max(9, args.runs * 5), with_peers)
        elif case == "scale":
            import scale

            scale.case_scale(report, args.work, args.runs)  # medians: one 25k cold build varies by +-3 s


if __name__ == "__main__":
    raise SystemExit(main())
