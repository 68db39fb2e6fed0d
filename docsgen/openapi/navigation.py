"""API pages named by the navigation, made before the navigation is built (as MkDocs' generated files).

The navigation stage then only places pages: it looks up what each API entry of docs.json made here, by the
entry's JSON path. The walk visits docs.json's navigation in the order the navigation stage does, with the same
inherited `openapi`/`asyncapi`/`directory`/version fields, so pages are made (and numbered) in the same order.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from docsgen.config.model import NavEntry, NavNode, SiteConfig

if TYPE_CHECKING:
    from docsgen.pages.page import Page

API_ENTRY = re.compile(
    r"^(?:(\S+)\s+)?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|QUERY|WEBHOOK)\s+(\S.*)$", re.I
)

# A frontmatter `openapi` value or navigation entry naming an operation ("[spec] METHOD /path") or a webhook.
ENTRY = re.compile(
    r"^(?:(?P<spec>\S+)\s+)?(?P<method>GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|QUERY)\s+(?P<path>/\S*)$",
    re.I,
)
WEBHOOK = re.compile(r"^(?:(?P<spec>\S+)\s+)?webhook\s+(?P<name>\S.*)$", re.I)

LISTING_MODES = ("accordion", "card", "none")  # navigation `directory` values that name a listing layout
Resolver = Callable[[NavEntry, NavNode, dict], list["Page"]]
Generated = dict[tuple, list["Page"]]  # JSON path of a navigation entry -> the pages it names


def uses_api(config: SiteConfig, pages: dict[str, Page]) -> bool:
    """Tell whether anything in the site refers to OpenAPI or AsyncAPI: docs.json's `api.openapi`, a navigation
    element's `openapi`/`asyncapi` or API entry, or a page's frontmatter (the API modules load only then)."""
    if config.api.openapi or _nav_uses_api(config.navigation):
        return True
    keys = ("openapi", "openapi-schema", "api", "asyncapi")
    return any(p.meta.get(k) not in (None, "") for p in pages.values() for k in keys)


def _nav_uses_api(node: NavNode) -> bool:
    if node.fields.get("openapi") or node.fields.get("asyncapi"):
        return True
    for child in node.children:
        if isinstance(child, NavNode) and _nav_uses_api(child):
            return True
        if isinstance(child, NavEntry) and (ENTRY.match(child.value) or WEBHOOK.match(child.value)):
            return True
    return False


def inherit(node: NavNode, inherited: dict) -> dict:
    """Return the API fields an element passes to its children: its own openapi/directory/asyncapi and version."""
    out = dict(inherited)
    for key in ("openapi", "directory", "asyncapi"):
        if key in node.fields:
            out[key] = node.fields[key]
    if node.fields.get("directory") in LISTING_MODES:  # a listing layout (docsgen.nav.tree), not a folder
        out["listing"] = node.fields["directory"]
        out.pop("directory", None)
    if node.kind in ("tab", "anchor") and isinstance(node.fields.get("version"), str):
        out["version"] = node.fields["version"]
    if node.kind == "version":
        out["version"] = node.label
    return out


def navigation_pages(config: SiteConfig, resolve: Resolver) -> Generated:
    """Make every page the navigation's API entries name: a whole spec (`openapi` on an element without
    pages), `METHOD /path` and `WEBHOOK name` entries, group roots naming an operation."""
    out: Generated = {}
    inherited = {"openapi": config.api.openapi} if config.api.openapi else {}
    _section(config.navigation, inherited, resolve, out)
    return out


def _section(node: NavNode, inherited: dict, resolve: Resolver, out: Generated) -> None:
    inherited = inherit(node, inherited)
    kids = [c for c in node.children if isinstance(c, NavNode) and c.kind != "group"]
    if kids:
        for child in kids:
            _section(child, inherited, resolve, out)
    else:
        _items(node, inherited, resolve, out)


def _items(node: NavNode, inherited: dict, resolve: Resolver, out: Generated) -> None:
    if not node.children and (node.fields.get("openapi") or node.fields.get("asyncapi")):
        entry = NavEntry("*", node.json_path)
        out[entry.json_path] = resolve(entry, node, inherited)
        return
    for child in node.children:
        if isinstance(child, NavEntry):
            if API_ENTRY.match(child.value):
                out[child.json_path] = resolve(child, node, inherited)
        elif child.kind == "group":
            group_inherited = inherit(child, inherited)
            root = child.get("root")
            if isinstance(root, str) and root and API_ENTRY.match(root):
                entry = NavEntry(root, (*child.json_path, "root"))
                out[entry.json_path] = resolve(entry, child, group_inherited)
            _items(child, group_inherited, resolve, out)


def declared_overlays(config: SiteConfig) -> dict[str, list[str]]:
    """Return spec source -> overlay files, from every `openapi: {source, overlays}` of docs.json."""
    out: dict[str, list[str]] = {}

    def note(value: object) -> None:
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and isinstance(item.get("source"), str):
                overlays = item.get("overlays")
                if isinstance(overlays, list):
                    out.setdefault(item["source"], []).extend(o for o in overlays if isinstance(o, str))

    def walk(node: NavNode) -> None:
        note(node.fields.get("openapi"))
        for child in node.children:
            if isinstance(child, NavNode):
                walk(child)

    note(config.api.openapi)
    walk(config.navigation)
    return out
