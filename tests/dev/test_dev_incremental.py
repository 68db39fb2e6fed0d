"""docsgen dev rebuilds: count the pages each kind of change re-renders, and check what is served after it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from docsgen.common.resources import themes_dir
from docsgen.dev.incremental import DevSite
from docsgen.dev.watch import is_temp_file, make_filter
from docsgen.render.stylesheet import page_css

PAGES = ["index", "a", "b", "c", "d"]


def page(title: str, body: str, **meta: object) -> str:
    extra = "".join(f"{k}: {json.dumps(v)}\n" for k, v in meta.items())
    return f"---\ntitle: {title}\n{extra}---\n\n{body}\n"


@pytest.fixture
def site(make_site) -> Path:
    files = {
        "docs.json": json.dumps(
            {
                "name": "Dev test",
                "theme": "mint",
                "colors": {"primary": "#0D9373"},
                "navigation": {
                    "groups": [
                        {"group": "One", "pages": ["index", "a", "b"]},
                        {"group": "Two", "pages": ["c", "d"]},
                    ]
                },
            }
        ),
        "snippets/note.mdx": "Snippet says hello\n",
        "custom.css": "body { color: red; }\n",
        "logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    }
    for key in PAGES:
        files[f"{key}.mdx"] = page(f"Page {key}", f"Body of {key}")
    files["c.mdx"] = page("Page c", "import Greeting from '/snippets/note.mdx';\n\n<Greeting />")
    return make_site(files)


@pytest.fixture
def dev(site: Path) -> Iterator[DevSite]:
    dev = DevSite(site, site / "_site")
    update = dev.build()
    assert update.kind == "full" and not update.errors
    assert sorted(update.rendered) == sorted(PAGES)
    yield dev
    dev.close()  # (its page store, a temporary folder, goes)


def html(dev: DevSite, output: str) -> str:
    content = dev.snapshot.files[output]
    assert isinstance(content, bytes | Path)  # rendered pages are served from the page store (files)
    return (content.read_bytes() if isinstance(content, Path) else content).decode()


def test_body_edit_renders_only_that_page(dev: DevSite, site: Path):
    before = dict(dev.snapshot.files)
    renders = dev.renders
    (site / "b.mdx").write_text(page("Page b", "A brand new body"), encoding="utf-8")
    update = dev.apply([site / "b.mdx"])
    assert update.kind == "page"
    assert update.rendered == ["b"]
    assert dev.renders - renders == 1
    assert update.reload == {"/b/"}
    assert "A brand new body" in html(dev, "b/index.html")
    changed = {k for k in before if before[k] != dev.snapshot.files[k]}
    assert changed == {"b/index.html", "b.md"}  # the page and its Markdown twin, nothing else
    assert "A brand new body" in html(dev, "b.md")
    assert update.generation == dev.snapshot.generation


def test_title_edit_renders_neighbours_and_sidebar(dev: DevSite, site: Path):
    old_sidebar = html(dev, "_nav/root.html")
    (site / "b.mdx").write_text(page("Renamed b", "Body of b"), encoding="utf-8")
    update = dev.apply([site / "b.mdx"])
    assert update.kind == "nav"
    # b itself, a (its next is b) and c (its previous is b); index and d are untouched
    assert sorted(update.rendered) == ["a", "b", "c"]
    assert "Renamed b" in html(dev, "a/index.html")  # the "next" link label
    assert "Renamed b" in html(dev, "c/index.html")  # the "previous" link label
    assert "Renamed b" not in html(dev, "d/index.html")
    sidebar = html(dev, "_nav/root.html")
    assert "Renamed b" in sidebar and sidebar != old_sidebar
    # every page of the section shows the sidebar, so all of them reload (none re-rendered)
    assert update.reload == {"/", "/a/", "/b/", "/c/", "/d/"}
    assert dev.snapshot.nav_versions["_nav/root.html"] in dev.ctx.nav_files["root"]


@pytest.mark.parametrize("field,value", [("sidebarTitle", "Short"), ("icon", "rocket"), ("tag", "NEW")])
def test_nav_fields_count_as_navigation_changes(dev: DevSite, site: Path, field: str, value: str):
    (site / "d.mdx").write_text(page("Page d", "Body of d", **{field: value}), encoding="utf-8")
    update = dev.apply([site / "d.mdx"])
    assert update.kind == "nav"
    assert sorted(update.rendered) == ["c", "d"]  # d is last: only its previous page links to it


def test_hidden_page_reorders_prev_next(dev: DevSite, site: Path):
    (site / "b.mdx").write_text(page("Page b", "Body of b", hidden=True), encoding="utf-8")
    update = dev.apply([site / "b.mdx"])
    assert update.kind == "nav"
    assert sorted(update.rendered) == ["a", "b", "c"]
    assert "Page b" not in html(dev, "_nav/root.html")
    a = html(dev, "a/index.html")
    assert 'href="../c/"' in a  # a's next page is now c


def test_snippet_edit_renders_importers_only(dev: DevSite, site: Path):
    (site / "snippets/note.mdx").write_text("Snippet says goodbye\n", encoding="utf-8")
    update = dev.apply([site / "snippets/note.mdx"])
    assert update.kind == "snippet"
    assert update.rendered == ["c"]
    assert "Snippet says goodbye" in html(dev, "c/index.html")


def test_config_and_theme_changes_rebuild_everything(dev: DevSite, site: Path):
    config = json.loads((site / "docs.json").read_text())
    config["name"] = "Renamed site"
    (site / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    update = dev.apply([site / "docs.json"])
    assert update.kind == "full" and update.reload is None
    assert sorted(update.rendered) == sorted(PAGES)
    assert "Renamed site" in html(dev, "d/index.html")
    template = themes_dir() / "base" / "templates" / "page.html"
    assert dev.classify(template) == "theme"
    update = dev.apply([template])
    assert update.kind == "full" and len(update.rendered) == len(PAGES)

    # an edited template shows in the rebuilt pages (templates are not re-checked per render: the edit resets them)
    footer = themes_dir() / "base" / "templates" / "partials" / "footer.html"
    original = footer.read_bytes()
    try:
        footer.write_bytes(original + b"<!-- edited-in-dev -->\n")
        update = dev.apply([footer])
        assert update.kind == "full" and "edited-in-dev" in html(dev, "d/index.html")
    finally:
        footer.write_bytes(original)
    dev.apply([footer])
    assert "edited-in-dev" not in html(dev, "d/index.html")


def test_template_edit_while_the_config_is_broken_shows_once_it_is_fixed(dev: DevSite, site: Path):
    good = (site / "docs.json").read_text(encoding="utf-8")
    footer = themes_dir() / "base" / "templates" / "partials" / "footer.html"
    original = footer.read_bytes()
    try:
        (site / "docs.json").write_text("{ broken", encoding="utf-8")
        assert dev.apply([site / "docs.json"]).errors
        footer.write_bytes(original + b"<!-- edited-while-broken -->\n")
        assert dev.apply([footer]).errors  # still broken: nothing rebuilt yet
        (site / "docs.json").write_text(good, encoding="utf-8")
        update = dev.apply([site / "docs.json"])
        assert not update.errors and "edited-while-broken" in html(dev, "d/index.html")
    finally:
        footer.write_bytes(original)
    dev.apply([footer])
    assert "edited-while-broken" not in html(dev, "d/index.html")


def test_stylesheet_changes_render_nothing(dev: DevSite, site: Path):
    theme_css = themes_dir() / "base" / "static" / "site.css"
    assert dev.classify(theme_css) == "theme-css"
    update = dev.apply([theme_css])
    assert (update.kind, update.rendered, update.css) == (
        "css",
        [],
        ["/_static/site.css", "/_static/docsgen.css"],  # pages link the joined sheet: joined anew
    )
    assert dev.files["_static/docsgen.css"] == page_css(dev.ctx.theme.static_files())
    update = dev.apply([site / "custom.css"])
    assert (update.kind, update.rendered, update.css, update.reload) == ("css", [], ["/custom.css"], set())


def test_static_and_page_files_appearing(dev: DevSite, site: Path):
    update = dev.apply([site / "logo.svg"])
    assert update.kind == "static" and update.rendered == [] and update.reload is None
    (site / "e.mdx").write_text(page("Page e", "New page"), encoding="utf-8")
    update = dev.apply([site / "e.mdx"])
    assert update.kind == "full"
    assert "e/index.html" in dev.snapshot.files
    (site / "e.mdx").unlink()
    update = dev.apply([site / "e.mdx"])
    assert update.kind == "full" and "e/index.html" not in dev.snapshot.files


def test_ignored_files_change_nothing(dev: DevSite, site: Path):
    generation = dev.snapshot.generation
    for name in (".b.mdx.swp", "_site/index.html", "node_modules/x.js", ".git/HEAD"):
        update = dev.apply([site / name])
        assert update.kind == "none" and update.rendered == []
    assert dev.snapshot.generation == generation
    keep = make_filter(dev)
    from watchfiles import Change

    assert keep(Change.modified, str(site / "a.mdx"))
    for name in ("a.mdx~", ".a.mdx.swp", "4913", "#a.mdx#", ".#a.mdx", "a.mdx___jb_tmp___", "_site/x.html"):
        assert not keep(Change.modified, str(site / name)), name
    assert is_temp_file("notes.swx") and not is_temp_file("guide.mdx")


def test_broken_page_is_an_error_until_fixed(dev: DevSite, site: Path):
    good = html(dev, "a/index.html")
    (site / "a.mdx").write_text(page("Page a", "Text\n\n<Card title='x'>\n\nnever closed"), encoding="utf-8")
    update = dev.apply([site / "a.mdx"])
    assert update.rendered == ["a"]
    [err] = update.errors
    assert (err.path, err.line) == ("a.mdx", 7)
    assert err.column >= 1
    assert "a/index.html" in dev.snapshot.page_errors
    assert "b/index.html" not in dev.snapshot.page_errors
    (site / "a.mdx").write_text(page("Page a", "Body of a"), encoding="utf-8")
    update = dev.apply([site / "a.mdx"])
    assert not update.errors and not dev.snapshot.page_errors
    assert html(dev, "a/index.html") == good


def test_bad_frontmatter_is_located(dev: DevSite, site: Path):
    (site / "b.mdx").write_text("---\ntitle: [unclosed\n---\n\nBody\n", encoding="utf-8")
    update = dev.apply([site / "b.mdx"])
    assert any(e.path == "b.mdx" and e.line >= 2 for e in update.errors)
    assert "b/index.html" in dev.snapshot.page_errors


def test_config_error_keeps_last_files_and_recovers(dev: DevSite, site: Path):
    files = dev.snapshot.files
    good = (site / "docs.json").read_text()
    (site / "docs.json").write_text(good.replace('"name"', '"name": 5, "x"'), encoding="utf-8")
    update = dev.apply([site / "docs.json"])
    assert update.kind == "full" and update.errors
    assert dev.snapshot.site_errors and all(e.path == "docs.json" for e in dev.snapshot.site_errors)
    assert dev.snapshot.files == files  # the last complete build stays
    (site / "docs.json").write_text(good, encoding="utf-8")
    update = dev.apply([site / "docs.json"])
    assert not update.errors and not dev.snapshot.site_errors
    assert sorted(update.rendered) == sorted(PAGES)


def test_mintignored_files_change_nothing(dev: DevSite, site: Path):
    (site / ".mintignore").write_text("drafts/\n", encoding="utf-8")
    assert dev.apply([site / ".mintignore"]).kind == "full"
    (site / "drafts").mkdir()
    (site / "drafts/wip.mdx").write_text(page("WIP", "Not published"), encoding="utf-8")
    update = dev.apply([site / "drafts/wip.mdx"])
    assert update.kind == "none" and update.rendered == []
    assert "drafts/wip/index.html" not in dev.snapshot.files


def test_a_crash_in_a_build_step_keeps_the_last_build(dev: DevSite, site: Path, monkeypatch, capsys):
    files = dev.snapshot.files

    def broken(*args):
        raise RuntimeError("feature exploded")

    monkeypatch.setattr("docsgen.dev.incremental.add_before_pages", broken)
    update = dev.apply([site / "docs.json"])
    assert [e.code for e in update.errors] == ["dev.internal"]
    assert "feature exploded" in update.errors[0].message
    assert "RuntimeError" in capsys.readouterr().err  # the traceback goes to the terminal, for a bug report
    assert dev.snapshot.files == files and dev.snapshot.site_errors
    monkeypatch.undo()
    update = dev.apply([site / "a.mdx"])  # any change retries the full build
    assert update.kind == "full" and not update.errors and not dev.snapshot.site_errors


def test_theme_json_change_keeps_installed_template_globals(dev: DevSite):
    from docsgen.common.theme import environment

    environment("mint").globals["dg_dev_marker"] = "kept"  # what docsgen.render.custom does at import time
    try:
        update = dev.apply([themes_dir() / "mint" / "theme.json"])
        assert update.kind == "full" and len(update.rendered) == len(PAGES)
        assert environment("mint").globals.get("dg_dev_marker") == "kept"
    finally:
        environment("mint").globals.pop("dg_dev_marker", None)
