"""Mintlify's endpoint selector on API pages (`#endpoints-menu-trigger`): the endpoints of the page's API section.

An API page (a navigation entry with a method) gets a menu listing the endpoints of the innermost sidebar group
around it, each with its method, the current one marked, so a reader switches endpoint without the sidebar (on a
phone the sidebar is a drawer). Bounded: at most MAX entries, so a page's HTML does not grow with a huge API.
"""

from __future__ import annotations

from dataclasses import dataclass

from docsgen.nav.tree import NavGroup, NavLink, Placement

MAX = 200


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


def endpoints(place: Placement | None, key: str) -> tuple[Endpoint, ...]:
    """Return the endpoints of the group around page `key`, or () when the page is not an endpoint there."""
    if place is None or not place.groups:
        return ()
    links = [link for link in _links(place.groups[-1]) if link.method and link.key and not link.external]
    if not any(link.key == key for link in links):
        return ()
    mine = next(i for i, link in enumerate(links) if link.key == key)
    start = max(0, min(mine - MAX // 2, len(links) - MAX))  # the window of MAX around the current one
    return tuple(
        Endpoint(link.label, link.key or "", link.url, link.method or "", link.key == key)
        for link in links[start : start + MAX]
    )
