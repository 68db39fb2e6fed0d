"""Build every navigation fixture and check the emitted HTML: links resolve, the right entries are current/open."""

from __future__ import annotations

import posixpath
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from docsgen.build import build
from tests.conftest import FIXTURES
from tests.htmldom import Node, parse


def build_fixture(name: str, tmp_path: Path) -> Path:
    out = tmp_path / "site"
    build(FIXTURES / name, out)
    return out


def page(out: Path, rel: str) -> Node:
    return parse((out / rel).read_text(encoding="utf-8"))


def sidebar(out: Path, doc: Node) -> Node:
    nav = doc.find("nav", cls="dg-sidebar-nav")
    src = nav.attrs["data-src"].split("?")[0]
    return parse((out / src).read_text(encoding="utf-8"))


def internal_links(doc: Node, attr: str = "href") -> list[str]:
    out = []
    for node in doc.iter():
        href = node.attrs.get(attr)
        if href is None or node.tag not in ("a", "link", "script", "img"):
            continue
        if node.tag == "script":
            href = node.attrs.get("src")
            if href is None:
                continue
        parts = urlsplit(href)
        if parts.scheme or href.startswith(("#", "//")):
            continue
        out.append(parts.path)
    return out


def assert_links_resolve(out: Path) -> int:
    """Check that every relative link of every page (and of the shared sidebars) points at a file."""
    checked = 0
    for html in sorted(out.rglob("*.html")):
        rel = html.relative_to(out).as_posix()
        if rel == "404.html":
            continue
        doc = parse(html.read_text(encoding="utf-8"))
        base = posixpath.dirname(rel)
        for href in internal_links(doc):
            target = out / posixpath.normpath(posixpath.join(base, href)) if href else html
            if href.endswith("/") or target.is_dir():
                target = target / "index.html"
            assert target.exists(), f"{rel}: link {href!r} does not resolve"
            checked += 1
        for a in doc.find_all("a"):
            if "data-href" in a.attrs:
                target = out / a.attrs["data-href"]
                target = (
                    target / "index.html"
                    if a.attrs["data-href"].endswith("/") or not a.attrs["data-href"]
                    else target
                )
                assert target.exists(), f"{rel}: sidebar link {a.attrs['data-href']!r} does not resolve"
                checked += 1
    return checked


@pytest.mark.parametrize(
    "name",
    [
        "nav-tabs",
        "nav-anchors",
        "nav-dropdowns",
        "nav-products",
        "nav-versions",
        "nav-languages",
        "nav-groups-mint",
        "nav-groups-maple",
        "nav-groups-flags",
    ],
)
def test_every_link_resolves(name, tmp_path):
    out = build_fixture(name, tmp_path)
    assert assert_links_resolve(out) > 5


def test_tabs_menu_and_external_tab(tmp_path):
    out = build_fixture("nav-tabs", tmp_path)
    doc = page(out, "reference/errors/index.html")
    tabs = doc.find("nav", cls="dg-tabs").find_all("a")
    assert [t.text.strip() for t in tabs] == ["Guides", "Reference", "Learn", "Blog"]
    current = [t.text.strip() for t in tabs if t.attrs.get("aria-current") == "page"]
    assert current == ["Reference"]
    assert tabs[3].attrs["href"] == "https://example.com/blog"
    assert tabs[1].attrs["href"] == "../../reference/overview/"  # a tab opens its first page
    learn = page(out, "learn/example/index.html")
    menu = learn.find("details", cls="dg-switch-menu")
    assert menu is not None and [
        a.text.strip().startswith(("Tutorials", "Examples")) for a in menu.find_all("a")
    ] == [True, True]
    assert menu.find("summary").text.strip() == "Examples"
    # banner, navbar and footer
    banner = doc.find("div", id="banner")
    assert banner.attrs.get("data-dismissible") == "true" and banner.find("strong").text == "v2"
    assert doc.find("a", cls="dg-navbar-primary").attrs["href"] == "https://example.com/signup"
    assert [a.attrs["aria-label"] for a in doc.find("ul", cls="dg-socials").find_all("a")] == ["github", "x"]


def test_prev_next_follow_navigation_order(tmp_path):
    out = build_fixture("nav-tabs", tmp_path)
    doc = page(out, "guides/install/index.html")
    assert doc.find("a", cls="dg-prev").attrs["href"] == "../../"
    assert doc.find("a", cls="dg-next").attrs["href"] == "../../reference/overview/"


def test_anchors_and_global_anchors(tmp_path):
    out = build_fixture("nav-anchors", tmp_path)
    doc = page(out, "api/orders/index.html")
    anchors = doc.find("ul", cls="dg-anchors").find_all("a")
    labels = [a.text.strip() for a in anchors]
    assert labels == ["Community", "Status", "Documentation", "API", "GitHub"]
    assert anchors[0].attrs["href"] == "https://example.com/community"
    assert anchors[1].attrs["href"] == "../../status/"
    assert [a.text.strip() for a in anchors if a.attrs.get("aria-current")] == ["API"]
    side = sidebar(out, doc)
    assert [a.attrs["data-key"] for a in side.find_all("a") if "data-key" in a.attrs] == [
        "api/users",
        "api/orders",
    ]


def test_dropdowns_and_products(tmp_path):
    out = build_fixture("nav-dropdowns", tmp_path)
    doc = page(out, "sdks/node/index.html")
    dd = doc.find("details", cls="dg-switch-dropdown")
    assert dd.find("summary").text.strip() == "SDKs"
    assert [a.attrs["href"] for a in dd.find_all("a")] == ["../../", "../../sdks/python/"]
    out2 = build_fixture("nav-products", tmp_path / "p")
    doc = page(out2, "billing/api/index.html")
    product = doc.find("details", cls="dg-switch-product")
    assert product.find("summary").text.strip() == "Billing"
    assert "Accept payments" in product.text
    tabs = doc.find("nav", cls="dg-tabs").find_all("a")
    assert [t.text.strip() for t in tabs] == ["Guides", "API"] and tabs[1].attrs.get("aria-current") == "page"


def test_versions_default_and_badges(tmp_path):
    out = build_fixture("nav-versions", tmp_path)
    home = (out / "index.html").read_text()
    assert "url=v2/" in home  # the version marked default: true, not the first one
    doc = page(out, "v1/setup/index.html")
    switch = doc.find("details", cls="dg-switch-version")
    assert switch.find("summary").text.split()[0] == "v1"
    entries = switch.find_all("a")
    assert [e.text.split()[0] for e in entries] == ["v1", "v2", "v3"]
    assert [b.text for b in switch.find("ul").find_all("span", cls="dg-badge")] == [
        "Legacy",
        "Latest",
        "Beta",
    ]
    assert entries[1].attrs["href"] == "../../v2/"


def test_languages_have_their_own_banner_footer_navbar(tmp_path):
    out = build_fixture("nav-languages", tmp_path)
    fr = page(out, "fr/guide/index.html")
    assert fr.find("html").attrs["lang"] == "fr"
    assert fr.find("div", id="banner").text.strip() == "Bannière française"
    en = page(out, "guide/index.html")
    assert en.find("div", id="banner").text.strip() == "English banner"
    assert [a.text for a in en.find("nav", cls="dg-navbar").find_all("a")] == ["Contact"]
    ja = page(out, "ja/index.html")
    assert ja.find("div", id="banner") is None
    assert ja.find("ul", cls="dg-socials").find("a").attrs["href"] == "https://github.com/example-ja"
    switch = fr.find("details", cls="dg-switch-language")
    assert [a.attrs["hreflang"] for a in switch.find_all("a")] == ["en", "fr", "ja"]
    assert [a.text for a in switch.find_all("a")] == ["English", "Français", "日本語"]


def _group_link(details):
    """Return the page link of a nested group (beside its toggle, not inside it), or None."""
    return next((c for c in details.parent.children if not isinstance(c, str) and c.tag == "a"), None)


def test_nested_groups_root_expanded_hidden(tmp_path):
    out = build_fixture("nav-groups-mint", tmp_path)
    doc = page(out, "start/config/files/index.html")
    side = sidebar(out, doc)
    subs = {d.find("summary").text.split()[0]: d for d in side.find_all("details")}
    assert set(subs) >= {"Configuration", "Advanced", "Deep"}
    assert "open" in subs["Configuration"].attrs  # expanded: true
    assert "open" not in subs["Advanced"].attrs  # expanded omitted -> collapsed
    root_link = _group_link(subs["Configuration"])
    assert root_link.attrs["data-key"] == "start/config/index"  # root opens that page
    assert _group_link(subs["Advanced"]) is None  # no root, no drilldown: the title only toggles
    keys = [a.attrs.get("data-key") for a in side.find_all("a")]
    assert "ref/hidden-page" not in keys and (out / "ref/hidden-page/index.html").exists()
    # top-level groups are plain headings, never collapsible
    assert all(
        g.find("details", cls=None) is None or g.find("p", cls="dg-nav-group-title")
        for g in side.find_all("li", cls="dg-nav-group")
    )
    assert [p.text.strip() for p in side.find_all("p", cls="dg-nav-group-title")] == [
        "Getting started",
        "Reference",
    ]
    install = side.find("a", data_key="start/install")
    assert install.find("span", cls="dg-nav-label").text == "Install"  # sidebarTitle
    deep = side.find("a", data_key="start/advanced/deep/internals")
    assert "Deprecated" in deep.text
    # the mint theme shows a section eyebrow, not breadcrumbs, and does not drill down
    assert doc.find("nav", cls="dg-breadcrumbs") is None
    assert doc.find("p", cls="dg-eyebrow").text == "Configuration"
    assert doc.find("nav", cls="dg-sidebar-nav").attrs["data-drilldown"] == "false"


def test_maple_defaults_breadcrumbs_and_drilldown(tmp_path):
    out = build_fixture("nav-groups-maple", tmp_path)
    doc = page(out, "start/advanced/deep/internals/index.html")
    crumbs = [li.text for li in doc.find("nav", cls="dg-breadcrumbs").find_all("li")]
    assert crumbs == ["Getting started", "Advanced", "Deep"]
    assert doc.find("nav", cls="dg-sidebar-nav").attrs["data-drilldown"] == "true"
    side = sidebar(out, doc)
    advanced = next(
        d for d in side.find_all("details") if d.find("summary").text.strip().startswith("Advanced")
    )
    assert _group_link(advanced).attrs["data-key"] == "start/advanced/scaling"  # first page of the group


def test_docs_json_flags_override_theme_defaults(tmp_path):
    out = build_fixture("nav-groups-flags", tmp_path)  # mint theme + eyebrows: breadcrumbs + drilldown: true
    doc = page(out, "start/config/env/index.html")
    assert [li.text for li in doc.find("nav", cls="dg-breadcrumbs").find_all("li")] == [
        "Getting started",
        "Configuration",
    ]
    assert doc.find("nav", cls="dg-sidebar-nav").attrs["data-drilldown"] == "true"


def test_page_html_does_not_embed_the_navigation(tmp_path):
    out = build_fixture("nav-groups-mint", tmp_path)
    html = (out / "start/install/index.html").read_text()
    assert "Internals" not in html  # other pages' titles live in the shared sidebar file only
