"""docsgen.site.policies walks docs.json once per section and group, not once per page (it was pages x tree)."""

from __future__ import annotations

import json

from docsgen.render import site_context
from docsgen.site import policies as seo
from docsgen.site.read import read_site

PAGES_PER_GROUP = 60


def _site(tmp_path):
    groups = []
    for g in range(4):
        pages = [f"g{g}/p{i}" for i in range(PAGES_PER_GROUP)]
        group = {"group": f"Group {g}", "pages": pages}
        if g == 3:
            group.update(hidden=True, searchable=True, boost=2)
        groups.append(group)
        for key in pages:
            (tmp_path / key).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / f"{key}.mdx").write_text(f"---\ntitle: {key}\n---\n\nText.\n", encoding="utf-8")
    config = {
        "name": "Scale",
        "theme": "mint",
        "colors": {"primary": "#0D9373"},
        "navigation": {"groups": groups},
    }
    (tmp_path / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    return read_site(tmp_path)


def test_lookups_per_section_and_group_not_per_page(tmp_path, monkeypatch):
    site = _site(tmp_path)
    ctx = site_context(site)
    calls = {"_node_of": 0, "_find_node": 0}
    for name in calls:
        original = getattr(seo, name)

        def counted(*args, _name=name, _original=original):
            calls[_name] += 1
            return _original(*args)

        monkeypatch.setattr(seo, name, counted)
    table = seo.policies(ctx.config, ctx.nav, site.pages)
    placed = len(ctx.nav.placements)
    assert placed >= 3 * PAGES_PER_GROUP
    assert calls["_node_of"] <= len(ctx.nav.sections)  # top-level calls (recursion included) stay tiny
    assert calls["_find_node"] < placed / 10
    # The hidden group is still found by its label: its pages are indexed (searchable parent) and boosted.
    hidden = table["g3/p0"]
    assert (hidden.navigable, hidden.indexed, hidden.boost) == (False, True, 2.0)
    assert table["g0/p5"].navigable and table["g0/p5"].boost == 1.0
