"""Thumbnails' share of a cold build (issue 37 item 16): a docs folder built with `thumbnails` set and without, in
turns, each build cold (a new output folder and an empty docsgen cache).

    .venv/bin/python bench/thumbnails.py [--docs ../shared/corpus/mintlify-docs] [--pairs 4] [--work /tmp/thumbs]

Copies the docs folder twice under --work: `on` with docs.json's `thumbnails` (an empty object when the site has
none) and `off` without it. Each build is `docsgen build` in its own process, timed with os.wait4: wall time, and
CPU = user + system time of the process and the processes it waited for (render workers, Pagefind). Pairs
alternate their order (on, off / off, on ...). Prints every build, the medians and the ratios on/off.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCSGEN = Path(sys.executable).with_name("docsgen")


def prepare(docs: Path, work: Path) -> None:
    """Copy the docs folder to work/on (thumbnails set) and work/off (thumbnails removed)."""
    for name in ("on", "off"):
        target = work / name
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(docs, target, ignore=shutil.ignore_patterns("_site", ".git", "node_modules"))
        config_path = target / "docs.json"
        config = json.loads(config_path.read_text(encoding="utf-8"))
        if name == "on":
            config.setdefault("thumbnails", {})
        else:
            config.pop("thumbnails", None)
        config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")


def build(work: Path, name: str) -> tuple[float, float, float]:
    """Build work/name cold; return (wall, CPU, user CPU) in seconds."""
    cache = Path(tempfile.mkdtemp(prefix=f"cache-{name}-", dir=work))
    out = work / f"out-{name}"
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(DOCSGEN), "build", str(work / name), "-o", str(out)],
        env=dict(os.environ, DOCSGEN_CACHE_DIR=str(cache)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    shutil.rmtree(cache, ignore_errors=True)
    if status != 0:
        raise SystemExit(f"docsgen build {name} failed (status {status})")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_utime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=HERE.parent.parent / "shared/corpus/mintlify-docs")
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "docsgen-thumbnails-bench")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    prepare(args.docs, args.work)
    runs: dict[str, list[tuple[float, float, float]]] = {"on": [], "off": []}
    for pair in range(args.pairs):
        for name in ("on", "off") if pair % 2 == 0 else ("off", "on"):
            load = os.getloadavg()[0]
            runs[name].append(build(args.work, name))
            wall, cpu, user = runs[name][-1]
            print(
                f"{name:3}  wall {wall:6.2f} s  CPU {cpu:6.2f} s (user {user:6.2f})  load {load:.2f}",
                flush=True,
            )
    medians = {
        name: [statistics.median(run[i] for run in found) for i in range(3)] for name, found in runs.items()
    }
    for name, (wall, cpu, user) in medians.items():
        print(f"{name:3}  median wall {wall:.2f} s  CPU {cpu:.2f} s  user {user:.2f} s")
    on, off = medians["on"], medians["off"]
    print(f"on/off: wall {on[0] / off[0]:.3f}  CPU {on[1] / off[1]:.3f}  user {on[2] / off[2]:.3f}")
    print("load average now: {:.2f} / {:.2f} / {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
