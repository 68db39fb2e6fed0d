"""The navigation tree built from docs.json and the pages: sections, sidebars, breadcrumbs, prev/next."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from docsgen.common.errors import Diagnostic, warning
from docsgen.common.jsonpos import format_path
from docsgen.config.model import NavEntry, NavNode, SiteConfig
from docsgen.config.safety import is_unsafe_url
from docsgen.openapi.navigation import API_ENTRY, Generated, inherit
from docsgen.pages.meta import prepare_pages
from docsgen.pages.page import Page


@dataclass
class NavLink:
    """A page (or external link) in a sidebar."""

    label: str
    key: str | None  # page key; None for external links
    url: str  # site-relative URL of the page, or the external URL
    external: bool = False
    icon: str | dict | None = None  # a name, an image, or {name, style, library}
    tag: str | None = None
    method: str | None = None
    deprecated: bool = False


@dataclass
class NavGroup:
    """A group of the sidebar; top-level groups are always expanded."""

    label: str
    children: list[NavGroup | NavLink]
    depth: int
    icon: str | dict | None = None  # a name, an image, or {name, style, library}
    tag: str | None = None
    root: NavLink | None = None
    expanded: bool = False
    directory: str | None = None  # listing on the root page: "accordion" | "card" (navigation `directory`)

    def first_link(self) -> NavLink | None:
        """Return the page a drilldown click opens: the root page, else the first page inside."""
        if self.root:
            return self.root
        for child in self.children:
            link = child if isinstance(child, NavLink) else child.first_link()
            if link and not link.external:
                return link
        return None

    def keys(self) -> set[str]:
        """Return every page key inside this group (its root included)."""
        out = {self.root.key} if self.root and self.root.key else set()
        for child in self.children:
            if isinstance(child, NavLink):
                if child.key:
                    out.add(child.key)
            else:
                out |= child.keys()
        return out


@dataclass
class Section:
    """A navigation element that switches the sidebar: language, version, product, dropdown, tab, menu item, anchor."""

    id: str
    kind: str
    label: str
    fields: dict
    parent: Section | None = None
    sections: list[Section] = field(default_factory=list)  # child sections (one kind)
    items: list[NavGroup | NavLink] = field(default_factory=list)  # sidebar content when a leaf
    is_default: bool = False

    @property
    def href(self) -> str | None:
        href = self.fields.get("href")
        return href if isinstance(href, str) else None

    @property
    def hidden(self) -> bool:
        return bool(self.fields.get("hidden"))

    def chain(self) -> list[Section]:
        """Return the sections from the outermost (below root) down to this one."""
        out: list[Section] = []
        node: Section | None = self
        while node is not None and node.kind != "root":
            out.append(node)
            node = node.parent
        return out[::-1]

    def first_page(self) -> NavLink | None:
        """Return the first page reached from this section (default children first)."""
        for item in self.items:
            link = item if isinstance(item, NavLink) else item.first_link()
            if link and not link.external:
                return link
        ordered = sorted(self.sections, key=lambda s: not s.is_default)
        for child in ordered:
            if child.href and not child.sections and not child.items:
                continue
            link = child.first_page()
            if link:
                return link
        return None


@dataclass
class Placement:
    """Where a page sits: its leaf section and the groups around it."""

    section: Section
    groups: list[NavGroup]


@dataclass
class Navigation:
    """The site's navigation with the lookups templates need."""

    root: Section
    placements: dict[str, Placement]
    order: list[str]  # page keys in reading order (visible pages only)
    sections: list[Section]  # every section, depth first
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # root page key -> (listing mode, group): groups whose root page lists their pages (navigation `directory`)
    directories: dict[str, tuple[str, NavGroup]] = field(default_factory=dict)

    def leaf_sections(self) -> list[Section]:
        """Return the sections that own a sidebar."""
        return [s for s in self.sections if s.items or not s.sections]

    def breadcrumbs(self, key: str) -> list[str]:
        """Return the labels from the outermost section to the innermost group of a page."""
        place = self.placements.get(key)
        if place is None:
            return []
        labels = [s.label for s in place.section.chain() if s.kind not in ("language", "version") and s.label]
        trail: list[str] = []
        for label in labels + [g.label for g in place.groups]:
            if not trail or label.strip().casefold() != trail[-1].strip().casefold():
                trail.append(label)  # a tab and its group of the same name ("Overview > Overview"): said once
        return trail

    def neighbours(self, key: str) -> tuple[str | None, str | None]:
        """Return the previous and next page keys within the same language and version."""
        if key not in self.placements or key not in self._index:
            return None, None
        i = self._index[key]
        scope = self._scope(key)
        prev = next_ = None
        if i > 0 and self._scope(self.order[i - 1]) == scope:
            prev = self.order[i - 1]
        if i + 1 < len(self.order) and self._scope(self.order[i + 1]) == scope:
            next_ = self.order[i + 1]
        return prev, next_

    def _scope(self, key: str) -> tuple[str, ...]:
        chain = self.placements[key].section.chain()
        return tuple(s.id for s in chain if s.kind in ("language", "version", "product"))

    @property
    def _index(self) -> dict[str, int]:
        if not hasattr(self, "_order_index"):
            self._order_index = {k: i for i, k in enumerate(self.order)}
        return self._order_index

    def default_section_path(self) -> list[Section]:
        """Return the chain of default sections from the root (first, or the one marked default)."""
        out, node = [], self.root
        while node.sections:
            node = next((s for s in node.sections if s.is_default), node.sections[0])
            out.append(node)
        return out


Locator = Callable[[tuple], tuple[str, int, int]]


class _Builder:
    def __init__(
        self,
        config: SiteConfig,
        pages: dict[str, Page],
        generated: Generated | None,
        locate: Locator | None,
    ):
        self.config, self.pages, self.generated, self.locate = config, pages, generated, locate
        self.placements: dict[str, Placement] = {}
        self.order: list[str] = []
        self.sections: list[Section] = []
        self.diags: list[Diagnostic] = []
        self.counter = 0
        self.directories: dict[str, tuple[str, NavGroup]] = {}

    def section(self, node: NavNode, parent: Section | None, inherited: dict) -> Section:
        sid = (
            "s" + "-".join(str(p) for p in node.json_path if isinstance(p, int))
            if node.kind != "root"
            else "root"
        )
        sec = Section(sid, node.kind, node.label, node.fields, parent)
        self.sections.append(sec)
        inherited = self._inherit(node, inherited)
        kids = [c for c in node.children if isinstance(c, NavNode) and c.kind != "group"]
        if kids:
            for child in kids:
                sec.sections.append(self.section(child, sec, inherited))
            if node.child_key == "versions":
                marked = [s for s in sec.sections if s.fields.get("default") is True]
                (marked[0] if marked else sec.sections[0]).is_default = True
            elif sec.sections:
                sec.sections[0].is_default = True
        else:
            sec.items = self.items(node, sec, [], 0, inherited)
        return sec

    _inherit = staticmethod(inherit)

    def items(
        self, node: NavNode, sec: Section, groups: list[NavGroup], depth: int, inherited: dict
    ) -> list[NavGroup | NavLink]:
        out: list[NavGroup | NavLink] = []
        children = list(node.children)
        if (
            not children
            and (node.fields.get("openapi") or node.fields.get("asyncapi"))
            and self.generated is not None
        ):
            return self.place_generated(node, sec, groups, depth, inherited)
        for child in children:
            if isinstance(child, NavEntry):
                out.extend(self.entry(child, node, sec, groups, inherited))
            elif child.kind == "group":
                group = self.group(child, sec, groups, depth, inherited)
                if group is not None:
                    out.append(group)
        return out

    def place_generated(
        self, node: NavNode, sec: Section, groups: list[NavGroup], depth: int, inherited: dict
    ) -> list[NavGroup | NavLink]:
        """Place the pages an `openapi` field generates: grouped by tag in a section, flat inside a group."""
        pages = self.generated.get(node.json_path, []) if self.generated is not None else []
        self.attach_overviews(pages, sec, groups)
        if node.kind == "group" or not any(p.api_tag for p in pages):
            return [self.place(p, sec, groups) for p in pages if not p.hidden]
        by_tag: dict[tuple[str, ...], NavGroup] = {}
        out: list[NavGroup] = []
        for page in pages:
            chain = (*page.api_tag_parents, page.api_tag or "Endpoints")  # 3.2 tag hierarchy: nested groups
            trail: list[NavGroup] = []
            for level in range(len(chain)):
                if chain[: level + 1] not in by_tag:
                    made = by_tag[chain[: level + 1]] = NavGroup(chain[level], [], depth + level)
                    if trail:
                        trail[-1].children.append(made)
                    else:
                        out.append(made)
                trail.append(by_tag[chain[: level + 1]])
            link = self.place(page, sec, [*groups, *trail])
            if not page.hidden:
                trail[-1].children.append(link)
        return [
            group for group in out if _has_links(group)
        ]  # a tag whose pages are all hidden: no empty group

    def attach_overviews(self, pages: list[Page], sec: Section, groups: list[NavGroup]) -> None:
        """Give the spec's generated overview pages (info, tags) the section of its endpoints, not a sidebar
        entry: they get the same tabs, anchors and language chrome as every page of that section."""
        for page in pages:
            parts = page.key.split("/")
            for n in range(len(parts) - 1, 0, -1):
                key = "/".join(parts[:n])
                overview = self.pages.get(key)
                if overview is not None and overview.source is None and overview.spec == page.spec:
                    self.placements.setdefault(key, Placement(sec, list(groups)))

    def group(
        self, node: NavNode, sec: Section, groups: list[NavGroup], depth: int, inherited: dict
    ) -> NavGroup | None:
        inherited = self._inherit(node, inherited)
        group = NavGroup(
            node.label,
            [],
            depth,
            icon=node.get("icon"),
            tag=node.get("tag"),
            expanded=node.get("expanded") is True,
        )
        root = node.get("root")
        if isinstance(root, str) and root:
            pages = self.lookup(NavEntry(root, (*node.json_path, "root")), node, inherited)
            if pages:
                group.root = self.place(pages[0], sec, [*groups, group])
        group.children = self.items(node, sec, [*groups, group], depth + 1, inherited)
        if node.get("hidden") or not group.children and group.root is None:
            return None  # hidden, or nothing to list (a group of sdk/graphql pages docsgen does not generate)
        listing = inherited.get("listing")
        if group.root and group.root.key and listing in ("accordion", "card"):
            group.directory = listing
            self.directories.setdefault(group.root.key, (listing, group))
        return group

    def entry(
        self, entry: NavEntry, node: NavNode, sec: Section, groups: list[NavGroup], inherited: dict
    ) -> list[NavLink]:
        links = []
        for page in self.lookup(entry, node, inherited):
            link = self.place(page, sec, groups)
            if not page.hidden:
                links.append(link)
        return links

    def lookup(self, entry: NavEntry, node: NavNode, inherited: dict) -> list[Page]:
        value = entry.value
        if self.generated is not None and API_ENTRY.match(value):
            return self.generated.get(entry.json_path, [])
        key = value.strip().lstrip("/")
        for suffix in (".mdx", ".md"):
            if key.endswith(suffix):
                key = key[: -len(suffix)]
        if key.endswith("/"):
            key += "index"
        page = self.pages.get(key)
        if page is None:
            where = self.config_location(entry)
            self.diags.append(
                warning(
                    "nav.missing-page", f"page '{value}' does not exist (no {key}.mdx or {key}.md)", *where
                )
            )
            return []
        return [page]

    def config_location(self, entry: NavEntry) -> tuple[str, int, int, str]:
        file, line, col = self.locate(entry.json_path) if self.locate else ("docs.json", 0, 0)
        return file, line, col, format_path(entry.json_path)

    def place(self, page: Page, sec: Section, groups: list[NavGroup]) -> NavLink:
        url_override = page.meta.get("url")
        if is_unsafe_url(url_override) and page.key not in self.placements:
            # located at the frontmatter (line 1): pages keep no positions of their frontmatter keys
            self.diags.append(
                warning(
                    "page.unsafe-url",
                    f"frontmatter url {str(url_override)[:60]!r} runs code in the reader's browser; the sidebar "
                    "links to the page itself instead",
                    page.source or page.key,
                    1,
                    1,
                    "url",
                    "use an https:// URL or a path on this site",
                )
            )
        if is_unsafe_url(url_override):
            url_override = None
        external = isinstance(url_override, str) and bool(re.match(r"^[a-z][a-z0-9+.-]*:", url_override))
        link = NavLink(
            page.sidebar_title,
            page.key,
            str(url_override) if external else page.url,
            external=external,
            icon=page.meta.get("icon"),
            tag=page.meta.get("tag"),
            method=None if page.meta.get("hideApiMarker") is True else page.method,
            deprecated=page.deprecated,
        )
        if page.key not in self.placements:
            self.placements[page.key] = Placement(sec, list(groups))
            if not page.hidden and not external:
                self.order.append(page.key)
        return link


def build_nav(
    config: SiteConfig,
    pages: dict[str, Page],
    generated: Generated | None = None,
    locate: Locator | None = None,
) -> Navigation:
    """Build the navigation; pages it names that do not exist become located warnings.

    generated: the pages each API entry of the navigation made (docsgen.openapi.navigation), when the site uses
    OpenAPI; None: API entries are looked up as page paths.
    """
    builder = _Builder(config, pages, generated, locate)
    builder.diags += prepare_pages(config, pages)  # {{variables}} in titles, `groups`, `related`
    inherited = {"openapi": config.api.openapi} if config.api.openapi else {}
    root = builder.section(config.navigation, None, inherited)
    return Navigation(
        root, builder.placements, builder.order, builder.sections, builder.diags, builder.directories
    )


def _has_links(group: NavGroup) -> bool:
    """Tell whether a group lists any page, itself or in a group inside it."""
    return any(not isinstance(c, NavGroup) or _has_links(c) for c in group.children)
