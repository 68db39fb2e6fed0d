"""Page policies: where each page may appear (navigation, sitemap, llms.txt, search), its robots tag and boost."""

from __future__ import annotations

import functools
import hashlib
import os
import re
from dataclasses import dataclass, field
from typing import Any

from docsgen.config.model import NavNode, SiteConfig
from docsgen.nav.tree import NavGroup, Navigation, Section
from docsgen.pages.page import Page

SITE_URL_ENV = "DOCSGEN_SITE_URL"
_SCOPE_KINDS = ("language", "version", "product")
SEARCH_SPLIT_KINDS = (
    "product",
    "version",
)  # a site with either gets one search bundle per product and version
INDEX_DIR = "pagefind"  # where the search bundle (or bundles) go in the site


@dataclass(frozen=True)
class Access:
    """Who may read a page behind `docsgen server`'s sign-in gate (Mintlify's authentication rules).

    `groups` set: signed-in readers in at least one of them; else `public`: everyone; else any signed-in reader.
    """

    public: bool = False
    groups: tuple[str, ...] = ()

    @property
    def marked(self) -> bool:
        """Tell whether the page says anything about access (a site without any marks is not split)."""
        return self.public or bool(self.groups)

    @property
    def label(self) -> str:
        """Name the access class: 'public', 'members' or 'groups:<g1>,<g2>' (sorted)."""
        if self.groups:
            return "groups:" + ",".join(sorted(self.groups))
        return "public" if self.public else "members"


def access_of(meta: dict[str, Any], chain: list[dict]) -> Access:
    """Return a page's access: frontmatter `groups` (OpenAPI `x-mint.groups` arrive there too) and `public`, or a
    navigation group's `public: true` above it."""
    raw = meta.get("groups")
    if isinstance(raw, str):
        raw = [raw]
    groups = tuple(sorted({str(g).strip() for g in raw if str(g).strip()})) if isinstance(raw, list) else ()
    public = meta.get("public") is True or (
        meta.get("public") is None and any(f.get("public") is True for f in chain)
    )
    return Access(public=public and not groups, groups=groups)


@dataclass(frozen=True)
class PagePolicy:
    """Where a page may appear: navigation, sitemap and llms.txt, site search; its robots tag and search boost."""

    navigable: bool  # listed in the visible navigation
    indexed: bool  # in sitemap.xml and llms.txt (search engines and agents may list it)
    searchable: bool  # in the site search index
    noindex: bool  # gets <meta name="robots" content="noindex">
    boost: float = 1.0
    scope: dict[str, str] = field(
        default_factory=dict
    )  # {"language": "fr", "version": "v2", "product": "API"}
    crumbs: tuple[str, ...] = ()  # section and group labels, outermost first
    access: Access = Access()  # who may read it behind docsgen server's gate


def site_url(obj: Any = None) -> str | None:
    """Return the public site URL, no trailing slash: --site-url, else $DOCSGEN_SITE_URL, else seo.metatags.canonical."""
    value = getattr(obj, "site_url", None) or os.environ.get(SITE_URL_ENV)
    config = getattr(obj, "config", None)
    if not value and config is not None:
        value = config.seo.metatags.get("canonical")
    if not isinstance(value, str) or not re.match(r"^https?://[^/\s]+", value.strip()):
        return None
    return value.strip().rstrip("/")


def absolute_url(base: str, page: Page, config: SiteConfig | None = None) -> str:
    """Return a page's public URL; `seo.trailingSlash: false` drops the slash of pretty URLs."""
    url = page.url
    if config is not None and not config.seo.trailing_slash and url.endswith("/"):
        url = url[:-1]
    return f"{base}/{url}"


def indexing_all(config: SiteConfig) -> bool:
    """Tell whether docs.json asks for every page to be indexed (`seo.indexing: all`)."""
    return config.seo.index_all


class PolicyTable:
    """Every page's policy for one navigation, computed when first asked (a replaced Page is recomputed)."""

    def __init__(self, config: SiteConfig, nav: Navigation, pages_marked: bool = False) -> None:
        self.config, self.nav = config, nav
        self.pages_marked = pages_marked  # some page's frontmatter has `public` or `groups`
        self._groups: dict[int, dict] | None = None
        self._known: dict[str, tuple[Page, PagePolicy]] = {}

    def of(self, page: Page) -> PagePolicy:
        """Return a page's policy."""
        hit = self._known.get(page.key)
        if hit is None or hit[0] is not page:
            if self._groups is None:
                self._groups = _group_fields(self.config, self.nav)
            hit = self._known[page.key] = (page, _policy(self.config, self.nav, page, self._groups))
        return hit[1]

    @functools.cached_property
    def split_search(self) -> bool:
        """Tell whether the site's search is one bundle per product and version (its navigation has either)."""
        return any(section.kind in SEARCH_SPLIT_KINDS for section in self.nav.sections)

    def search_folder(self, policy: PagePolicy) -> str:
        """Return the folder of the search bundle holding a page: pagefind, or pagefind/<group> on a split site
        (pages outside every product and version: pagefind/site)."""
        base = self.search_base(policy)
        if not self.access_marked or not (policy.access.groups or not policy.access.public):
            return base
        # A site that marks access keeps restricted pages' records out of the bundle everyone may read.
        return f"{INDEX_DIR}/{access_bundle_name(base, policy.access)}"

    def search_base(self, policy: PagePolicy) -> str:
        """Return the bundle a page's search box loads: its product and version's (restricted bundles merged)."""
        return f"{INDEX_DIR}/{search_group(policy) or 'site'}" if self.split_search else INDEX_DIR

    @functools.cached_property
    def access_marked(self) -> bool:
        """Tell whether the site marks access anywhere (page `public`/`groups`, a navigation group's `public`):
        then each access class of pages gets search bundles of its own (see search_folder)."""
        return self.pages_marked or navigation_marks_access(self.config.navigation)

    def table(self, pages: dict[str, Page]) -> dict[str, PagePolicy]:
        """Return the policy of each page, by key."""
        return {key: self.of(page) for key, page in pages.items()}


def access_bundle_name(base: str, access: Access) -> str:
    """Name the search bundle of a base bundle's pages of one restricted access class (a folder under pagefind/)."""
    stem = base.removeprefix(INDEX_DIR).strip("/")
    digest = hashlib.sha256(access.label.encode("utf-8")).hexdigest()[:10]
    kind = "members" if not access.groups else f"groups-{digest}"
    return f"{stem}--{kind}" if stem else f"access-{kind}"


def navigation_marks_access(node: Any) -> bool:
    """Tell whether a docs.json navigation tree has a group with `public`."""
    if isinstance(node, NavNode):
        if "public" in node.fields:
            return True
        return any(navigation_marks_access(child) for child in node.children)
    return False


def search_group(policy: PagePolicy) -> str:
    """Name a page's search bundle after its product and version ("" for a page outside both): a readable slug
    and a digest of the exact labels (two labels that slug alike still get two bundles)."""
    return _group_name(tuple(policy.scope[kind] for kind in SEARCH_SPLIT_KINDS if policy.scope.get(kind)))


@functools.lru_cache(maxsize=1024)
def _group_name(values: tuple[str, ...]) -> str:
    if not values:
        return ""
    slug = re.sub(r"[^a-z0-9]+", "-", "-".join(values).lower()).strip("-")[:40]
    digest = hashlib.sha256("\x00".join(values).encode("utf-8")).hexdigest()[:8]
    return f"{slug}-{digest}" if slug else digest


def policies(config: SiteConfig, nav: Navigation, pages: dict[str, Page]) -> dict[str, PagePolicy]:
    """Return the policy of every page."""
    return PolicyTable(config, nav).table(pages)


def _policy(config: SiteConfig, nav: Navigation, page: Page, groups: dict[int, dict]) -> PagePolicy:
    place = nav.placements.get(page.key)
    chain: list[dict] = []
    scope: dict[str, str] = {}
    crumbs: list[str] = []
    if place is not None:
        for section in place.section.chain():
            chain.append(section.fields)
            if section.kind in _SCOPE_KINDS and section.label:
                scope[section.kind] = section.label
            elif section.label:
                crumbs.append(section.label)
        for group in place.groups:
            chain.append(getattr(group, "fields", None) or groups.get(id(group), {}))
            crumbs.append(group.label)
    explicit_noindex = bool(page.meta.get("noindex")) or "noindex" in str(page.meta.get("robots", ""))
    hidden_parent = any(f.get("hidden") is True for f in chain)
    parent_searchable = any(f.get("searchable") is True for f in chain)
    external = isinstance(page.meta.get("url"), str) and "://" in page.meta["url"]
    navigable = place is not None and not page.hidden and not hidden_parent and not external
    everything = indexing_all(config)
    indexed = not explicit_noindex and (
        navigable
        or (everything and not external)
        or (place is not None and hidden_parent and parent_searchable and not page.hidden)
    )
    access = access_of(page.meta, chain)
    searchable = (
        (indexed or (bool(access.groups) and not external))  # a group's page: in its group's bundle only
        and page.meta.get("searchable") is not False
        and not any(f.get("searchable") is False for f in chain)
    )
    noindex = explicit_noindex or (page.hidden and not everything)
    return PagePolicy(
        navigable, indexed, searchable, noindex, _boost(page, chain), scope, tuple(crumbs), access
    )


def _boost(page: Page, chain: list[dict]) -> float:
    """Return the search boost: the page's own, else the nearest group or section that sets one."""
    for value in [page.meta.get("boost"), *(f.get("boost") for f in reversed(chain))]:
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            return float(value)
    return 1.0


def _group_fields(config: SiteConfig, nav: Navigation) -> dict[int, dict]:
    """Map each sidebar group (by id) to its docs.json fields, walking docs.json beside the built navigation."""
    sections = {id(s.fields): s for s in nav.sections}
    out: dict[int, dict] = {}

    def pair(node: NavNode, items: list) -> None:
        nodes = [c for c in node.children if isinstance(c, NavNode) and c.kind == "group"]
        built = [i for i in items if isinstance(i, NavGroup)]
        visible = [n for n in nodes if not n.get("hidden")]
        for group_node, group in zip(visible, built, strict=False):
            out[id(group)] = group_node.fields
            pair(group_node, group.children)

    def walk(node: NavNode) -> None:
        section: Section | None = sections.get(id(node.fields))
        if section is not None and node.kind != "group":
            pair(node, section.items)
        for child in node.children:
            if isinstance(child, NavNode) and child.kind != "group":
                walk(child)

    walk(config.navigation)
    # Groups hidden in docs.json are not in the sidebar: find them by label under their parent.
    # Pages share sections and groups, so each lookup is made once (the walk was pages x tree).
    section_nodes: dict[int, NavNode | None] = {}
    found: dict[tuple[int, int], NavNode | None] = {}
    for place in nav.placements.values():
        key = id(place.section)
        if key not in section_nodes:
            section_nodes[key] = _node_of(config.navigation, place.section)
        parent: NavNode | None = section_nodes[key]
        for group in place.groups:
            if parent is None:
                break
            step = (id(parent), id(group))
            if step in found:
                parent = found[step]
                continue
            if id(group) in out:
                match = _find_node(parent, out[id(group)])
            else:
                match = next(
                    (
                        c
                        for c in parent.children
                        if isinstance(c, NavNode) and c.kind == "group" and c.label == group.label
                    ),
                    None,
                )
                if match is not None:
                    out[id(group)] = match.fields
            found[step] = match
            parent = match
    return out


def _node_of(root: NavNode, section: Section) -> NavNode | None:
    """Return the docs.json element a section was built from."""
    if root.fields is section.fields:
        return root
    for child in root.children:
        if isinstance(child, NavNode) and child.kind != "group":
            found = _node_of(child, section)
            if found is not None:
                return found
    return None


def _find_node(root: NavNode, fields: dict) -> NavNode | None:
    """Return the element under root whose fields are `fields`."""
    for child in root.children:
        if isinstance(child, NavNode):
            if child.fields is fields:
                return child
            found = _find_node(child, fields)
            if found is not None:
                return found
    return None
