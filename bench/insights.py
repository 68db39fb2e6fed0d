"""Benchmark of analytics and the assistant: event ingest (requests and events per second), report listing
latency, and the assistant's retrieval (index build, per-question latency, right page cited) over loopback.

The server runs as its own process (`docsgen server run`, no model: answers are passages); the load comes from
threads of this process. Small by default (the machine may be shared):

    .venv/bin/python bench/insights.py                          # SQLite file in a temp folder
    .venv/bin/python bench/insights.py --db postgresql://...     # an (empty) PostgreSQL database
    .venv/bin/python bench/insights.py --site /tmp/mintlify-out  # a build of fixtures/mintlify-docs to reuse
    .venv/bin/python bench/insights.py --seconds 5 --threads 8 --prefill 50000 --json out.json
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from feedback_server import start_server  # noqa: E402

QUESTIONS = json.loads((REPO / "bench" / "assistant_questions.json").read_text(encoding="utf-8"))["questions"]
ORIGIN = "http://docs.bench.test"
UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"p50_ms": round(pick(0.5) * 1000, 2), "p95_ms": round(pick(0.95) * 1000, 2), "n": len(ordered)}


def english_site(out: Path) -> Path:
    """Build fixtures/mintlify-docs without its translations (262 pages, about 30 s) into `out`."""
    from docsgen.build import build

    docs = out.parent / "mintlify-en"
    shutil.copytree(REPO / "fixtures" / "mintlify-docs", docs)
    for folder in ("es", "fr", "zh"):
        shutil.rmtree(docs / folder, ignore_errors=True)
    config = json.loads((docs / "docs.json").read_text(encoding="utf-8"))
    nav = config["navigation"]
    nav["languages"] = [entry for entry in nav["languages"] if entry.get("language") == "en"]
    (docs / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    build(docs, out)
    return out


def ingest(base: str, project: str, seconds: float, threads: int) -> dict:
    """POST batches of 3 events (a view, a search, a click) from `threads` visitors as fast as answered."""
    latencies: list[float] = []
    events = [
        {"kind": "view", "path": "/quickstart", "referrer": "https://news.example/item"},
        {"kind": "search", "query": "custom domain", "results": 4},
        {"kind": "click", "query": "custom domain", "path": "/customize/custom-domain"},
    ]
    body = json.dumps({"events": events})
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    errors = [0]

    def worker(n: int) -> None:
        headers = {"content-type": "text/plain", "origin": ORIGIN, "user-agent": f"{UA} v{n}"}
        with httpx.Client(base_url=base, timeout=30) as client:
            mine = []
            while time.monotonic() < stop:
                start = time.perf_counter()
                r = client.post(f"/v1/events/{project}", content=body, headers=headers)
                mine.append(time.perf_counter() - start)
                if r.status_code != 202:
                    errors[0] += 1
            with lock:
                latencies.extend(mine)

    started = time.monotonic()
    pool = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    elapsed = time.monotonic() - started
    return {
        "requests_per_s": round(len(latencies) / elapsed, 1),
        "events_per_s": round(3 * len(latencies) / elapsed, 1),
        "errors": errors[0],
        "threads": threads,
        **percentiles(latencies),
    }


def prefill(db_url: str, project: str, count: int) -> None:
    """Insert `count` events over 30 days directly (500 paths, 2,000 visitors, 300 terms)."""
    from sqlalchemy import insert

    from docsgen.server.db import analytics_events, now_ms, open_database

    engine = open_database(db_url)
    now = now_ms()
    rows = []
    for i in range(count):
        kind = ("view", "view", "view", "search", "click")[i % 5]
        rows.append(
            {
                "project_id": project,
                "kind": kind,
                "created_ms": now - (i % 30) * 86_400_000 - i,
                "path": f"/page-{i % 500}" if kind != "search" else "",
                "visitor": f"{i % 2000:032x}",
                "traffic": "ai" if i % 9 == 0 else "human",
                "referrer": None,
                "query": f"term {i % 300}" if kind in ("search", "click") else None,
                "results": i % 3 if kind == "search" else None,
            }
        )
    with engine.begin() as conn:
        for start in range(0, len(rows), 5000):
            conn.execute(insert(analytics_events), rows[start : start + 5000])
    engine.dispose()


def listing(base: str, project: str, key: str, rounds: int) -> dict:
    out = {}
    with httpx.Client(base_url=base, timeout=60, headers={"Authorization": f"Bearer {key}"}) as client:
        for report in ("views", "visitors", "searches", "assistant"):
            samples = []
            for _ in range(rounds):
                start = time.perf_counter()
                r = client.get(f"/v1/analytics/{project}/{report}", params={"limit": "50"})
                samples.append(time.perf_counter() - start)
                assert r.status_code == 200, r.text
            out[report] = percentiles(samples)
    return out


def retrieval(site: Path, base: str, project: str, rounds: int) -> dict:
    """Index build time, search latency and hit rate in process; the assistant endpoint's latency over HTTP."""
    from docsgen.server.retrieval import SiteIndex

    start = time.perf_counter()
    index = SiteIndex(site)
    built = time.perf_counter() - start
    samples, hits, missed = [], 0, []
    for r in range(rounds):
        for q in QUESTIONS:
            t0 = time.perf_counter()
            urls = [p.url for p in index.search(q["question"])]
            samples.append(time.perf_counter() - t0)
            if r == 0:
                hits += q["page"] in urls
                if q["page"] not in urls:
                    missed.append(q["page"])
    http = []
    with httpx.Client(base_url=base, timeout=60) as client:
        for q in QUESTIONS:
            t0 = time.perf_counter()
            r = client.post(f"/v1/assistant/{project}/messages", json={"question": q["question"]})
            http.append(time.perf_counter() - t0)
            assert r.status_code == 200, r.text
    return {
        "pages": index.pages,
        "chunks": index.chunks,
        "index_build_s": round(built, 2),
        "search": percentiles(samples),
        "right_page_cited": f"{hits}/{len(QUESTIONS)}",
        "missed": missed,
        "assistant_http_no_model": percentiles(http),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", default=None, help="database URL (default: a SQLite file in a temp folder)")
    parser.add_argument(
        "--site", type=Path, default=None, help="a built site to answer from (default: build one)"
    )
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--prefill", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="docsgen-insights-bench-"))
    work.chmod(0o700)
    db_url = args.db or f"sqlite:///{work / 'bench.sqlite3'}"
    site = args.site or english_site(work / "site")
    from docsgen.server.db import open_database
    from docsgen.server.testing import seed_project

    engine = open_database(db_url)
    key = seed_project(engine, "bench", [ORIGIN], docs_dir=work, out_dir=site)
    engine.dispose()
    process, base = start_server(db_url, ("--analytics-rate", "0", "--assistant-rate", "0"))
    try:
        ingest(base, "bench", 1.0, args.threads)  # warm-up, not counted: the server opens its connections
        results = {
            "database": db_url.split(":", 1)[0],
            "ingest": ingest(base, "bench", args.seconds, args.threads),
        }
        prefill(db_url, "bench", args.prefill)
        results["prefill_events"] = args.prefill
        results["retrieval"] = retrieval(site, base, "bench", args.rounds)
        results["listing"] = listing(base, "bench", key, args.rounds)
    finally:
        process.terminate()
        process.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    text = json.dumps(results, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
