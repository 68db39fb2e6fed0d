"""Load benchmark of the feedback server: accepted POSTs per second and listing latency, over loopback.

The server runs as its own process (`docsgen server run`); the load comes from separate generator processes.

    .venv/bin/python bench/feedback_server.py                       # SQLite file in a temp folder
    .venv/bin/python bench/feedback_server.py --db postgresql://...  # an (empty) PostgreSQL database
    .venv/bin/python bench/feedback_server.py --seconds 10 --processes 2 --threads 8 --prefill 100000 --json out.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def start_server(db_url: str, extra: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str]:
    """Start `docsgen server run` on a free port without a rate limit and wait until it answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = [
        sys.executable,
        "-m",
        "docsgen.server.cli",
        "run",
        "--db",
        db_url,
        "--port",
        str(port),
        "--rate-limit",
        "0",
        *extra,
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the feedback server did not start")


def generator(base: str, project: str, threads: int, seconds: float, results: multiprocessing.Queue) -> None:
    """One load-generator process: `threads` keep-alive clients posting feedback for `seconds`."""
    counts = {"accepted": 0, "other": 0, "errors": 0}
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def worker(n: int) -> None:
        local = {"accepted": 0, "other": 0, "errors": 0}
        with httpx.Client(base_url=base, timeout=10) as client:
            i = 0
            while time.monotonic() < end:
                i += 1
                body = {
                    "path": f"/page/{i % 50}",
                    "source": "contextual",
                    "helpful": i % 3 != 0,
                    "comment": f"load {n} {i}",
                }
                try:
                    code = client.post(f"/v1/feedback/{project}", json=body).status_code
                    local["accepted" if code == 201 else "other"] += 1
                except httpx.TransportError:
                    local["errors"] += 1
        with lock:
            for key, value in local.items():
                counts[key] += value

    pool = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    results.put(counts)


def prefill(db_url: str, project: str, count: int) -> None:
    """Insert entries straight into the database, spread over 30 days, so listings run against real volume."""
    from sqlalchemy import insert

    from docsgen.server import feedback as fb
    from docsgen.server.db import feedback, now_ms, open_database

    engine = open_database(db_url)
    start = now_ms() - 30 * 86_400_000
    step = max(1, 30 * 86_400_000 // max(count, 1))
    sources = ["thumbs_only", "contextual", "code_snippet"]
    with engine.begin() as conn:
        for first in range(0, count, 5000):
            rows = []
            for i in range(first, min(count, first + 5000)):
                source = sources[i % 3]
                rows.append(
                    {
                        "id": fb.new_id(),
                        "project_id": project,
                        "source": source,
                        "status": fb.STATUSES[i % 4],
                        "path": f"/page/{i % 50}",
                        "comment": "" if source == "thumbs_only" else f"comment {i}",
                        "helpful": None if source == "code_snippet" else bool(i % 2),
                        "code": "print(1)" if source == "code_snippet" else None,
                        "created_ms": start + i * step,
                    }
                )
            conn.execute(insert(feedback), rows)
    engine.dispose()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure_listing(base: str, project: str, key: str, requests: int) -> dict[str, dict[str, float]]:
    """Time first pages with several filters, and a deep cursor walk, in milliseconds."""
    headers = {"Authorization": f"Bearer {key}"}
    cases = {
        "first page, limit 50": {},
        "first page, limit 100, status=pending,in_progress": {"limit": 100, "status": "pending,in_progress"},
        "first page, source + 7-day window": {
            "source": "contextual",
            "dateFrom": time.strftime("%Y-%m-%d", time.gmtime(time.time() - 7 * 86400)),
        },
    }
    out: dict[str, dict[str, float]] = {}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
        for label, params in cases.items():
            samples = []
            for _ in range(requests):
                began = time.perf_counter()
                response = client.get(f"/v1/analytics/{project}/feedback", params=params)
                samples.append((time.perf_counter() - began) * 1000)
                assert response.status_code == 200, response.text
            out[label] = {
                "p50": statistics.median(samples),
                "p95": percentile(samples, 0.95),
                "max": max(samples),
            }
        samples, cursor, pages = [], None, 0
        while pages < requests:
            began = time.perf_counter()
            page = client.get(
                f"/v1/analytics/{project}/feedback",
                params={"limit": 100, **({"cursor": cursor} if cursor else {})},
            ).json()
            samples.append((time.perf_counter() - began) * 1000)
            pages += 1
            if not page["hasMore"]:
                break
            cursor = page["nextCursor"]
        out[f"cursor walk, limit 100 ({pages} pages)"] = {
            "p50": statistics.median(samples),
            "p95": percentile(samples, 0.95),
            "max": max(samples),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="database URL (default: a SQLite file in a temporary folder)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of the POST phase")
    parser.add_argument("--processes", type=int, default=2, help="load-generator processes")
    parser.add_argument("--threads", type=int, default=4, help="keep-alive clients per generator process")
    parser.add_argument(
        "--prefill", type=int, default=20_000, help="entries inserted before listing is timed"
    )
    parser.add_argument("--requests", type=int, default=50, help="timed requests per listing case")
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = parser.parse_args()

    from docsgen.server.db import open_database
    from docsgen.server.testing import seed_project

    with tempfile.TemporaryDirectory(prefix="docsgen-bench-") as tmp:
        db_url = args.db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        project = "bench" + str(os.getpid())
        engine = open_database(db_url)
        key = seed_project(engine, project)
        engine.dispose()
        process, base = start_server(db_url)
        try:
            queue: multiprocessing.Queue = multiprocessing.Queue()
            workers = [
                multiprocessing.Process(
                    target=generator, args=(base, project, args.threads, args.seconds, queue)
                )
                for _ in range(args.processes)
            ]
            began = time.perf_counter()
            for worker in workers:
                worker.start()
            totals = {"accepted": 0, "other": 0, "errors": 0}
            for _ in workers:
                for name, value in queue.get().items():
                    totals[name] += value
            for worker in workers:
                worker.join()
            elapsed = time.perf_counter() - began
            prefill(db_url, project, args.prefill)
            listing = measure_listing(base, project, key, args.requests)
        finally:
            process.terminate()
            process.wait(10)

    backend = db_url.split(":", 1)[0]
    results = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "system": platform.platform(),
        },
        "backend": backend,
        "post": {
            "clients": args.processes * args.threads,
            "seconds": round(elapsed, 2),
            **totals,
            "accepted_per_second": round(totals["accepted"] / elapsed, 1),
        },
        "listing_ms": {k: {m: round(v, 2) for m, v in d.items()} for k, d in listing.items()},
        "entries_when_listing": totals["accepted"] + args.prefill,
    }
    print(
        f"## Feedback server ({backend}, {os.cpu_count()} CPUs, server and load generators on one machine)\n"
    )
    post = results["post"]
    print(
        f"POST /v1/feedback: {post['accepted_per_second']} accepted/s ({post['accepted']} in {post['seconds']} s, "
    )
    print(
        f"{post['clients']} keep-alive clients in {args.processes} processes; other statuses {post['other']}, errors {post['errors']})\n"
    )
    print(f"Listing latency with {results['entries_when_listing']} entries (ms):\n")
    print("| request | p50 | p95 | max |\n|---|---|---|---|")
    for label, row in results["listing_ms"].items():
        print(f"| {label} | {row['p50']} | {row['p95']} | {row['max']} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
