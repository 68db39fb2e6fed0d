"""Component registry: JSX element name -> function(Element) -> HTML."""

from __future__ import annotations

from collections.abc import Callable

from docsgen.mdx.limits import MAX_JSX_NESTING
from docsgen.mdx.state import Element

Component = Callable[[Element], str]
COMPONENTS: dict[str, Component] = {}


def component(*names: str) -> Callable[[Component], Component]:
    """Register a function as the renderer of the given component names."""

    def register(func: Component) -> Component:
        for name in names:
            COMPONENTS[name] = func
        return func

    return register


_loaded: list[bool] = []


def _load() -> None:
    _loaded.append(True)
    from docsgen.mdx.components import (  # noqa: F401 - registration side effects
        api,
        callouts,
        cards,
        code,
        layout,
        legacy,
        misc,
        tabs,
        updates,
    )


def render_component(element: Element) -> str:
    """Render one JSX element: a registered component, an HTML element, a snippet, or unknown."""
    from docsgen.mdx.components.base import render_fallback

    if not _loaded:
        _load()
    state = element.state
    # A name the page imports (a snippet) or defines (a React component) shadows the built-in of that name.
    func = (
        render_fallback
        if element.name in state.frame.imports or element.name in state.frame.react
        else COMPONENTS.get(element.name) or render_fallback
    )
    if state.expansion.element_depth >= MAX_JSX_NESTING:
        if not state.expansion.too_deep_reported:
            state.expansion.too_deep_reported = True
            element.state.error(
                "mdx.too-deep",
                f"<{element.name or ''}> is nested more than {MAX_JSX_NESTING} elements deep: not rendered",
                element.line,
                element.column,
            )
        return ""
    previous = state.current_element
    state.current_element = element
    state.expansion.element_depth += 1
    try:
        return func(element)
    except Exception as exc:  # noqa: BLE001 - a bug in one component must not take the build down
        element.state.error(
            "mdx.internal",
            f"could not render <{element.name}> ({type(exc).__name__}: {exc}); please report this",
            element.line,
            element.column,
        )
        return ""
    finally:
        state.current_element = previous
        state.expansion.element_depth -= 1
