"""Fuzz every regex of the package and the scanners that read user text with generated adversarial input, and fail
on super-linear time: each input is a generated unit (syntax characters, keywords, spaces, newlines) repeated to
size n and to 4n; a linear scan takes about 4 times as long on the larger one, a quadratic one 16 times.

Regexes are found by importing every module (module-level compiled patterns), so a new one is fuzzed without
anyone listing it. Each is run as `finditer` over the whole text (the hardest use), except the few only ever
used anchored at one position, which are run as they are used (ANCHORED says where and why).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import time
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import docsgen

# pattern name -> how it is used (only ever at one position: a whole-text search would not be its real cost)
ANCHORED = {
    "docsgen.mdx.jsx_syntax._FENCE_LINE_RE": "fullmatch",  # one line at a time (fenced_blocks)
    "docsgen.openapi.render.mdtext._BLOCK_START": "match",  # the start of a description
    "docsgen.openapi.render.simple_md._REST": "fullmatch",  # one line, from a given start
    "docsgen.openapi.render.mdtext._SUMMARY_CODE": "bounded",
    "docsgen.mdx.parser._PLAIN_LINK": "match",  # one link target, from its start  # summary_text cuts its input first (fuzzed below)
}
TOKENS = [
    *" \n\t<>{}[]()`*_~#!|:;,.=-+/\\\"'$@%&?^",
    "a",
    "Z",
    "0",
    "import ",
    "export const a = ",
    "from ",
    "</",
    "/>",
    "<Card>",
    "<svg>",
    "```",
    "**",
    "[!code hl]",
    "${",
    "{/*",
    "*/}",
    "<!--",
    "-->",
    "](",
    "http://",
    "title: ",
]
SMALL = 1_000  # characters of the smaller input; the larger has 4 times as many


def _patterns() -> dict[str, re.Pattern]:
    found: dict[str, re.Pattern] = {}
    for info in pkgutil.walk_packages(docsgen.__path__, "docsgen."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra (the feedback server's dependencies) not installed
            continue
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found.setdefault(f"{info.name}.{name}", value)
    return found


PATTERNS = _patterns()


def _scanners() -> dict[str, Callable[[str], object]]:
    from docsgen.mdx.code import strip_markers
    from docsgen.mdx.esm import parse_exports
    from docsgen.mdx.frontmatter import load_frontmatter
    from docsgen.mdx.jsx_syntax import fenced_blocks, find_closing_tag, find_expression_end
    from docsgen.mdx.react.modules import mdx_import_names
    from docsgen.mdx.text_rules import crossed_tags
    from docsgen.openapi.render.mdtext import spec_markdown, summary_text
    from docsgen.pages.markdown_export import mdx_to_markdown, rewrite_links
    from tests.mdx_helpers import render

    def every_brace(s: str) -> None:
        for i, ch in enumerate(s):
            if ch == "{":
                find_expression_end(s, i)

    def every_tag(s: str) -> None:
        for m in re.finditer(r"<([A-Za-z]+)>", s):
            find_closing_tag(s, m.group(1), m.end(), len(s))

    return {
        "render_mdx": render,
        "mdx_to_markdown": mdx_to_markdown,
        "rewrite_links": lambda s: rewrite_links(s, str),
        "strip_markers": strip_markers,
        "parse_exports": parse_exports,
        "load_frontmatter": lambda s: load_frontmatter(s, "page.mdx", 2),
        "fenced_blocks": fenced_blocks,
        "find_expression_end from every brace": every_brace,
        "find_closing_tag from every tag": every_tag,
        "crossed_tags": crossed_tags,
        "summary_text": summary_text,
        "spec_markdown": spec_markdown,
        "mdx_import_names": mdx_import_names,
    }


def _cost(run: Callable[[str], object], text: str) -> float:
    start = time.process_time()
    run(text)
    return time.process_time() - start


def _superlinear(run: Callable[[str], object], small: str, large: str) -> tuple[float, float] | None:
    """(small time, large time) when the larger input costs more than 10 times the smaller one, else None."""
    if _cost(run, large) < 0.05:  # too quick to be a problem or to judge
        return None
    best_small = min(_cost(run, small) for _ in range(3))
    best_large = min(_cost(run, large) for _ in range(2))
    return (best_small, best_large) if best_large > max(10 * best_small, 0.05) else None


def _runner(pattern: re.Pattern, use: str) -> Callable[[str], object]:
    if use == "match":
        return pattern.match
    if use == "fullmatch":
        return pattern.fullmatch
    return lambda s: sum(1 for _ in pattern.finditer(s))


units = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=5).map("".join)


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(unit=units, tail=st.sampled_from(["", "!", "x", "\n", " ", "}", ">"]))
def test_no_regex_or_scanner_is_superlinear(unit, tail):
    small = unit * max(1, SMALL // len(unit)) + tail
    large = unit * (4 * max(1, SMALL // len(unit))) + tail
    slow = []
    for name, pattern in PATTERNS.items():
        found = _superlinear(_runner(pattern, ANCHORED.get(name, "finditer")), small, large)
        if found:
            slow.append(f"{name} ({pattern.pattern[:60]!r}): {found[0]:.3f} s -> {found[1]:.3f} s")
    for name, scanner in _scanners().items():
        found = _superlinear(scanner, small, large)
        if found:
            slow.append(f"{name}: {found[0]:.3f} s -> {found[1]:.3f} s")
    assert not slow, f"super-linear on {unit!r} * n + {tail!r}:\n" + "\n".join(slow)


def test_every_regex_is_fuzzed():
    assert len(PATTERNS) > 150  # the import walk found the package's patterns
    for name in ANCHORED:
        assert name in PATTERNS, f"{name} is gone: drop it from ANCHORED"
