"""React components: the cost of running them, on a whole site and per call.

    .venv/bin/python bench/react.py [--site fixtures/mintlify-docs] [--runs 3]

Builds the site alternately with the engine off (DOCSGEN_REACT=0: components render their children, as before
docsgen ran them) and on, with the page cache off, and prints the median wall and CPU (user+sys, render workers
included) time of each. Then times, in this process, the engine's start-up and one server render."""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def build_once(site: Path, out: Path, engine: bool) -> tuple[float, float]:
    env = {**os.environ, "DOCSGEN_CACHE": "0", "DOCSGEN_REACT": "1" if engine else "0"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "docsgen", "build", str(site), "-o", str(out)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def micro() -> dict[str, float]:
    from docsgen.mdx.react import js_engine as react_engine

    start = time.perf_counter()
    eng = react_engine.Engine()
    startup = time.perf_counter() - start
    source = (
        'export const Card2 = ({ title, items }) => (<div className="c"><h3>{`${title}!`}</h3>'
        "<ul>{items.map((x) => <li key={x}>{x}</li>)}</ul></div>);\n"
    )
    compiled = eng.compile(source, "bench")
    eng.define("bench", compiled["code"], "bench", {}, ["React"])
    props = json.dumps({"title": "Hello", "items": ["a", "b", "c"]})
    runs = 500
    start = time.perf_counter()
    for _ in range(runs):
        eng.render("bench", "Card2", props)
    per_render = (time.perf_counter() - start) / runs
    start = time.perf_counter()
    for i in range(20):
        eng.compile(source + f"// {i}\n", f"bench{i}")
    per_compile = (time.perf_counter() - start) / 20
    return {
        "engine_startup_ms": startup * 1000,
        "render_ms": per_render * 1000,
        "compile_ms": per_compile * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", type=Path, default=REPO / "fixtures" / "mintlify-docs")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {"off": [], "on": []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for mode in ("off", "on"):
                results[mode].append(build_once(args.site, Path(tmp) / mode, engine=mode == "on"))
    summary = {}
    for mode, runs in results.items():
        summary[mode] = {
            "wall_s": round(statistics.median(w for w, _ in runs), 2),
            "cpu_s": round(statistics.median(c for _, c in runs), 2),
        }
    summary["growth_wall_pct"] = round(100 * (summary["on"]["wall_s"] / summary["off"]["wall_s"] - 1), 1)
    summary["growth_cpu_pct"] = round(100 * (summary["on"]["cpu_s"] / summary["off"]["cpu_s"] - 1), 1)
    summary["micro"] = {k: round(v, 3) for k, v in micro().items()}
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
