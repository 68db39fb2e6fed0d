"""Themes: Jinja2 templates and static files under themes/<name>/, with a parent theme and defaults."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from markupsafe import Markup

from docsgen.common import template_code
from docsgen.common.resources import themes_dir


@dataclass(frozen=True)
class Theme:
    """A resolved theme: its folder chain (child first) and its defaults."""

    name: str
    folders: tuple[Path, ...]
    defaults: dict = field(default_factory=dict)
    layout: dict = field(default_factory=dict)  # switches the templates read: sidebar_top, cards
    fonts: dict = field(default_factory=dict)  # CSS font stacks: body, heading, mono

    def font_css(self) -> str:
        """Return the theme's font stacks as CSS variables (`--dg-font`, `--dg-heading-font`, `--dg-mono`)."""
        names = {"body": "--dg-font", "heading": "--dg-heading-font", "mono": "--dg-mono"}
        decls = [
            f"{names[k]}:{v}"
            for k, v in sorted(self.fonts.items())
            if k in names and isinstance(v, str) and _FONT_STACK.fullmatch(v)
        ]
        return "html:root{" + ";".join(decls) + "}" if decls else ""  # beats site.css's :root defaults

    @property
    def breadcrumbs(self) -> bool:
        """Tell whether pages show breadcrumbs when docs.json says nothing."""
        return bool(self.defaults.get("breadcrumbs", False))

    @property
    def drilldown(self) -> bool:
        """Tell whether selecting a group opens its first page when docs.json says nothing."""
        return bool(self.defaults.get("drilldown", False))

    def static_files(self) -> dict[str, Path]:
        """Return {relative path: file} of the theme's static assets, the child theme winning."""
        files: dict[str, Path] = {}
        for folder in reversed(self.folders):
            static = folder / "static"
            if static.is_dir():
                for path in sorted(static.rglob("*")):
                    if path.is_file() and "__pycache__" not in path.parts:
                        files[path.relative_to(static).as_posix()] = path
        return dict(sorted(files.items()))


@cache
def load_theme(name: str) -> Theme:
    """Load a theme by folder name, following `parent` in theme.json."""
    root = themes_dir()
    folders: list[Path] = []
    defaults: dict = {}
    layout: dict = {}
    fonts: dict = {}
    current: str | None = name
    while current:
        folder = root / current
        if not folder.is_dir():
            raise FileNotFoundError(f"theme '{current}' not found in {root}")
        folders.append(folder)
        meta_file = folder / "theme.json"
        meta = json.loads(meta_file.read_text(encoding="utf-8")) if meta_file.is_file() else {}
        defaults = {**meta.get("defaults", {}), **defaults}
        layout = {**meta.get("layout", {}), **layout}
        fonts = {**meta.get("fonts", {}), **fonts}
        current = meta.get("parent")
    return Theme(name, tuple(folders), defaults, layout, fonts)


_FONT_STACK = re.compile(r"[\w \-\",.']{1,300}")  # font names, quotes and commas: nothing that ends a rule


# Helpers that feature modules make callable from every theme's templates (see register_template_globals).
_REGISTERED_GLOBALS: dict[str, object] = {}


def register_template_globals(helpers: Mapping[str, object]) -> None:
    """Make functions callable from all themes' templates, now and after environments are rebuilt (dev)."""
    _REGISTERED_GLOBALS.update(helpers)
    for name in list(_loaded_environments):
        _loaded_environments[name].globals.update(helpers)


_loaded_environments: dict[str, jinja2.Environment] = {}


def loaded_environments() -> dict[str, jinja2.Environment]:
    """Return the environments this process has made so far, by theme name."""
    return dict(_loaded_environments)


def forget_environments() -> dict[str, dict]:
    """Forget every loaded theme and environment; return each environment's template globals by theme name."""
    saved = {name: dict(env.globals) for name, env in _loaded_environments.items()}
    _loaded_environments.clear()
    load_theme.cache_clear()
    environment.cache_clear()
    return saved


_INCLUDE = re.compile(r'\{%\s*include\s+"([^"]+)"(\s+ignore missing)?\s*%\}')
_INLINE_DEPTH = 4  # partials including partials


class InliningLoader(jinja2.FileSystemLoader):
    """Loads templates with their `{% include "name" %}` of a theme file replaced by that file's source, in a
    `{% with %}` scope of its own (what it sets stays inside, as with an include).

    The output is the same; what is saved is an include's run-time cost (a new context copied from the page's,
    tens of microseconds), which a page paid for each of its dozen partials.
    """

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        source, filename, uptodate = super().get_source(environment, template)
        return self._inlined(environment, source, 0), filename, uptodate

    def _inlined(self, environment: jinja2.Environment, source: str, depth: int) -> str:
        if depth >= _INLINE_DEPTH or "include" not in source:
            return source

        def partial(match: re.Match[str]) -> str:
            try:
                inner = super(InliningLoader, self).get_source(environment, match[1])[0]
            except jinja2.TemplateNotFound:
                return match[0]  # left to Jinja: `ignore missing` renders nothing, else the error it reports
            # the newline after {% with %} is trimmed (trim_blocks): the partial starts a line, as in its file
            return "{% with %}\n" + self._inlined(environment, inner, depth + 1) + "{% endwith %}"

        return _INCLUDE.sub(partial, source)


class FragmentCache(Extension):
    """`{% fragment name, key %}...{% endfragment %}`: the block is rendered once per (name, key) and its output
    reused; a key of none renders it every time.

    A page template wraps in it what is the same on every page of a section at one depth (the version list,
    the search box, the navbar, the tabs). The key's first item is the generation it belongs to (the site
    context's switcher cache, made anew with each navigation, hashed by identity): a new generation empties the
    store, and a key of an old one cannot be found in it.
    """

    tags = {"fragment"}

    def __init__(self, environment: jinja2.Environment) -> None:
        super().__init__(environment)
        self._generation: object = None
        self._store: dict[tuple[object, object], Markup] = {}

    def parse(self, parser: jinja2.parser.Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        name = parser.parse_expression()
        parser.stream.expect("comma")
        key = parser.parse_expression()
        body = parser.parse_statements(("name:endfragment",), drop_needle=True)
        render = nodes.CallBlock(self.call_method("_render", [name, key]), [], [], body).set_lineno(lineno)
        # {% if key is not none and (name, key) in store %}{{ store[(name, key)] }}{% else %}render{% endif %}:
        # a fragment already made is one dict lookup, not a call with a new caller macro (~6 us, 9 a page)
        store = self.attr("_store", lineno=lineno)
        made = nodes.And(
            nodes.Not(nodes.Test(key, "none", [], [], None, None)),
            nodes.Compare(nodes.Tuple([name, key], "load"), [nodes.Operand("in", store)]),
        )
        found = nodes.Output([nodes.Getitem(store, nodes.Tuple([name, key], "load"), "load")])
        return nodes.If(made, [found], [], [render]).set_lineno(lineno)

    def _render(self, name: object, key: tuple | None, caller: Callable[[], str]) -> str:
        if key is None:
            return caller()
        if key[0] is not self._generation:
            self._store.clear()
            self._generation = key[0]
        found = self._store.get((name, key))
        if found is None:
            found = self._store[(name, key)] = Markup(caller())
        return found


# The options the compiled templates depend on (template_code keys its store with them).
_OPTIONS = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True}


@cache
def environment(theme_name: str) -> jinja2.Environment:
    """Return the Jinja2 environment of a theme (one per process; templates compiled once, or read back from
    the compiled code an earlier process kept: docsgen.common.template_code)."""
    theme = load_theme(theme_name)
    # the code made depends on the options and on this module (the loader, the fragment tag): both key the store
    folder = template_code.store_folder(repr(_OPTIONS), Path(__file__).read_bytes())
    store = template_code.TemplateCodeStore(folder) if folder else None  # compiled once per install
    env = jinja2.Environment(
        loader=InliningLoader([str(f / "templates") for f in theme.folders]),
        autoescape=_OPTIONS["autoescape"],
        trim_blocks=_OPTIONS["trim_blocks"],
        lstrip_blocks=_OPTIONS["lstrip_blocks"],
        keep_trailing_newline=_OPTIONS["keep_trailing_newline"],
        auto_reload=False,  # no mtime check per include: the dev server makes a new environment on theme edits
        cache_size=-1,  # a dict, not an LRU: a theme has a handful of templates, and each page looks up two
        extensions=[FragmentCache],
        bytecode_cache=store,
    )
    env.globals.update(_REGISTERED_GLOBALS)
    _loaded_environments[theme_name] = env
    _compile_all(env)
    return env


def _compile_all(env: jinja2.Environment) -> None:
    """Compile every template now: render workers forked later inherit them instead of compiling each.

    Partials are not compiled on their own: the templates including them hold their source (InliningLoader).
    """
    for name in env.list_templates(extensions=("html", "js")):
        if name.startswith("partials/"):
            continue
        try:
            env.get_template(name)
        except jinja2.TemplateError:
            continue  # reported with its location when a page uses it
