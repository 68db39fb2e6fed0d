"""Compatibility at scale: build every real Mintlify site of the corpus and measure what reaches the reader.

    .venv/bin/python bench/compat.py                  # every site under ../shared/corpus, writes bench/COMPAT.md
    .venv/bin/python bench/compat.py --sites ollama   # only the sites whose folder name contains a word

    .venv/bin/python bench/compat.py --measure-only   # measure the builds already in --work again

Each site's warning count by code is compared with the previous run (bench/COMPAT.json): a code a site did not
have before is printed as NEW WARNING KIND, listed in COMPAT.md, and the exit code is 2.

Per site: exit code, pages, seconds, traceback or not, warnings by code, and content fidelity: for each page, the
share of its source text units found in the built page's text, with the worst pages and what they lack. Units are
read from the source as a reader sees it (bench/compat_units.py: markdown-it tokens, snippets inlined, link text
without URLs, code by content, visible props); a unit written n times must be found n times. Also raw MDX/JSX
left in a page's visible text (outside code), which no page should show.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compat_units import PAGE_SUFFIXES, source_units

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
HOUSEKEEPING = {"readme", "contributing", "code_of_conduct", "license", "security", "agents", "claude"}
SKIP_DIRS = {"node_modules", ".git", ".github", "_site", "snippets", "_snippets"}

RAW_MDX = re.compile(  # a component tag with props, closing or self-closing (not `<H1>` named in prose, not a
    # generic type such as Array<Item>), an MDX comment, or ESM
    r"(?<![\w.])(?:<[A-Z][A-Za-z0-9]*(?:\.[A-Z]\w*)?(?:\s+\w+=|\s*/>)|</[A-Z][A-Za-z0-9]*>)|\{/\*|\*/\}"
    r"|^\s*(?:import|export)\s+\S+.*\bfrom\b|export const ",
    re.M,
)
SPACE = re.compile(r"\s+")


@dataclass
class PageReport:
    source: str
    units: int
    found: int
    missing: list[str] = field(default_factory=list)

    @property
    def fidelity(self) -> float:
        return self.found / self.units if self.units else 1.0


@dataclass
class SiteReport:
    site: str
    exit_code: int
    seconds: float
    traceback: bool
    pages: int = 0
    warnings: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    fidelity: float | None = None  # all units found / all units (None: nothing was built)
    below_99: int = 0  # pages under 99 %
    worst: list[dict] = field(default_factory=list)
    not_built: list[str] = field(default_factory=list)  # page sources with no HTML at all
    raw_mdx: list[dict] = field(default_factory=list)  # pages whose visible text shows MDX/JSX source
    pages_with_react: int = 0  # pages defining React components (their props are not counted as source text)


class _Region:
    """An element the parser is inside of, counted by its tag (nested elements of the same tag included)."""

    def __init__(self) -> None:
        self.tag = ""
        self.depth = 0

    def enter(self, tag: str) -> None:
        self.tag, self.depth = tag, 1

    def start(self, tag: str) -> None:
        if self.depth and tag == self.tag:
            self.depth += 1

    def end(self, tag: str) -> None:
        if self.depth and tag == self.tag:
            self.depth -= 1


class _Text(HTMLParser):
    """Collect a page's text: its content (the main column and a <Panel>, less navigation, breadcrumbs, the table
    of contents and page actions), all of it (for pages without a main column) and its visible prose (outside code,
    scripts and styles, for the raw MDX check)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.all: list[str] = []
        self.content: list[str] = []
        self.prose: list[str] = []
        self.attributes: list[str] = []
        self.content_attributes: list[str] = []
        self.has_main = False
        self._skip = 0
        self._code = 0
        self._inside = _Region()  # <main>, <aside class="dg-panel">
        self._outside = _Region()  # <nav>, <footer>, the TOC, page actions: not the page's own text

    def handle_starttag(self, tag: str, attrs) -> None:
        classes = (dict(attrs).get("class") or "").split()
        self._inside.start(tag)
        self._outside.start(tag)
        if not self._inside.depth and (tag == "main" or tag == "aside" and "dg-panel" in classes):
            self._inside.enter(tag)
            self.has_main = True
        elif (self._inside.depth and not self._outside.depth) and (
            tag in ("nav", "footer") or "dg-contextual" in classes or "dg-toc" in classes
        ):
            self._outside.enter(tag)
        if tag in ("script", "style", "template"):
            self._skip += 1
        elif tag in ("pre", "code"):
            self._code += 1
        for name, value in attrs:  # text readers meet as attributes: image alt, titles of frames and tooltips
            if name in ("alt", "title", "aria-label", "data-title", "data-tip") and value:
                self.attributes.append(value)  # kept apart: a link's title must not split its text
                if self._in_content():
                    self.content_attributes.append(value)

    def handle_startendtag(self, tag: str, attrs) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        self._inside.end(tag)
        self._outside.end(tag)
        if tag in ("script", "style", "template"):
            self._skip = max(0, self._skip - 1)
        elif tag in ("pre", "code"):
            self._code = max(0, self._code - 1)

    def _in_content(self) -> bool:
        return bool(self._inside.depth and not self._outside.depth)

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self.all.append(data)
        if self._in_content():
            self.content.append(data)
        if not self._code:
            self.prose.append(data)


def normalise(text: str) -> str:
    text = html.unescape(text).replace("\u00a0", " ").replace("\u200b", "")
    for a, b in (
        ("“", '"'),
        ("”", '"'),
        ("‘", "'"),
        ("’", "'"),
        ("–", "-"),
        ("—", "-"),
        ("\u2011", "-"),
        ("…", "..."),
    ):
        text = text.replace(a, b)
    return " ".join(text.split())


def page_text(path: Path) -> tuple[str, str]:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    text, attributes = (
        (parser.content, parser.content_attributes) if parser.has_main else (parser.all, parser.attributes)
    )
    return normalise(" ".join(text) + "".join(f" \x01 {a}" for a in attributes)), " ".join(parser.prose)


def page_sources(docs_dir: Path) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(docs_dir):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            stem, suffix = os.path.splitext(name)
            if suffix in PAGE_SUFFIXES and stem.lower() not in HOUSEKEEPING and not name.startswith("."):
                out.append(Path(dirpath) / name)
    return out


def output_of(docs_dir: Path, source: Path, out_dir: Path) -> Path:
    key = source.relative_to(docs_dir).with_suffix("").as_posix()
    if key == "index":
        return out_dir / "index.html"
    if key.endswith("/index"):
        return out_dir / key[: -len("index")] / "index.html"
    return out_dir / key / "index.html"


def missing_units(units: list[str], squashed: str) -> list[str]:
    """The units not found in a page's text (whitespace removed): a line written n times must appear n times."""
    needed: dict[str, int] = {}
    missing = []
    for unit in units:
        key = SPACE.sub("", unit)
        needed[key] = needed.get(key, 0) + 1
        forms = key.split("\x02")  # a prop's text as written or read as Markdown: either form counts
        if needed[key] == 1 and any(form in squashed for form in forms):
            continue
        if needed[key] > 1 and max(squashed.count(form) for form in forms) >= needed[key]:
            continue
        missing.append(unit.split("\x02")[-1])
    return missing


def measure_pages(docs_dir: Path, out_dir: Path, report: SiteReport, *, worst: int = 8) -> list[PageReport]:
    pages: list[PageReport] = []
    for source in page_sources(docs_dir):
        rel = source.relative_to(docs_dir).as_posix()
        built = output_of(docs_dir, source, out_dir)
        text = source.read_text(encoding="utf-8", errors="replace")
        if "export const" in text or "export function" in text:
            report.pages_with_react += 1
        if not built.is_file():
            report.not_built.append(rel)
            continue
        units = [normalise(u) for u in source_units(text, docs_dir=docs_dir, source=source)]
        full, prose = page_text(built)
        squashed = SPACE.sub("", full)  # element boundaries add or drop spaces: compare without any
        missing = missing_units(units, squashed)
        pages.append(PageReport(rel, len(units), len(units) - len(missing), missing))
        leak = RAW_MDX.search(prose)
        if leak:
            start = max(0, leak.start() - 40)
            report.raw_mdx.append({"page": rel, "text": normalise(prose[start : leak.end() + 60])})
    total = sum(p.units for p in pages)
    report.fidelity = sum(p.found for p in pages) / total if total else 1.0
    below = sorted((p for p in pages if p.fidelity < 0.99), key=lambda p: (p.fidelity, p.source))
    report.below_99 = len(below)
    report.worst = [
        {"page": p.source, "fidelity": round(p.fidelity, 3), "units": p.units, "missing": p.missing[:5]}
        for p in below[:worst]
    ]
    return pages


def build_site(docs_dir: Path, out_dir: Path, name: str, *, timeout: float = 900) -> SiteReport:
    started = time.perf_counter()
    env = {**os.environ, "DOCSGEN_CACHE": "0"}
    command = [sys.executable, "-m", "docsgen", "build", str(docs_dir), "-o", str(out_dir)]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO)
        code, stderr = run.returncode, run.stdout + run.stderr
    except subprocess.TimeoutExpired:
        code, stderr = -1, "timed out"
    report = SiteReport(name, code, round(time.perf_counter() - started, 2), "Traceback" in stderr)
    for line in stderr.splitlines():
        m = re.search(r": (warning|error): .*\[([\w.-]+)\]$", line)
        if m:
            bucket = report.warnings if m.group(1) == "warning" else report.errors
            bucket[m.group(2)] = bucket.get(m.group(2), 0) + 1
        m = re.match(r"Built (\d+) pages", line)
        if m:
            report.pages = int(m.group(1))
    report.warnings = dict(sorted(report.warnings.items(), key=lambda kv: (-kv[1], kv[0])))
    return report


def corpus_sites(corpus: Path, words: list[str]) -> list[Path]:
    sites = [corpus / "mintlify-docs", *sorted(p for p in (corpus / "real-sites").iterdir() if p.is_dir())]
    return [s for s in sites if s.is_dir() and (not words or any(w in s.name for w in words))]


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.2f} %"


def markdown(reports: list[SiteReport]) -> str:
    lines = [
        "# Compatibility on real Mintlify sites",
        "",
        "`bench/compat.py` builds every site of `../shared/corpus` with `docsgen build` (cold, no cache) and compares",
        "each source page with its built page. *Fidelity*: the share of a page's source text units found in the built",
        "page's text. Units are read from the source as a reader sees it (`bench/compat_units.py`: the markdown-it",
        "tokens docsgen parses, snippets inlined; one unit per source line of prose, table cell, code line and visible",
        "prop; link text without its URL, code spans by content, no emphasis markers, MDX comments, imports or",
        "exports); a unit written n times must be found n times. *Raw MDX*: pages whose visible text (outside code)",
        "shows component tags, `{/* */}` or import/export lines.",
        "",
        "| site | exit | pages | seconds | fidelity | pages < 99 % | raw MDX pages | not built | warnings |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in reports:
        warns = ", ".join(f"{c} {n}" for c, n in r.warnings.items()) or "-"
        errors = "; errors: " + ", ".join(f"{c} {n}" for c, n in r.errors.items()) if r.errors else ""
        exit_text = f"{r.exit_code}{' (traceback)' if r.traceback else ''}"
        lines.append(
            f"| {r.site} | {exit_text} | {r.pages} | {r.seconds:.1f} | {_percent(r.fidelity)} | {r.below_99} "
            f"| {len(r.raw_mdx)} | {len(r.not_built)} | {warns}{errors} |"
        )
    lines.append("")
    for r in reports:
        if not (r.worst or r.raw_mdx or r.not_built):
            continue
        lines += [f"## {r.site}", ""]
        if r.pages_with_react:
            lines += [
                f"{r.pages_with_react} page(s) define React components (run at build time; props given to them are not counted).",
                "",
            ]
        for w in r.worst:
            missing = "; ".join(f"`{m[:80]}`" for m in w["missing"]) or "-"
            lines.append(
                f"- {w['page']}: {100 * w['fidelity']:.1f} % of {w['units']} units; missing: {missing}"
            )
        for leak in r.raw_mdx[:5]:
            lines.append(f"- raw MDX in {leak['page']}: `{leak['text'][:120]}`")
        if r.not_built:
            lines.append(
                f"- not built: {', '.join(r.not_built[:10])}{' ...' if len(r.not_built) > 10 else ''}"
            )
        lines.append("")
    return "\n".join(lines)


def warning_changes(previous: list[dict], reports: list[SiteReport]) -> tuple[list[str], list[str]]:
    """Compare each site's warning (and error) count by code with the previous run's COMPAT.json.

    Returns (new kinds: a code a site did not have before, changed counts). A new kind of warning on a corpus
    site is what a change to docsgen should be noticed for (a new rule, or a regression that now warns).
    """
    before = {r.get("site"): {**r.get("warnings", {}), **r.get("errors", {})} for r in previous}
    new, changed = [], []
    for report in reports:
        if report.site not in before:
            continue
        old = before[report.site]
        now = {**report.warnings, **report.errors}
        for code in sorted(now.keys() - old.keys()):
            new.append(f"{report.site}: new {code} ({now[code]})")
        for code in sorted(old.keys() | now.keys()):
            if code in old and old[code] != now.get(code, 0):
                changed.append(f"{report.site}: {code} {old[code]} -> {now.get(code, 0)}")
    return new, changed


def _previous_run(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [r for r in data if isinstance(r, dict)] if isinstance(data, list) else []


def comparison_markdown(new: list[str], changed: list[str]) -> str:
    """The section of COMPAT.md listing how warnings changed since the previous run."""
    lines = ["## Warnings compared with the previous run", ""]
    lines += [f"- **{line}**" for line in new] or ["- no new kind of warning on any site"]
    lines += [f"- {line}" for line in changed]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--sites", nargs="*", default=[], help="only sites whose folder name contains one of these"
    )
    parser.add_argument("--work", type=Path, default=REPO / "bench" / ".work" / "compat")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "COMPAT.md")
    parser.add_argument(
        "--measure-only",
        action="store_true",
        help="measure the builds already in --work (no build, no timings)",
    )
    args = parser.parse_args()
    reports = []
    for site in corpus_sites(args.corpus, args.sites):
        out_dir = args.work / site.name
        if args.measure_only:
            report = SiteReport(site.name, 0, 0.0, False)
        else:
            report = build_site(site, out_dir, site.name)
        if out_dir.is_dir():
            measure_pages(site, out_dir, report)
        reports.append(report)
        print(
            f"{site.name}: exit {report.exit_code}, {report.pages} pages, {report.seconds:.1f} s, "
            f"fidelity {_percent(report.fidelity)}, {report.below_99} page(s) < 99 %, "
            f"{len(report.raw_mdx)} with raw MDX",
            flush=True,
        )
    previous = _previous_run(args.out.with_suffix(".json"))
    new, changed = warning_changes(previous, reports) if not args.measure_only else ([], [])
    for line in new:
        print(f"NEW WARNING KIND: {line}", flush=True)
    for line in changed:
        print(f"warning count changed: {line}", flush=True)
    args.out.write_text(markdown(reports) + "\n" + comparison_markdown(new, changed), encoding="utf-8")
    args.out.with_suffix(".json").write_text(
        json.dumps([asdict(r) for r in reports], indent=1) + "\n", encoding="utf-8"
    )
    return 2 if new else 0  # 2: built and measured, but a site has a kind of warning it did not have


if __name__ == "__main__":
    sys.exit(main())
