"""The `corpus` case of bench/run.py: the real Mintlify sites of ../shared/corpus, measured as users meet them.

Per site (a copy in the work folder: the corpus itself is never written to): a cold `docsgen build` (output and
caches removed), a rebuild with nothing changed (page cache warm), and `docsgen dev` as its own process: the
first content page served after start (empty cache, then warm cache) and one content page edited on disk until
the server returns the new text (bench/dev_reload.py's method). Each figure comes with the page count, ms per
page and KB of peak memory per page. Peers: no tool but Mintlify's builds a Mintlify site (its CLI cannot build
a static site offline; MkDocs cannot read MDX), but the OpenAPI specs a site uses are one input a peer reads:
`redocly build-docs` on each spec against docsgen making one page per operation of the same spec.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import measure
import peers

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
BIG_SITE = 1000  # source pages from which a site gets a single run of each command
SPEC_SUFFIXES = (".json", ".yaml", ".yml")
EDIT_TIMEOUT = 30.0  # seconds to wait for an edited page to be served before calling the edit failed
START_TIMEOUT = 600.0

Env = Callable[..., dict[str, str]]


def corpus_sites(root: Path) -> list[Path]:
    """Return the corpus's docs folders: mintlify-docs, then every real-sites/* folder holding docs.json or mint.json."""
    found = [root / "mintlify-docs"] if (root / "mintlify-docs").is_dir() else []
    real = root / "real-sites"
    if real.is_dir():
        found += sorted(p for p in real.iterdir() if p.is_dir() and not p.name.startswith("."))
    return [p for p in found if (p / "docs.json").is_file() or (p / "mint.json").is_file()]


def source_pages(docs: Path) -> list[str]:
    """Return the docs-relative paths of the folder's .mdx and .md files (hidden folders and node_modules left out)."""
    out = []
    for path in docs.rglob("*"):
        rel = path.relative_to(docs).as_posix()
        hidden = any(p.startswith((".", "_")) or p == "node_modules" for p in rel.split("/")[:-1])
        if path.suffix in (".mdx", ".md") and path.is_file() and not hidden:
            out.append(rel)
    return sorted(out)


def built_summary(output: str) -> tuple[int, int] | None:
    """Return (pages, warnings) from `docsgen build`'s last line ("Built N pages (M files) with W warning(s)")."""
    m = re.search(r"Built (\d+) pages? \(\d+ files?\) with (\d+) warning", output)
    return (int(m.group(1)), int(m.group(2))) if m else None


def page_url(rel: str) -> str:
    """Return the URL path of a page source (`a/b.mdx` -> `/a/b/`, `a/index.mdx` -> `/a/`)."""
    stem = rel.rsplit(".", 1)[0]
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")].rstrip("/")
    return "/" + (stem + "/" if stem else "")


def pick_edit_page(docs: Path, out: Path) -> tuple[str, str] | None:
    """Return (source, URL path) of the content page to edit: of the pages the build wrote, the median by size."""
    built = []
    for rel in source_pages(docs):
        url = page_url(rel)
        if (out / url.strip("/") / "index.html").is_file():
            built.append(((docs / rel).stat().st_size, rel, url))
    if not built:
        return None
    _, rel, url = sorted(built)[len(built) // 2]
    return rel, url


def per_page(seconds: float, mb: float, pages: int) -> str:
    """Return 'ms per page, KB per page' of a build."""
    return f"{seconds * 1000 / pages:.1f} ms, {mb * 1024 / pages:.0f} KB" if pages else ""


def copy_site(source: Path, target: Path) -> Path:
    """Copy a docs folder (never built in place: `docsgen dev` keeps files beside the sources)."""
    if not target.exists():
        shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns("node_modules", "_site"))
    return target


# --- docsgen dev as its own process -------------------------------------------------------------------------


@dataclass
class DevRun:
    """One `docsgen dev` session: seconds to the first content page, edit -> served times, its process's use."""

    first_served: float | None = None
    cpu_at_first: float | None = None  # user + system seconds of the tree when the first page came
    edits: list[float] = field(default_factory=list)
    cpu: float = 0.0
    rss_mb: float = 0.0
    note: str = ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tree_cpu(pid: int) -> float | None:
    """User + system seconds of a process and its waited-for children, from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def dev_session(
    docs: Path, page: tuple[str, str], edits: int, run_env: dict[str, str], docsgen: Path
) -> DevRun:
    """Start `docsgen dev`, time the first GET of the page, edit its source `edits` times, stop; restore the file."""
    result = DevRun()
    port = free_port()
    source, url_path = docs / page[0], page[1]
    original = source.read_bytes()
    url = f"http://127.0.0.1:{port}{url_path}"
    log = docs.parent / "dev.log"
    with log.open("w+b") as out:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [str(docsgen), "dev", str(docs), "--port", str(port)],
            env=run_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            # a new connection per request: on a reused one docsgen dev answers ~40 ms late (see README)
            limits = httpx.Limits(max_keepalive_connections=0)
            with httpx.Client(timeout=httpx.Timeout(START_TIMEOUT, connect=1.0), limits=limits) as client:
                result.first_served = _first_page(client, url, proc, started)
                result.cpu_at_first = _tree_cpu(proc.pid)
                if result.first_served is None:
                    result.note = "the server ended before serving a page"
                else:
                    time.sleep(1.0)  # the watcher starts right after the server thread
                    result.edits, result.note = _edit(client, url, source, original, edits)
        finally:
            source.write_bytes(original)
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
            try:
                _, _, usage = os.wait4(proc.pid, 0)
                result.cpu, result.rss_mb = usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024
            except ChildProcessError:
                pass
            proc.wait()
    if result.first_served is None:
        tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:]
        result.note += f": {tail[0]}" if tail else ""
    return result


def _first_page(client: httpx.Client, url: str, proc: subprocess.Popen, started: float) -> float | None:
    """Poll the page until the server answers 200 (it listens from the start, answers after the first build)."""
    while time.perf_counter() - started < START_TIMEOUT:
        if proc.poll() is not None:
            return None
        try:
            if client.get(url).status_code == 200:
                return time.perf_counter() - started
        except httpx.TransportError:
            pass
        time.sleep(0.01)
    return None


def _edit(
    client: httpx.Client, url: str, source: Path, original: bytes, count: int
) -> tuple[list[float], str]:
    """Append a marker paragraph to the page's source; time save -> a GET returning it. Returns (times, note)."""
    times = []
    for n in range(count):
        marker = f"Edited text number {n} of the benchmark"
        saved = time.perf_counter()
        source.write_bytes(original + f"\n\n{marker}\n".encode())
        while marker not in client.get(url).text:
            if time.perf_counter() - saved > EDIT_TIMEOUT:
                return times, f"edit {n}: the new text was not served within {EDIT_TIMEOUT:.0f} s"
            time.sleep(0.002)
        times.append(time.perf_counter() - saved)
        time.sleep(0.2)
    return times, ""


# --- OpenAPI specs: redocly build-docs vs docsgen ---------------------------------------------------------------


def local_specs(docs: Path) -> tuple[list[str], str]:
    """Return the docs-relative OpenAPI files the site's build uses, and a note on specs it names by URL."""
    from docsgen.common.errors import DocsgenError
    from docsgen.site.read import read_site

    try:
        site = read_site(docs)
    except DocsgenError as exc:
        return [], f"the site could not be read ({exc})"
    used = [s for s in site.spec_hashes if (docs / s).is_file()]
    remote = {d.message.split(": ", 1)[0] for d in site.diagnostics if d.code == "openapi.network"}
    note = f"it names {len(remote)} spec(s) by URL, not fetched: this machine is offline" if remote else ""
    return sorted(used), note


def write_api_site(docs: Path, specs: list[str], root: Path) -> Path:
    """Write a docsgen site with one page per operation of the given specs of a site (one navigation group each),
    the site's other spec-like files copied beside them for relative `$ref`s."""
    if root.exists():
        return root
    for path in docs.rglob("*"):
        rel = path.relative_to(docs)
        if (
            path.suffix in SPEC_SUFFIXES
            and path.is_file()
            and rel.as_posix() not in ("docs.json", "mint.json")
        ):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, root / rel)
    config = {
        "theme": "mint",
        "name": "API",
        "colors": {"primary": "#0D9373"},
        "navigation": {"groups": [{"group": spec, "openapi": spec} for spec in specs]},
    }
    (root / "docs.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return root


def in_turn(commands: list[list[str]]) -> list[str]:
    """Return one shell command running the commands one after the other (stopping at the first failure)."""
    return ["sh", "-c", " && ".join(shlex.join(c) for c in commands)]


# --- the case ----------------------------------------------------------------------------------------------------


@dataclass
class SiteResult:
    """What was measured on one corpus site."""

    name: str
    source_pages: int
    runs: int
    cold: measure.Stats | None = None
    warm: measure.Stats | None = None
    pages: int = 0
    warnings: int = 0
    edited: str = ""
    dev: list[DevRun] = field(default_factory=list)
    dev_warm: DevRun | None = None
    api: list[measure.Stats] = field(default_factory=list)  # redocly, docsgen each spec, docsgen all specs
    specs: list[str] = field(default_factory=list)
    api_pages: int = 0
    api_note: str = ""  # why the site has no local spec to compare
    peer_note: str = ""  # specs left out of the comparison


def case_corpus(
    report,
    work: Path,
    runs: int,
    with_peers: bool,
    *,
    env: Env,
    docsgen: Path,
    docsgen_job: Callable[..., measure.Job],
    only: list[str] | None = None,
    root: Path = CORPUS,
) -> None:
    """Every corpus site (or those named in `only`): cold and warm build, `docsgen dev` start and edit, the
    specs against redocly."""
    found = corpus_sites(root)
    sites = [s for s in found if not only or s.name in only]
    if not sites:
        why = f"none of the sites {', '.join(only or [])} is in {root}" if found else f"no corpus at {root}"
        report.text(
            "Real sites (corpus)",
            f"Not run: {why} (the case reads `mintlify-docs` and `real-sites/*` of `shared/corpus` beside the "
            "repository, or of `--corpus DIR`).",
        )
        print(f"   corpus: not run: {why}", flush=True)
        return
    from corpus_report import write_tables

    load_start, results = _load(), []
    for src in sites:
        print(f"   corpus: {src.name}", flush=True)
        began = time.perf_counter()
        try:
            result = measure_site(
                src, work / "corpus" / src.name, runs, with_peers, env, docsgen, docsgen_job
            )
        except Exception as exc:  # noqa: BLE001 - one site's harness failure is reported, the others still run
            traceback.print_exc()
            note = f"harness error: {type(exc).__name__}: {exc}"
            result = SiteResult(src.name, 0, 0, cold=measure.Stats("docsgen build (cold)", note=note))
        results.append(result)
        print(f"   corpus: {src.name} done in {time.perf_counter() - began:.0f} s", flush=True)
    write_tables(report, results, with_peers, load_start, _load())
    built = [r for r in results if r.cold is not None and r.cold.ok]
    if built:  # where the seconds of the largest site's cold build go
        big = max(built, key=lambda r: r.pages)
        report.text(
            f"Real sites (corpus): stages of a cold build of {big.name}",
            stages(work / "corpus" / big.name, env, docsgen),
        )


def stages(base: Path, env: Env, docsgen: Path) -> str:
    """Return `docsgen build --timings` of one cold build of a site copied by measure_site, as Markdown."""
    table = measure.build_timings(docsgen, base / "docs", base / "out", base / "cache", env())
    return "`docsgen build --timings`, one run:\n\n```\n" + table + "\n```"


def _load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def measure_site(src: Path, base: Path, runs: int, with_peers: bool, env: Env, docsgen: Path, docsgen_job):
    """Measure one site (see the module's docstring); big sites get one run of each command."""
    count = len(source_pages(src))
    r = SiteResult(src.name, count, runs if count < BIG_SITE else 1)
    docs, out = copy_site(src, base / "docs"), base / "out"
    [r.cold] = measure.interleave([docsgen_job(docs, out, "docsgen build (cold)")], r.runs)
    r.pages, r.warnings = built_summary(r.cold.samples[-1].output) or (0, 0)
    page = pick_edit_page(docs, out) if r.cold.ok else None
    [r.warm] = measure.interleave([docsgen_job(docs, out, "docsgen build (warm)", warm=True)], r.runs)
    if page is not None:
        r.edited = page[0]
        dev_docs, dev_cache = copy_site(src, base / "dev" / "docs"), base / "dev-cache"
        run_env = env(DOCSGEN_CACHE_DIR=str(dev_cache))
        for _ in range(r.runs):
            measure.remove(dev_cache)
            r.dev.append(dev_session(dev_docs, page, 5, run_env, docsgen))
        r.dev_warm = dev_session(dev_docs, page, 0, run_env, docsgen)
    r.specs, r.api_note = local_specs(docs)
    if r.specs and with_peers:
        r.api, r.api_pages, r.peer_note = measure_specs(docs, base / "api", r.specs, r.runs, env, docsgen)
    return r


def measure_specs(docs: Path, base: Path, specs: list[str], runs: int, env: Env, docsgen: Path):
    """Time redocly build-docs on each spec, docsgen on each spec, docsgen on all of them.

    A spec Redocly cannot build (tried once, untimed) is left out of both sides. Returns (stats, pages, note).
    """
    redocly = peers.redocly()
    cache = base / "cache"
    refused: dict[str, str] = {}  # spec -> Redocly's last line
    base.mkdir(parents=True, exist_ok=True)
    for spec in specs:
        probe = measure.run(
            [str(redocly), "build-docs", str(docs / spec), "-o", str(base / "probe.html")], env=env()
        )
        if probe.returncode != 0:
            lines = [x.strip() for x in probe.output.splitlines() if x.strip() and x.strip()[0] not in "║╔╚"]
            refused[spec] = lines[-1].replace(f"{docs}/", "") if lines else f"exit {probe.returncode}"
    note = ", ".join(f"`{k}` ({v})" for k, v in refused.items())
    note = f"redocly build-docs fails on {note}: left out of both sides" if refused else ""
    specs = [s for s in specs if s not in refused]
    if not specs:
        return [], 0, note
    together = write_api_site(docs, specs, base / "all")
    alone = [write_api_site(docs, [spec], base / f"spec-{i}") for i, spec in enumerate(specs)]
    redoc, each, one = base / "out-redocly", base / "out-each", base / "out-all"

    def clean(out: Path) -> Callable[[], None]:
        def before() -> None:
            measure.remove(cache)
            measure.remove(out)
            out.mkdir(parents=True)

        return before

    def build(site: Path, out: Path) -> list[str]:
        return [str(docsgen), "build", str(site), "-o", str(out)]

    run_env = env(DOCSGEN_CACHE_DIR=str(cache))
    n = len(specs)
    pages = [
        [str(redocly), "build-docs", str(together / s), "-o", str(redoc / f"{i}.html")]
        for i, s in enumerate(specs)
    ]
    jobs = [
        measure.Job(
            f"redocly build-docs, each of the {n} spec(s) in turn",
            in_turn(pages),
            env=env(),
            before=clean(redoc),
            output=redoc,
        ),
        measure.Job(
            f"docsgen build, each spec in turn (cold, {n} site(s))",
            in_turn([build(site, each / site.name) for site in alone]),
            env=run_env,
            before=clean(each),
            output=each,
        ),
        measure.Job(
            "docsgen build, all specs in one site (cold)",
            build(together, one / "site"),
            env=run_env,
            before=clean(one),
            output=one,
        ),
    ]
    stats = measure.interleave(jobs, runs)
    summary = built_summary(stats[2].samples[-1].output) if stats[2].samples else None
    return stats, summary[0] if summary else 0, note
