"""The site owner's additions to <head> are made once per page depth (and Tailwind stylesheet), not once per page;
the 404 page keeps its own (redirect script), made each time."""

from __future__ import annotations

import dataclasses
import json

from docsgen.render import custom, site_context
from docsgen.render.html import page_html
from docsgen.site.read import read_site
from tests.htmldom import parse

PAGES = ("index", "guide/setup", "guide/deep/more")  # three depths


def _ctx(make_site, tmp_path):
    files = {f"{p}.mdx": f"---\ntitle: {p}\n---\n\nText.\n" for p in PAGES}
    files["custom.css"] = "body{color:red}"
    files["docs.json"] = json.dumps(
        {
            "theme": "mint",
            "name": "Head",
            "colors": {"primary": "#0D9373"},
            "fonts": {"family": "Mine", "source": "/fonts/mine.woff2"},
            "redirects": [{"source": "/old", "destination": "/guide/setup"}],
            "navigation": {"pages": list(PAGES)},
        }
    )
    site = read_site(make_site(files), tmp_path / "out")
    return site, site_context(site)


def _custom_links(html: str) -> list[str]:
    return [n.attrs["href"] for n in parse(html).find_all("link") if "data-dg-custom" in n.attrs]


def test_custom_head_is_made_once_per_depth(make_site, tmp_path, monkeypatch):
    site, ctx = _ctx(make_site, tmp_path)
    made = []
    real = custom.font_css  # one part of what custom_head puts together
    monkeypatch.setattr(custom, "font_css", lambda ctx, root: made.append(root) or real(ctx, root))
    pages = [site.pages[p] for p in PAGES] * 2
    html = [page_html(ctx, page, None) for page in pages]
    made.remove("")  # font_preload's own call, once per site
    assert made == ["./", "../../", "../../../"]  # one per depth (pages are folders), each page twice
    assert [_custom_links(h) for h in html[:3]] == [
        ["./custom.css"],
        ["../../custom.css"],
        ["../../../custom.css"],
    ]
    assert html[:3] == html[3:]
    assert 'url("../../fonts/mine.woff2")' in html[1]  # the font's URL is relative to the page's depth
    # a different Tailwind stylesheet (another build of the same context) is a different key: made anew
    ctx.tailwind_href = "_static/tailwind.css?v=abc"
    again = page_html(ctx, site.pages["guide/setup"], None)
    assert made == ["./", "../../", "../../../", "../../"]
    assert '<link rel="stylesheet" href="../../_static/tailwind.css?v=abc">' in again


def test_not_found_page_keeps_its_redirect_script(make_site, tmp_path, monkeypatch):
    site, ctx = _ctx(make_site, tmp_path)
    page = dataclasses.replace(site.pages["index"], key="404")
    plain = custom.custom_head(ctx, site.pages["index"], "")
    first, second = custom.custom_head(ctx, page, ""), custom.custom_head(ctx, page, "")
    assert first == second != plain
    assert "/guide/setup" in first and "location.replace" in first
    assert "location.replace" not in plain
    assert str(plain) in str(first)  # the same additions, then the 404's own
