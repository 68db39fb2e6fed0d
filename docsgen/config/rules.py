"""The navigation rules of spec section 2.3 that a JSON Schema cannot express, and the typed tree they guard."""

from __future__ import annotations

from docsgen.common.errors import Diagnostic
from docsgen.common.jsonpos import JsonPath, type_name
from docsgen.config.load import RawConfig
from docsgen.config.model import CHILD_KEYS, LABEL_KEY, NavEntry, NavNode

# Rules of the interface spec that published Mintlify sites break: a plain build warns and does what Mintlify
# does; `validate` and `--strict` report them as errors (see promote_spec_rules).
SPEC_RULE_CODES = frozenset({"nav.several-patterns", "nav.menu-content", "nav.mixed-children"})

# What a tab's menu item may hold besides its own fields (spec 2.3: groups, pages and an external link).
_MENU_CHILDREN = ("groups", "pages")


def promote_spec_rules(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Return the diagnostics with the spec-rule warnings made errors (for `validate` and `--strict`)."""
    return [d.as_error() if d.code in SPEC_RULE_CODES else d for d in diags]


def build_navigation(raw: RawConfig) -> tuple[NavNode, list[Diagnostic]]:
    """Build the navigation tree from docs.json, reporting every rule broken on the way."""
    diags: list[Diagnostic] = []
    nav = raw.data.get("navigation")
    if not isinstance(nav, dict):
        # The schema reports a missing or mistyped navigation; give later stages an empty tree.
        return NavNode("root", "", ("navigation",), {}), diags
    present = [k for k in CHILD_KEYS if k in nav and k != "menu"]
    if not present and "openapi" not in nav:
        diags.append(
            raw.diagnostic(
                "nav.no-pattern",
                "navigation has no organisational pattern; expected exactly one of: "
                + ", ".join(k for k in CHILD_KEYS if k != "menu"),
                ("navigation",),
            )
        )
    elif len(present) > 1:
        ignored = ", ".join(f"'{k}'" for k in present[1:])
        diags.append(
            raw.diagnostic(
                "nav.several-patterns",
                f"navigation mixes {', '.join(present)} at its root; expected exactly one primary pattern "
                f"(nest the others inside it); the site uses '{present[0]}' and ignores {ignored}, as Mintlify does",
                ("navigation", present[1]),
                key=True,
                severity="warning",
            )
        )
    root = _node(raw, nav, "root", "", ("navigation",), diags)
    return root, diags


def _node(
    raw: RawConfig, data: dict, kind: str, label: str, path: JsonPath, diags: list[Diagnostic]
) -> NavNode:
    child_keys = [k for k in CHILD_KEYS if k in data]
    if kind not in ("root", "group") and child_keys == ["groups", "pages"]:
        return _pages_then_groups(raw, data, kind, label, path, diags)
    if kind != "root" and len(child_keys) > 1:
        diags.append(
            raw.diagnostic(
                "nav.mixed-children",
                f"a {kind} holds both {child_keys[0]} and {child_keys[1]}; expected one kind of child element per level",
                (*path, child_keys[1]),
                key=True,
            )
        )
    if "menu" in child_keys and kind not in ("tab", "product"):
        diags.append(
            raw.diagnostic(
                "nav.menu-place",
                f"'menu' is allowed in tabs and products, not in a {kind}",
                (*path, "menu"),
                key=True,
            )
        )
    if kind == "menu":
        for extra in [k for k in child_keys if k not in _MENU_CHILDREN]:
            diags.append(
                raw.diagnostic(
                    "nav.menu-content",
                    f"a menu item holds '{extra}'; expected only groups, pages and an external link (href)",
                    (*path, extra),
                    key=True,
                    severity="warning",
                )
            )
    child_key = child_keys[0] if child_keys else None
    children: list[NavNode | NavEntry] = []
    if child_key is not None:
        items = data[child_key]
        if isinstance(items, list):
            if child_key == "versions":
                _check_default_version(raw, items, (*path, child_key), diags)
            for i, item in enumerate(items):
                child = _child(raw, child_key, item, (*path, child_key, i), diags)
                if child is not None:
                    children.append(child)
    fields = {k: v for k, v in data.items() if k not in CHILD_KEYS}
    return NavNode(kind, label, path, fields, tuple(children), child_key)


def _pages_then_groups(
    raw: RawConfig, data: dict, kind: str, label: str, path: JsonPath, diags: list[Diagnostic]
) -> NavNode:
    """A section holding both `pages` and `groups`: Mintlify publishes its pages first, then its groups."""
    diags.append(
        raw.diagnostic(
            "nav.mixed-children",
            f"a {kind} holds both pages and groups; expected one kind of child element per level; "
            "the site lists its pages first, then its groups, as Mintlify does",
            (*path, "groups"),
            key=True,
            severity="warning",
        )
    )
    children: list[NavNode | NavEntry] = []
    for key in ("pages", "groups"):
        items = data[key]
        for i, item in enumerate(items if isinstance(items, list) else ()):
            child = _child(raw, key, item, (*path, key, i), diags)
            if child is not None:
                children.append(child)
    fields = {k: v for k, v in data.items() if k not in CHILD_KEYS}
    return NavNode(kind, label, path, fields, tuple(children), "pages")


def _child(
    raw: RawConfig, key: str, item: object, path: JsonPath, diags: list[Diagnostic]
) -> NavNode | NavEntry | None:
    if key == "pages":
        if isinstance(item, str):
            if not item.strip():
                diags.append(
                    raw.diagnostic(
                        "nav.empty-page", "empty page path; expected a page file path without extension", path
                    )
                )
                return None
            return NavEntry(item.strip(), path)
        if isinstance(item, dict) and "group" in item:
            return _group(raw, item, path, diags)
        if isinstance(item, dict):
            diags.append(
                raw.diagnostic(
                    "nav.page-entry", "a pages entry object must be a group (with 'group' and 'pages')", path
                )
            )
            return None
        diags.append(
            raw.diagnostic(
                "nav.page-entry",
                f"found {type_name(item)}, expected a page path string or a group object",
                path,
            )
        )
        return None
    if not isinstance(item, dict):
        diags.append(
            raw.diagnostic(
                "nav.entry-type", f"found {type_name(item)}, expected an object with '{LABEL_KEY[key]}'", path
            )
        )
        return None
    if key == "groups":
        return _group(raw, item, path, diags)
    label_key = LABEL_KEY[key]
    label = item.get(label_key)
    if not isinstance(label, str):
        # The schema reports the missing label; keep going with a placeholder to find further problems.
        label = ""
    node = _node(raw, item, "menu" if key == "menu" else label_key, label, path, diags)
    if (
        node.child_key is None
        and not node.get("href")
        and not node.get("openapi")
        and not node.get("asyncapi")
        and key not in ("anchors", "languages", "versions")
    ):
        diags.append(
            raw.diagnostic(
                "nav.empty-section",
                f"{label_key} '{label}' has no pages, groups or href; expected content or an external link",
                path,
                severity="warning",
            )
        )
    return node


def _group(raw: RawConfig, item: dict, path: JsonPath, diags: list[Diagnostic]) -> NavNode | None:
    label = item.get("group")
    if not isinstance(label, str):
        return None
    ungenerated = [key for key in ("sdk", "graphql") if key in item]
    if ungenerated and not any(key in item for key in ("pages", "openapi", "asyncapi", "root")):
        diags.append(
            raw.diagnostic(
                "nav.not-generated",
                f"group '{label}' has only {' and '.join(repr(k) for k in ungenerated)} pages, which docsgen does "
                "not generate: the group is left out of the navigation",
                (*path, ungenerated[0]),
                key=True,
                severity="warning",
            )
        )
    elif ungenerated:
        diags.append(
            raw.diagnostic(
                "nav.not-generated",
                f"group '{label}': docsgen does not generate {' or '.join(repr(k) for k in ungenerated)} pages; "
                "the group shows only its other pages",
                (*path, ungenerated[0]),
                key=True,
                severity="warning",
            )
        )
    elif not any(key in item for key in ("pages", "openapi", "asyncapi", "root")):
        diags.append(
            raw.diagnostic(
                "nav.group-pages",
                f"group '{label}' has neither 'pages' nor an 'openapi' field to generate them",
                path,
            )
        )
    return _node(raw, item, "group", label, path, diags)


def _check_default_version(raw: RawConfig, items: list, path: JsonPath, diags: list[Diagnostic]) -> None:
    defaults = [i for i, v in enumerate(items) if isinstance(v, dict) and v.get("default") is True]
    for extra in defaults[1:]:
        first = items[defaults[0]].get("version", defaults[0])
        diags.append(
            raw.diagnostic(
                "nav.default-version",
                f"more than one version has default: true (already '{first}'); expected at most one",
                (*path, extra, "default"),
            )
        )
