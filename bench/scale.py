"""Scale: a versioned, translated site (35 versions x 4 languages x 180 pages at full size) built at 1k, 5k and 25k pages.

For each size: a cold build (output and caches removed), a rebuild with nothing changed and one with a page's text
edited (then put back), each timed as a whole
process (wall, CPU of the tree, largest process's peak RSS) while the memory of the whole process tree is sampled
from /proc (proportional set size: pages shared by forked render workers counted once), so "peak memory" is what
the build really holds, and per page. Then `docsgen dev` on the largest size (bench/dev_reload.py, an empty cache
folder): start to the first page served, and one page's edit to the new page served. Run alone or as
`bench/run.py --cases scale`:

    .venv/bin/python bench/scale.py [--sizes 1000,5000,25200] [--runs 1] [--dev-runs 10] [--out /tmp/SCALE.md]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import measure  # noqa: E402
import sitegen  # noqa: E402

DOCSGEN = Path(sys.executable).parent / "docsgen"
SIZES = (1000, 5000, 25_200)
TARGETS = {"cold_s": 60.0, "memory_mb": 1024.0, "rebuild_s": 10.0, "dev_first_s": 10.0, "dev_edit_ms": 200.0}


@dataclass
class Run:
    """One timed build and the peak memory of its process tree."""

    label: str
    pages: int
    sample: measure.Sample
    tree_mb: float  # peak of the summed proportional set size of every process of the tree


def _tree(pid: int) -> list[int]:
    """Return pid and its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        one = todo.pop()
        out.append(one)
        todo += children.get(one, [])
    return out


def _pss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as rollup:
                for line in rollup:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total / 1024


class TreeMemory:
    """Samples the summed PSS of this process's children every 0.2 s while a measured command runs."""

    def __init__(self) -> None:
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        me = os.getpid()
        while not self._stop.wait(0.2):
            pids = [p for p in _tree(me) if p != me]
            self.peak = max(self.peak, _pss_mb(pids))

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@dataclass
class DevRun:
    """`docsgen dev` on one size: what bench/dev_reload.py printed, and the figures read from it."""

    pages: int
    lines: list[str]
    first_s: float | None  # start of the process -> the first page served
    edit_ms: float | None  # median: a page's source saved -> the new page served


def _env(cache: Path) -> dict[str, str]:
    return {**os.environ, "DOCSGEN_CACHE_DIR": str(cache)}


def build(site: Path, out: Path, cache: Path, label: str, pages: int, *, cold: bool) -> Run:
    """Time one `docsgen build` of the site (cold: output and caches removed first).

    A cold build is run twice: timed alone, then again with the memory sampler for its peak. Reading every
    process's smaps_rollup every 0.2 s costs ~10 ms of CPU a sample (25 ms of wall, the processes' memory maps
    held meanwhile) and slowed the 25k build by seconds. A rebuild is run once, with the sampler (its second
    run would find nothing to do).
    """
    env = _env(cache)
    command = [str(DOCSGEN), "build", str(site), "-o", str(out)]
    timed = None
    if cold:  # a rebuild keeps the previous output: unchanged pages keep their files
        measure.remove(out)
        measure.remove(cache)
        read_sources(site)
        os.sync()
        timed = measure.run(command, env=env)
        measure.remove(out)
        measure.remove(cache)
    # The previous build's gigabyte of output is still being written back to the disk (Linux flushes dirty pages
    # 30 s after they were written): flushed first, untimed, it no longer competes with the build measured.
    os.sync()
    with TreeMemory() as memory:
        sample = measure.run(command, env=env)
    return Run(label, pages, timed or sample, memory.peak)


def read_sources(site: Path) -> None:
    """Read every file of the site once, untimed, so each timed build finds its sources in the OS page cache.

    "Cold" means docsgen's output and caches removed, not the disk's cache: sources are in memory right after a
    checkout, a generation or an edit. Without this, whether the 25,200 files were evicted by other work since
    varied the cold build by up to 2.5 s here (reading them from this machine's disk: 2.8 s; from memory: 0.5 s).
    """
    for path in sorted(site.rglob("*")):
        if path.is_file():
            path.read_bytes()


def measure_sizes(work: Path, sizes: tuple[int, ...], runs: int) -> list[Run]:
    """Build each size cold `runs` times, then again with nothing changed and with one page edited; return every
    run.

    Every cold build comes first: a build that replaces its output folder deletes the previous one (25,000+
    folders at full size; every rebuild did before rebuilds updated the folder in place), and ext4 without a
    journal makes creating files slower for minutes after a mass deletion: a cold build right after paid seconds.
    """
    sites = []
    for size in sizes:
        site = work / f"versioned-{size}"
        if not (site / "docs.json").is_file():
            sitegen.write_versioned_site(site, size)
        pages = sum(1 for _ in site.rglob("*.mdx"))
        sites.append((site, pages, work / f"versioned-{size}-out", work / f"versioned-{size}-cache"))
    results = []
    for site, pages, out, cache in sites:
        for _ in range(runs):
            print(f"scale: {pages} pages cold", flush=True)
            results.append(build(site, out, cache, "cold", pages, cold=True))
    for site, pages, out, cache in sites:
        for _ in range(runs):
            print(f"scale: {pages} pages rebuild, nothing changed", flush=True)
            results.append(build(site, out, cache, "rebuild, nothing changed", pages, cold=False))
            # one page's text edited (its version's search index made again); a page, not a shared snippet
            page = min(p for p in site.rglob("*.mdx") if "snippets" not in p.relative_to(site).parts)
            text = page.read_text(encoding="utf-8")
            try:
                page.write_text(text + "\nA paragraph added by the benchmark.\n", encoding="utf-8")
                print(f"scale: {pages} pages rebuild, one page edited", flush=True)
                results.append(build(site, out, cache, "rebuild, one page edited", pages, cold=False))
            finally:
                page.write_text(text, encoding="utf-8")
            # untimed: the output matches the sources again, so the next "nothing changed" is exactly that
            measure.run([str(DOCSGEN), "build", str(site), "-o", str(out)], env=_env(cache))
    return results


def measure_dev(work: Path, size: int, runs: int) -> DevRun:
    """Run bench/dev_reload.py on the site measure_sizes wrote for `size` in `work`, with an empty cache folder.

    The sources are read first, as before a cold build. dev_reload waits for the whole site to be rendered and
    indexed before it edits (an author edits a running server), and puts the edited page back at the end.
    """
    site, cache = work / f"versioned-{size}", work / f"versioned-{size}-dev-cache"
    pages = sum(1 for _ in site.rglob("*.mdx"))
    measure.remove(cache)
    read_sources(site)
    os.sync()
    command = [sys.executable, str(BENCH / "dev_reload.py"), "--docs", str(site), "--site", "versioned"]
    command += ["--pages", str(size), "--runs", str(runs)]  # the size the site was written for: its shape
    print(f"scale: {pages} pages, docsgen dev", flush=True)
    done = subprocess.run(command, capture_output=True, text=True, env=_env(cache), timeout=3600, check=False)
    measure.remove(cache)
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0:
        lines += (done.stderr or "").strip().splitlines()[-3:]
    first = re.search(r"first page served ([\d.]+)s after start", done.stdout)
    edit = re.search(r"page edit, served\s*: median\s+([\d.]+) ms", done.stdout)
    return DevRun(
        pages, lines, float(first.group(1)) if first else None, float(edit.group(1)) if edit else None
    )


def dev_verdicts(dev: DevRun) -> list[tuple[str, str, str, bool]]:
    """Return (target, measured, bar, met) for `docsgen dev` on the largest size; a failed run fails both."""
    first = f"{dev.first_s:.1f} s" if dev.first_s is not None else "failed: " + " ".join(dev.lines[-1:])
    edit = (
        f"{dev.edit_ms:.0f} ms (median)" if dev.edit_ms is not None else "failed: " + " ".join(dev.lines[-1:])
    )
    limit_first, limit_edit = TARGETS["dev_first_s"], TARGETS["dev_edit_ms"]
    return [
        (
            f"{dev.pages:,}-page versioned site: `docsgen dev` first page served after start (empty cache)",
            first,
            f"<= {limit_first:.0f} s",
            dev.first_s is not None and dev.first_s <= limit_first,
        ),
        (
            f"{dev.pages:,}-page versioned site: `docsgen dev` one-page edit to the new page served",
            edit,
            f"<= {limit_edit:.0f} ms",
            dev.edit_ms is not None and dev.edit_ms <= limit_edit,
        ),
    ]


def table(results: list[Run]) -> str:
    """Return the results as a Markdown table (medians when a size was run several times)."""
    rows = [
        "| pages | build | runs | wall | CPU | peak memory (tree, PSS) | per page | largest process (RSS) | ok |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    keys = sorted({(r.pages, r.label) for r in results}, key=lambda k: (k[0], k[1] != "cold"))
    for pages, label in keys:
        mine = [r for r in results if (r.pages, r.label) == (pages, label)]
        med = sorted(mine, key=lambda r: r.sample.wall)[len(mine) // 2]
        ok = all(r.sample.returncode == 0 for r in mine)
        rows.append(
            f"| {pages:,} | {label} | {len(mine)} | {med.sample.wall:.1f} s | {med.sample.cpu:.1f} s "
            f"| {med.tree_mb:,.0f} MB | {med.tree_mb * 1024 / pages:.1f} KB | {med.sample.rss_mb:,.0f} MB "
            f"| {'yes' if ok else 'NO: ' + med.sample.output.splitlines()[-1:][0] if med.sample.output else 'NO'} |"
        )
    return "\n".join(rows)


def verdicts(results: list[Run]) -> list[tuple[str, str, str, bool]]:
    """Return (target, measured, bar, met) for the largest size."""
    largest = max(r.pages for r in results)
    cold = [r for r in results if r.pages == largest and r.label == "cold"]
    warm = [r for r in results if r.pages == largest and r.label == "rebuild, nothing changed"]
    every = [r for r in results if r.pages == largest]
    out = []
    if cold:
        wall = sorted(r.sample.wall for r in cold)[len(cold) // 2]
        peak = max(r.tree_mb for r in every)
        out.append((f"{largest:,}-page versioned site: cold build", f"{wall:.1f} s", "<= 60 s", wall <= 60))
        out.append(
            (f"{largest:,}-page versioned site: peak memory", f"{peak:,.0f} MB", "<= 1 GB", peak <= 1024)
        )
    if warm:
        wall = sorted(r.sample.wall for r in warm)[len(warm) // 2]
        out.append(
            (
                f"{largest:,}-page versioned site: rebuild, nothing changed",
                f"{wall:.1f} s",
                "<= 10 s",
                wall <= 10,
            )
        )
    return out


def case_scale(
    report: Any, work: Path, runs: int, sizes: tuple[int, ...] = SIZES, dev_runs: int = 10
) -> None:
    """`bench/run.py --cases scale`: the growth curve into the report, and the issue 22 targets."""
    results = measure_sizes(work / "scale", sizes, runs)
    dev = measure_dev(work / "scale", max(sizes), dev_runs)
    body = (
        "A generated versioned site (`bench/sitegen.py` `write_versioned_site`: versions x 4 languages x about "
        "180 pages, each as heavy as the real sites' pages: snippets imported, icons, callouts, Tabs, CodeGroups, "
        "fields, Accordions, Cards, expressions, six code blocks, and on ~6% of the pages an unknown icon, an "
        "unknown component or a missing image (warnings); navigation by version, language and tab, groups with "
        "icons and nested groups). Cold: output and caches removed; rebuild: nothing changed, or one page's text edited, the previous "
        "output kept. Peak "
        "memory is the summed proportional set size of every process of the build (render workers, Pagefind), "
        "sampled every 0.2 s; a cold build's time comes from a run without that sampler (each sample reads every "
        "process's smaps_rollup: ~10 ms of CPU), its memory from a second run with it.\n\n" + table(results)
    )
    report.text("Versioned site: 1k, 5k and 25k pages (memory per page, growth)", body)
    report.text(
        f"Versioned site: `docsgen dev` at {dev.pages:,} pages",
        "`bench/dev_reload.py --site versioned` on the largest size, an empty cache folder, the sources read "
        "first; edits come after the whole site is rendered and indexed.\n\n"
        + "\n".join(f"- {line}" for line in dev.lines),
    )
    for name, measured, bar, ok in verdicts(results) + dev_verdicts(dev):
        report.target(name, measured, bar, ok)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--dev-runs", type=int, default=10, help="page edits timed in `docsgen dev` (0: no dev)"
    )
    parser.add_argument("--work", type=Path, default=BENCH / ".work" / "scale")
    parser.add_argument("--out", type=Path, default=None, help="write the table here (Markdown)")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    measure.TRASH = args.work / ".trash"
    measure.compile_bytecode()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()
    try:
        sizes = tuple(int(s) for s in args.sizes.split(","))
        results = measure_sizes(args.work, sizes, args.runs)
        found = verdicts(results)
        if args.dev_runs > 0:
            found += dev_verdicts(measure_dev(args.work, max(sizes), args.dev_runs))
    finally:
        measure.empty_trash()
    text = [
        f"Measured {started}; load average at start {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}.",
        "",
        table(results),
        "",
    ]
    text += [
        f"- {name}: {measured} (target {bar}): {'met' if ok else 'NOT met'}"
        for name, measured, bar, ok in found
    ]
    report = "\n".join(text) + "\n"
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
