"""Shared helpers for the MDX tests: a context, fixture-file reading, HTML normalisation."""

from __future__ import annotations

import re
from pathlib import Path

from docsgen.mdx import MdxContext, MdxResult, render_mdx

FIXTURES = Path(__file__).parent / "mdx_fixtures"


def make_ctx(docs_dir: Path | None = None, source: str = "page.mdx", **kwargs) -> MdxContext:
    """Build a context resolving links like the page stage does (`/a` -> `/a/`)."""

    def resolve_link(href: str) -> str:
        if href.startswith(("http:", "https:", "#", "mailto:")) or not href:
            return href
        path, sep, frag = href.partition("#")
        path = re.sub(r"\.mdx?$", "", path)
        return (path.rstrip("/") + "/" if path else "") + sep + frag

    kwargs.setdefault("resolve_link", resolve_link)
    kwargs.setdefault("resolve_asset", lambda src: src if src.startswith("http") else "/" + src.lstrip("/"))
    return MdxContext(docs_dir=docs_dir or FIXTURES, source=source, **kwargs)


def render(body: str, docs_dir: Path | None = None, **kwargs) -> MdxResult:
    """Render a body with a test context."""
    return render_mdx(body, make_ctx(docs_dir, **kwargs))


def read_fixtures(path: Path) -> list[tuple[int, str, str, str]]:
    """Read `title / . / input / . / expected / .` cases, returning (line, title, input, expected)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    cases = []
    section = 0
    last = 0
    current: list = []
    for index, line in enumerate(lines):
        if line.rstrip("\n") != ".":
            continue
        if section == 0:
            current = [index, lines[index - 1].strip()]
        else:
            current.append("".join(lines[last + 1 : index]))
            if section == 2:
                cases.append(tuple(current))
        section = (section + 1) % 3
        last = index
    return cases


def normalize(fragment: str) -> str:
    """Collapse whitespace between tags and shorten inline SVG icons so fixtures stay readable."""
    fragment = re.sub(r"<svg\b.*?</svg>", "<svg/>", fragment.strip(), flags=re.S)
    fragment = re.sub(r">\s+<", "><", fragment)
    return re.sub(r"\s+", " ", fragment)


def fixture_params(name: str):
    """Return pytest params for one fixture file, each named `file:line title`."""
    import pytest

    path = FIXTURES / name
    return [pytest.param((name, *case), id=f"{name}:{case[0] + 1} {case[1]}") for case in read_fixtures(path)]
