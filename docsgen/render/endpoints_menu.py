"""Mintlify's endpoint selector on API pages (`#endpoints-menu-trigger`): the endpoints of the page's API section.

An API page (a navigation entry with a method) gets a menu listing the endpoints of the innermost sidebar group
around it, each with its method, the current one marked, so a reader switches endpoint without the sidebar (on a
phone the sidebar is a drawer). Bounded: at most MAX entries, so a page's HTML does not grow with a huge API.

Every endpoint page of a group shows nearly the same menu, so the per-group work is done once per group and
process (`_GroupMenu`): its endpoint links and where each page sits in them, and each entry's HTML (not current)
for each fragment key (generation, section, root: what the entries' links and marks depend on). A page joins its
window of those, its own entry rendered as the current one; nothing is walked or rendered again per page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import cast

from markupsafe import Markup

from docsgen.nav.tree import NavGroup, NavLink, Placement

MAX = 200
MAX_GROUPS = 1024  # group menus kept per process (a new navigation makes new groups; the oldest go first)
MAX_LISTS = 16  # rendered lists kept per group (one per section, depth and generation the group is seen at)


@dataclass(frozen=True)
class Endpoint:
    """One entry of the menu: the sidebar label, the page key and URL (site-relative), its method."""

    label: str
    key: str
    url: str
    method: str
    current: bool


def _links(group: NavGroup) -> list[NavLink]:
    out: list[NavLink] = []
    for child in group.children:
        out += [child] if isinstance(child, NavLink) else _links(child)
    return out


@dataclass
class _GroupMenu:
    """What every endpoint page of one group shares: its endpoints (none current), each page's place in them, and
    its entries' HTML (not current) by fragment key, made as windows first show them."""

    group: NavGroup  # held, so its id is not reused while the entry lives
    entries: tuple[Endpoint, ...]
    index: dict[str, tuple[int, ...]]  # page key -> its entries (a page listed twice is marked twice)
    lists: dict[Hashable, list[Markup | None]] = field(default_factory=dict)  # by key: each entry's HTML

    @staticmethod
    def of(group: NavGroup) -> _GroupMenu:
        links = [link for link in _links(group) if link.method and link.key and not link.external]
        entries = tuple(
            Endpoint(link.label, link.key or "", link.url, link.method or "", False) for link in links
        )
        index: dict[str, tuple[int, ...]] = {}
        for i, entry in enumerate(entries):
            index[entry.key] = (*index.get(entry.key, ()), i)
        return _GroupMenu(group, entries, index)


_groups: dict[int, _GroupMenu] = {}


def _group_menu(group: NavGroup) -> _GroupMenu:
    found = _groups.get(id(group))
    if found is None or found.group is not group:
        if len(_groups) >= MAX_GROUPS:
            del _groups[next(iter(_groups))]
        found = _groups[id(group)] = _GroupMenu.of(group)
    return found


@dataclass(frozen=True)
class EndpointMenu:
    """A page's menu: the window of its group's endpoints (`entries`, the page's marked current)."""

    shared: _GroupMenu
    start: int  # the window's first entry in the group
    marked: tuple[int, ...]  # the page's entries in the window (one, unless the group lists the page twice)
    entries: tuple[Endpoint, ...]

    def __iter__(self) -> Iterator[Endpoint]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def currents(self) -> tuple[Endpoint, ...]:
        return tuple(self.entries[at] for at in self.marked)

    def items_html(self, item: Callable[[Endpoint], str], key: Hashable | None) -> Markup:
        """Return the list's entries rendered by `item` (the theme's macro), in order: an entry not current is
        rendered once per group and `key` (none: every time), then shared by every window showing it."""
        if key is None:
            return Markup("".join([Markup(item(e)) for e in self.entries]))
        lists = self.shared.lists
        made = lists.get(key)
        if made is None:
            if len(lists) >= MAX_LISTS:
                del lists[next(iter(lists))]
            made = lists[key] = [None] * len(self.shared.entries)
        start, end = self.start, self.start + len(self.entries)
        if None in made[start:end]:  # entries this window shows first
            for at in range(start, end):
                if made[at] is None:
                    made[at] = Markup(item(self.shared.entries[at]))
        out = cast("list[Markup]", made[start:end])  # every entry made above
        for at in self.marked:
            out[at] = Markup(item(self.entries[at]))
        return Markup("".join(out))  # every piece is Markup already: no escaping pass


def endpoint_menu(place: Placement | None, key: str) -> EndpointMenu | None:
    """Return the menu of page `key` (the endpoints of the group around it), or None when the page is not an
    endpoint there."""
    if place is None or not place.groups:
        return None
    shared = _group_menu(place.groups[-1])
    mine = shared.index.get(key)
    if mine is None:
        return None
    # the window of MAX around the current one
    start = max(0, min(mine[0] - MAX // 2, len(shared.entries) - MAX))
    window = list(shared.entries[start : start + MAX])
    marked = tuple(i - start for i in mine if start <= i < start + len(window))
    for at in marked:
        window[at] = dataclasses.replace(window[at], current=True)
    return EndpointMenu(shared, start, marked, tuple(window))


def endpoints(place: Placement | None, key: str) -> tuple[Endpoint, ...]:
    """Return the endpoints of the group around page `key`, or () when the page is not an endpoint there."""
    menu = endpoint_menu(place, key)
    return menu.entries if menu else ()
