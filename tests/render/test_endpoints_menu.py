"""The endpoint selector's per-group work is done once per group and process (docsgen/render/endpoints_menu.py):
the group is walked once, its list rendered once per fragment key, and every page still gets its own menu with
only its own entry marked, as when each page made its menu alone."""

from __future__ import annotations

import json
import re
from pathlib import Path

from docsgen.build import build
from docsgen.nav.tree import NavGroup, NavLink, Placement, Section
from docsgen.render import endpoints_menu
from tests.conftest import write_tree


def _place(group: NavGroup) -> Placement:
    return Placement(Section("s", "tab", "S", {}), [group])


def _group(count: int, prefix: str = "e") -> NavGroup:
    links: list[NavGroup | NavLink] = [
        NavLink(f"E{i}", f"{prefix}{i}", f"{prefix}{i}/", method="GET") for i in range(count)
    ]
    return NavGroup("API", [NavGroup("Inner", links[: count // 2], depth=1), *links[count // 2 :]], depth=0)


def test_a_group_is_walked_once_for_all_its_pages(monkeypatch):
    group, walks = _group(300), []
    walk = endpoints_menu._links
    monkeypatch.setattr(endpoints_menu, "_links", lambda g: walks.append(g) or walk(g))
    menus = [endpoints_menu.endpoints(_place(group), f"e{i}") for i in range(300)]
    assert walks.count(group) == 1
    for i, menu in enumerate(menus):  # each page its own window, only itself marked
        assert [e.key for e in menu if e.current] == [f"e{i}"]
        start = max(0, min(i - endpoints_menu.MAX // 2, 300 - endpoints_menu.MAX))
        assert [e.key for e in menu] == [f"e{j}" for j in range(start, start + endpoints_menu.MAX)]


def test_another_group_gets_its_own_menu():
    first, second = _group(4, "a"), _group(4, "b")
    assert [e.key for e in endpoints_menu.endpoints(_place(first), "a1")] == ["a0", "a1", "a2", "a3"]
    assert [e.key for e in endpoints_menu.endpoints(_place(second), "b1")] == ["b0", "b1", "b2", "b3"]
    assert endpoints_menu.endpoints(_place(second), "a1") == ()


def test_the_shared_list_equals_each_entry_rendered_alone():
    group = _group(6)
    item = lambda e: f"<li>{e.key}{'*' if e.current else ''}</li>"  # noqa: E731
    for i in [0, 3, 5, 3]:
        menu = endpoints_menu.endpoint_menu(_place(group), f"e{i}")
        assert menu is not None
        alone = "".join(item(e) for e in menu)
        assert menu.items_html(item, ("k",)) == alone == menu.items_html(item, None)
        assert alone.count("*") == 1 and f"e{i}*" in alone


def test_each_entry_is_rendered_once_per_key_however_the_windows_move():
    group, calls = _group(300), []

    def item(e: endpoints_menu.Endpoint) -> str:
        calls.append(e.key)
        return f"<li>{e.key}{'*' if e.current else ''}</li>"

    for i in range(300):
        menu = endpoints_menu.endpoint_menu(_place(group), f"e{i}")
        assert menu is not None
        assert menu.items_html(item, ("k",)) == "".join(
            f"<li>{e.key}{'*' if e.current else ''}</li>" for e in menu
        )
    assert len(calls) == 300 + 300  # each entry once not current, each page's own once current


def _op(summary: str) -> dict:
    return {"summary": summary, "responses": {"200": {"description": "ok"}}}


def test_each_built_page_marks_only_itself(tmp_path: Path):
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "Pets", "version": "1"},
        "paths": {
            "/pets": {"get": _op("List pets"), "post": _op("Create a pet")},
            "/pets/{id}": {"delete": _op("Delete a pet")},
            "/toys": {"get": _op("List toys")},
        },
    }
    config = {
        "name": "Ends",
        "theme": "mint",
        "colors": {"primary": "#1D4ED8"},
        "openapi": "openapi.json",
        "navigation": {
            "groups": [
                {"group": "Pets", "pages": ["GET /pets", "POST /pets", "DELETE /pets/{id}"]},
                {"group": "Toys", "pages": ["GET /toys"]},
            ]
        },
    }
    files = {"docs.json": json.dumps(config), "openapi.json": json.dumps(spec)}
    build(write_tree(tmp_path / "src", files), tmp_path / "out", workers=1)
    lists = {}
    for page in (tmp_path / "out").rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        found = re.search(r'<ul class="dg-endpoints-list">(.*?)</ul>', html)
        if found:
            lists[page.parent.name] = found[1]
    assert sorted(lists) == ["create-a-pet", "delete-a-pet", "list-pets", "list-toys"]
    for name, items in lists.items():
        entries = re.findall(r'<a href="([^"]+)"( aria-current="page")?>', items)
        marked = [href for href, current in entries if current]
        assert [href.rstrip("/").rsplit("/", 1)[-1] for href in marked] == [name], (name, entries)
        assert len(entries) == (1 if name == "list-toys" else 3)
