"""Tailwind classes: collected from a site's sources, compiled by Tailwind's own compiler in QuickJS with
Mintlify's configuration, cached by the set of classes, shipped once; a compiler that cannot run is a warning."""

from __future__ import annotations

import json
import re

import pytest

from docsgen.build import build
from docsgen.common import contrast
from docsgen.common.errors import DocsgenError
from docsgen.engine.cachedir import cache_dir
from docsgen.mdx.react.js_engine import JsError
from docsgen.mdx.react.tailwind_compiler import compile_css
from docsgen.outputs import tailwind as tailwind_output
from docsgen.render.tailwind_input import mdx_candidates, strings_in, tailwind_config, tailwind_input
from docsgen.site.read import read_site

CONFIG = {
    "name": "TW",
    "theme": "mint",
    "colors": {"primary": "#16A34A", "light": "#4ADE80", "dark": "#166534"},
    "navigation": {"pages": ["index", "plain"]},
}
INDEX = """---
title: Home
---

import { Hero } from "/snippets/hero.jsx";

<div className="grid grid-cols-2 md:grid-cols-3 gap-8 not-prose">
  <a className="hover:underline text-primary dark:text-primary-light" href="/plain">One</a>
  <div class="w-[42rem] dark:bg-zinc-900 bg-primary-dark">Two</div>
</div>

<Hero />

```html
<div class="code-only-class">not an element</div>
```
"""
HERO = """export const Hero = ({ wide }) => {
  const size = wide ? "max-w-5xl" : "max-w-3xl";
  return <section className={`mx-auto ${size} px-4 lg:px-8`}>Hero</section>;
};
"""


@pytest.fixture
def site_dir(make_site):
    return make_site(
        {
            "docs.json": json.dumps(CONFIG),
            "index.mdx": INDEX,
            "plain.mdx": "---\ntitle: Plain\n---\n\nNo classes.\n",
            "snippets/hero.jsx": HERO,
        }
    )


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def own_cache(shared_cache, monkeypatch):
    """One cache folder for the module's builds (the same classes compile once); the cache test uses its own."""
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(shared_cache))


def rules(css: str) -> dict[str, str]:
    """Return {selector: declarations} of a stylesheet (media queries flattened, selector prefixed by them)."""
    found: dict[str, str] = {}
    media = ""
    for m in re.finditer(r"(@media[^{]+)\{|([^{}]+)\{([^{}]*)\}|\}", css):
        if m.group(1):
            media = m.group(1).strip() + " "
        elif m.group(2):
            found[media + " ".join(m.group(2).split())] = " ".join(m.group(3).split())
        else:
            media = ""
    return found


def test_class_names_come_from_attributes_expressions_and_component_strings():
    found: set[str] = set()
    mdx_candidates(
        '<div className="grid gap-4" /> <p class=\'mt-2\'>x</p> <a className={cn("px-2", on && "bg-primary")} />',
        found,
    )
    mdx_candidates(
        'export const A = () => { const c = "rounded-xl shadow"; return <b className={c} /> }\n', found
    )
    strings_in("const s = `mx-auto ${w} lg:px-8`; const t = 'text-sm';", found)
    assert {
        "grid",
        "gap-4",
        "mt-2",
        "px-2",
        "bg-primary",
        "rounded-xl",
        "shadow",
        "mx-auto",
        "lg:px-8",
        "text-sm",
    } <= found
    assert not any("$" in word or "{" in word for word in found)


def test_site_input_reads_pages_snippets_and_components(site_dir):
    tw = tailwind_input(read_site(site_dir), "bundle")
    assert tw is not None
    assert {"grid-cols-2", "md:grid-cols-3", "w-[42rem]", "max-w-5xl", "lg:px-8", "not-prose"} <= set(
        tw.candidates
    )
    assert tw.first_use[0] == "index.mdx" and tw.first_use[1] == 7  # the first className, for warnings


def test_site_without_class_attributes_needs_no_stylesheet(make_site):
    docs = make_site({"docs.json": json.dumps(CONFIG), "index.mdx": "# Hi\n", "plain.mdx": "Text\n"})
    assert tailwind_input(read_site(docs), "bundle") is None
    out = docs.parent / "out"
    build(docs, out, strict=True)
    assert not (out / "_static" / "tailwind.css").exists()
    assert "tailwind.css" not in (out / "index.html").read_text()


def test_the_compiler_makes_the_rules_of_variants_arbitrary_values_and_docs_json_colours(site_dir):
    config = tailwind_config(read_site(site_dir).config)
    css = compile_css(
        config,
        "grid-cols-2 md:grid-cols-3 dark:bg-zinc-900 hover:underline w-[42rem] text-primary bg-primary-light "
        "border-primary-dark bg-primary/10 prose",
    )
    found = rules(css)
    assert found[":root .grid-cols-2"] == "grid-template-columns: repeat(2, minmax(0, 1fr));"
    assert (
        found["@media (min-width: 768px) :root .md\\:grid-cols-3"]
        == "grid-template-columns: repeat(3, minmax(0, 1fr));"
    )
    assert "background-color: rgb(24 24 27" in found[":root .dark\\:bg-zinc-900:is(.dark *)"]
    assert found[":root .hover\\:underline:hover"] == "text-decoration-line: underline;"
    assert found[":root .w-\\[42rem\\]"] == "width: 42rem;"
    assert "rgb(22 163 74" in found[":root .text-primary"]  # #16A34A
    assert "rgb(74 222 128" in found[":root .bg-primary-light"]  # #4ADE80
    assert "rgb(22 101 52" in found[":root .border-primary-dark"]  # #166534
    assert found[":root .bg-primary\\/10"] == "background-color: rgb(22 163 74 / 0.1);"
    assert any(s.startswith(".prose :where(a)") and "not-prose" in s for s in found)  # typography
    # preflight only inside not-prose blocks (and the border reset of elements with site classes)
    assert any(s.startswith("h1:where(.not-prose, .not-prose *)") for s in found)
    assert not any(s.split(",")[0].strip() in ("h1", "a", "img") for s in found)


def test_build_ships_one_stylesheet_linked_from_every_page(site_dir):
    out = site_dir.parent / "out"
    build(site_dir, out, strict=True)
    css = (out / "_static" / "tailwind.css").read_text()
    found = rules(css)
    for selector in (":root .grid-cols-2", ":root .max-w-5xl", ":root .lg\\:px-8", ":root .w-\\[42rem\\]"):
        assert any(s.endswith(selector) for s in found), selector
    assert "code-only-class" not in css
    links = [
        re.findall(r'href="([^"]*tailwind\.css[^"]*)"', (out / p).read_text())
        for p in ("index.html", "plain/index.html")
    ]
    assert links[0] and links[1] and links[0][0].split("?")[1] == links[1][0].split("?")[1]
    assert links[1][0].startswith("../_static/tailwind.css?v=")


def test_the_compile_is_cached_by_the_set_of_classes(site_dir, monkeypatch, tmp_path):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "own-cache"))
    out = site_dir.parent / "out"
    calls = []
    real = tailwind_output.compile_css

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(tailwind_output, "compile_css", counting)
    build(site_dir, out, strict=True)
    build(site_dir, out, strict=True)
    assert len(calls) == 1  # the second build read the cache
    (site_dir / "plain.mdx").write_text('---\ntitle: Plain\n---\n\n<p className="text-pink-500">x</p>\n')
    build(site_dir, out, strict=True)
    assert len(calls) == 2  # a new class: compiled again
    assert ".text-pink-500" in (out / "_static" / "tailwind.css").read_text()
    kept = list((cache_dir(site_dir) / tailwind_output.CACHE_FOLDER).iterdir())
    assert len(kept) == 2  # both stylesheets, for a rebuild after an edit back (at most KEEP)
    for n in range(tailwind_output.KEEP + 1):
        (site_dir / "plain.mdx").write_text(f'<p className="m-{n}">x</p>\n')
        build(site_dir, out, strict=True)
    kept = list((cache_dir(site_dir) / tailwind_output.CACHE_FOLDER).iterdir())
    assert len(kept) == tailwind_output.KEEP  # the oldest are dropped


def test_no_engine_is_a_located_warning_and_the_site_builds(site_dir, monkeypatch):
    monkeypatch.setenv("DOCSGEN_REACT", "0")
    from docsgen.mdx.react import js_engine

    js_engine.engine_module.cache_clear()
    try:
        out = site_dir.parent / "out"
        result = build(site_dir, out)
    finally:
        js_engine.engine_module.cache_clear()
    found = [d for d in result.diagnostics if d.code == "tailwind.unavailable"]
    assert len(found) == 1
    assert (found[0].path, found[0].line, found[0].column) == ("index.mdx", 7, 6)
    assert "left unstyled" in found[0].message
    assert not (out / "_static" / "tailwind.css").exists()
    assert "tailwind.css" not in (out / "index.html").read_text()
    with pytest.raises(DocsgenError) as failed:  # --strict: the warning is an error
        build(site_dir, site_dir.parent / "strict-out", strict=True)
    assert "tailwind.unavailable" in {d.code for d in failed.value.diagnostics}


def test_a_compile_over_its_time_limit_stops_with_an_error():
    with pytest.raises(JsError, match="did not finish"):
        compile_css({"corePlugins": {"preflight": False}}, "grid " * 10, time_limit=0.01)


def test_a_compiler_failure_is_a_warning(site_dir, monkeypatch):
    def failing(*args, **kwargs):
        raise JsError("boom")

    monkeypatch.setattr(tailwind_output, "compile_css", failing)
    result = build(site_dir, site_dir.parent / "out")
    found = [d for d in result.diagnostics if d.code == "tailwind.unavailable"]
    assert found and "Tailwind's compiler stopped: boom" in found[0].message


def test_class_names_components_build_at_run_time_are_styled(make_site):
    page = (
        "export const Grid = ({ n }) => <div className={'grid grid-cols-' + n}>cells</div>;\n\n"
        "<Grid n={5} />\n"
    )
    docs = make_site({"docs.json": json.dumps(CONFIG), "index.mdx": page, "plain.mdx": "Text\n"})
    out = docs.parent / "out"
    build(docs, out, strict=True)
    assert 'class="grid grid-cols-5"' in (out / "index.html").read_text()
    assert ":root .grid-cols-5 {" in (out / "_static" / "tailwind.css").read_text()
    build(docs, out, strict=True)  # kept pages carry their components' classes (page cache)
    assert ":root .grid-cols-5 {" in (out / "_static" / "tailwind.css").read_text()


def _rgb(declarations: str) -> tuple[float, float, float]:
    found = re.search(r"rgb\((\d+) (\d+) (\d+)", declarations)
    assert found is not None
    return (float(found[1]), float(found[2]), float(found[3]))


def _reads(rgb: tuple[float, float, float], backgrounds: tuple[str, ...]) -> bool:
    return all(contrast.ratio(rgb, contrast.parse_color(bg) or rgb) >= 4.5 for bg in backgrounds)


def test_text_colours_that_do_not_read_on_the_theme_backgrounds_are_made_to():
    names = "dark:text-zinc-500 dark:text-zinc-300 dark:text-zinc-900 text-gray-400 text-white text-gray-700 dark:bg-zinc-500 placeholder:text-gray-400"
    css = tailwind_output.readable_text(
        compile_css({"darkMode": "class", "corePlugins": {"preflight": False}}, names)
    )
    found = rules(css)
    assert _reads(_rgb(found[".dark\\:text-zinc-500:is(.dark *)"]), contrast.DARK_BACKGROUNDS)  # lightened
    assert "rgb(212 212 216" in found[".dark\\:text-zinc-300:is(.dark *)"]  # reads already: kept
    assert "rgb(24 24 27" in found[".dark\\:text-zinc-900:is(.dark *)"]  # meant for a light surface: kept
    assert "rgb(156 163 175" in found[".text-gray-400"]  # the site's colour stays, for dark mode
    assert _reads(
        _rgb(found[".text-gray-400:not(.dark *)"]), contrast.LIGHT_BACKGROUNDS
    )  # a darker twin in light
    assert ".text-white:not(.dark *)" not in found  # white text is meant for a coloured surface
    assert ".text-gray-700:not(.dark *)" not in found  # reads already
    assert "rgb(113 113 122" in found[".dark\\:bg-zinc-500:is(.dark *)"]  # backgrounds are not text
    assert not any("::placeholder:not" in s for s in found)
