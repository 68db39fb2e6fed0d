"""Tailwind coverage on real Mintlify sites: how many class uses of each site's sources get a CSS rule.

    .venv/bin/python bench/tailwind_coverage.py                  # every corpus site, writes bench/TAILWIND.md
    .venv/bin/python bench/tailwind_coverage.py --sites upstash  # only the sites whose folder name has a word

A *class use* is one class name in one `class`/`className` attribute of a page, snippet or component file
(`className={...}`: the words of the strings in the expression), outside fenced code blocks (which show class
names as text). Each use is *styled* when a stylesheet the
built site ships has a rule whose selector names that class (`.name`, or `[class~="name"]` as
@tailwindcss/typography writes `not-prose`): the stylesheet docsgen compiles with Tailwind's own compiler
(`_static/tailwind.css`, made exactly as `docsgen build` makes it, from the same collected classes and config),
the site's own CSS files, or docsgen's theme. Names no stylesheet defines are listed by name.
Also the compile's cost: cold (no cache) and cached, and the time to collect the classes.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from docsgen.common.resources import themes_dir  # noqa: E402
from docsgen.mdx.react.tailwind_compiler import compile_css  # noqa: E402
from docsgen.outputs.tailwind import compile_site_css  # noqa: E402
from docsgen.render.tailwind_input import (  # noqa: E402
    _STRING,
    _braced,
    attributes,
    tailwind_input,
    words,
)
from docsgen.site.read import read_site  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
SOURCE_SUFFIXES = (".mdx", ".md", ".jsx", ".tsx")
SKIP_DIRS = {"node_modules", ".git", "_site"}
_SELECTOR = re.compile(r"([^{}]+)\{")
_CLASS = re.compile(r"\.((?:\\[0-9a-fA-F]{1,6}\s?|\\[^0-9a-fA-F\s]|[\w-])+)")
_CLASS_ATTR = re.compile(r"""\[class~=["']?([^"'\]]+)["']?\]""")
_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})[^\n]*\n.*?(?:^\1?[ \t]*\2[`~]*[ \t]*$|\Z)", re.M | re.S)
_MARKER = re.compile(r"^(group|peer)(/[\w-]+)?$")
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)")


@dataclass
class SiteCoverage:
    name: str
    uses: int = 0
    tailwind: int = 0
    site_css: int = 0
    theme: int = 0
    unstyled: Counter[str] = field(default_factory=Counter)
    missed: Counter[str] = field(
        default_factory=Counter
    )  # Tailwind styles them alone, yet not in the site's CSS
    markers: int = 0  # group, peer (group/name, peer/name): Tailwind's markers, which need no rule
    candidates: int = 0
    collect_s: float = 0.0
    cold_s: float = 0.0
    cached_s: float = 0.0
    css_bytes: int = 0
    error: str = ""

    @property
    def styled(self) -> int:
        return self.tailwind + self.site_css + self.theme + self.markers

    @property
    def share(self) -> float:
        return self.styled / self.uses if self.uses else 1.0


def _unescape(name: str) -> str:
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1) else m.group(2), name)


def selector_classes(css: str) -> set[str]:
    """Return every class name the selectors of a stylesheet name (CSS escapes undone)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    names: set[str] = set()
    for m in _SELECTOR.finditer(css):
        selector = m.group(1)
        names.update(_unescape(c) for c in _CLASS.findall(selector))
        names.update(_CLASS_ATTR.findall(selector))
    return names


def source_uses(docs_dir: Path) -> Counter[str]:
    """Return each class name and how many times a source file of the site uses it in a class attribute."""
    uses: Counter[str] = Counter()
    for path in sorted(docs_dir.rglob("*")):
        rel = path.relative_to(docs_dir)
        if path.suffix.lower() not in SOURCE_SUFFIXES or SKIP_DIRS & set(rel.parts) or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix.lower() in (".mdx", ".md"):  # code blocks show class names as text: not elements
            text = _FENCE.sub("", text)
        for m in attributes(text):
            found: set[str] = set()
            if m.group(3):
                for s in _STRING.finditer(_braced(text, m.start(3))):
                    words(s.group(1) or s.group(2) or s.group(3) or "", found)
            else:
                words(m.group(1) or m.group(2) or "", found)
            uses.update(found)
    return uses


def site_css_classes(docs_dir: Path) -> set[str]:
    names: set[str] = set()
    for path in docs_dir.rglob("*.css"):
        if not SKIP_DIRS & set(path.relative_to(docs_dir).parts):
            names |= selector_classes(path.read_text(encoding="utf-8", errors="replace"))
    return names


def theme_classes() -> set[str]:
    names: set[str] = set()
    for path in (themes_dir() / "base" / "static").glob("*.css"):
        names |= selector_classes(path.read_text(encoding="utf-8"))
    return names


def measure(docs_dir: Path, name: str, theme: set[str]) -> SiteCoverage:
    report = SiteCoverage(name)
    started = time.perf_counter()
    site = read_site(docs_dir)
    bundle = themes_dir() / "base" / "static" / "vendor" / "tailwind.min.js"
    tw = tailwind_input(site, hashlib.sha256(bundle.read_bytes()).hexdigest()[:16])
    report.collect_s = time.perf_counter() - started
    tailwind: set[str] = set()
    if tw is not None:
        report.candidates = len(tw.candidates)
        with tempfile.TemporaryDirectory() as cache:
            started = time.perf_counter()
            css, why = compile_site_css(tw, Path(cache))
            report.cold_s = time.perf_counter() - started
            started = time.perf_counter()
            compile_site_css(tw, Path(cache))
            report.cached_s = time.perf_counter() - started
        if css is None:
            report.error = why
        else:
            report.css_bytes = len(css.encode("utf-8"))
            tailwind = selector_classes(css)
    own = site_css_classes(docs_dir)
    for cls, count in source_uses(docs_dir).items():
        report.uses += count
        if cls in tailwind:
            report.tailwind += count
        elif cls in own:
            report.site_css += count
        elif cls in theme:
            report.theme += count
        elif _MARKER.match(cls):
            report.markers += count
        else:
            report.unstyled[cls] += count
    if (
        report.unstyled and tw is not None
    ):  # would Tailwind style any of them on its own (a name docsgen missed)?
        alone = selector_classes(compile_css(tw.config(), "\n".join(report.unstyled)))
        report.missed = Counter({c: n for c, n in report.unstyled.items() if c in alone})
    return report


def corpus_sites(words_: list[str]) -> list[Path]:
    sites = [
        REPO / "fixtures" / "mintlify-docs",
        *sorted(p for p in (CORPUS / "real-sites").iterdir() if p.is_dir()),
    ]
    return [s for s in sites if s.is_dir() and (not words_ or any(w in s.name for w in words_))]


def markdown(reports: list[SiteCoverage]) -> str:
    total = sum(r.uses for r in reports)
    styled = sum(r.styled for r in reports)
    lines = [
        "# Tailwind classes on real Mintlify sites",
        "",
        "`bench/tailwind_coverage.py`: per corpus site, the class uses of its sources (one class name in one",
        "`class`/`className` attribute of a page, snippet or `.jsx`/`.tsx` file) and how many get a CSS rule: from",
        "`_static/tailwind.css` (compiled by Tailwind v3's own compiler in QuickJS, exactly as `docsgen build` does),",
        "from the site's own CSS, or from docsgen's theme. Compile: seconds without cache (cold) and with it.",
        "",
        f"All sites: **{styled} of {total} class uses styled ({100 * styled / total:.2f} %)**."
        if total
        else "",
        "Every name Tailwind v3 styles is styled: "
        f"{sum(sum(r.missed.values()) for r in reports)} uses missed on all sites (column *missed*). The uses left"
        " unstyled are names no stylesheet defines, not even on Mintlify (listed below by name): a site below 99 %"
        " is below because of those.",
        "",
        "*Markers*: `group`, `peer` (and `group/name`), which Tailwind uses in variants and never styles.",
        "*Missed*: unstyled names that Tailwind styles when compiled alone (a class docsgen failed to collect).",
        "",
        "| site | class uses | styled | share | by Tailwind | by site CSS | by theme | markers | missed |"
        " candidates | CSS kB | collect s | compile cold s | cached s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in reports:
        lines.append(
            f"| {r.name} | {r.uses} | {r.styled} | {100 * r.share:.2f} % | {r.tailwind} | {r.site_css} | {r.theme}"
            f" | {r.markers} | {sum(r.missed.values())} | {r.candidates} | {r.css_bytes / 1024:.1f} | {r.collect_s:.2f} | {r.cold_s:.2f} | {r.cached_s:.3f} |"
        )
    lines += [
        "",
        "## Class names no stylesheet defines",
        "",
        "Names that are not Tailwind v3 classes (site-specific names, other frameworks' classes, Mintlify's own",
        "component classes) and that neither the site's CSS nor docsgen's theme defines; uses in fenced code",
        "blocks are not counted.",
        "",
    ]
    for r in reports:
        if r.error:
            lines.append(f"- {r.name}: compile failed: {r.error}")
        if r.missed:
            lines.append(
                f"- {r.name}: MISSED (Tailwind styles them): " + ", ".join(f"`{c}`" for c in sorted(r.missed))
            )
        if r.unstyled:
            names = ", ".join(
                f"`{c}` {n}" for c, n in sorted(r.unstyled.items(), key=lambda kv: (-kv[1], kv[0]))
            )
            lines.append(f"- {r.name} ({sum(r.unstyled.values())} uses): {names}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sites", nargs="*", default=[], help="only sites whose folder name contains a word")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "TAILWIND.md")
    args = parser.parse_args()
    theme = theme_classes()
    reports = []
    for docs in corpus_sites(args.sites):
        report = measure(docs, docs.name, theme)
        reports.append(report)
        print(
            f"{report.name}: {report.styled}/{report.uses} ({100 * report.share:.2f} %) cold {report.cold_s:.2f}s"
        )
    if not args.sites:
        args.out.write_text(markdown(reports), encoding="utf-8")
    else:
        print(markdown(reports))
    return 0 if all(r.share >= 0.99 for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
