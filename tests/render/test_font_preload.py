"""The theme's web font is preloaded on pages whose text is set in it, and only there."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from docsgen.build import build
from tests.conftest import write_tree

FONT = "_static/fonts/inter-latin-wght-normal.woff2"


class _HeadLinks(HTMLParser):
    """The attributes of each <link> of a document's <head>, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict[str, str | None]] = []
        self._in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "head":
            self._in_head = True
        elif tag == "link" and self._in_head:
            self.links.append(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self._in_head = False


def _head_links(path: Path) -> list[dict[str, str | None]]:
    parser = _HeadLinks()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.links


def _preloads(tmp_path: Path, **config: object) -> dict[str, list[str]]:
    """Build a two-page site (one page nested) with these docs.json settings; return each page's font preloads."""
    docs = {
        "name": "Fonts",
        "theme": "mint",
        "colors": {"primary": "#166534"},
        "navigation": {"pages": ["index", "guides/setup"]},
        **config,
    }
    write_tree(
        tmp_path / "src",
        {
            "docs.json": json.dumps(docs),
            "index.mdx": "---\ntitle: Home\n---\n\nHello.\n",
            "guides/setup.mdx": "---\ntitle: Setup\n---\n\nSteps.\n",
        },
    )
    build(tmp_path / "src", tmp_path / "out")
    found = {}
    for rel in ("index.html", "guides/setup/index.html", "404.html"):
        links = [
            a
            for a in _head_links(tmp_path / "out" / rel)
            if a.get("rel") == "preload" and a.get("as") == "font"
        ]
        assert all(a.get("type") == "font/woff2" and "crossorigin" in a for a in links)
        found[rel] = [str(a["href"]) for a in links]
    return found


def test_an_inter_theme_preloads_its_font_from_every_page(tmp_path: Path) -> None:
    """Each page names the font file as the stylesheet resolves it (relative to the page), before that
    stylesheet, and the file is in the output."""
    found = _preloads(tmp_path)
    assert found == {
        "index.html": ["./" + FONT],
        "guides/setup/index.html": ["../../" + FONT],
        "404.html": ["/" + FONT],
    }
    assert (tmp_path / "out" / FONT).is_file()
    rels = [a.get("rel") for a in _head_links(tmp_path / "out/index.html")]
    assert rels.index("preload") < rels.index("stylesheet")


@pytest.mark.parametrize(
    "config",
    [
        {"theme": "linden"},  # monospace stacks: Inter is never used
        {"fonts": {"family": "system-ui"}},  # the site's own font for everything
        {"fonts": {"family": "Brand", "source": "/fonts/brand.woff2"}},
        {"fonts": {"body": {"family": "system-ui"}, "heading": {"family": "Georgia"}}},
    ],
)
def test_no_preload_where_no_text_is_set_in_the_theme_font(tmp_path: Path, config: dict) -> None:
    assert _preloads(tmp_path, **config) == {"index.html": [], "guides/setup/index.html": [], "404.html": []}


def test_a_site_font_for_headings_only_keeps_the_preload(tmp_path: Path) -> None:
    """The body is still set in Inter."""
    assert _preloads(tmp_path, fonts={"heading": {"family": "Georgia"}})["index.html"] == ["./" + FONT]
