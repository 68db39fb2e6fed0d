"""Rebuild a mint.json navigation (groups + url-prefix tabs, anchors and versions) as a docs.json navigation tree."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docsgen.common.errors import error
from docsgen.common.jsonpos import JsonPath

if TYPE_CHECKING:
    from docsgen.config.legacy import Converter

_EXTERNAL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
_GROUP_KEYS = {
    "group",
    "pages",
    "icon",
    "iconType",
    "version",
    "hidden",
    "tag",
    "root",
    "expanded",
    "openapi",
}
DEFAULT = ""  # section key of pages that match no tab or anchor prefix
SectionKey = tuple[str, str]  # (tab prefix, anchor prefix) owning a page


def is_external(url: str) -> bool:
    """Tell whether a mint.json url leaves the site (https:, mailto:, //host) rather than naming a folder."""
    return bool(_EXTERNAL.match(url.strip()))


def folder(url: str) -> str:
    """Normalise a mint.json tab/anchor url into the folder prefix its pages start with."""
    return url.strip().strip("/").removesuffix(".mdx").removesuffix(".md")


@dataclass
class Section:
    """A mint.json tab or anchor: its label, folder prefix and the docs.json fields it carries over."""

    name: str
    prefix: str | None  # None: an external link
    fields: dict
    origin: JsonPath
    version: str | None = None


@dataclass
class NavBuilder:
    """Split the mint.json group tree into docs.json divisions, remembering where each value came from."""

    source: str
    warn: Callable[[str, str, JsonPath], None]
    origins: dict[JsonPath, tuple[str, JsonPath]] = field(default_factory=dict)

    # ------------------------------------------------------------------ groups
    def clean_groups(self, navigation: list, path: JsonPath) -> list[tuple[dict, JsonPath]]:
        """Return the top-level groups with their mint.json paths, wrapping stray page strings in a group."""
        out: list[tuple[dict, JsonPath]] = []
        for i, entry in enumerate(navigation):
            where = (*path, i)
            if isinstance(entry, dict) and isinstance(entry.get("group"), str):
                out.append((entry, where))
            elif isinstance(entry, str):
                self.warn(
                    "legacy.nav-page",
                    f"top-level page '{entry}' is not in a group; it was put in a group named 'Pages'",
                    where,
                )
                out.append(({"group": "Pages", "pages": [entry]}, where))
            else:
                self.warn(
                    "legacy.nav-entry",
                    "navigation entry is not a group object with a 'group' name; dropped",
                    where,
                )
        return out

    def split(
        self, groups: list[tuple[dict, JsonPath]], classify: Callable[[str], SectionKey], version: str | None
    ) -> dict[SectionKey, list[tuple[dict, JsonPath]]]:
        """Partition groups page by page: {section key: groups holding only that section's pages}."""
        result: dict[SectionKey, list[tuple[dict, JsonPath]]] = {}
        for group, where in groups:
            if version is not None and group.get("version") not in (None, version):
                continue
            for key, part in self._split_group(group, where, classify, version).items():
                result.setdefault(key, []).append((part, where))
        return result

    def _split_group(
        self, group: dict, where: JsonPath, classify: Callable[[str], SectionKey], version: str | None
    ) -> dict[SectionKey, dict]:
        pages = group.get("pages", [])
        if not isinstance(pages, list):
            self.warn("legacy.pages", "'pages' is not an array; the group was left empty", (*where, "pages"))
            pages = []
        per_key: dict[SectionKey, list] = {}
        for i, page in enumerate(pages):
            at = (*where, "pages", i)
            if isinstance(page, str):
                per_key.setdefault(classify(page), []).append((page, at))
            elif isinstance(page, dict) and isinstance(page.get("group"), str):
                if version is not None and page.get("version") not in (None, version):
                    continue
                for key, part in self._split_group(page, at, classify, version).items():
                    per_key.setdefault(key, []).append((part, at))
            else:
                self.warn("legacy.page", "page entry is neither a path nor a group object; dropped", at)
        if not per_key and group.get("openapi"):
            per_key[classify("")] = []
        return {key: self._group_fields(group, where, entries) for key, entries in per_key.items()}

    def _group_fields(self, group: dict, where: JsonPath, entries: list) -> dict:
        out: dict = {"group": group["group"]}
        for key in ("icon", "iconType", "tag", "root", "expanded", "openapi"):
            if key in group:
                out[key] = group[key]
        if group.get("hidden") is True:
            out["hidden"] = True
        for key in group:
            if key not in _GROUP_KEYS:
                self.warn(
                    "legacy.group-key",
                    f"group field '{key}' has no docs.json equivalent; dropped",
                    (*where, key),
                )
        out["pages"] = [value for value, _ in entries]
        out["_origins"] = [at for _, at in entries]
        return out

    # ------------------------------------------------------------------ sections
    def sections(self, entries: object, kind: str, path: JsonPath) -> list[Section]:
        """Read mint.json tabs or anchors; an external url gives a Section with `href` and no prefix."""
        out: list[Section] = []
        if entries is None:
            return out
        if not isinstance(entries, list):
            self.warn("legacy.type", f"'{kind}' is not an array; dropped", path)
            return out
        label_key = "tab" if kind == "tabs" else "anchor"
        for i, entry in enumerate(entries):
            where = (*path, i)
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry.get("name"):
                self.warn("legacy.section", f"{kind[:-1]} without a 'name'; dropped", where)
                continue
            url = entry.get("url") if isinstance(entry.get("url"), str) else ""
            fields: dict = {label_key: entry["name"]}
            for key in ("icon", "iconType"):
                if isinstance(entry.get(key), str):
                    fields[key] = entry[key]
            if kind == "anchors" and entry.get("color") is not None:
                color = anchor_color(entry["color"])
                if color:
                    fields["color"] = color
                else:
                    self.warn(
                        "legacy.color",
                        "anchor color is not a hex colour or {from, to}; dropped",
                        (*where, "color"),
                    )
            if entry.get("isDefaultHidden") is True:
                fields["hidden"] = True
            for key in entry:
                if key not in ("name", "url", "icon", "iconType", "color", "isDefaultHidden", "version"):
                    self.warn(
                        "legacy.section-key",
                        f"{kind[:-1]} field '{key}' has no docs.json equivalent; dropped",
                        (*where, key),
                    )
            version = entry.get("version") if isinstance(entry.get("version"), str) else None
            if not url:
                self.warn("legacy.section", f"{kind[:-1]} '{entry['name']}' has no 'url'; dropped", where)
            elif is_external(url):
                out.append(Section(entry["name"], None, {**fields, "href": url}, where, version))
            else:
                out.append(Section(entry["name"], folder(url), fields, where, version))
        return out


def anchor_color(value: object) -> dict | None:
    """Convert a mint.json anchor colour (hex or gradient {from, to}) to docs.json {light, dark}."""
    hex_re = re.compile(r"^#([a-fA-F0-9]{6}|[a-fA-F0-9]{3})$")
    if isinstance(value, str) and hex_re.match(value):
        return {"light": value, "dark": value}
    if isinstance(value, dict):
        start, end = value.get("from"), value.get("to", value.get("via"))
        if isinstance(start, str) and hex_re.match(start):
            end = end if isinstance(end, str) and hex_re.match(end) else start
            return {"light": start, "dark": end}
    return None


def owner(page: str, sections: list[Section]) -> str:
    """Return the folder prefix of the section owning a page path (longest prefix wins), DEFAULT for none."""
    path = page.strip().lstrip("/")
    if " " in path:  # "GET /users" style endpoint references follow no folder
        return DEFAULT
    best = DEFAULT
    for section in sections:
        prefix = section.prefix
        if prefix and len(prefix) > len(best) and (path == prefix or path.startswith(prefix + "/")):
            best = prefix
    return best


def finish(groups: list[tuple[dict, JsonPath]], path: JsonPath, source: str, origins: dict) -> list[dict]:
    """Strip the bookkeeping from split groups and record each group's and page's mint.json origin."""
    out = []
    for i, (group, where) in enumerate(groups):
        at = (*path, i)
        out.append(_finish_group(group, where, at, source, origins))
    return out


def _finish_group(group: dict, where: JsonPath, at: JsonPath, source: str, origins: dict) -> dict:
    origins[at] = (source, where)
    page_origins = group.pop("_origins")
    pages = []
    for j, (page, page_where) in enumerate(zip(group["pages"], page_origins, strict=True)):
        page_at = (*at, "pages", j)
        if isinstance(page, dict):
            pages.append(_finish_group(page, page_where, page_at, source, origins))
        else:
            origins[page_at] = (source, page_where)
            pages.append(page)
    if pages or "openapi" not in group:
        group["pages"] = pages
    else:
        del group["pages"]
    return group


def navigation(c: Converter, d: dict, out: dict) -> None:
    """Convert mint.json navigation, tabs, anchors, primaryTab, topAnchor and versions to docs.json navigation."""
    nav = d.get("navigation")
    if not isinstance(nav, list):
        c.diag(
            error,
            "legacy.navigation",
            "mint.json needs a 'navigation' array of groups",
            ("navigation",) if "navigation" in d else (),
        )
        out["navigation"] = {"groups": []}
        return
    builder = NavBuilder(c.source, c.warn, c.origins)
    groups = builder.clean_groups(nav, ("navigation",))
    tabs = builder.sections(d.get("tabs"), "tabs", ("tabs",))
    anchors = builder.sections(d.get("anchors"), "anchors", ("anchors",))
    primary = found if isinstance(found := d.get("primaryTab"), dict) else {}
    top = found if isinstance(found := d.get("topAnchor"), dict) else {}
    default_tab = {"tab": primary.get("name") if isinstance(primary.get("name"), str) else "Documentation"}
    default_anchor = {
        "anchor": top.get("name") if isinstance(top.get("name"), str) else "Documentation",
        "icon": top.get("icon") if isinstance(top.get("icon"), str) else "book-open",
    }
    if isinstance(top.get("iconType"), str):
        default_anchor["iconType"] = top["iconType"]
    layout = _Layout(builder, groups, tabs, anchors, default_tab, default_anchor)
    listed = read_versions(c, d)
    result: dict = {}
    if listed:
        result["versions"] = []
        for i, (fields, where) in enumerate(listed):
            at = ("navigation", "versions", i)
            c.origins[at] = (c.source, where)
            result["versions"].append({**fields, **layout.content(fields["version"], at)})
    else:
        if any(isinstance(g, dict) and "version" in g for g, _ in groups) or any(
            s.version for s in tabs + anchors
        ):
            c.warn(
                "legacy.version",
                "'version' fields are ignored: mint.json has no 'versions' list",
                ("navigation",),
            )
        result.update(layout.content(None, ("navigation",)))
    external = [s for s in anchors if s.prefix is None]
    if external:
        result["global"] = {"anchors": []}
        for i, section in enumerate(external):
            c.origins[("navigation", "global", "anchors", i)] = (c.source, section.origin)
            result["global"]["anchors"].append(section.fields)
    for prefix in layout.unused():
        c.warn(
            "legacy.section-empty",
            f"tab or anchor with url '{prefix}' matches no page of the navigation; dropped",
            layout.origin_of(prefix),
        )
    for key in ("primaryTab", "topAnchor"):
        for sub in d.get(key, {}) if isinstance(d.get(key), dict) else {}:
            if sub not in ("name", "icon", "iconType"):
                c.drop((key, sub))
    out["navigation"] = result
    c.origins[("navigation",)] = (c.source, ("navigation",))


def read_versions(c: Converter, d: dict) -> list[tuple[dict, JsonPath]]:
    """Read mint.json `versions` (names, or objects with a name) as docs.json version fields."""
    versions = d.get("versions")
    out: list[tuple[dict, JsonPath]] = []
    for i, v in enumerate(versions if isinstance(versions, list) else []):
        name = v if isinstance(v, str) else v.get("name") if isinstance(v, dict) else None
        if isinstance(name, str) and name:
            fields: dict = {"version": name}
            if isinstance(v, dict) and v.get("default") is True:
                fields["default"] = True
            out.append((fields, ("versions", i)))
        else:
            c.warn("legacy.version", "version entry without a name; dropped", ("versions", i))
    return out


class _Layout:
    """Place the groups of one (version of the) navigation under tabs and anchors by page folder."""

    def __init__(
        self,
        builder: NavBuilder,
        groups,
        tabs: list[Section],
        anchors: list[Section],
        default_tab,
        default_anchor,
    ):
        self.builder, self.groups = builder, groups
        self.tabs, self.anchors = tabs, [a for a in anchors if a.prefix is not None]
        self.default_tab, self.default_anchor = default_tab, default_anchor
        self.used: set[str] = set()

    def content(self, version: str | None, path: JsonPath) -> dict:
        tabs = [t for t in self.tabs if version is None or t.version in (None, version)]
        anchors = [a for a in self.anchors if version is None or a.version in (None, version)]
        internal_tabs = [t for t in tabs if t.prefix is not None]
        parts = self.builder.split(
            self.groups, lambda page: (owner(page, internal_tabs), owner(page, anchors)), version
        )
        self.used.update(key for pair in parts for key in pair if key)
        if not tabs:
            return self._sections(parts, DEFAULT, anchors, path)
        present = {tab_key for tab_key, _ in parts}
        plan: list[tuple[dict, str | None, JsonPath]] = []
        if DEFAULT in present:
            plan.append((dict(self.default_tab), DEFAULT, ("primaryTab",)))
        for tab in tabs:
            if tab.prefix is None:  # an external link
                plan.append((dict(tab.fields), None, tab.origin))
            elif tab.prefix in present:
                plan.append((dict(tab.fields), tab.prefix, tab.origin))
        entries = []
        for i, (entry, key, origin) in enumerate(plan):
            at = (*path, "tabs", i)
            self.builder.origins[at] = (self.builder.source, origin)
            if key is not None:
                entry.update(self._sections(parts, key, anchors, at))
            entries.append(entry)
        return {"tabs": entries}

    def _sections(self, parts: dict, tab_key: str, anchors: list[Section], path: JsonPath) -> dict:
        """Content of one tab (or of the whole site without tabs): anchors when they split it, else groups."""
        mine = {anchor_key: groups for (t, anchor_key), groups in parts.items() if t == tab_key}
        if not mine or set(mine) == {DEFAULT}:
            return {
                "groups": finish(
                    mine.get(DEFAULT, []), (*path, "groups"), self.builder.source, self.builder.origins
                )
            }
        entries: list[tuple[dict, str | None, JsonPath]] = []
        if DEFAULT in mine:
            entries.append((dict(self.default_anchor), DEFAULT, ("topAnchor",)))
        for anchor in anchors:
            if anchor.prefix in mine:
                entries.append((dict(anchor.fields), anchor.prefix, anchor.origin))
        out = []
        for i, (fields, key, origin) in enumerate(entries):
            at = (*path, "anchors", i)
            self.builder.origins[at] = (self.builder.source, origin)
            fields["groups"] = finish(mine[key], (*at, "groups"), self.builder.source, self.builder.origins)
            out.append(fields)
        return {"anchors": out}

    def unused(self) -> list[str]:
        return [
            s.prefix for s in self.tabs + self.anchors if s.prefix is not None and s.prefix not in self.used
        ]

    def origin_of(self, prefix: str) -> JsonPath:
        for section in self.tabs + self.anchors:
            if section.prefix == prefix:
                return section.origin
        return ()
