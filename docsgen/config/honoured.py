"""The one table of docs.json fields docsgen honours or ignores (used by `docsgen validate -v`, tested against
the schema: every field the schema declares is classified here).

A field path is written as in the schema: `navbar`, `styling.codeblocks.theme`, `redirects[].source`; a
`$defs` entry starts with `#` (`#navbar.links[].icon`), and `#node` stands for every navigation element
(products, languages, versions, tabs, anchors, dropdowns, menu items, groups and the navigation root).
A path not in the table takes the status of its nearest listed parent.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from docsgen.config import analytics

USED = "used"
IGNORED = "ignored"

NAV_DEFS = ("product", "language", "version", "tab", "anchor", "dropdown", "menuItem", "group", "navigation")

# path -> (status, note). The note says what docsgen does with an ignored field (or why).
FIELDS: dict[str, tuple[str, str]] = {
    "$schema": (USED, "editor hint"),
    "theme": (USED, ""),
    "name": (USED, ""),
    "description": (USED, ""),
    "public": (IGNORED, "a site is private only behind `docsgen server run --site`, set there"),
    "strings": (USED, "the interface's words, per language"),
    "languageRedirect": (USED, ""),
    "colors": (USED, ""),
    "logo": (USED, ""),
    "favicon": (USED, ""),
    "appearance": (USED, ""),
    "background": (USED, ""),
    "fonts": (USED, ""),
    "icons": (USED, ""),
    "styling": (USED, ""),
    "styling.codeblocks.languages.custom": (USED, "TextMate grammars highlight their code blocks"),
    "thumbnails": (USED, ""),
    "navbar": (USED, ""),
    "footer": (USED, ""),
    "banner": (USED, ""),
    "navigation": (USED, ""),
    "redirects": (USED, ""),
    "errors": (USED, ""),
    "contextual": (USED, ""),
    "api": (USED, ""),
    "seo": (USED, ""),
    "search": (USED, ""),
    "feedback": (USED, ""),
    "integrations": (USED, ""),  # each provider: see _integration_rows()
    "interaction": (USED, ""),
    "metadata": (USED, ""),
    "variables": (USED, ""),
    "markdown": (USED, ""),
    "variations": (IGNORED, "no variation switcher"),
    "#lightDarkColor": (USED, ""),
    "#icon": (USED, ""),
    "#languageCode": (USED, ""),
    "#specSource": (USED, ""),
    "#specSource.overlays": (USED, ""),
    "#asyncapiSource": (USED, ""),
    "#asyncapiSource.overlays": (IGNORED, "AsyncAPI overlays are not applied"),
    "#sdk": (IGNORED, "no SDK reference pages are generated"),
    "#navbar": (USED, ""),
    "#footer": (USED, ""),
    "#banner": (USED, ""),
    "#pages": (USED, ""),
    "#global": (USED, ""),
    "#global.versions[].default": (IGNORED, "a global version is a link, never the default"),
    "#global.languages[].default": (IGNORED, "a global language is a link, never the default"),
    "#node": (USED, ""),
    "#node.graphql": (IGNORED, "no GraphQL pages are generated"),
    "#tab.align": (IGNORED, "tabs are drawn in one row, in order"),
    "#node.public": (USED, "docsgen server's sign-in gate; static hosts serve every file"),
}


def _integration_rows() -> dict[str, tuple[str, str]]:
    """Each analytics provider: used when docsgen has a snippet for it (docsgen.config.analytics.PROVIDERS)."""
    from docsgen.config.schema import load_schema  # lazily: the schema check imports this module

    providers = {*analytics.PROVIDERS, "cookies", "telemetry"}  # (two settings, not scripts)
    names = load_schema().get("properties", {}).get("integrations", {}).get("properties", {})
    return {
        f"integrations.{name}": (USED, "") if name in providers else (IGNORED, "no snippet for this provider")
        for name in names
    }


def classify(path: str) -> tuple[str, str] | None:
    """Return (status, note) of a schema field path, from its own row or its nearest listed parent."""
    rows = {**FIELDS, **_integration_rows()} if path.startswith("integrations.") else FIELDS
    candidates = [path]
    if path.startswith("#") and path[1:].split(".", 1)[0].rstrip("[]") in NAV_DEFS:
        rest = path.split(".", 1)
        candidates.append("#node" + ("." + rest[1] if len(rest) > 1 else ""))
    for candidate in candidates:
        probe = candidate
        while True:
            if probe in rows:
                return rows[probe]
            cut = max(probe.rfind("."), probe.rfind("[]"))
            if cut <= 0:
                break
            probe = probe[:cut]
    return None


def _deref(schema: dict, node: Any) -> tuple[dict, str | None]:
    """Follow a local $ref; return the node and the $defs name it came from (None when inline)."""
    name = None
    seen = 0
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and seen < 20:
        ref = node["$ref"]
        if not ref.startswith("#/$defs/"):
            break
        name = ref.rsplit("/", 1)[1]
        node = schema.get("$defs", {}).get(name, {})
        seen += 1
    return (node if isinstance(node, dict) else {}), name


def _branches(node: dict) -> Iterator[dict]:
    yield node
    for key in ("oneOf", "anyOf", "allOf"):
        for sub in node.get(key) or []:
            if isinstance(sub, dict):
                yield sub
    for key in ("then", "else"):
        if isinstance(node.get(key), dict):
            yield node[key]


def schema_fields(schema: dict) -> list[str]:
    """Every field path the schema declares (root properties and each $defs entry's), for the table's test."""
    out: list[str] = []

    def walk(node: Any, path: str, depth: int) -> None:
        if not isinstance(node, dict) or depth > 12 or "$ref" in node:
            return
        for branch in _branches(node):
            for name, sub in (branch.get("properties") or {}).items():
                sub_path = f"{path}.{name}" if path else name
                out.append(sub_path)
                walk(sub, sub_path, depth + 1)
            if isinstance(branch.get("items"), dict):
                walk(branch["items"], path + "[]", depth + 1)

    walk({k: v for k, v in schema.items() if k != "$defs"}, "", 0)
    for name, sub in (schema.get("$defs") or {}).items():
        out.append("#" + name)
        walk(sub, "#" + name, 0)
    return sorted(set(out))


def present_fields(data: Any, schema: dict) -> Iterator[tuple[tuple, str]]:
    """Yield (JSON path in docs.json, schema field path) of every field docs.json sets, outermost first."""

    def walk(value: Any, node: Any, path: tuple, field: str, depth: int) -> Iterator[tuple[tuple, str]]:
        node, name = _deref(schema, node)
        if name is not None:
            field = "#" + name
        if depth > 40:
            return
        if isinstance(value, dict):
            props: dict = {}
            for branch in _branches(node):
                props.update(branch.get("properties") or {})
            for key, sub_value in value.items():
                if key in props:
                    sub_field = f"{field}.{key}" if field else key
                    yield (*path, key), sub_field
                    yield from walk(sub_value, props[key], (*path, key), sub_field, depth + 1)
        elif isinstance(value, list):
            items = next((b["items"] for b in _branches(node) if isinstance(b.get("items"), dict)), None)
            if items is not None:
                for i, item in enumerate(value):
                    yield from walk(item, items, (*path, i), field + "[]", depth + 1)

    yield from walk(data, schema, (), "", 0)
