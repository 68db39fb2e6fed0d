"""Measure one command: wall time, CPU time and peak memory of its process tree, and the size of what it wrote."""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Sample:
    """One run of a command."""

    wall: float  # seconds
    cpu: float  # user + system seconds of the process, the children it waited for and its orphans (run)
    rss_mb: float  # peak resident memory of the largest process of the tree (ru_maxrss)
    returncode: int
    output: str = ""  # last lines of stdout + stderr


@dataclass
class Stats:
    """Medians of several runs of one command."""

    label: str
    samples: list[Sample] = field(default_factory=list)
    size_bytes: int | None = None  # total size of the output, when the command writes a site
    files: int | None = None
    note: str = ""
    floor_seconds: float | None = None  # bench/fsfloor.py: seconds its processes spent creating the files

    def median(self, name: str) -> float:
        return statistics.median(getattr(s, name) for s in self.samples)

    @property
    def ok(self) -> bool:
        return bool(self.samples) and all(s.returncode == 0 for s in self.samples)

    def as_json(self) -> dict:
        """Return the raw samples and facts (RESULTS.json, CORPUS raw data)."""
        return {
            "label": self.label,
            "wall": [x.wall for x in self.samples],
            "cpu": [x.cpu for x in self.samples],
            "rss_mb": [x.rss_mb for x in self.samples],
            "size_bytes": self.size_bytes,
            "files": self.files,
            "note": self.note,
            "ok": self.ok,
        }


def build_timings(docsgen: Path, site: Path, out: Path, cache: Path, env: dict) -> str:
    """Return the stage table `docsgen build --timings` prints for one cold build (output and cache removed)."""
    remove(out)
    remove(cache)
    proc = subprocess.run(
        [str(docsgen), "build", str(site), "-o", str(out), "--timings"],
        env={**env, "DOCSGEN_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        check=False,
    )
    return "\n".join(line for line in proc.stderr.splitlines() if line.rstrip().endswith(("%", " s")))


def _adopt_orphans() -> bool:
    """Make this process the reaper of its descendants' orphans (Linux): a process whose parent ended without
    waiting for it (docsgen's JavaScript sandboxes outlive the render workers that started them) is then
    waited for here, and its CPU time counted with the command's. Without it those seconds were not counted."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


ADOPTING = _adopt_orphans()
ORPHAN_WAIT = 30.0  # seconds for orphans to end after the command (sandboxes end at their closed sockets)


def _children() -> set[int]:
    """This process's child processes now."""
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        try:
            found.update(int(pid) for pid in task.read_text().split())
        except (OSError, ValueError):
            continue
    return found


def _reap_orphans(before: set[int]) -> float:
    """Wait for the command's orphans (children of this process that were not there before it) and return their
    user + system seconds."""
    seconds, deadline = 0.0, time.monotonic() + ORPHAN_WAIT
    while ADOPTING and time.monotonic() < deadline:
        orphans = _children() - before
        if not orphans:
            break
        for pid in orphans:
            try:
                done, _status, usage = os.wait4(pid, os.WNOHANG)
            except ChildProcessError:
                continue
            if done:
                seconds += usage.ru_utime + usage.ru_stime
        time.sleep(0.02)
    return seconds


def run(
    command: list[str], *, cwd: Path | None = None, env: dict | None = None, timeout: float = 3600
) -> Sample:
    """Run a command to completion and return its wall time and the rusage of its whole process tree (orphans
    included: _adopt_orphans)."""
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-{os.getpid()}.log"
    before = _children()
    with log.open("w+b") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.002)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    log.unlink(missing_ok=True)
    tail = "\n".join(text.strip().splitlines()[-5:])
    cpu = usage.ru_utime + usage.ru_stime + _reap_orphans(before)
    return Sample(wall, cpu, usage.ru_maxrss / 1024, proc.returncode, tail)


@dataclass
class Job:
    """A command to time: how to run it, what to do before each run, where it writes."""

    label: str
    command: list[str]
    cwd: Path | None = None
    env: dict | None = None
    before: Callable[[], None] | None = None  # called before each run (e.g. remove the previous output)
    setup: Callable[[], None] | None = None  # called once, untimed, before the first run (e.g. fill a cache)
    output: Path | None = None
    ok_codes: tuple[int, ...] = (0,)


def repeat(
    label: str,
    command: list[str],
    runs: int,
    *,
    cwd: Path | None = None,
    env: dict | None = None,
    before: Callable[[], None] | None = None,
    output: Path | None = None,
    ok_codes: tuple[int, ...] = (0,),
) -> Stats:
    """Run a command several times (calling `before` first each time) and measure its output folder."""
    return interleave([Job(label, command, cwd, env, before, None, output, ok_codes)], runs)[0]


def interleave(jobs: list[Job], runs: int) -> list[Stats]:
    """Run several commands in turns (A B A B ...), so a machine whose speed drifts during the benchmark (a
    shared host, a disk busy with an earlier delete) weighs on each of them alike; return their Stats in order."""
    stats = [Stats(job.label) for job in jobs]
    for job in jobs:
        if job.setup:
            job.setup()
    for _ in range(runs):
        for job, stat in zip(jobs, stats, strict=True):
            if stat.samples and stat.samples[-1].returncode != 0:
                continue  # failed once: not run again
            if job.before:
                job.before()
            sample = run(job.command, cwd=job.cwd, env=job.env)
            if sample.returncode in job.ok_codes:
                sample.returncode = 0  # e.g. a linter exiting 1 on findings: the run is complete
            stat.samples.append(sample)
            if sample.returncode != 0:
                last = sample.output.splitlines()[-1] if sample.output else ""
                stat.note = f"exit {sample.returncode}: {last}"
    for job, stat in zip(jobs, stats, strict=True):
        if job.output is not None and job.output.exists():
            stat.size_bytes, stat.files = tree_size(job.output)
    return stats


def tree_size(path: Path) -> tuple[int, int]:
    """Return (bytes, files) of a file or folder."""
    if path.is_file():
        return path.stat().st_size, 1
    sizes = [p.stat().st_size for p in path.rglob("*") if p.is_file()]
    return sum(sizes), len(sizes)


# Where remove() puts what it removes during a benchmark (None: delete at once). On ext4 without a journal (as
# on this project's machines), creating a file skips every inode freed in the last 60-300 s (ialloc.c,
# recently_deleted(); `perf record` showed it as most of a build's kernel time), so deleting the last run's
# 3,000-5,000 output files made the next timed run create its own files up to 7 times slower. Moving them aside
# frees no inode; run.py empties the trash when the benchmark is over.
TRASH: Path | None = None
_trashed = 0


def remove(path: Path) -> None:
    """Remove a file or folder if it exists: into TRASH (same file system, a rename) when set, else delete it."""
    global _trashed
    if not path.exists() and not path.is_symlink():
        return
    if TRASH is not None:
        TRASH.mkdir(parents=True, exist_ok=True)
        _trashed += 1
        try:
            path.rename(TRASH / f"{_trashed:05d}-{path.name}")
            return
        except OSError:  # another file system: delete it after all
            pass
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def compile_bytecode() -> None:
    """Write docsgen's compiled bytecode (`__pycache__`) where it is missing or stale, before any timed run.

    `pip install docsgen` compiles every module when it installs; an editable install compiles them on first import,
    unless $PYTHONDONTWRITEBYTECODE is set (as on this project's machines), when every docsgen process compiles its
    ~220 modules again: 0.22 s of each build measured here (0.52 -> 0.30 s to import what a build imports). The
    benchmark measures docsgen as users run it.
    """
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("docsgen")
    if spec is not None and spec.origin is not None:
        compileall.compile_dir(Path(spec.origin).parent, quiet=2)


def empty_trash() -> None:
    """Delete what remove() moved aside (after the timed runs: the freed inodes slow no measurement)."""
    if TRASH is not None and TRASH.exists():
        shutil.rmtree(TRASH, ignore_errors=True)


def machine() -> dict[str, str]:
    """Describe the machine: CPUs, memory, CPU model, OS, Python, load when the run started."""
    info = {
        "CPUs (nproc)": str(
            len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        ),
        "Python": sys.version.split()[0],
        "OS": f"{platform.system()} {platform.release()}",
    }
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
        model = next(
            (line.split(":", 1)[1].strip() for line in cpuinfo.splitlines() if "model name" in line), ""
        )
        info["CPU model"] = model or platform.processor()
        mem = next(
            line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal")
        )
        info["Memory"] = f"{int(mem.split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, StopIteration):
        info["CPU model"] = platform.processor()
    if hasattr(os, "getloadavg"):
        info["Load average at start (1/5/15 min)"] = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    node = shutil.which("node")
    if node:
        info["Node.js"] = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    return info
