"""Compatibility at scale: build every real Mintlify site of the corpus and measure what reaches the reader.

    .venv/bin/python bench/compat.py                  # every site under ../shared/corpus, writes bench/COMPAT.md
    .venv/bin/python bench/compat.py --sites ollama   # only the sites whose folder name contains a word

Per site: exit code, pages, seconds, traceback or not, warnings by code, and content fidelity: for each page, the
share of its source text units (prose lines, table cells, visible props such as titles, code lines; snippets it
uses inlined) that appear in the built page's text, with the worst pages and what they lack. Also raw MDX/JSX
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

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
PAGE_SUFFIXES = (".mdx", ".md")
HOUSEKEEPING = {"readme", "contributing", "code_of_conduct", "license", "security", "agents", "claude"}
SKIP_DIRS = {"node_modules", ".git", ".github", "_site", "snippets", "_snippets"}

FRONTMATTER = re.compile(r"\A---\s*\n.*?\n---\s*(?:\n|\Z)", re.S)
COMMENT = re.compile(r"\{/\*.*?\*/\}|<!--.*?-->", re.S)
IMPORT = re.compile(r"""^import\s+(?:(\w+)|\{([^}]*)\})\s+from\s+['"]([^'"]+)['"];?\s*$""", re.M)
FENCE = re.compile(r"^\s*(```+|~~~+)(?!.*`)")  # CommonMark: a backtick fence's info holds no backtick
EMPHASIS = re.compile(r"(?<![\w/\\])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w])")
OPEN_TAG = re.compile(r"^<[A-Za-z][\w.]*(\s[^<>]*)?$")  # a tag whose attributes go on over the next lines
TAG_LINE = re.compile(r"^\s*</?[A-Za-z][\w.]*(\s[^<>]*)?/?>\s*$")
TAG = re.compile(r"</?[A-Za-z][\w.-]*(?:\s(?:[^<>\"'{}]|\"[^\"]*\"|'[^']*'|\{[^{}]*\})*)?/?>")
TEXT_PROP = re.compile(
    r"""\b(?:title|label|description|tip|placeholder)=(?:"([^"]+)"|'([^']+)'|\{["'`]([^"'`]+)["'`]\})"""
)
AGENTS_ONLY = re.compile(r"^\s*<Visibility\s+for=[\"']agents[\"']\s*>.*?^\s*</Visibility>", re.S | re.M)
_LINK_END = r"(?![A-Za-z0-9/%#?=&~+\-()])"  # the `)` that ends a link URL is not followed by URL characters
CODE_NOTATION = re.compile(r"\s*(?://|#|<!--|/\*|--)?\s*\[!code[^\]]*\]\s*(?:-->|\*/)?")
IMAGE = re.compile(r"!\[([^\]]*)\]\(\S*?\)" + _LINK_END)
LINK_DEFINITION = re.compile(r"^\[[^\]]+\]:\s")
MULTILINE_LINK = re.compile(r"(?<![!`])\[([^\]\n`]*\n[^\]\n`]*)\]\([^)\s]*\)")  # link text over two lines
REACT_EXPORT = re.compile(r"^export\s+(?:const|function)\s+([A-Z]\w*)", re.M)
LINK = re.compile(r"!?\[([^\]]*)\]\(\S*?\)" + _LINK_END)  # a URL may hold parentheses: f(x)
EXPRESSION = re.compile(r"\{[^{}]*\}")
RAW_MDX = re.compile(  # a component tag with props, closing or self-closing (not `<H1>` named in prose, not a
    # generic type such as Array<Item>), an MDX comment, or ESM
    r"(?<![\w.])(?:<[A-Z][A-Za-z0-9]*(?:\.[A-Z]\w*)?(?:\s+\w+=|\s*/>)|</[A-Z][A-Za-z0-9]*>)|\{/\*|\*/\}"
    r"|^\s*(?:import|export)\s+\S+.*\bfrom\b|export const ",
    re.M,
)
WORD = re.compile(r"[A-Za-z0-9]")
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


class _Text(HTMLParser):
    """Collect a page's text (all of it) and its visible prose (outside code, scripts and styles)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.all: list[str] = []
        self.prose: list[str] = []
        self._skip = 0
        self._code = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("script", "style", "template"):
            self._skip += 1
        elif tag in ("pre", "code"):
            self._code += 1
        for name, value in attrs:  # text readers meet as attributes: image alt, titles of frames and tooltips
            if name in ("alt", "title", "aria-label", "data-title", "data-tip") and value:
                self.all.append(f" {value} ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template"):
            self._skip = max(0, self._skip - 1)
        elif tag in ("pre", "code"):
            self._code = max(0, self._code - 1)

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self.all.append(data)
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
    return normalise(" ".join(parser.all)), " ".join(parser.prose)


def _bracket_balance(line: str) -> int:
    line = re.sub(r"(['\"`])(?:\\.|(?!\1).)*\1", "", line)  # brackets inside string literals do not count
    return sum(line.count(c) for c in "({[") - sum(line.count(c) for c in ")}]")


def table_cells(row: str) -> list[str]:
    """Split a Markdown table row on the pipes that separate cells (not those in code spans or escaped)."""
    cells, cell, ticks = [], "", 0
    i = 0
    while i < len(row):
        ch = row[i]
        if ch == "\\" and i + 1 < len(row):
            cell += row[i : i + 2]
            i += 2
            continue
        if ch == "`":
            ticks ^= 1
        if ch == "|" and not ticks:
            cells.append(cell)
            cell = ""
        else:
            cell += ch
        i += 1
    cells.append(cell)
    return [c.replace("\\|", "|") for c in cells if c.strip()]


def _strip_inline(line: str) -> str:
    """Return a source line as a reader sees it: Markdown and JSX syntax gone, inline code kept as written."""
    line = IMAGE.sub(lambda m: m.group(1), line)
    line = LINK.sub(lambda m: m.group(1), line)
    while True:  # leading block markers, nested ones included: "- ### Title", "> 1. step"
        bare = re.sub(r"^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+|\[[ xX]\]\s+)", "", line)
        if bare == line:
            break
        line = bare
    parts = re.split(r"(`+)(.+?)\1", line)  # [text, ticks, code, text, ticks, code, ...]
    out = []
    for i in range(0, len(parts), 3):
        out.append(_strip_markup(parts[i]))
        if i + 2 < len(parts):
            out.append(parts[i + 2])
    return "".join(out).rstrip("\\")


def _strip_markup(line: str) -> str:
    line = TAG.sub(" \x00 ", line)  # an inline component may put its own text here (a tooltip): split
    line = EXPRESSION.sub(" \x00 ", line)  # a value filled in at build time (a snippet prop): split there
    line = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>])", r"\1", line)  # Markdown escapes
    line = re.sub(r"(\*\*|__|~~)", "", line)
    line = EMPHASIS.sub(lambda m: m.group(2), line)  # paired *x*, _x_ only (`_head.html` keeps its `_`)
    line = re.sub(r"\s*\{#[\w-]+\}\s*$", "", line)  # heading ids
    return line


def source_units(text: str, *, docs_dir: Path, source: Path, depth: int = 0) -> list[str]:
    """Return the text units of an MDX/Markdown source that a reader must find in the built page."""
    text = FRONTMATTER.sub("", text, count=1)
    text = COMMENT.sub("", text)
    text = AGENTS_ONLY.sub("", text)  # shown to AI agents (the Markdown twin), not in the HTML page
    text = MULTILINE_LINK.sub(lambda m: " ".join(m.group(1).split()), text)
    react = set(REACT_EXPORT.findall(text))
    units: list[str] = []
    used_snippets: list[Path] = []
    for m in IMPORT.finditer(text):
        names = [m.group(1)] if m.group(1) else [n.split(" as ")[-1].strip() for n in m.group(2).split(",")]
        target = _snippet_path(m.group(3), docs_dir, source)
        if m.group(3).endswith((".jsx", ".tsx", ".js", ".ts")) or (
            target
            and any(
                re.search(rf"^export\s+(?:const|function)\s+{re.escape(n)}\b", _read(target), re.M)
                for n in names
                if n
            )
        ):
            react.update(n for n in names if n)
            continue
        if (
            target
            and target.suffix in PAGE_SUFFIXES
            and any(re.search(rf"<{re.escape(n)}\b", text) for n in names if n)
        ):
            used_snippets.append(target)
    lines = text.splitlines()
    fence: str | None = None
    depth = 0
    in_math = False
    in_tag = False
    tag_braces = 0
    tag_name = ""
    for line in lines:
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:  # CommonMark: no info on a closer
                fence = None
            elif WORD.search(stripped):  # a code line, less its `// [!code ++]` notation (never shown)
                units.append(CODE_NOTATION.sub("", stripped))
            continue
        m = FENCE.match(line)
        if m:
            fence = m.group(1)
            continue
        if depth > 0:  # inside an `export` (a component's code): skipped until its brackets close
            depth += _bracket_balance(line)
            continue
        if stripped.startswith(("export ", "import ")):
            depth = _bracket_balance(line) if stripped.startswith("export ") else 0
            continue
        if stripped.startswith("$$"):
            in_math = not in_math if stripped == "$$" else in_math
            continue
        if (
            in_math
            or "$" in stripped
            or "\\(" in stripped
            or stripped.startswith("|--")
            or set(stripped) <= set("-|: *=_")
        ):
            continue
        tag = re.match(r"\s*<([A-Z]\w*)", line)
        name = tag.group(1) if tag else (tag_name if in_tag else "")
        for prop in () if name in react else TEXT_PROP.finditer(line):
            value = next(v for v in prop.groups() if v)
            if WORD.search(value) and "{" not in value:
                units.append(value)
        if in_tag:  # the attribute lines of a tag opened on an earlier line (props may hold JSX: {<svg>...})
            tag_braces += line.count("{") - line.count("}")
            in_tag = not (tag_braces <= 0 and re.search(r"/?>\s*$", stripped))
            continue
        if TAG_LINE.match(line):
            continue
        if OPEN_TAG.match(stripped):
            in_tag, tag_braces = True, line.count("{") - line.count("}")
            tag_name = stripped[1:].split()[0] if len(stripped) > 1 else ""
            continue
        if LINK_DEFINITION.match(stripped):
            continue
        cells = table_cells(stripped) if stripped.startswith("|") else [line]
        for cell in cells:
            for piece in _strip_inline(cell).split("\x00"):
                value = normalise(piece)
                if len(WORD.findall(value)) >= 3 and not value.startswith(("<", "{")):
                    units.append(value)
    if depth < 4:
        for snippet in used_snippets:
            try:
                snippet_text = snippet.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            units += source_units(snippet_text, docs_dir=docs_dir, source=snippet, depth=depth + 1)
    return [normalise(u) for u in units]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _snippet_path(spec: str, docs_dir: Path, source: Path) -> Path | None:
    base = docs_dir if spec.startswith("/") else source.parent
    target = (base / spec.lstrip("/")).resolve()
    return target if target.is_file() and target.is_relative_to(docs_dir.resolve()) else None


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
        units = source_units(text, docs_dir=docs_dir, source=source)
        full, prose = page_text(built)
        squashed = SPACE.sub("", full)  # element boundaries add or drop spaces: compare without any
        missing = [u for u in units if SPACE.sub("", u) not in squashed]
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
        "each source page with its built page. *Fidelity*: the share of a page's source text units (prose lines, table",
        "cells, visible props, code lines; snippets inlined) found in the built page's text. *Raw MDX*: pages whose",
        "visible text (outside code) shows component tags, `{/* */}` or import/export lines.",
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--sites", nargs="*", default=[], help="only sites whose folder name contains one of these"
    )
    parser.add_argument("--work", type=Path, default=REPO / "bench" / ".work" / "compat")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "COMPAT.md")
    args = parser.parse_args()
    reports = []
    for site in corpus_sites(args.corpus, args.sites):
        out_dir = args.work / site.name
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
    args.out.write_text(markdown(reports) + "\n", encoding="utf-8")
    args.out.with_suffix(".json").write_text(
        json.dumps([asdict(r) for r in reports], indent=1) + "\n", encoding="utf-8"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
