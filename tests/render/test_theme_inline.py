"""Partials are inlined into the templates that include them: the pages are the same as with Jinja's include."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from docsgen.build import build
from docsgen.common import theme
from tests.conftest import FIXTURES

OPTIONS = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True}


def _templates(folder: Path) -> Path:
    files = {
        "page.html": (
            "{% set who = 'page' %}\n<main>\n  {% include \"partials/a.html\" %}\n"
            '{% for n in [1, 2] %}\n    {% include "partials/b.html" %}\n{% endfor %}\n'
            '{% include "partials/gone.html" ignore missing %}\n'
            "<p>{{ who }} {{ inner is defined }}</p>\n</main>\n"
        ),
        "partials/a.html": (
            "    {% set who = 'a' %}\n{% set inner = 1 %}\n<a>{{ who }}</a>\n"
            '{% include "partials/c.html" %}\n'
        ),
        "partials/b.html": "{% macro m(x) %}[{{ x }}]{% endmacro %}<b>{{ m(n) }}{{ who }}</b>\n",
        "partials/c.html": "  {% if who %}\n  <c>{{ who|upper }}</c>\n  {% endif %}\n",
    }
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_inlined_partials_render_as_included_ones(tmp_path):
    folder = str(_templates(tmp_path))
    plain = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), **OPTIONS)
    inlined = jinja2.Environment(loader=theme.InliningLoader(folder), **OPTIONS)
    expected = plain.get_template("page.html").render()
    assert inlined.get_template("page.html").render() == expected
    assert "<p>page False</p>" in expected  # what a partial sets stays in it
    assert "<c>A</c>" in expected and "<b>[2]page</b>" in expected
    source = inlined.loader.get_source(inlined, "page.html")[0]
    assert 'include "partials/a.html"' not in source and "<c>" in source  # nested partials inlined too
    assert 'include "partials/gone.html" ignore missing' in source  # left to Jinja


def test_a_missing_partial_is_still_jinjas_error(tmp_path):
    (tmp_path / "page.html").write_text('{% include "partials/none.html" %}', encoding="utf-8")
    env = jinja2.Environment(loader=theme.InliningLoader(str(tmp_path)), **OPTIONS)
    with pytest.raises(jinja2.TemplateNotFound):
        env.get_template("page.html").render()


@pytest.mark.parametrize("name", ["site-features", "nav-languages", "api-site"])
def test_theme_pages_are_the_same_as_with_includes(name, tmp_path, monkeypatch):
    """Every page of a fixture site, built with the theme's partials inlined and with Jinja's includes."""
    inlined = build(FIXTURES / name, tmp_path / "inlined", cache=False).out_dir
    monkeypatch.setattr(theme.InliningLoader, "get_source", jinja2.FileSystemLoader.get_source)
    monkeypatch.setattr(theme, "_loaded_environments", {})
    theme.environment.cache_clear()
    try:
        included = build(FIXTURES / name, tmp_path / "included", cache=False).out_dir
    finally:
        theme.environment.cache_clear()
    pages = sorted(p.relative_to(inlined) for p in inlined.rglob("*.html"))
    assert len(pages) > 3
    for rel in pages:
        assert (inlined / rel).read_text(encoding="utf-8") == (included / rel).read_text(encoding="utf-8"), (
            rel
        )


def test_fragments_are_made_once_per_key_and_generation(tmp_path):
    (tmp_path / "t.html").write_text(
        "{% fragment 'f', key %}<{{ calls.append(1) or value }}>{% endfragment %}", encoding="utf-8"
    )
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(tmp_path)), extensions=[theme.FragmentCache], **OPTIONS
    )
    template, calls = env.get_template("t.html"), []
    first, second = object(), object()
    assert template.render(key=(first, "a"), value="x&", calls=calls) == "<x&amp;>"
    assert template.render(key=(first, "a"), value="y", calls=calls) == "<x&amp;>"  # made once for this key
    assert template.render(key=(first, "b"), value="y", calls=calls) == "<y>"
    assert template.render(key=(second, "a"), value="z", calls=calls) == "<z>"  # a new generation
    assert template.render(key=None, value="n", calls=calls) == "<n>"  # none: made every time
    assert template.render(key=None, value="m", calls=calls) == "<m>"
    assert len(calls) == 5


def test_a_fragment_already_made_is_looked_up_not_rendered_again(tmp_path, monkeypatch):
    """A page reuses nine fragments: each one made is one lookup in the store, not a call with a new caller."""
    (tmp_path / "t.html").write_text(
        "{% for n in [1, 2, 3] %}{% fragment ('f', n % 2), key %}[{{ n }}]{% endfragment %}{% endfor %}",
        encoding="utf-8",
    )
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(tmp_path)), extensions=[theme.FragmentCache], **OPTIONS
    )
    renders = []
    made = theme.FragmentCache._render
    monkeypatch.setattr(
        theme.FragmentCache, "_render", lambda self, *a, **k: renders.append(a[:2]) or made(self, *a, **k)
    )
    template, generation = env.get_template("t.html"), object()
    assert template.render(key=(generation,)) == "[1][2][1]"  # n=3 reuses n=1's fragment (same name, key)
    assert template.render(key=(generation,)) == "[1][2][1]"
    assert [name for name, _ in renders] == [("f", 1), ("f", 0)]  # made once each, then only looked up
    assert template.render(key=None) == "[1][2][3]"  # none: made every time
    assert template.render(key=(object(),)) == "[1][2][1]"  # a new generation: made again
    assert len(renders) == 2 + 3 + 2
