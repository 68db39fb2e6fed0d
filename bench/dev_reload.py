"""Time `docsgen dev` from saving a page to the new page being served, on a generated 1,000-page site.

    .venv/bin/python bench/dev_reload.py [--pages 1000] [--runs 10] [--browser]

Per run it edits one page (body text), then measures:
  event   save -> the server's live-reload event for that page arrives (watcher + incremental rebuild)
  served  save -> an HTTP GET of the page returns the new text
  paint   save -> the reloaded page's first contentful paint in an open Chromium tab (with --browser)
  browser save -> that tab's DOM has the new text, deferred scripts done (Playwright polling; Debian's chromium)
  plain navigation   the same page opened with page.goto (with --browser): the browser's own share
It also times a title edit (neighbours and sidebar re-rendered) and reports rebuild times from the server.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from docsgen.dev.app import start

BODY = """
## Section {n}

Some text with **bold**, `code` and a [link](/p{prev}).

<Note>A callout on page {n}.</Note>

```python
def page_{n}():
    return {n}
```

| a | b |
| - | - |
| {n} | {prev} |
"""


def make_site(root: Path, count: int) -> Path:
    """Write a site of `count` pages in 10 groups."""
    root.mkdir(parents=True)
    groups = []
    per = max(1, count // 10)
    for g in range(0, count, per):
        groups.append(
            {"group": f"Group {g // per}", "pages": [f"p{n}" for n in range(g, min(count, g + per))]}
        )
    config = {
        "name": "Bench",
        "theme": "mint",
        "colors": {"primary": "#0D9373"},
        "navigation": {"groups": groups},
    }
    (root / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    for n in range(count):
        text = f"---\ntitle: Page {n}\n---\n" + BODY.format(n=n, prev=max(n - 1, 0))
        (root / f"p{n}.mdx").write_text(text, encoding="utf-8")
    return root


class Events:
    """An SSE client recording when each change event arrives."""

    def __init__(self, url: str) -> None:
        self.arrived: list[tuple[float, dict]] = []
        self.connected = threading.Event()
        threading.Thread(target=self._listen, args=(url,), daemon=True).start()
        self.connected.wait(10)

    def _listen(self, url: str) -> None:
        with httpx.stream("GET", url + "__docsgen/events", timeout=None) as r:
            for line in r.iter_lines():
                if line.startswith("event: hello"):
                    self.connected.set()
                if line.startswith("data: ") and self.connected.is_set():
                    data = json.loads(line[6:])
                    if "reload" in data:
                        self.arrived.append((time.perf_counter(), data))

    def wait_for(self, url_path: str, after: int, timeout: float = 10) -> float:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for at, data in self.arrived[after:]:
                if data["reload"] == "*" or url_path in data["reload"]:
                    return at
            time.sleep(0.001)
        raise TimeoutError(f"no reload event for {url_path}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--browser", action="store_true", help="also time a real Chromium tab")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="docsgen-dev-bench-"))
    try:
        site = make_site(work / "docs", args.pages)
        started = time.perf_counter()
        app = start(site)
        print(f"{args.pages} pages: first build {time.perf_counter() - started:.1f}s, serving {app.url}")
        updates = []
        original = app.report

        def report(update):
            updates.append(update)
            original(update)

        app.watcher.on_update = report
        time.sleep(0.5)
        events = Events(app.url)
        target = args.pages // 2
        path = site / f"p{target}.mdx"
        url_path = f"/p{target}/"
        tab = browser = pw = None
        if args.browser:
            from playwright.sync_api import sync_playwright

            pw = sync_playwright().start()
            chromium = os.environ.get("DOCSGEN_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
            browser = pw.chromium.launch(executable_path=chromium, args=["--disable-gpu", "--disable-quic"])
            tab = browser.new_page()
            tab.goto(app.url + url_path.lstrip("/"))
        client = httpx.Client(timeout=10)  # one client: creating one costs tens of milliseconds
        results: dict[str, list[float]] = {
            "event": [],
            "served": [],
            "paint": [],
            "browser": [],
            "rebuild": [],
        }
        original_text = path.read_text(encoding="utf-8")
        for run in range(args.runs):
            if tab is not None:
                tab.wait_for_function(
                    "window.__docsgenDev && window.__docsgenDev.ready === true", timeout=10000
                )
            marker = f"Edited text number {run}"
            seen = len(events.arrived)
            before = len(updates)
            saved = time.perf_counter()
            saved_epoch_ms = time.time() * 1000
            path.write_text(original_text + f"\n{marker}\n", encoding="utf-8")
            results["event"].append(events.wait_for(url_path, seen) - saved)
            while marker not in client.get(app.url + url_path.lstrip("/")).text:
                time.sleep(0.001)
            results["served"].append(time.perf_counter() - saved)
            if tab is not None:
                tab.wait_for_function(
                    f"document.body.innerText.includes({json.dumps(marker)})", timeout=10000
                )
                results["browser"].append(time.perf_counter() - saved)
                painted = tab.evaluate(
                    "new Promise(done => { const find = () => { const p = performance.getEntriesByName("
                    "'first-contentful-paint')[0]; if (p) done(performance.timeOrigin + p.startTime);"
                    " else setTimeout(find, 10); }; find(); })"
                )
                results["paint"].append((painted - saved_epoch_ms) / 1000)
            while len(updates) == before:
                time.sleep(0.001)
            results["rebuild"].append(updates[-1].seconds)
            assert updates[-1].rendered == [f"p{target}"], updates[-1].rendered
            time.sleep(0.1)
        if tab is not None:
            # baseline: the same page opened by a plain navigation, to separate browser time from ours
            for _ in range(args.runs):
                began = time.perf_counter()
                tab.goto(app.url + url_path.lstrip("/"), wait_until="commit")
                tab.wait_for_function("document.body && document.body.innerText.includes('Section')")
                results.setdefault("plain navigation", []).append(time.perf_counter() - began)
        for name, values in results.items():
            if values:
                ms = sorted(v * 1000 for v in values)
                print(
                    f"page edit, {name:8s}: median {statistics.median(ms):6.1f} ms  "
                    f"min {ms[0]:6.1f}  max {ms[-1]:6.1f}  ({len(ms)} runs)"
                )
        # a title edit: the page, its two neighbours and the sidebars
        before = len(updates)
        seen = len(events.arrived)
        saved = time.perf_counter()
        path.write_text(original_text.replace(f"title: Page {target}", "title: Renamed"), encoding="utf-8")
        events.wait_for(url_path, seen)
        arrived = time.perf_counter() - saved
        while len(updates) == before:
            time.sleep(0.001)
        update = updates[-1]
        print(
            f"title edit: event after {arrived * 1000:.1f} ms, rebuild {update.seconds * 1000:.1f} ms, "
            f"{len(update.rendered)} pages rendered ({', '.join(sorted(update.rendered))})"
        )
        if browser is not None:
            browser.close()
            pw.stop()
        app.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
