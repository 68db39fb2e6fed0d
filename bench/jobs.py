"""What the benchmark cases share: the environment of a run, docsgen and MkDocs jobs, floors, and the report.

Imported by bench/run.py (the cases) and its case modules; see bench/run.py for how to run the benchmark.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import measure
import peers

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
DOCSGEN = Path(sys.executable).parent / "docsgen"
CACHE = BENCH / ".work" / "cache"


def env(**extra: str) -> dict[str, str]:
    """Return the environment of a run: no terminal progress bar, caches under bench/.work/cache."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("DOCSGEN_")}
    fixed = {"CI": "1", "NO_COLOR": "1", "NO_MKDOCS_2_WARNING": "1", "DOCSGEN_CACHE_DIR": str(CACHE)}
    return {**base, **fixed, **extra}


class Report:
    """Collects the sections of RESULTS.md and the target checks."""

    def __init__(self) -> None:
        self.case = (
            ""  # the case being run: its sections and targets are tagged with it (bench/results_merge.py)
        )
        self.sections: list[tuple[str, str]] = []  # (case, Markdown)
        self.targets: list[tuple[str, str, str, str, str]] = []  # (case, target, measured, bar, verdict)
        self.data: dict = {}

    def table(
        self, title: str, rows: list[measure.Stats], baseline: measure.Stats | None = None, text: str = ""
    ):
        lines = [f"### {title}", ""]
        if text:
            lines += [text, ""]
        lines += [
            "| command | runs | wall (median) | CPU (median) | peak memory | output | note |",
            "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for s in rows:
            if not s.samples:
                lines.append(f"| {s.label} | 0 | | | | | {s.note} |")
                continue
            size = f"{s.size_bytes / 1e6:.1f} MB ({s.files} files)" if s.size_bytes is not None else ""
            lines.append(
                f"| {s.label} | {len(s.samples)} | {s.median('wall'):.2f} s | {s.median('cpu'):.2f} s | "
                f"{max(x.rss_mb for x in s.samples):.0f} MB | {size} | {s.note} |"
            )
            self.data.setdefault(title, []).append(s.as_json())
        if baseline is not None and baseline.ok:
            lines += ["", "Ratios docsgen / " + baseline.label + ":", ""]
            for s in rows:
                if s is baseline or not s.ok:
                    continue
                parts = [
                    f"wall {s.median('wall') / baseline.median('wall'):.3f}",
                    f"CPU {s.median('cpu') / max(baseline.median('cpu'), 1e-9):.3f}",
                    f"peak memory {max(x.rss_mb for x in s.samples) / max(x.rss_mb for x in baseline.samples):.2f}",
                ]
                if s.size_bytes and baseline.size_bytes:
                    parts.append(f"output size {s.size_bytes / baseline.size_bytes:.2f}")
                lines.append(f"- {s.label}: " + ", ".join(parts))
        self.sections.append((self.case, "\n".join(lines) + "\n"))

    def text(self, title: str, body: str) -> None:
        self.sections.append((self.case, f"### {title}\n\n{body.strip()}\n"))

    def target(self, name: str, measured: str, bar: str, ok: bool | None) -> None:
        verdict = "n/a" if ok is None else ("met" if ok else "NOT met")
        self.targets.append((self.case, name, measured, bar, verdict))


def docsgen_job(site: Path, out: Path, label: str, *, warm: bool = False, **extra: str) -> measure.Job:
    """`docsgen build`: cold removes the output and the site's caches before each run; warm keeps the page cache."""
    cache = site.parent / "cache"

    def before() -> None:
        measure.remove(out)
        if not warm:
            measure.remove(cache)

    def fill() -> None:  # warm: build once, untimed, so the cache holds every page
        measure.remove(cache)
        measure.run(command, env=run_env)

    run_env = env(DOCSGEN_CACHE_DIR=str(cache), **extra)
    command = [str(DOCSGEN), "build", str(site), "-o", str(out)]
    return measure.Job(label, command, env=run_env, before=before, setup=fill if warm else None, output=out)


def docsgen_build(
    site: Path, out: Path, label: str, runs: int, *, warm: bool = False, **extra: str
) -> measure.Stats:
    """Time `docsgen build` alone (see docsgen_job)."""
    return measure.interleave([docsgen_job(site, out, label, warm=warm, **extra)], runs)[0]


def stage_breakdown(site: Path, out: Path) -> str:
    """Return `docsgen build --timings` of one cold build (where the seconds go), as a Markdown code block."""
    table = measure.build_timings(DOCSGEN, site, out, site.parent / "cache", env())
    return "Stages of one cold build (`docsgen build --timings`):\n\n```\n" + table + "\n```"


def mkdocs_job(project: Path, out: Path) -> measure.Job:
    """`mkdocs build` with Material (its output removed before each run)."""
    exe = peers.mkdocs()
    return measure.Job(
        "mkdocs build (Material)",
        [str(exe), "build", "-q", "-d", str(out)],
        cwd=project,
        env=env(),
        before=lambda: measure.remove(out),
        output=out,
    )


def mkdocs_build(project: Path, out: Path, runs: int) -> measure.Stats:
    """Time `mkdocs build` with Material alone."""
    return measure.interleave([mkdocs_job(project, out)], runs)[0]


def fs_floor(out: Path, runs: int) -> measure.Stats:
    """Time re-creating a built site's files with no content work (bench/fsfloor.py): the disk's share of a build."""
    scratch = out.parent / "floor"
    stats = measure.repeat(
        "file-system floor: the same files created, no content work",
        [sys.executable, str(BENCH / "fsfloor.py"), str(out), str(scratch)]
        + ([str(measure.TRASH)] if measure.TRASH else []),
        runs,
        env=env(),
    )
    found = []
    for sample in stats.samples:
        try:
            found.append(json.loads(sample.output.strip().splitlines()[-1]))
        except (ValueError, IndexError):
            continue
    if found:
        seconds = statistics.median(f["seconds"] for f in found)
        stats.floor_seconds = seconds
        stats.note = (
            f"creating {found[0]['files']} files in {found[0]['folders']} folders took {seconds:.2f} s "
            f"({found[0]['processes']} processes); the rest of its wall time is reading the build's files"
        )
    return stats


def search_floor(site: Path, runs: int) -> dict | None:
    """Return bench/search_floor.py's measurement of Pagefind indexing the site's pages alone (None: failed)."""
    proc = subprocess.run(
        [sys.executable, str(BENCH / "search_floor.py"), str(site), str(runs)],
        env=env(DOCSGEN_CACHE_DIR=str(site.parent / "cache-search-floor")),
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
