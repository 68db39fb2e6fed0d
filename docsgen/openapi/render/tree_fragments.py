"""Schema tree fragments and their cache (see schema_tree.py): what a fragment holds, when a cached one may serve.

A fragment is reused only where rendering it afresh would give the same rows: the same answers to "is this schema
an ancestor?" (its `deps`), the same row limit, and the same answers to "is this nesting within MAX_LEVEL?" (its
`shown` and `hidden` depths, relative to the level it was made at).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from docsgen.openapi.render.context import RenderContext

MAX_LEVEL = 5  # nested named ($ref) schemas expanded below a tree's root
NEVER = 1 << 30  # no nesting was left out for being too deep
MAX_VARIANTS = 8  # cached renderings of one subtree under different ancestors


@dataclass(frozen=True)
class Fragment:
    """Rendered rows with ids relative to TOKEN, and the same rows as Markdown list items."""

    html: str
    rows: int
    ids: frozenset[str]
    hits: frozenset[int]  # recursive references to schemas outside this fragment
    md: str = ""
    deps: frozenset[int] = frozenset()  # schemas whose presence among the ancestors decided a row
    cost: int = 0  # tree work spent making it (cached or not, a page spends this much on it)
    cut: bool = False  # left out: the page's tree budget was spent
    # MAX_LEVEL questions asked below it, relative to its level: the deepest nesting that was still shown
    # (`shown`) and the shallowest that was not (`hidden`); it is the same at any level where both still hold
    shown: int = 0
    hidden: int = NEVER


EMPTY = Fragment("", 0, frozenset(), frozenset())


def cached_fragment(
    ctx: RenderContext, key: tuple, stack: tuple[int, ...], limit: int | None, level: int
) -> Fragment | None:
    """A cached fragment made under the same answers to "is this schema an ancestor?" as `stack` gives, and
    to "is this nesting within MAX_LEVEL?" as `level` gives.

    A complete fragment serves any limit it fits in; a cut-short one only its own limit (a complete one
    over the limit is not reused for it: making the cut-short one costs less, and the cost must be the same
    whichever was cached).
    """
    for made_limit, answers, fragment in ctx.fragments.get(key, ()):
        if made_limit is not None and made_limit != limit:
            continue
        if made_limit is None and limit is not None and fragment.rows > limit:
            continue
        if level + fragment.shown > MAX_LEVEL or level + fragment.hidden <= MAX_LEVEL:
            continue
        if answers != frozenset(a for a in stack if a in fragment.deps):
            continue
        return fragment
    return None


def store(
    ctx: RenderContext,
    key: tuple,
    stack: tuple[int, ...],
    limit: int | None,
    own: int,
    fragment: Fragment,
    deps: set[int],
    start: int,
    was_cut: bool,
) -> Fragment:
    """Remember `fragment` with the ancestors it depended on and the work it took (from `start`, the budget
    before it); return it with both. Made while the budget ran out, it is incomplete: not kept. `own` is the
    schema's id: always the last ancestor where its key is asked for, no dependency."""
    hits = fragment.hits - {own}
    deps.discard(own)
    cost = start - ctx.budget.left
    fragment = Fragment(
        fragment.html,
        fragment.rows,
        fragment.ids,
        hits,
        fragment.md,
        frozenset(deps),
        cost,
        shown=fragment.shown,
        hidden=fragment.hidden,
    )
    variants = ctx.fragments.setdefault(key, [])
    if ctx.budget.cut and not was_cut:
        return fragment
    if len(variants) < MAX_VARIANTS:
        variants.append((limit, frozenset(a for a in stack if a in deps), fragment))
    return fragment


class Levels:
    """The MAX_LEVEL answers gathered while making a fragment (see Fragment.shown and Fragment.hidden)."""

    def __init__(self) -> None:
        self.shown, self.hidden = 0, NEVER

    def add(self, part: Fragment, step: int = 0) -> None:
        """Take in the answers of a part made `step` levels deeper (a part made at the same level: 0)."""
        self.shown = max(self.shown, step + part.shown)
        self.hidden = min(self.hidden, step + part.hidden)

    def of(self, fragment: Fragment) -> Fragment:
        """`fragment` with these answers."""
        return replace(fragment, shown=self.shown, hidden=self.hidden)
