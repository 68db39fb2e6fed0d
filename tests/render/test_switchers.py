"""Version and language dropdowns, tabs, navbar and search box: made once per section and page depth (switch lists,
theme.FragmentCache), right on every page."""

from __future__ import annotations

import copy
import json
import posixpath
from pathlib import Path

from docsgen.build import build
from docsgen.render import site_context
from docsgen.render.html import page_html
from docsgen.site.read import read_site
from tests.htmldom import Node, parse

VERSIONS = ("v1", "v2")
LANGUAGES = ("en", "fr")
TABS = {"Guide": ("index", "guide/setup", "guide/deep/more"), "Reference": ("ref/api", "ref/deep/types")}
PAGES = tuple(page for pages in TABS.values() for page in pages)  # three depths in every version and language


def _site(make_site) -> Path:
    versions = []
    files: dict[str, str] = {}
    for version in VERSIONS:
        languages = []
        for lang in LANGUAGES:
            tabs = [
                {"tab": tab, "groups": [{"group": tab, "pages": [f"{version}/{lang}/{p}" for p in pages]}]}
                for tab, pages in TABS.items()
            ]
            languages.append({"language": lang, "tabs": tabs})
            for page in PAGES:
                key = f"{version}/{lang}/{page}"
                files[f"{key}.mdx"] = f"---\ntitle: {key}\n---\n\nText of {key}.\n"
        entry: dict = {"version": version, "languages": languages}
        if version == "v2":
            entry["tag"] = "New"
        versions.append(entry)
    files["docs.json"] = json.dumps(
        {
            "theme": "mint",
            "name": "Switchers",
            "colors": {"primary": "#0D9373"},
            "navigation": {"versions": versions},
            "navbar": {"links": [{"label": "Start", "href": "/v2/fr/ref/api"}]},
        }
    )
    return make_site(files)


def _folder(key: str) -> str:
    """Return the folder a page's URL names (an index page is its folder's)."""
    return key.removesuffix("/index").removesuffix("index")


def _resolve(out: Path, page_rel: str, href: str) -> str:
    """Return the folder of the page a relative link of the page at page_rel leads to."""
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page_rel), href))
    assert (out / target / "index.html").is_file(), f"{page_rel}: {href} leads nowhere"
    return target


def _lists(doc: Node, kind: str) -> list[Node]:
    return doc.find_all("details", cls=f"dg-switch-{kind}")


def test_every_page_links_its_own_depth_version_and_language(make_site, tmp_path):
    out = tmp_path / "out"
    build(_site(make_site), out)
    checked = 0
    indexes: dict[str, set[str]] = {}
    for version in VERSIONS:
        for lang in LANGUAGES:
            for rel in PAGES:
                key = f"{version}/{lang}/{rel}"
                page_rel = f"{_folder(key)}/index.html"
                doc = parse((out / page_rel).read_text(encoding="utf-8"))
                header, phone = _lists(doc, "version")  # the header's and the phone sidebar's copies
                for switch in (header, phone):
                    links = switch.find("ul").find_all("a")
                    # a version leads to its first page (its first language's), from this page's depth
                    assert [_resolve(out, page_rel, a.attrs["href"]) for a in links] == [
                        f"{v}/en" for v in VERSIONS
                    ]
                    assert [a.text.split()[0] for a in links if a.attrs.get("aria-current")] == [version]
                badges = [b.text for b in header.find("ul").find_all("span", cls="dg-badge")]
                assert badges == ["New"] and phone.find_all("span", cls="dg-badge") == []
                for switch in _lists(doc, "language"):
                    links = switch.find("ul").find_all("a")
                    # a language leads to this same page in that language
                    assert [_resolve(out, page_rel, a.attrs["href"]) for a in links] == [
                        _folder(f"{version}/{other}/{rel}") for other in LANGUAGES
                    ]
                    assert [a.attrs["hreflang"] for a in links] == list(LANGUAGES)
                    assert [a.attrs["hreflang"] for a in links if a.attrs.get("aria-current")] == [lang]
                # the tabs of this version and language, this page's current; the navbar; the search box
                tabs = doc.find("nav", cls="dg-tabs").find_all("a")
                assert [_resolve(out, page_rel, a.attrs["href"]) for a in tabs] == [
                    _folder(f"{version}/{lang}/{pages[0]}") for pages in TABS.values()
                ]
                own = next(tab for tab, pages in TABS.items() if rel in pages)
                assert [a.text for a in tabs if a.attrs.get("aria-current") == "page"] == [own]
                navbar = doc.find("nav", cls="dg-navbar").find("a")
                assert _resolve(out, page_rel, navbar.attrs["href"]) == "v2/fr/ref/api"
                dialog = doc.find("dialog", cls="dg-search-dialog")
                assert json.loads(dialog.attrs["data-scope"]) == {"version": version}
                indexes.setdefault(version, set()).add(dialog.attrs["data-index"])
                checked += 1
    assert checked == len(VERSIONS) * len(LANGUAGES) * len(PAGES)
    assert all(len(found) == 1 for found in indexes.values())  # one search bundle per version
    assert len(set.union(*indexes.values())) == len(VERSIONS)


def test_a_new_navigation_gets_new_lists(make_site, tmp_path):
    """docsgen dev replaces the site's navigation when it changes: the lists made for the old one are not reused."""
    site = read_site(_site(make_site), tmp_path / "out")
    ctx = site_context(site)
    page = site.pages["v1/en/guide/setup"]
    before = parse(page_html(ctx, page, None))
    assert [a.text.split()[0] for a in _lists(before, "version")[0].find_all("a")] == ["v1", "v2"]
    renamed = copy.deepcopy(site.nav)
    renamed.root.sections[1].label = "v2-beta"
    site.nav = renamed
    after = parse(page_html(ctx, page, None))
    for switch in _lists(after, "version"):
        assert [a.text.split()[0] for a in switch.find_all("a")] == ["v1", "v2-beta"]


def test_a_language_switchers_siblings_are_worked_out_once_per_section(make_site, tmp_path, monkeypatch):
    """The language list is made for every page (its entries lead to that page's translations), but its siblings'
    names and first pages are the same on every page of a language: worked out once per section and navigation."""
    from docsgen.render import switchers as module

    site = read_site(_site(make_site), tmp_path / "out")
    ctx = site_context(site)
    calls: list[str] = []
    real = module.section_link
    monkeypatch.setattr(module, "section_link", lambda s: calls.append(s.id) or real(s))
    keys = [f"v1/en/{rel}" for rel in PAGES]
    for key in keys:
        doc = parse(page_html(ctx, site.pages[key], None))
        links = _lists(doc, "language")[0].find("ul").find_all("a")
        assert [a.attrs["hreflang"] for a in links] == list(LANGUAGES)
    languages = {s.id for s in site.nav.root.sections[0].sections}
    assert sorted(sid for sid in calls if sid in languages) == sorted(languages)  # once each, not once a page
    renamed = copy.deepcopy(site.nav)  # a new navigation (docsgen dev): its own siblings
    renamed.root.sections[0].sections[1].label = "de"
    site.nav = renamed
    doc = parse(page_html(ctx, site.pages[keys[1]], None))
    assert [a.attrs["hreflang"] for a in _lists(doc, "language")[0].find("ul").find_all("a")] == ["en", "de"]
