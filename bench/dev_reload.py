"""Time `docsgen dev` on a generated site: start to first served page, save to served page, and its memory.

    .venv/bin/python bench/dev_reload.py [--pages 1000] [--site plain|versioned] [--runs 10] [--browser]
                                         [--docs DIR]

`docsgen dev` runs as its own process (`python -m docsgen dev`), as a user starts it. Measured:
  first page  start of the process -> the first HTTP GET of a page in the middle of the site returns it
  next page   another page not asked for yet, right after (rendered on demand or already in the background)
  whole site  start -> every page rendered (the status endpoint's `rendered` reaches `pages`), then the
              search index ready (its `search`); --no-wait edits at once, while the background pass runs
Per run it edits one page (body text), then measures:
  event   save -> the server's live-reload event for that page arrives (watcher + incremental rebuild)
  served  save -> an HTTP GET of the page returns the new text
  paint   save -> the reloaded page's first contentful paint in an open Chromium tab (with --browser)
  browser save -> that tab's DOM has the new text, deferred scripts done (Playwright polling; Debian's chromium)
  plain navigation   the same page opened with page.goto (with --browser): the browser's own share
It also times a title edit (neighbours and sidebar re-rendered), reports rebuild times the server printed, and
the resident memory (RSS) of the dev process, and of it with its child processes (Pagefind), every 100 ms.

--site versioned writes bench/sitegen.py's versioned site (versions x 4 languages x 180 pages, about --pages
pages); --docs reuses a site folder already written (its edited page is put back at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import sitegen  # noqa: E402

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

REBUILD = re.compile(r"^(\w+): rendered (\d+) page\(s\) in (\d+) ms")


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


def pick_pages(site: Path, kind: str, count: int) -> tuple[str, str, str]:
    """Return (edited page source, its URL path, another page's URL path) in the middle of the site."""
    if kind == "plain":
        return f"p{count // 2}.mdx", f"/p{count // 2}/", f"/p{count // 3}/"
    versions, per = sitegen.versioned_shape(count)
    middle = f"v{(versions + 1) // 2}/fr/{sitegen.page_path(per // 2)}"
    other = f"v{max(1, versions // 3)}/de/{sitegen.page_path(per // 3)}"
    assert (site / f"{middle}.mdx").is_file(), middle
    return f"{middle}.mdx", f"/{middle}/", f"/{other}/"


def title_of(text: str) -> str:
    return re.search(r"^title: (.*)$", text, re.M).group(1)  # type: ignore[union-attr]


class Memory:
    """Sample the resident memory of a process and of its children every 100 ms."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.samples: list[tuple[float, float, float]] = []  # (time, own MB, with children MB)
        self.stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    @staticmethod
    def _rss(pid: int) -> float:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    def _children(self) -> list[int]:
        found = []
        try:
            for task in Path(f"/proc/{self.pid}/task").iterdir():
                found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            pass
        return found

    def _run(self) -> None:
        while not self.stop.is_set():
            own = self._rss(self.pid)
            total = own + sum(self._rss(child) for child in self._children())
            self.samples.append((time.perf_counter(), own, total))
            time.sleep(0.1)

    def now(self) -> tuple[float, float]:
        return self.samples[-1][1:] if self.samples else (0.0, 0.0)

    def peak(self) -> tuple[float, float]:
        return max((s[1] for s in self.samples), default=0), max((s[2] for s in self.samples), default=0)


class Server:
    """`python -m docsgen dev` in its own process; its terminal lines are kept with the time they came."""

    def __init__(self, site: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.lines: list[tuple[float, str]] = []
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "docsgen", "dev", str(site), "--port", str(self.port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.memory = Memory(self.proc.pid)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append((time.perf_counter(), line.rstrip("\n")))

    def wait_page(self, client: httpx.Client, url_path: str, timeout: float = 600) -> float:
        """Poll a page until it is served (200); return the seconds since the process started."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("docsgen dev ended:\n" + "\n".join(line for _, line in self.lines[-20:]))
            try:
                if client.get(self.url + url_path.lstrip("/")).status_code == 200:
                    return time.perf_counter() - self.started
            except httpx.TransportError:
                pass
            time.sleep(0.02)
        raise TimeoutError(f"{url_path} was never served")

    def status(self, client: httpx.Client) -> dict:
        return client.get(self.url + "__docsgen/status").json()

    def rebuilds(self, after: int) -> list[tuple[str, int, float]]:
        """Return the (kind, pages rendered, ms) rebuild lines printed after line number `after`."""
        found = []
        for _, line in self.lines[after:]:
            m = REBUILD.match(line)
            if m:
                found.append((m.group(1), int(m.group(2)), float(m.group(3))))
        return found

    def stop(self) -> None:
        self.memory.stop.set()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Events:
    """An SSE client recording when each change event arrives."""

    def __init__(self, url: str) -> None:
        self.arrived: list[tuple[float, dict]] = []
        self.connected = threading.Event()
        threading.Thread(target=self._listen, args=(url,), daemon=True).start()
        self.connected.wait(10)

    def _listen(self, url: str) -> None:
        try:
            with httpx.stream("GET", url + "__docsgen/events", timeout=None) as r:
                for line in r.iter_lines():
                    if line.startswith("event: hello"):
                        self.connected.set()
                    if line.startswith("data: ") and self.connected.is_set():
                        data = json.loads(line[6:])
                        if "reload" in data:
                            self.arrived.append((time.perf_counter(), data))
        except httpx.HTTPError:
            pass  # the server stopped

    def wait_for(self, url_path: str, after: int, timeout: float = 30) -> float:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for at, data in self.arrived[after:]:
                if data["reload"] == "*" or url_path in data["reload"]:
                    return at
            time.sleep(0.001)
        raise TimeoutError(f"no reload event for {url_path}")


def summary(name: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    return (
        f"page edit, {name:8s}: median {statistics.median(ms):6.1f} ms  "
        f"min {ms[0]:6.1f}  max {ms[-1]:6.1f}  ({len(ms)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--site", choices=("plain", "versioned"), default="plain")
    parser.add_argument("--docs", type=Path, help="a site folder already written (by this script's --site)")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--browser", action="store_true", help="also time a real Chromium tab")
    parser.add_argument(
        "--no-wait", action="store_true", help="do not wait for the whole site to be rendered"
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="docsgen-dev-bench-"))
    server: Server | None = None
    path: Path | None = None
    original_text = ""
    try:
        if args.docs:
            site = args.docs.resolve()
        elif args.site == "versioned":
            site = sitegen.write_versioned_site(work / "docs", args.pages)
        else:
            site = make_site(work / "docs", args.pages)
        pages = sum(1 for p in site.rglob("*.mdx") if "snippets" not in p.parts)
        source, url_path, other_path = pick_pages(site, args.site, args.pages)
        path = site / source
        original_text = path.read_text(encoding="utf-8")
        client = httpx.Client(timeout=60)  # one client: creating one costs tens of milliseconds
        server = Server(site)
        first = server.wait_page(client, url_path)
        first_mb = server.memory.now()
        began = time.perf_counter()
        server.wait_page(client, other_path)
        other = time.perf_counter() - began
        print(
            f"{pages} pages ({args.site}): first page served {first:.2f}s after start, RSS {first_mb[0]:.0f} MB"
        )
        print(f"next page (not asked for before): {other * 1000:.0f} ms")
        if not args.no_wait:
            rendered_at = None
            while True:
                progress = server.status(client).get("progress") or {}
                if rendered_at is None and progress.get("rendered", 0) >= progress.get("pages", 0):
                    rendered_at = time.perf_counter() - server.started
                    mb = server.memory.now()
                    print(
                        f"whole site rendered {rendered_at:.1f}s after start, RSS {mb[0]:.0f} MB "
                        f"({mb[1]:.0f} MB with child processes)"
                    )
                if progress.get("search", "ready") not in ("waiting", "indexing"):
                    break
                time.sleep(0.2)
            mb = server.memory.now()
            print(
                f"search index {progress.get('search', 'ready')} {time.perf_counter() - server.started:.1f}s "
                f"after start, RSS {mb[0]:.0f} MB ({mb[1]:.0f} MB with child processes)"
            )
        events = Events(server.url)
        tab = browser = pw = None
        if args.browser:
            from playwright.sync_api import sync_playwright

            pw = sync_playwright().start()
            chromium = os.environ.get("DOCSGEN_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
            browser = pw.chromium.launch(executable_path=chromium, args=["--disable-gpu", "--disable-quic"])
            tab = browser.new_page()
            tab.goto(server.url + url_path.lstrip("/"))
        results: dict[str, list[float]] = {
            "event": [],
            "served": [],
            "paint": [],
            "browser": [],
            "rebuild": [],
        }
        for run in range(args.runs):
            if tab is not None:
                tab.wait_for_function(
                    "window.__docsgenDev && window.__docsgenDev.ready === true", timeout=10000
                )
            marker = f"Edited text number {run}"
            seen = len(events.arrived)
            lines = len(server.lines)
            saved = time.perf_counter()
            saved_epoch_ms = time.time() * 1000
            path.write_text(original_text + f"\n{marker}\n", encoding="utf-8")
            results["event"].append(events.wait_for(url_path, seen) - saved)
            while marker not in client.get(server.url + url_path.lstrip("/")).text:
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
            deadline = time.perf_counter() + 30
            while not server.rebuilds(lines) and time.perf_counter() < deadline:
                time.sleep(0.001)
            rebuilds = server.rebuilds(lines)
            if rebuilds:
                kind, count, ms = rebuilds[-1]
                assert (kind, count) == ("page", 1), rebuilds
                results["rebuild"].append(ms / 1000)
            time.sleep(0.1)
        if tab is not None:
            # baseline: the same page opened by a plain navigation, to separate browser time from ours
            for _ in range(args.runs):
                began = time.perf_counter()
                tab.goto(server.url + url_path.lstrip("/"), wait_until="commit")
                tab.wait_for_function("document.body && document.body.innerText.includes('Section')")
                results.setdefault("plain navigation", []).append(time.perf_counter() - began)
        for name, values in results.items():
            if values:
                print(summary(name, values))
        # a title edit: the page, its two neighbours and the sidebars
        seen = len(events.arrived)
        lines = len(server.lines)
        saved = time.perf_counter()
        title = title_of(original_text)
        path.write_text(original_text.replace(f"title: {title}", "title: Renamed"), encoding="utf-8")
        events.wait_for(url_path, seen)
        arrived = time.perf_counter() - saved
        while not server.rebuilds(lines):
            time.sleep(0.001)
        kind, count, ms = server.rebuilds(lines)[-1]
        print(
            f"title edit: event after {arrived * 1000:.1f} ms, {kind} rebuild {ms:.0f} ms, {count} pages rendered"
        )
        own, total = server.memory.now()
        peak_own, peak_total = server.memory.peak()
        print(
            f"memory: RSS {own:.0f} MB at the end ({total:.0f} MB with child processes: Pagefind, render "
            f"workers); peak {peak_own:.0f} MB ({peak_total:.0f} MB with them); "
            f"{own * 1024 / max(pages, 1):.1f} KB per page at the end"
        )
        if browser is not None:
            browser.close()
            pw.stop()
    finally:
        if server is not None:
            server.stop()
        if path is not None and original_text:
            path.write_text(original_text, encoding="utf-8")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
