"""The parts of a page the same for every page of a section at one depth (head links, banner, footer: the
theme's fragments) and the `global` links are made once, and are right on every page."""

from __future__ import annotations

import copy
import json
import posixpath
from pathlib import Path

from docsgen.build import build
from docsgen.render import site_context
from docsgen.render.context import SiteContext
from docsgen.render.html import page_html
from docsgen.render.site_nav import global_nav
from docsgen.site.read import read_site
from tests.htmldom import parse

LANGUAGES = ("en", "fr")
PAGES = ("index", "guide/setup", "guide/deep/more")  # three depths


def _site(make_site) -> Path:
    languages, files = [], {"logo/icon.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>"}
    for lang in LANGUAGES:
        languages.append(
            {
                "language": lang,
                "banner": {"content": f"Banner **{lang}**"},
                "footer": {
                    "links": [
                        {
                            "header": f"Col {lang}",
                            "items": [{"label": "Setup", "href": f"/{lang}/guide/setup"}],
                        }
                    ]
                },
                "groups": [{"group": "Guide", "pages": [f"{lang}/{p}" for p in PAGES]}],
            }
        )
        for page in PAGES:
            files[f"{lang}/{page}.mdx"] = f"---\ntitle: {lang} {page}\n---\n\nText.\n"
    files["docs.json"] = json.dumps(
        {
            "theme": "mint",
            "name": "Frame",
            "colors": {"primary": "#0D9373"},
            "favicon": "/logo/icon.svg",
            "navigation": {
                "languages": languages,
                "global": {"anchors": [{"anchor": "Blog", "href": "https://example.com/blog"}]},
            },
        }
    )
    return make_site(files)


def _resolve(page_rel: str, href: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(page_rel), href))


def test_head_banner_and_footer_are_right_on_every_page(make_site, tmp_path):
    out = tmp_path / "out"
    build(_site(make_site), out)
    for lang in LANGUAGES:
        for rel in PAGES:
            page_rel = f"{lang}/{rel.removesuffix('index')}/index.html".replace("//", "/")
            doc = parse((out / page_rel).read_text(encoding="utf-8"))
            icon = next(n for n in doc.find_all("link") if n.attrs.get("rel") == "icon")
            assert _resolve(page_rel, icon.attrs["href"]) == "logo/icon.svg"
            css = next(n for n in doc.find_all("link") if n.attrs.get("rel") == "stylesheet")
            assert _resolve(page_rel, css.attrs["href"].split("?")[0]).startswith("_static/")
            assert doc.find("div", cls="dg-banner").text.split() == ["Banner", lang]
            footer = doc.find("footer", cls="dg-footer")
            assert footer.find("p", cls="dg-footer-header").text == f"Col {lang}"
            link = footer.find("a")
            assert _resolve(page_rel, link.attrs["href"]) == f"{lang}/guide/setup"


def test_the_frame_is_made_once_per_section_and_depth(make_site, tmp_path, monkeypatch):
    site = read_site(_site(make_site), tmp_path / "out")
    ctx = site_context(site)
    calls = []
    made = SiteContext.color_css
    monkeypatch.setattr(SiteContext, "color_css", lambda self: calls.append(1) or made(self))
    pages = [site.pages[f"{lang}/{rel}"] for lang in LANGUAGES for rel in PAGES] * 2
    first = [page_html(ctx, page, None) for page in pages]
    # one head per language section and depth (the pages are at three depths)
    assert len(calls) == len(LANGUAGES) * len(PAGES) < len(pages)
    assert first[: len(pages) // 2] == first[len(pages) // 2 :]
    # a new navigation (docsgen dev, after an edit) makes the frame anew
    renamed = copy.deepcopy(site.nav)
    for section in renamed.sections:
        if section.kind == "language" and section.label == "fr":
            section.fields["banner"] = {"content": "Nouveau"}
    site.nav = renamed
    again = parse(page_html(ctx, site.pages["fr/guide/setup"], None))
    assert again.find("div", cls="dg-banner").text.strip() == "Nouveau"
    assert len(calls) == len(LANGUAGES) * len(PAGES) + 1


def test_global_links_are_made_once_per_navigation(make_site, tmp_path):
    site = read_site(_site(make_site), tmp_path / "out")
    ctx = site_context(site)
    one, two = site.pages["en/index"], site.pages["fr/guide/setup"]
    links = global_nav(ctx, one)
    assert global_nav(ctx, two) is links  # the same `global` object: made once
    assert links == {}  # anchors are not switcher kinds
    site.config.raw["navigation"]["global"]["tabs"] = [{"tab": "Blog", "href": "https://example.com/b"}]
    assert global_nav(ctx, one) is links  # the same navigation: still the remembered answer
    site.nav = copy.deepcopy(site.nav)  # a new navigation: worked out again
    again = global_nav(ctx, one)
    assert [e["url"] for e in again["tab"]] == ["https://example.com/b"]
