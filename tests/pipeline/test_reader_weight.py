"""What a reader's browser loads before any interaction, from pages built through the CLI: one stylesheet holding
back the first paint of a guide page, and at most 30 KB of JavaScript (gzip) on a content page and on an API page
(the playground's scripts load when the reader opens it: js/playground-loader.js)."""

from __future__ import annotations

import gzip
import json
import posixpath
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

BUDGET = 30 * 1024  # gzip bytes of JavaScript before interaction


class _Head(HTMLParser):
    """Collect the scripts a page runs without interaction and the stylesheets of its <head>."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.inline: list[str] = []
        self.on_demand: list[str] = []
        self.head_sheets: list[str] = []
        self.body_sheets: list[str] = []
        self._in_head = self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "head":
            self._in_head = True
        elif tag == "body":
            self._in_head = False
        elif tag == "script" and a.get("src"):
            self.scripts.append(a["src"] or "")
            self.on_demand += json.loads(a.get("data-scripts") or "[]")
        elif tag == "script" and (a.get("type") or "text/javascript") in ("text/javascript", "module"):
            self._in_script = True
        elif tag == "link" and a.get("rel") == "stylesheet" and a.get("media") in (None, "all"):
            (self.head_sheets if self._in_head else self.body_sheets).append(a.get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data)


def _gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6, mtime=0))


def _file(out: Path, page: str, url: str) -> Path:
    return out / posixpath.normpath(posixpath.join(posixpath.dirname(page), url.split("?")[0]))


def read_page(out: Path, page: str) -> tuple[_Head, int]:
    """Parse a built page; return it and the gzip bytes of the JavaScript it runs before interaction."""
    head = _Head()
    head.feed((out / page).read_text(encoding="utf-8"))
    total = sum(_gz(text.encode()) for text in head.inline)
    total += sum(_gz(_file(out, page, src).read_bytes()) for src in head.scripts)
    return head, total


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The example site and the API site, built through the CLI."""
    outs = {}
    for name in ("example", "api-site"):
        out = tmp_path_factory.mktemp(name) / "out"
        cmd = [sys.executable, "-m", "docsgen", "build", str(FIXTURES / name), "-o", str(out)]
        result = subprocess.run(cmd, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        outs[name] = out
    return outs


def test_a_guide_page_has_one_render_blocking_stylesheet(built: dict[str, Path]):
    out = built["example"]
    head, _ = read_page(out, "guides/buckets/index.html")
    assert [h.split("?")[0] for h in head.head_sheets] == ["../../_static/docsgen.css"]
    assert head.body_sheets == []  # search.css is part of it, not a second request from the body
    joined = (out / "_static/docsgen.css").read_text(encoding="utf-8")
    parts = [
        (out / "_static" / name).read_text(encoding="utf-8").rstrip()
        for name in ("site.css", "theme.css", "components.css", "highlight.css", "search.css")
    ]
    positions = [joined.index(part) for part in parts]  # every sheet, whole, in cascade order
    assert positions == sorted(positions)


def test_a_content_page_runs_at_most_30_kb_of_javascript(built: dict[str, Path]):
    head, total = read_page(built["example"], "guides/buckets/index.html")
    assert any("site.js" in s for s in head.scripts)
    assert 0 < total <= BUDGET, f"{total} B of JavaScript (gzip): {head.scripts}"


def test_an_api_page_loads_the_playground_only_when_opened(built: dict[str, Path]):
    out = built["api-site"]
    page = "api-reference/pets/get-a-pet/index.html"
    head, total = read_page(out, page)
    names = [posixpath.basename(s.split("?")[0]) for s in head.scripts]
    assert "playground-loader.js" in names
    assert not [n for n in names if n.startswith("playground") and n != "playground-loader.js"], names
    later = [posixpath.basename(s.split("?")[0]) for s in head.on_demand]
    assert "playground.js" in later and "playground-request.js" in later and len(later) == 9
    assert all(_file(out, page, s).is_file() for s in head.on_demand)  # the loader's URLs resolve
    assert total <= BUDGET, f"{total} B of JavaScript (gzip) before interaction: {names}"
    with_playground = total + sum(_gz(_file(out, page, s).read_bytes()) for s in head.on_demand)
    assert (
        with_playground > BUDGET
    )  # what loading it eagerly used to cost: the split is what keeps the budget
