"""Reader side: first contentful paint of a guide page, docsgen vs Starlight, on the same content, in one run.

    .venv/bin/python bench/reader.py [--runs 15] [--pages 60] [--work DIR] [--no-starlight] [--baseline SRC]

Both sites are generated from the same Markdown (`sitegen.page_text`), built (docsgen, and Starlight with Astro,
installed from npm into bench/.work/starlight once), served from 127.0.0.1 by the same stdlib server, and loaded
in turns by Debian's chromium through Playwright: each load is a new browser context with the cache disabled
(CDP `Network.setCacheDisabled`), and reads `performance.getEntriesByName('first-contentful-paint')`, the
render-blocking requests (`renderBlockingStatus`) and the scripts loaded before interaction. Medians per tool.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import sitegen  # noqa: E402
from jobs import Report  # noqa: E402

STARLIGHT_DIR = BENCH / ".work" / "starlight"
STARLIGHT_PACKAGES = ("astro@5.18.2", "@astrojs/starlight@0.37.7")  # Astro 5: runs on Node 20
CHROMIUM = os.environ.get("DOCSGEN_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
GUIDE = 5  # the page measured: sitegen's page 5 (headings, prose, a code block, a table, links)

_ASTRO_CONFIG = """import { defineConfig } from "astro/config";
import starlight from "@astrojs/starlight";
export default defineConfig({ integrations: [starlight({ title: "Benchmark", sidebar: %s })] });
"""
_CONTENT_CONFIG = """import { defineCollection } from "astro:content";
import { docsLoader } from "@astrojs/starlight/loaders";
import { docsSchema } from "@astrojs/starlight/schema";
export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };
"""
# What a page loads before a reader does anything: scripts (by transfer: gzip is what a server sends), stylesheets
# that block rendering, and the first contentful paint.
_PROBE = """() => {
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const res = performance.getEntriesByType('resource');
  return {
    fcp: fcp ? fcp.startTime : null,
    blocking: res.filter((r) => r.renderBlockingStatus === 'blocking').map((r) => r.name),
    scripts: res.filter((r) => r.initiatorType === 'script').map((r) => r.name),
    stylesheets: res.filter((r) => r.initiatorType === 'link' && /\\.css(\\?|$)/.test(r.name)).map((r) => r.name),
  };
}"""


def starlight() -> Path:
    """Install Astro + Starlight (npm) into bench/.work/starlight once; return the folder."""
    if not (STARLIGHT_DIR / "node_modules" / "@astrojs" / "starlight").is_dir():
        STARLIGHT_DIR.mkdir(parents=True, exist_ok=True)
        package = {"name": "bench-starlight", "private": True, "type": "module"}
        (STARLIGHT_DIR / "package.json").write_text(json.dumps(package), encoding="utf-8")
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *STARLIGHT_PACKAGES],
            cwd=STARLIGHT_DIR,
            check=True,
        )
    return STARLIGHT_DIR


def starlight_version() -> str:
    """Return the installed Starlight's version ("" when not installed)."""
    meta = STARLIGHT_DIR / "node_modules" / "@astrojs" / "starlight" / "package.json"
    return json.loads(meta.read_text(encoding="utf-8"))["version"] if meta.is_file() else ""


def write_starlight_site(count: int) -> Path:
    """Write sitegen's pages into the Starlight project (src/content/docs) with the same groups; return it."""
    root = starlight()
    docs = root / "src" / "content" / "docs"
    shutil.rmtree(docs, ignore_errors=True)
    sidebar = []
    for start in range(0, count, sitegen.PER_GROUP):
        folder = sitegen.page_path(start).split("/")[0]
        sidebar.append(
            {"label": f"Section {start // sitegen.PER_GROUP}", "autogenerate": {"directory": folder}}
        )
    for n in range(count):
        path = docs / f"{sitegen.page_path(n)}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(sitegen.page_text(n, count, "mdx", False), encoding="utf-8")
    (docs / "index.md").write_text("---\ntitle: Benchmark\n---\n\nThe benchmark site.\n", encoding="utf-8")
    (root / "astro.config.mjs").write_text(_ASTRO_CONFIG % json.dumps(sidebar), encoding="utf-8")
    (root / "src" / "content.config.ts").write_text(_CONTENT_CONFIG, encoding="utf-8")
    return root


def build_starlight(count: int) -> Path:
    """Build the Starlight site; return its output folder."""
    root = write_starlight_site(count)
    astro = root / "node_modules" / ".bin" / "astro"
    env = {**os.environ, "ASTRO_TELEMETRY_DISABLED": "1"}
    _quiet([str(astro), "build"], cwd=root, env=env)
    return root / "dist"


def build_docsgen(work: Path, count: int, source: Path | None = None) -> Path:
    """Build the same pages with docsgen (this checkout's, or the one in `source`); return its output folder."""
    site = sitegen.write_docsgen_site(work / "docs", count)
    out = work / "out"
    args = ["build", str(site), "-o", str(out)]
    if source is None:
        _quiet([sys.executable, "-m", "docsgen", *args])
    else:
        _quiet([sys.executable, "-c", _FROM_SOURCE, str(source), *args])
    return out


# Run docsgen from another source tree: its folder first on sys.path, the editable install's finder dropped.
_FROM_SOURCE = (
    "import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); "
    "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
    "runpy.run_module('docsgen', run_name='__main__', alter_sys=True)"
)


def _quiet(command: list[str], **kwargs: object) -> None:
    """Run a build; show its output only when it fails."""
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a context closed while a file was sent (broken pipe): nothing to report


def serve(folder: Path) -> tuple[ThreadingHTTPServer, str]:
    """Serve a folder from 127.0.0.1 on a free port in a daemon thread; return the server and its URL."""
    server = _Server(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@dataclass
class Loads:
    """The loads of one page by one tool."""

    fcp: list[float] = field(default_factory=list)
    blocking: list[str] = field(default_factory=list)
    scripts: list[str] = field(default_factory=list)
    stylesheets: list[str] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # main-thread CPU before FCP, ms (traced loads)
    compositor: list[float] = field(default_factory=list)  # raster + frames drawn before FCP, ms

    @property
    def median(self) -> float:
        return statistics.median(self.fcp)


def cold_load(browser, url: str) -> dict:  # type: ignore[no-untyped-def]
    """Load a URL in a new context with the cache disabled; return the probe's figures."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.goto(url, wait_until="load")
        page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
        return page.evaluate(_PROBE)
    finally:
        context.close()


def traced_load(browser, url: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Load a URL cold with a trace; return the CPU time (ms) the renderer's main thread spent on the page before
    its first contentful paint (parsing, style, layout, paint, scripts: thread time, steadier than wall time on a
    busy machine), and the compositor's (rasterizing tiles and drawing frames: chromium runs with --disable-gpu,
    so both are software, on other threads, and also come before the first frame is presented)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        browser.start_tracing(page=page, categories=["devtools.timeline", "loading", *_COMPOSITOR_CATEGORIES])
        page.goto(url, wait_until="load")
        page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
        events = json.loads(browser.stop_tracing())["traceEvents"]
    finally:
        context.close()
    fcp = next(e for e in events if e.get("name") == "firstContentfulPaint")
    work = sorted(
        (e for e in events if e.get("ph") == "X" and e.get("name") in _WORK and e["ts"] < fcp["ts"]),
        key=lambda e: (e.get("tid"), e["ts"]),
    )
    total, ends = 0.0, {}  # outermost events only (a script's forced layout is inside its EvaluateScript)
    for e in work:
        if e["ts"] < ends.get(e.get("tid"), 0):
            continue
        ends[e.get("tid")] = e["ts"] + e.get("dur", 0)
        total += e.get("tdur", e.get("dur", 0)) / 1000
    compositor = sum(
        e.get("tdur", e.get("dur", 0)) / 1000
        for e in events
        if e.get("ph") == "X" and e.get("name") in _COMPOSITOR and e["ts"] < fcp["ts"]
    )
    return total, compositor


_COMPOSITOR = {"RasterTask", "DirectRenderer::DrawFrame"}  # tiles rasterized, frames drawn (software)
_COMPOSITOR_CATEGORIES = ["cc", "viz", "disabled-by-default-devtools.timeline"]
_WORK = {  # the renderer's work for a page (Blink and V8), as the DevTools timeline names it
    "ParseHTML",
    "ParseAuthorStyleSheet",
    "UpdateLayoutTree",
    "Layout",
    "PrePaint",
    "Paint",
    "Layerize",
    "EvaluateScript",
    "v8.compile",
    "FunctionCall",
    "EventDispatch",
    "RunMicrotasks",
}


def measure(urls: dict[str, str], runs: int, browser=None) -> dict[str, Loads]:  # type: ignore[no-untyped-def]
    """Load each URL `runs` times, in turns (after one warm-up load each); return the loads per name. `browser`: a
    chromium already launched (a test's, from pytest-playwright: one Playwright per process), else one of its own."""
    if browser is not None:
        return _measure_in(browser, urls, runs)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        own = p.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu", "--disable-quic"])
        try:
            return _measure_in(own, urls, runs)
        finally:
            own.close()


def _measure_in(browser, urls: dict[str, str], runs: int) -> dict[str, Loads]:  # type: ignore[no-untyped-def]
    loads = {name: Loads() for name in urls}
    for url in urls.values():
        cold_load(browser, url)
    for turn in range(runs):
        order = list(urls.items())
        for name, url in order if turn % 2 == 0 else reversed(order):
            probe = cold_load(browser, url)
            loads[name].fcp.append(float(probe["fcp"]))
            loads[name].blocking = probe["blocking"]
            loads[name].scripts = probe["scripts"]
            loads[name].stylesheets = probe["stylesheets"]
            cpu, compositor = traced_load(browser, url)
            loads[name].cpu.append(cpu)
            loads[name].compositor.append(compositor)
    return loads


def report_table(loads: dict[str, Loads]) -> str:
    """Return the Markdown table of the loads, with each tool's FCP as a ratio of Starlight's."""
    base = loads.get("Starlight")
    lines = [
        "| tool | FCP median (ms) | FCP range (ms) | vs Starlight | main-thread CPU before FCP (ms) "
        "| compositor CPU before FCP (ms) | render-blocking requests | stylesheets | scripts |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, got in loads.items():
        ratio = f"x{got.median / base.median:.2f}" if base and base.fcp else "-"
        cpu = f"{statistics.median(got.cpu):.1f}" if got.cpu else "-"
        compositor = f"{statistics.median(got.compositor):.1f}" if got.compositor else "-"
        lines.append(
            f"| {name} | {got.median:.0f} | {min(got.fcp):.0f}-{max(got.fcp):.0f} | {ratio} | {cpu} | {compositor} "
            f"| {len(got.blocking)} | {len(got.stylesheets)} | {len(got.scripts)} |"
        )
    for name, got in loads.items():
        short = [u.split("/", 3)[-1] for u in got.blocking]
        lines.append(f"\n{name}: render-blocking {', '.join(short) or 'none'}")
    return "\n".join(lines)


def run(
    work: Path, pages: int, runs: int, with_starlight: bool = True, baseline: Path | None = None
) -> dict[str, Loads]:
    """Build the sites, serve them, measure a guide page of each; return the loads per tool. `baseline`: another
    docsgen source tree (a checkout of an earlier commit) measured in the same run as "docsgen (baseline)"."""
    outputs = {"docsgen": build_docsgen(work / "docsgen", pages)}
    if baseline is not None:
        outputs["docsgen (baseline)"] = build_docsgen(work / "baseline", pages, baseline)
    if with_starlight:
        outputs["Starlight"] = build_starlight(pages)
    servers = {name: serve(folder) for name, folder in outputs.items()}
    try:
        urls = {name: url + sitegen.page_path(GUIDE) + "/" for name, (_, url) in servers.items()}
        return measure(urls, runs)
    finally:
        for server, _ in servers.values():
            server.shutdown()


def case_reader(report: Report, work: Path, runs: int, with_peers: bool) -> None:
    """bench/run.py's `reader` case: a guide page's first contentful paint, docsgen vs Starlight."""
    loads = run(work / "reader", 60, runs, with_peers)
    version = f"Starlight {starlight_version()}, " if with_peers else ""
    report.text(
        "Reader side: first contentful paint of a guide page",
        report_table(loads) + f"\n\n{version}{runs} cold loads each, in turns",
    )
    if "Starlight" in loads:
        ours, theirs = loads["docsgen"].median, loads["Starlight"].median
        report.target(
            "guide page FCP vs Starlight",
            f"{ours:.0f} ms vs {theirs:.0f} ms (x{ours / theirs:.2f})",
            "<= 1.0x",
            ours <= theirs,
        )
    blocking = len(loads["docsgen"].blocking)
    report.target("render-blocking requests of a guide page", str(blocking), "1", blocking <= 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="cold loads per tool (median reported)")
    parser.add_argument("--pages", type=int, default=60, help="pages of the generated site")
    parser.add_argument("--work", type=Path, default=BENCH / ".work" / "reader")
    parser.add_argument(
        "--baseline", type=Path, default=None, help="also a docsgen source tree (git archive)"
    )
    parser.add_argument("--no-starlight", action="store_true", help="docsgen only")
    args = parser.parse_args(argv)
    loads = run(args.work, args.pages, args.runs, not args.no_starlight, args.baseline)
    print(report_table(loads))
    if not args.no_starlight:
        print(f"\nStarlight {starlight_version()}, {args.runs} cold loads each, in turns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
