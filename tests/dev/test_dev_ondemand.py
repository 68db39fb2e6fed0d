"""docsgen dev serves a page before the whole site is rendered: pages render when first asked for, the others in a
background pass; rendered pages are files of a page store, not bytes in memory. Real HTTP on 127.0.0.1.

The background pass is held back (Pass.start does nothing until a test runs it) so that every page is asked
for before the pass could reach it.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from docsgen.dev import background
from docsgen.dev.app import DevApp, start
from docsgen.dev.incremental import DevSite
from docsgen.engine.write import Claimed
from tests.htmldom import parse

PAGES = ["index", "a", "b", "c", "d"]


def page(title: str, body: str) -> str:
    return f"---\ntitle: {title}\n---\n\n{body}\n"


@pytest.fixture
def site(make_site) -> Path:
    files = {
        "docs.json": json.dumps(
            {
                "name": "On demand",
                "theme": "mint",
                "colors": {"primary": "#0D9373"},
                "navigation": {"groups": [{"group": "One", "pages": PAGES}]},
            }
        ),
        "snippets/note.mdx": "Snippet says hello\n",
    }
    for key in PAGES:
        files[f"{key}.mdx"] = page(f"Page {key}", f"Body of {key}")
    files["c.mdx"] = page("Page c", "import Note from '/snippets/note.mdx';\n\n<Note />")
    files["d.mdx"] = page("Page d", "Intro\n\n<Steps>\n\nnever closed")  # a page with an error
    return make_site(files)


@pytest.fixture
def held(monkeypatch) -> list[background.Pass]:
    """Hold every background pass back; the list gets the passes (a test may run one with run_pass)."""
    passes: list[background.Pass] = []
    monkeypatch.setattr(background.Pass, "start", lambda job: passes.append(job))
    return passes


@pytest.fixture
def app(site: Path, held) -> DevApp:
    app = start(site, watch=False)
    yield app
    app.stop()


def get(app: DevApp, path: str, **kw) -> httpx.Response:
    return httpx.get(app.url.rstrip("/") + path, timeout=10, **kw)


def status(app: DevApp) -> dict:
    return get(app, "/__docsgen/status").json()


def run_pass(app: DevApp) -> None:
    job = app.dev.background
    assert job is not None
    background.Pass._main(job)  # what its thread runs
    assert job.done.is_set()


def test_nothing_is_rendered_before_serving(app: DevApp):
    assert app.dev.renders == 0
    assert all(isinstance(app.dev.snapshot.files[f"{k}/index.html" if k != "index" else "index.html"], Claimed)
               for k in PAGES)  # fmt: skip
    progress = status(app)["progress"]
    assert (progress["pages"], progress["rendered"]) == (len(PAGES), 0)
    assert progress["search"] == "indexing" or progress["search"].startswith("failed")  # (no Pagefind here)


def test_a_page_asked_for_first_renders_then(app: DevApp):
    r = get(app, "/b/")
    assert r.status_code == 200
    doc = parse(r.text)
    assert "Body of b" in doc.text and doc.find("title").text.startswith("Page b")
    assert app.dev.renders == 1  # that page only
    assert status(app)["progress"]["rendered"] == 1
    stored = app.dev.snapshot.files["b/index.html"]
    assert isinstance(stored, Path) and stored.parent == app.dev.store.root  # on disk, not in memory
    assert get(app, "/b/").text == r.text and app.dev.renders == 1  # served from the store the second time
    # the Markdown twin came with it
    md = get(app, "/b/", headers={"Accept": "text/markdown"})
    assert md.headers["content-type"].startswith("text/markdown") and "Body of b" in md.text
    assert app.dev.renders == 1


def test_the_background_pass_renders_the_rest_once(app: DevApp):
    first = get(app, "/a/").text
    run_pass(app)
    assert app.dev.renders == len(PAGES)  # a was not rendered again
    assert get(app, "/a/").text == first
    progress = status(app)["progress"]
    assert progress["rendered"] == progress["pages"] == len(PAGES)
    assert progress["search"] in ("ready", "failed")  # (failed: no Pagefind on this machine)
    for key in ("b", "c", "index"):
        assert f"Page {key}" in get(app, "/" if key == "index" else f"/{key}/").text


def test_pages_render_as_a_complete_build_renders_them(site: Path, app: DevApp):
    for key in PAGES:
        get(app, "/" if key == "index" else f"/{key}/")  # each rendered on demand
    whole = DevSite(site, site / "_site")  # lazy=False: everything rendered by build(), as before
    try:
        whole.build()
        for key in PAGES:
            output = "index.html" if key == "index" else f"{key}/index.html"
            assert read(app.dev, output) == read(whole, output), key  # byte for byte
            assert read(app.dev, f"{key}.md") == read(whole, f"{key}.md")  # and the Markdown twins
        assert app.dev.snapshot.page_errors.keys() == whole.snapshot.page_errors.keys() == {"d/index.html"}
    finally:
        whole.close()


def read(dev: DevSite, output: str) -> bytes:
    content = dev.snapshot.files[output]
    assert isinstance(content, Path), output
    return content.read_bytes()


def test_a_missing_page_is_a_404(app: DevApp):
    r = get(app, "/no-such-page/")
    assert r.status_code == 404
    assert "Page not found" in parse(r.text).text
    assert app.dev.renders == 0


def test_a_broken_page_asked_for_shows_its_error(app: DevApp):
    r = get(app, "/d/")
    assert r.status_code == 500
    text = parse(r.text).text
    assert "d.mdx" in text and "Steps" in text  # located: file and the component never closed
    errors = status(app)["errors"]
    assert [e["path"] for e in errors] == ["d.mdx"]
    assert get(app, "/a/").status_code == 200  # only that page


def test_files_needing_every_page_come_with_the_pass(app: DevApp):
    assert get(app, "/llms.txt").status_code == 200  # made when asked for: no page is rendered for it
    assert app.dev.renders == 0
    waiting = get(app, "/llms-full.txt")
    assert waiting.status_code == 503 and "Retry-After" in waiting.headers
    run_pass(app)
    full = get(app, "/llms-full.txt")
    assert full.status_code == 200 and "Body of b" in full.text


def test_an_edited_page_renders_on_save_its_neighbours_when_asked(site: Path, app: DevApp):
    get(app, "/a/")  # a and c are open in a browser; b is not
    get(app, "/c/")
    (site / "b.mdx").write_text(page("Renamed b", "New body of b"), encoding="utf-8")
    update = app.dev.apply([site / "b.mdx"])
    assert update.kind == "nav"
    assert sorted(update.rendered) == ["a", "b", "c"]  # the edited page, and its neighbours already rendered
    assert "Renamed b" in get(app, "/a/").text and "Renamed b" in get(app, "/c/").text
    renders = app.dev.renders
    assert "New body of b" in get(app, "/b/").text and app.dev.renders == renders  # rendered on save
    (site / "index.mdx").write_text(page("Page index", "Edited home"), encoding="utf-8")
    update = app.dev.apply([site / "index.mdx"])
    assert update.rendered == ["index"] and update.reload == {"/"}


def test_a_snippet_edit_reaches_pages_rendered_and_pages_not_yet(site: Path, app: DevApp):
    assert "Snippet says hello" in get(app, "/c/").text
    (site / "snippets/note.mdx").write_text("Snippet says goodbye\n", encoding="utf-8")
    update = app.dev.apply([site / "snippets/note.mdx"])
    assert update.kind == "snippet" and update.rendered == ["c"]
    assert "Snippet says goodbye" in get(app, "/c/").text


def test_a_config_change_starts_over_and_stops_the_old_pass(site: Path, app: DevApp, held):
    get(app, "/a/")
    old = app.dev.background
    config = json.loads((site / "docs.json").read_text())
    config["name"] = "Renamed site"
    (site / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    update = app.dev.apply([site / "docs.json"])
    assert update.kind == "full" and update.rendered == [] and update.pending == len(PAGES)
    assert app.dev.background is not old and len(held) == 2
    background.Pass._main(old)  # the old pass, if it ran now, renders nothing of the new site
    assert app.dev.renders == 1
    assert "Renamed site" in get(app, "/a/").text


def test_a_renamed_page_is_served_at_its_new_url(site: Path, app: DevApp):
    assert get(app, "/b/").status_code == 200
    (site / "b.mdx").rename(site / "e.mdx")
    config = json.loads((site / "docs.json").read_text())
    config["navigation"]["groups"][0]["pages"] = ["index", "a", "e", "c", "d"]
    (site / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    update = app.dev.apply([site / "b.mdx", site / "e.mdx", site / "docs.json"])
    assert update.kind == "full"
    assert get(app, "/b/").status_code == 404
    assert "Body of b" in get(app, "/e/").text


def test_stopping_removes_the_page_store(site: Path, held):
    app = start(site, watch=False)
    get(app, "/a/")
    root = app.dev.store.root
    assert any(root.iterdir())
    app.stop()
    assert not root.exists()


def test_thumbnails_are_drawn_by_the_pass_not_before_the_first_page(make_site, held):
    files = {
        "docs.json": json.dumps(
            {
                "name": "Thumbs",
                "theme": "mint",
                "colors": {"primary": "#0D9373"},
                "thumbnails": {"appearance": "light"},
                "navigation": {"groups": [{"group": "One", "pages": ["index", "a"]}]},
            }
        ),
        "index.mdx": page("Home", "Hello"),
        "a.mdx": page("Page a", "Body of a"),
    }
    app = start(make_site(files), watch=False)
    try:
        assert get(app, "/a/").status_code == 200
        image = parse(get(app, "/a/").text).find("meta", property="og:image")
        assert image is not None
        content = str(image.attrs["content"])
        path = "/" + content[content.index("_og/") :]
        waiting = get(app, path)
        assert waiting.status_code == 503 and "Retry-After" in waiting.headers
        run_pass(app)
        drawn = get(app, path)
        assert drawn.status_code == 200 and drawn.content.startswith(b"\xff\xd8")  # a JPEG
    finally:
        app.stop()
