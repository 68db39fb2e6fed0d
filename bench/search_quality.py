"""Search quality on GitHub's REST reference: hit@1, hit@3 and MRR of a fixed list of reader queries.

    .venv/bin/python bench/search_quality.py [--out BUILT_SITE] [--json] [--queries bench/search_quality.json]

Without --out, the GitHub site is written (bench/sitegen.py, as bench/run.py's `github` case does) and built
cold into bench/.work/search-quality/. The built site is served on 127.0.0.1 and each query runs in chromium
(Debian's, through Playwright) exactly as the site's search dialog runs it (_static/search.js): Pagefind's own
pagefind.js of the page's index, `excerptLength: 24`, the page's scope filters, the first ten results, each
linked to its best sub-result. A result counts for the page it links to (its #fragment dropped). hit@k: share of queries whose
expected page is among the first k; MRR: mean of 1/rank (0 when not in the first ten).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
QUERIES = BENCH / "search_quality.json"
WORK = BENCH / ".work" / "search-quality"

# What _static/search.js does for one query, returning the URL each of the first ten results links to.
_SEARCH_JS = r"""
async ([queries, limit]) => {
  const root = document.documentElement.dataset.root || "./";
  const dialog = document.getElementById("dg-search");
  const index = ((dialog && dialog.dataset.index) || "pagefind").replace(/\/*$/, "/");
  const pf = await import(new URL(root + index + "pagefind.js", location.href).href);
  await pf.options({ excerptLength: 24 });
  pf.init();
  const scope = JSON.parse((dialog && dialog.dataset.scope) || "{}");
  const best = (data) => {
    const subs = (data.sub_results || []).filter((s) => s.url !== data.url);
    subs.sort((a, b) => (b.locations || []).length - (a.locations || []).length);
    return subs.length && (subs[0].locations || []).length ? subs[0] : null;
  };
  const out = [];
  for (const query of queries) {
    const search = await pf.search(query, { filters: scope });
    const data = await Promise.all(search.results.slice(0, limit).map((r) => r.data()));
    out.push(data.map((d) => { const sub = best(d); return sub ? sub.url : d.url; }));
  }
  return out;
}
"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def page_of(url: str) -> str:
    """Return the page a result URL points at: no fragment, query, index.html or surrounding slashes."""
    url = url.split("#", 1)[0].split("?", 1)[0]
    url = url.removesuffix("index.html")
    return url.strip("/")


def chromium_path() -> str:
    """Debian's chromium (Playwright's own browser download cannot work here), as tests/conftest.py finds it."""
    return os.environ.get("DOCSGEN_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def run_queries(out: Path, queries: list[str], limit: int = 10, page: Any = None) -> list[list[str]]:
    """Serve the built site and return, per query, the pages of its first `limit` results (in `page`, a
    Playwright page, when given: a test's own browser; else in a chromium started here)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        if page is not None:
            results = _ask(page, f"http://127.0.0.1:{server.server_port}/", queries, limit)
        else:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
                try:
                    url = f"http://127.0.0.1:{server.server_port}/"
                    results = _ask(browser.new_page(), url, queries, limit)
                finally:
                    browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return [[page_of(url) for url in urls] for urls in results]


def _ask(page: Any, url: str, queries: list[str], limit: int) -> list[list[str]]:
    page.goto(url)
    return page.evaluate(_SEARCH_JS, [queries, limit])


def score(cases: list[dict], results: list[list[str]]) -> dict:
    """Return hit@1, hit@3, MRR and each query's rank (None: not in the results)."""
    rows, reciprocal, hit1, hit3 = [], 0.0, 0, 0
    for case, pages in zip(cases, results, strict=True):
        expect = page_of(case["expect"])
        rank = pages.index(expect) + 1 if expect in pages else None
        if rank is not None:
            reciprocal += 1 / rank
            hit1 += rank == 1
            hit3 += rank <= 3
        rows.append({**case, "rank": rank, "top": pages[:3]})
    n = len(cases) or 1
    return {"queries": len(cases), "hit@1": hit1 / n, "hit@3": hit3 / n, "mrr": reciprocal / n, "rows": rows}


def build_github(work: Path) -> Path:
    """Write and build the GitHub site cold (no page cache, no stored search bundle); return the output."""
    sys.path.insert(0, str(BENCH))
    sys.path.insert(0, str(REPO))
    import peers
    import sitegen

    docs = sitegen.write_openapi_site(work / "docs", peers.github_spec())
    out, cache = work / "out", work / "cache"
    for folder in (out, cache):
        shutil.rmtree(folder, ignore_errors=True)
    docsgen = Path(sys.executable).with_name("docsgen")
    env = {**os.environ, "CI": "1", "DOCSGEN_CACHE_DIR": str(cache)}
    subprocess.run([str(docsgen), "build", str(docs), "-o", str(out)], env=env, check=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="a GitHub site built already (default: build it)")
    parser.add_argument("--queries", type=Path, default=QUERIES)
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    args = parser.parse_args()
    cases = json.loads(args.queries.read_text(encoding="utf-8"))["queries"]
    out = args.out or build_github(WORK)
    result = score(cases, run_queries(out, [case["query"] for case in cases]))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for row in result["rows"]:
        rank = row["rank"] if row["rank"] is not None else "-"
        top = "" if row["rank"] == 1 else f"   top: {row['top'][0] if row['top'] else '(none)'}"
        print(f"{rank!s:>3}  {row['kind']:<11} {row['query']}{top}")
    print(
        f"hit@1 {result['hit@1']:.3f}  hit@3 {result['hit@3']:.3f}  MRR {result['mrr']:.3f}"
        f"  ({result['queries']} queries)"
    )


if __name__ == "__main__":
    main()
