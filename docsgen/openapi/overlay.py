"""Apply OpenAPI Overlay 1.0 documents (docs.json `openapi: {source, overlays: [...]}`) to a parsed spec.

Each action's `target` is a JSONPath; `update` merges into every node it selects (objects recursively, arrays
appended), `remove: true` deletes them. The JSONPath subset real overlays use is read: `$`, `.name`,
`['name']`, `[n]`, `[*]`, `.*`, `..name` and filters `[?(@.key == 'value')]` / `[?@.key]`. Anything else, or
an overlay that cannot be read, is a located warning and that action is skipped.
"""

from __future__ import annotations

import re
from typing import Any

from docsgen.common.errors import Diagnostic, warning
from docsgen.openapi.load import Document

MAX_SELECTED = 100_000  # nodes one target may select
_STEP = re.compile(
    r"""\.\.(?P<deep>[A-Za-z_$][\w$-]*|\*)"""
    r"""|\.(?P<name>[A-Za-z_$][\w$-]*|\*)"""
    r"""|\[\s*(?:'(?P<sq>(?:[^'\\]|\\.)*)'|"(?P<dq>(?:[^"\\]|\\.)*)"|(?P<index>-?\d+)|(?P<star>\*)"""
    r"""|\?\(?\s*@(?P<fpath>(?:\.[\w$-]+)+)\s*(?:(?P<op>==|!=)\s*(?P<fval>'[^']*'|"[^"]*"|-?\d+(?:\.\d+)?|true|false|null))?\s*\)?)\s*\]"""
)


class OverlayError(ValueError):
    """A target this reader does not understand."""


def parse_path(target: str) -> list[re.Match[str]]:
    """Split a JSONPath into steps, or raise OverlayError."""
    text = target.strip()
    if not text.startswith("$"):
        raise OverlayError("a target must start with '$'")
    steps, pos = [], 1
    while pos < len(text):
        m = _STEP.match(text, pos)
        if not m:
            raise OverlayError(f"cannot read the target from {text[pos : pos + 20]!r}")
        steps.append(m)
        pos = m.end()
    return steps


def _literal(text: str | None) -> Any:
    if text is None:
        return None
    if text[:1] in "'\"":
        return text[1:-1]
    return {"true": True, "false": False, "null": None}.get(text, float(text) if "." in text else int(text))


def _children(node: Any) -> list[tuple[Any, Any]]:
    if isinstance(node, dict):
        return list(node.items())
    if isinstance(node, list):
        return list(enumerate(node))
    return []


def _descendants(node: Any) -> list[Any]:
    out: list[Any] = []
    stack = [node]
    while stack and len(out) < MAX_SELECTED:
        item = stack.pop()
        out.append(item)
        stack.extend(v for _, v in reversed(_children(item)))
    return out


def _filter(node: Any, step: re.Match[str]) -> bool:
    value: Any = node
    for key in step.group("fpath").split(".")[1:]:
        if not isinstance(value, dict) or key not in value:
            return False
        value = value[key]
    if step.group("op") is None:
        return True
    equal = value == _literal(step.group("fval"))
    return equal if step.group("op") == "==" else not equal


def select(data: Any, target: str) -> list[tuple[Any, Any]]:
    """Return (parent, key) of every node the target selects (parent None for the root)."""
    current: list[tuple[Any, Any]] = [(None, data)]  # (parent, key); the root is its own key
    for step in parse_path(target):
        found: list[tuple[Any, Any]] = []
        for parent, key in current:
            node = data if parent is None else parent[key]
            if step.group("deep") is not None:
                name = step.group("deep")
                for inner in _descendants(node):
                    found += [(inner, k) for k, _ in _children(inner) if name == "*" or k == name]
            elif (
                step.group("name") is not None or step.group("sq") is not None or step.group("dq") is not None
            ):
                name = step.group("name") or step.group("sq") or step.group("dq") or ""
                if name == "*" and step.group("name"):
                    found += [(node, k) for k, _ in _children(node)]
                elif isinstance(node, dict) and name in node:
                    found.append((node, name))
            elif step.group("index") is not None:
                i = int(step.group("index"))
                if isinstance(node, list) and -len(node) <= i < len(node):
                    found.append((node, i % len(node)))
            elif step.group("star") is not None:
                found += [(node, k) for k, _ in _children(node)]
            else:
                found += [(node, k) for k, v in _children(node) if _filter(v, step)]
            if len(found) > MAX_SELECTED:
                raise OverlayError(f"the target selects more than {MAX_SELECTED} nodes")
        current = found
    return current


def merge(into: Any, update: Any) -> Any:
    """Merge `update` into a node as Overlay 1.0 says: objects recursively, arrays appended, else replaced."""
    if isinstance(into, dict) and isinstance(update, dict):
        for key, value in update.items():
            into[key] = merge(into[key], value) if key in into else value
        return into
    if isinstance(into, list):
        return into + (update if isinstance(update, list) else [update])
    return update


def apply_overlay(data: dict, overlay: Document, name: str) -> tuple[dict, list[Diagnostic]]:
    """Apply one overlay document to the spec data; return the data and the problems, located in the overlay."""
    problems: list[Diagnostic] = []

    def problem(message: str, path: tuple) -> None:
        line, column = overlay.locator.locate(path) if overlay.locator else (0, 0)
        problems.append(warning("openapi.overlay", message, name, line, column))

    body = overlay.data
    if not isinstance(body, dict) or not isinstance(body.get("actions"), list):
        problem("not an OpenAPI Overlay: expected an `actions` list; not applied", ())
        return data, problems
    if not str(body.get("overlay", "")).startswith("1."):
        problem(f"Overlay version {str(body.get('overlay'))[:20]!r} is not 1.x; applied as 1.0", ("overlay",))
    for i, action in enumerate(body["actions"]):
        where = ("actions", i)
        if not isinstance(action, dict) or not isinstance(action.get("target"), str):
            problem("an action needs a `target` JSONPath; skipped", where)
            continue
        try:
            selected = select(data, action["target"])
        except OverlayError as exc:
            problem(f"target {action['target'][:80]!r}: {exc}; action skipped", (*where, "target"))
            continue
        if action.get("remove") is True:
            for parent, key in sorted(selected, key=lambda pk: -pk[1] if isinstance(pk[1], int) else 0):
                if parent is not None:
                    del parent[key]
        elif "update" in action:
            for parent, key in selected:
                if parent is None:
                    merged = merge(data, action["update"])
                    data = merged if isinstance(merged, dict) else data
                else:
                    parent[key] = merge(parent[key], action["update"])
    return data, problems
