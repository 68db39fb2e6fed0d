"""The theme's compiled templates are kept on disk (common/template_code.py): a later process reads them back
instead of compiling again, an edited or damaged one is compiled again, and the pages are the same."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from docsgen.build import build
from docsgen.common import template_code, theme
from tests.conftest import FIXTURES


@pytest.fixture
def compiles(monkeypatch):
    """Count the templates Jinja compiles (by name)."""
    names: list[str] = []
    original = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


@pytest.fixture
def fresh_themes():
    """Forget the loaded theme environments before and after (each test makes its own)."""
    saved = theme.forget_environments()
    yield
    theme.forget_environments()
    for name in saved:
        theme.environment(name)


def _env(folder: Path, store: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=True,
        bytecode_cache=template_code.TemplateCodeStore(store),
    )


def test_a_later_process_reads_the_theme_back_instead_of_compiling(
    tmp_path, monkeypatch, compiles, fresh_themes
):
    store = tmp_path / "store"
    monkeypatch.setattr(template_code, "store_folder", lambda *_: store)
    theme.environment("mint")
    assert "page.html" in compiles and any(store.glob("*.code"))
    compiles.clear()
    theme.forget_environments()  # what a new process starts from
    env = theme.environment("mint")
    assert compiles == []  # every template read back from the store
    assert env.get_template("redirect.html").render(target="a/b/", t={}, lang="en").count("a/b/") >= 2


def test_pages_are_the_same_with_the_store_and_without(tmp_path, monkeypatch, fresh_themes):
    store = tmp_path / "store"
    monkeypatch.setattr(template_code, "store_folder", lambda *_: store)
    build(FIXTURES / "site-features", tmp_path / "first", cache=False)  # compiles, fills the store
    theme.forget_environments()
    stored = build(FIXTURES / "site-features", tmp_path / "stored", cache=False).out_dir  # reads it back
    monkeypatch.setattr(template_code, "store_folder", lambda *_: None)  # the store off: compiled in memory
    theme.forget_environments()
    plain = build(FIXTURES / "site-features", tmp_path / "plain", cache=False).out_dir
    pages = sorted(p.relative_to(stored) for p in stored.rglob("*.html"))
    assert len(pages) > 3
    for rel in pages:
        assert (stored / rel).read_bytes() == (plain / rel).read_bytes(), rel


def test_the_store_is_off_when_asked(monkeypatch):
    monkeypatch.setenv(template_code.OFF_ENV, "0")
    assert template_code.store_folder("options", b"code") is None
    monkeypatch.delenv(template_code.OFF_ENV)
    one = template_code.store_folder("options", b"code")
    assert one is not None and one.name.startswith("templates-")
    assert template_code.store_folder("options", b"other code") != one  # new docsgen code: another store
    assert template_code.store_folder("other options", b"code") != one


def test_an_edited_template_is_compiled_again(tmp_path, compiles):
    folder, store = tmp_path / "templates", tmp_path / "store"
    folder.mkdir()
    (folder / "t.html").write_text("one {{ x }}", encoding="utf-8")
    assert _env(folder, store).get_template("t.html").render(x="<") == "one &lt;"
    assert _env(folder, store).get_template("t.html").render(x="<") == "one &lt;"
    assert compiles == ["t.html"]  # the second environment read it back
    (folder / "t.html").write_text("two {{ x }}", encoding="utf-8")
    assert _env(folder, store).get_template("t.html").render(x="<") == "two &lt;"
    assert compiles == ["t.html", "t.html"]


def test_a_damaged_file_is_compiled_again(tmp_path, compiles):
    folder, store = tmp_path / "templates", tmp_path / "store"
    folder.mkdir()
    (folder / "t.html").write_text("{% for i in range(3) %}{{ i }}{% endfor %}", encoding="utf-8")
    _env(folder, store).get_template("t.html")
    (code,) = store.glob("*.code")
    whole = code.read_bytes()
    for damaged in (whole[: len(whole) // 2], whole[:-5] + b"\x00" * 5, b"", b"nonsense"):
        code.write_bytes(damaged)
        assert _env(folder, store).get_template("t.html").render() == "012"
    assert code.read_bytes() == whole  # written again, whole
    assert not list(store.glob("*.tmp"))


def test_a_folder_that_cannot_be_written_leaves_templates_compiled_in_memory(tmp_path, compiles):
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "t.html").write_text("ok", encoding="utf-8")
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    assert _env(folder, blocked / "store").get_template("t.html").render() == "ok"
    assert _env(folder, blocked / "store").get_template("t.html").render() == "ok"
    assert compiles == ["t.html", "t.html"]


def test_a_pages_template_lookups_are_plain_dict_lookups(tmp_path, monkeypatch, fresh_themes):
    """The theme's templates are kept in a dict, not Jinja's LRU cache (a lock and a deque walk on each of a
    page's two lookups, page.html and the base.html it extends): the build never touches an LRUCache."""
    touched: list[str] = []
    for name in ("get", "__getitem__", "__setitem__"):
        original = getattr(jinja2.utils.LRUCache, name)

        def counted(self, *args, _original=original, _name=name):
            touched.append(_name)
            return _original(self, *args)

        monkeypatch.setattr(jinja2.utils.LRUCache, name, counted)
    theme.forget_environments()
    out = build(FIXTURES / "site-features", tmp_path / "out", cache=False).out_dir
    assert len(list(out.rglob("*.html"))) > 3
    assert isinstance(theme.environment("mint").cache, dict)
    assert touched == []
