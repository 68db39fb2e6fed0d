"""The one place JSX props become values: `"text"`, bare `flag`, `{expression}`, `{...spread}`.

The MDX renderer, raw-HTML conversion and the Markdown export all read props through tag_props; they differ only
in what an expression the evaluator cannot compute becomes (the `unevaluable` callback).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docsgen.mdx.expressions import Unevaluable, evaluate, is_comment
from docsgen.mdx.jsx_syntax import Attr, Tag

DROP = object()  # returned by an `unevaluable` callback: leave the prop out

Fallback = Callable[[Attr, Unevaluable], Any]


def drop(attr: Attr, exc: Unevaluable) -> Any:
    """Leave a prop the evaluator cannot compute out."""
    return DROP


def tag_props(
    tag: Tag,
    scope: dict[str, Any],
    *,
    unevaluable: Fallback = drop,
    jsx: Callable[[str], Any] | None = None,
) -> dict[str, Any]:
    """Return a tag's props as values, in source order (a later prop of the same name wins).

    Comments (`{/* */}`) are no props. `jsx`, when given, wraps a prop whose value is JSX (`label={<b>x</b>}`)
    instead of evaluating it. A spread (`{...obj}`) merges an object's entries; one that cannot be computed goes
    to `unevaluable` like any expression (its value is then ignored unless it is a dict).
    """
    props: dict[str, Any] = {}
    for attr in tag.attrs:
        if attr.kind == "string":
            props[attr.name] = attr.value
        elif attr.kind == "bool":
            props[attr.name] = True
        elif is_comment(attr.value):
            continue
        elif attr.kind == "expr":
            if jsx is not None and attr.value.lstrip().startswith("<"):
                props[attr.name] = jsx(attr.value.strip())
                continue
            try:
                props[attr.name] = evaluate(attr.value, scope)
            except Unevaluable as exc:
                value = unevaluable(attr, exc)
                if value is not DROP:
                    props[attr.name] = value
        elif attr.kind == "spread":
            try:
                value = evaluate(attr.name, scope)
            except Unevaluable as exc:
                value = unevaluable(attr, exc)
            if isinstance(value, dict):
                props.update(value)
    return props
