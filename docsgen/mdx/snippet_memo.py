"""A snippet used as content rendered once per process where its HTML does not depend on the page.

Versioned sites import the same snippet (`<Prerequisites />`) into every copy of a page: 35 versions x 4 languages
render it again and again although it comes out the same. A render is kept only when it is known to read
nothing of the page but what the key and the entry's guards hold:

- the key: the snippet's path, text and line offset, the props (plain values, in their order) and the children's
  HTML, and the page state a snippet's render reads: the anchor prefix and TOC blocks it is inside (ParamField,
  Update), how deep elements are nested (the nesting bound), open HTML tags and `<Steps>` around it;
- the guards: the page's context (`MdxContext`: every field but the page's own source, lines, frontmatter and
  link resolvers; of the frontmatter the one key a component reads, `api`; in the key too, a dict or the config
  by identity: one object for every page of a site), and where the render used them the code-block index, the
  wiring-id counter and the heading ids it claimed (their values before it).

A render is not kept when its text has an `import` or `export` (nested snippets, React components, values), when
it resolved a link or an asset (the URL is relative to the page, a broken one is reported on the page), reported a
problem, or touched page state the entry cannot replay (views, steps, updates, panels, React, budgets). Replaying
an entry does to the page what the render did: the ids, TOC entries, assets, icons and classes, the counters.

What is kept is per process and bounded (MAX_ENTRIES, the least recently used go first; MAX_HTML characters an
entry) and never stale: the text is part of the key (a changed file is read again under its new identity,
docsgen.mdx.files.kept), the site's context is compared on every use.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docsgen.mdx.limits import MAX_PAGE_DIAGNOSTICS
from docsgen.mdx.state import RenderState
from docsgen.mdx.types import MdxContext, TocItem

MAX_ENTRIES = 512  # snippet renders kept per process
MAX_HTML = 256 * 1024  # characters of HTML an entry may hold
_PAGE_FIELDS = frozenset({"source", "line_offset", "frontmatter", "resolve_link", "resolve_asset"})
_CONTEXT_FIELDS = tuple(f.name for f in dataclasses.fields(MdxContext) if f.name not in _PAGE_FIELDS)
_PLAIN = (str, int, float, bool, type(None))
_HASHED = (str, int, bool, type(None), Path)  # context values keyed as themselves (others: by identity)
_ABSENT = -1  # an id the page did not have (ids count from 0)


@dataclass(frozen=True)
class _Entry:
    context: tuple[Any, ...]  # the page context's values (_CONTEXT_FIELDS and frontmatter `api`)
    html: str
    code_index: tuple[int, int] | None  # (before, after) when the render took code-block indexes
    counter: tuple[int, int] | None  # (before, after) when it took wiring ids
    ids: tuple[tuple[str, int, int], ...]  # heading ids claimed: (id, value before or _ABSENT, value after)
    toc: tuple[TocItem, ...]
    assets: frozenset[str]
    icons: frozenset[str]
    classes: frozenset[str]


class Counts:
    """Renders taken from memory (hits) and rendered (misses), for tests and bench."""

    hits = 0
    misses = 0


_kept: OrderedDict[tuple[Any, ...], _Entry] = OrderedDict()


def clear() -> None:
    """Forget every kept render (tests)."""
    _kept.clear()


def render_kept(
    state: RenderState,
    text: str,
    path: str,
    offset: int,
    props: dict[str, Any],
    children_html: str,
    render: Callable[[], str],
) -> str:
    """Return `render()` (the snippet rendered into the page), or the kept render of the same snippet."""
    found = _key(state, text, path, offset, props, children_html)
    if found is None:
        return render()
    context = _context(state.ctx)
    key = (*found, *(v if isinstance(v, _HASHED) else id(v) for v in context))
    entry = _kept.get(key)
    if entry is not None and _fits(entry, state, context):
        _kept.move_to_end(key)
        Counts.hits += 1
        return _replay(entry, state)
    Counts.misses += 1
    return _record(key, state, render)


def _key(
    state: RenderState, text: str, path: str, offset: int, props: dict[str, Any], children_html: str
) -> tuple[Any, ...] | None:
    if "import" in text or "export" in text:
        return None
    if not all(isinstance(value, _PLAIN) for value in props.values()):
        return None
    return (
        path,
        text,
        offset,
        tuple(props.items()),
        children_html,
        tuple(state.heading_prefix),
        tuple(state.inline_scope),
        state.in_toc_block,
        state.expansion.element_depth,
        tuple(state.open_html.items()),
        repr(state.steps),
    )


def _context(ctx: MdxContext) -> tuple[Any, ...]:
    return (*(getattr(ctx, name) for name in _CONTEXT_FIELDS), ctx.frontmatter.get("api"))


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return all(x is y or x == y for x, y in zip(a, b, strict=True))


def _fits(entry: _Entry, state: RenderState, context: tuple[Any, ...]) -> bool:
    if entry.code_index is not None and entry.code_index[0] != state.code_index:
        return False
    if entry.counter is not None and entry.counter[0] != state.counter:
        return False
    ids = state.ids
    if any(ids.get(name, _ABSENT) != before for name, before, _ in entry.ids):
        return False
    return len(state.diagnostics) < MAX_PAGE_DIAGNOSTICS and _same(entry.context, context)


def _replay(entry: _Entry, state: RenderState) -> str:
    if entry.code_index is not None:
        state.code_index = entry.code_index[1]
    if entry.counter is not None:
        state.counter = entry.counter[1]
    for name, _, after in entry.ids:
        state.ids[name] = after
    state.toc.extend(entry.toc)
    state.assets.update(entry.assets)
    state.icons.update(entry.icons)
    state.classes.update(entry.classes)
    return entry.html


def _untouched(state: RenderState) -> tuple[Any, ...]:
    """What a kept render must leave as it found it."""
    react = state.react
    expansion = state.expansion
    return (
        len(state.diagnostics),
        state.error_past_cap,
        state.cap_reported,
        len(state.views),
        len(state.updates),
        len(state.panel_html),
        len(state.aside_html),
        repr(state.steps),
        tuple(state.open_html.items()),
        react.depth,
        react.loader,
        len(react.emitted),
        expansion.snippets,
        expansion.chars,
        expansion.snippets_reported,
        expansion.too_deep_reported,
        getattr(state, "react_spent", None),
        getattr(state, "react_budget_warned", None),
    )


def _record(key: tuple[Any, ...], state: RenderState, render: Callable[[], str]) -> str:
    """Render with the page's sets swapped for empty ones (what the render adds is what a replay adds)."""
    ctx = state.ctx
    untouched = _untouched(state)
    ids_before = dict(state.ids)
    toc_at, code_index, counter = len(state.toc), state.code_index, state.counter
    page_sets = state.assets, state.icons, state.classes, state.dependencies
    state.assets, state.icons, state.classes, state.dependencies = set(), set(), set(), set()
    resolved: list[str] = []
    watched = copy.copy(ctx)
    watched.resolve_link = _watch(ctx.resolve_link, resolved)
    watched.resolve_asset = _watch(ctx.resolve_asset, resolved)
    state.ctx = watched
    try:
        html = render()
    finally:
        made = state.assets, state.icons, state.classes, state.dependencies
        state.ctx = ctx
        state.assets, state.icons, state.classes, state.dependencies = page_sets
        for page_set, added in zip(page_sets, made, strict=True):
            page_set.update(added)
    keep = (
        not resolved
        and not made[3]
        and len(html) <= MAX_HTML
        and untouched[0] < MAX_PAGE_DIAGNOSTICS
        and _untouched(state) == untouched
    )
    if keep:
        ids = tuple(
            (name, ids_before.get(name, _ABSENT), value)
            for name, value in state.ids.items()
            if ids_before.get(name, _ABSENT) != value
        )
        _kept[key] = _Entry(
            _context(ctx),
            html,
            None if state.code_index == code_index else (code_index, state.code_index),
            None if state.counter == counter else (counter, state.counter),
            ids,
            tuple(state.toc[toc_at:]),
            frozenset(made[0]),
            frozenset(made[1]),
            frozenset(made[2]),
        )
        while len(_kept) > MAX_ENTRIES:
            _kept.popitem(last=False)
    return html


def _watch(resolve: Callable[[str], str], calls: list[str]) -> Callable[[str], str]:
    def watched(value: str) -> str:
        calls.append(value)
        return resolve(value)

    return watched
