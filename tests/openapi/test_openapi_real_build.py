"""Real third-party specs (GitHub, Figma, Blockfrost from npm) build into sites whose links and anchors all resolve."""

from __future__ import annotations

import html
import json
import posixpath
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from docsgen.build import build
from tests.openapi_real import blockfrost_spec, figma_spec, github_spec

_HREF = re.compile(r'\shref="([^"]*)"')
_ID = re.compile(r'\sid="([^"]*)"')


def check_links_and_anchors(out: Path) -> tuple[int, int]:
    """Check every relative link and every same-page anchor of every page; return (links, anchors) checked."""
    links = anchors = 0
    for page in out.rglob("index.html"):
        text = page.read_text(encoding="utf-8")
        if 'http-equiv="refresh"' in text:
            continue
        rel = page.relative_to(out).as_posix()
        ids = {html.unescape(i) for i in _ID.findall(text)}
        for raw in _HREF.findall(text):
            href = html.unescape(raw)
            parts = urlsplit(href)
            if parts.scheme or href.startswith("//") or href.startswith("mailto:"):
                continue
            if href.startswith("#"):
                if href != "#":
                    assert unquote(href[1:]) in ids, f"{rel}: anchor {href} has no target"
                    anchors += 1
                continue
            target = out / posixpath.normpath(posixpath.join(posixpath.dirname(rel), parts.path))
            if parts.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            assert target.exists(), f"{rel}: link {href} does not resolve"
            links += 1
    return links, anchors


@pytest.fixture(scope="module")
def real_site(tmp_path_factory):
    docs = tmp_path_factory.mktemp("real") / "docs"
    docs.mkdir()
    tabs = []
    for name, fetch in (("github", github_spec), ("figma", figma_spec), ("blockfrost", blockfrost_spec)):
        source = fetch()
        target = f"{name}{''.join(source.suffixes[-1:]) or '.json'}"
        shutil.copy(source, docs / target)
        tabs.append({"tab": name.capitalize(), "openapi": {"source": target, "directory": name}})
    config = {
        "theme": "mint",
        "name": "Real APIs",
        "colors": {"primary": "#123456"},
        "navigation": {"tabs": tabs},
    }
    (docs / "docs.json").write_text(json.dumps(config))
    out = docs.parent / "site"
    return out, build(docs, out)


def test_real_specs_build_without_errors(real_site):
    out, result = real_site
    assert not [d for d in result.diagnostics if d.is_error]
    github_pages = [
        p for p in (out / "github").rglob("index.html") if 'http-equiv="refresh"' not in p.read_text()
    ]
    assert len(github_pages) >= 1000  # one page per operation (GitHub's REST description has 1,223)
    assert any((out / "figma").rglob("index.html")) and any((out / "blockfrost").rglob("index.html"))


def test_real_spec_pages_links_and_anchors_resolve(real_site):
    out, _ = real_site
    links, anchors = check_links_and_anchors(out)
    assert links > 5000 and anchors > 1000
