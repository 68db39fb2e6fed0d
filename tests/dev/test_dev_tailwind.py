"""docsgen dev and Tailwind: a page edit bringing a new class compiles it into the stylesheet pages already link
(swapped in place in the browser); a site that starts using classes rebuilds fully (pages gain the link)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from docsgen.dev.incremental import DevSite

CONFIG = {
    "name": "Dev TW",
    "theme": "mint",
    "colors": {"primary": "#0D9373"},
    "navigation": {"pages": ["index", "other"]},
}


def page(body: str) -> str:
    return f"---\ntitle: T\n---\n\n{body}\n"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def site(make_site) -> Path:
    return make_site(
        {
            "docs.json": json.dumps(CONFIG),
            "index.mdx": page('<div className="grid gap-4">x</div>'),
            "other.mdx": page("Plain."),
        }
    )


@pytest.fixture
def dev(site: Path) -> Iterator[DevSite]:
    dev = DevSite(site, site / "_site")
    assert dev.build().kind == "full"
    yield dev
    dev.close()


def stylesheet(dev: DevSite) -> str:
    content = dev.snapshot.files["_static/tailwind.css"]
    return (content.read_bytes() if isinstance(content, Path) else content).decode()


def test_a_new_class_is_compiled_and_swapped_without_a_full_rebuild(dev: DevSite, site: Path):
    assert ".gap-4" in stylesheet(dev) and "md\\:grid-cols-3" not in stylesheet(dev)
    (site / "other.mdx").write_text(page('<div className="md:grid-cols-3">y</div>'), encoding="utf-8")
    update = dev.apply([site / "other.mdx"])
    assert update.kind == "page" and update.rendered == ["other"]
    assert "/_static/tailwind.css" in update.css
    assert ".md\\:grid-cols-3" in stylesheet(dev)
    (site / "other.mdx").write_text(page("Plain again, same classes as before the edit."), encoding="utf-8")
    (site / "index.mdx").write_text(page('<div className="grid gap-4">changed text</div>'), encoding="utf-8")
    update = dev.apply([site / "index.mdx", site / "other.mdx"])
    assert update.kind == "page"


def test_the_first_class_of_a_site_rebuilds_every_page_with_the_link(make_site):
    docs = make_site({"docs.json": json.dumps(CONFIG), "index.mdx": page("A"), "other.mdx": page("B")})
    dev = DevSite(docs, docs / "_site")
    try:
        dev.build()
        assert "_static/tailwind.css" not in dev.snapshot.files
        (docs / "index.mdx").write_text(page('<p className="text-sm">A</p>'), encoding="utf-8")
        update = dev.apply([docs / "index.mdx"])
        assert update.kind == "full"
        assert ".text-sm" in stylesheet(dev)
    finally:
        dev.close()
