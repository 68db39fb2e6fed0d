"""Rendering stays fast: close to plain markdown-it on real pages, and linear on a very large page."""

from __future__ import annotations

import re
import time

import pytest
from markdown_it import MarkdownIt

from docsgen.mdx import render_mdx
from tests.conftest import CORPUS
from tests.mdx_helpers import make_ctx, render

FRONTMATTER = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*(\n|\Z)", re.S)


def best_of(func, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not present")
def test_typical_pages_cost_little_more_than_plain_markdown():
    plain = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    pages = []
    for path in sorted(CORPUS.glob("*/*.mdx"))[::9]:
        text = path.read_text(encoding="utf-8")
        m = FRONTMATTER.match(text)
        pages.append((path.relative_to(CORPUS).as_posix(), text[m.end() :] if m else text))
    ours = sorted(
        best_of(lambda r=rel, t=text: render_mdx(t, make_ctx(CORPUS, source=r))) for rel, text in pages
    )
    base = sorted(best_of(lambda t=text: plain.render(t)) for _, text in pages)
    median_ms = ours[len(ours) // 2] * 1000
    print(
        f"\n{len(pages)} corpus pages: docsgen median {median_ms:.2f} ms, plain markdown-it {base[len(base) // 2] * 1000:.2f} ms"
    )
    assert sum(ours) < 6 * sum(base)  # components, highlighting and JSX on top of markdown-it
    assert median_ms < 60  # "a few milliseconds" on a quiet machine; generous for loaded CI runners


def test_large_page_is_linear():
    unit = (
        "## Section {n}\n\n<Note>\n  Some **text** with a [link](/x).\n</Note>\n\n"
        '<Tabs>\n  <Tab title="A">\n    ```python\n    print({n})\n    ```\n  </Tab>\n  <Tab title="B">b</Tab>\n</Tabs>\n\n'
    )
    small = "".join(unit.replace("{n}", str(i)) for i in range(50))
    large = "".join(unit.replace("{n}", str(i)) for i in range(400))
    t_small = best_of(lambda: render(small), 2)
    t_large = best_of(lambda: render(large), 2)
    assert t_large < 8 * 3 * t_small + 0.05  # 8x the content: well under quadratic growth
