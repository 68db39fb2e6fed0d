"""Branding fields of docs.json (issue 20 item 5), each checked on a built site: favicon.dark, thumbnails,
footer X logo, Font Awesome Pro styles, styling.latex, styling.codeblocks, errors.404.description, og metatags."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image, ImageStat

from docsgen.build import build
from docsgen.render import thumbnail_cache
from tests.htmldom import parse

BASE = {"name": "Acme Docs", "theme": "mint", "colors": {"primary": "#0D9373", "light": "#55D3AA"}}
NAV = {"navigation": {"groups": [{"group": "Start", "pages": ["index", "quickstart"]}]}}
PAGES = {
    "index.mdx": "---\ntitle: Welcome to Acme\ndescription: All about Acme.\n---\nHello.\n",
    "quickstart.mdx": "---\ntitle: Quickstart\n---\nGo.\n",
}


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))


def site(make_site, tmp_path, config: dict, files: dict | None = None, name: str = "docs"):
    docs = make_site({"docs.json": json.dumps({**BASE, **NAV, **config}), **PAGES, **(files or {})}, name)
    out = tmp_path / f"{name}-out"
    return out, build(docs, out)


def head(out, rel="index.html"):
    return parse((out / rel).read_text()).find("head")


def metas(out, rel="index.html") -> dict[str, str]:
    found = {}
    for node in head(out, rel).find_all("meta"):
        key = node.attrs.get("property") or node.attrs.get("name")
        if key:
            found[key] = node.attrs.get("content") or ""
    return found


def png(size=(64, 64), color=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def test_favicon_dark_gets_a_media_link(make_site, tmp_path):
    out, _ = site(make_site, tmp_path, {"favicon": {"light": "/fav-l.svg", "dark": "/fav-d.svg"}})
    icons = [(n.attrs["href"], n.attrs.get("media")) for n in head(out).find_all("link", rel="icon")]
    assert icons == [
        ("fav-l.svg", "(prefers-color-scheme: light)"),
        ("fav-d.svg", "(prefers-color-scheme: dark)"),
    ]
    one, _ = site(make_site, tmp_path, {"favicon": "/fav.svg"}, name="one")
    assert [(n.attrs["href"], n.attrs.get("media")) for n in head(one).find_all("link", rel="icon")] == [
        ("fav.svg", None)
    ]


def test_thumbnails_are_drawn_per_page_and_linked(make_site, tmp_path):
    config = {"thumbnails": {"appearance": "dark", "background": "/bg.png"}, "logo": "/logo.png"}
    files = {"bg.png": png((300, 200), (30, 60, 200)), "logo.png": png()}
    out, result = site(make_site, tmp_path, config, files)
    for rel, image in (("index.html", "_og/index.jpg"), ("quickstart/index.html", "_og/quickstart.jpg")):
        tags = metas(out, rel)
        assert tags["og:image"] == "/" + image and tags["twitter:image"] == "/" + image
        assert tags["twitter:card"] == "summary_large_image"
        with Image.open(out / image) as picture:
            assert picture.size == (1200, 630) and picture.format == "JPEG"
            stat = ImageStat.Stat(picture.convert("L"))
            assert stat.extrema[0][1] - stat.extrema[0][0] > 100  # text drawn over the background
            pixel = picture.convert("RGB").getpixel((1100, 600))
            assert max(abs(a - b) for a, b in zip(pixel, (30, 60, 200), strict=True)) < 8  # the background
    assert (out / "_og/index.jpg").read_bytes() != (out / "_og/quickstart.jpg").read_bytes()
    assert not [w for w in result.warnings if w.code.startswith("thumbnails.")]


def test_thumbnails_absolute_with_site_url_and_page_images_kept(make_site, tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_SITE_URL", "https://docs.acme.dev")
    files = {"quickstart.mdx": "---\ntitle: Quickstart\nog:image: https://cdn.acme.dev/q.png\n---\nGo.\n"}
    out, _ = site(make_site, tmp_path, {"thumbnails": {}}, files)
    assert metas(out)["og:image"] == "https://docs.acme.dev/_og/index.jpg"
    assert metas(out, "quickstart/index.html")["og:image"] == "https://cdn.acme.dev/q.png"
    assert not (out / "_og/quickstart.jpg").exists()


def test_no_thumbnails_unless_configured(make_site, tmp_path):
    out, _ = site(make_site, tmp_path, {})
    assert "og:image" not in metas(out) and not (out / "_og").exists()


def test_thumbnails_cached_by_content(make_site, tmp_path):
    docs = make_site({"docs.json": json.dumps({**BASE, **NAV, "thumbnails": {}}), **PAGES})
    build(docs, tmp_path / "first")
    (folder,) = {path.parent for path in (tmp_path / "cache").rglob(thumbnail_cache.NAME)}
    cached = thumbnail_cache.read_pack(folder)
    assert len(cached) == 2 and not list(folder.glob("*.jpg"))  # one pack, not a file per image
    marker = png((1200, 630), (1, 2, 3))
    thumbnail_cache.write_pack(folder, dict.fromkeys(cached, marker))  # a cache hit returns these bytes
    build(docs, tmp_path / "again")
    assert (tmp_path / "again/_og/index.jpg").read_bytes() == marker
    (docs / "index.mdx").write_text("---\ntitle: A new title\n---\nHello.\n")
    build(docs, tmp_path / "changed")
    assert (tmp_path / "changed/_og/index.jpg").read_bytes() != marker  # the title is part of the key
    assert (tmp_path / "changed/_og/quickstart.jpg").read_bytes() == marker
    assert len(thumbnail_cache.read_pack(folder)) == 2  # the old title's image is gone from the pack


def test_a_damaged_thumbnail_cache_is_an_empty_one(make_site, tmp_path):
    docs = make_site({"docs.json": json.dumps({**BASE, **NAV, "thumbnails": {}}), **PAGES})
    build(docs, tmp_path / "first")
    expected = (tmp_path / "first/_og/index.jpg").read_bytes()
    (pack,) = (tmp_path / "cache").rglob(thumbnail_cache.NAME)
    whole = pack.read_bytes()
    for damaged in (whole[:-10], whole[:40], b"", b"junk", whole.replace(b'",[', b'",["x",', 1)):
        pack.write_bytes(damaged)
        build(docs, tmp_path / "again")
        assert (tmp_path / "again/_og/index.jpg").read_bytes() == expected  # drawn again, the same picture
        assert len(thumbnail_cache.read_pack(pack.parent)) == 2  # and the pack made whole again


def test_thumbnail_problems_are_located(make_site, tmp_path):
    config = {"thumbnails": {"background": "https://example.com/bg.png", "fonts": {"family": "Inter"}}}
    out, result = site(make_site, tmp_path, config)
    found = {
        (d.code, d.json_path, d.severity.value) for d in result.diagnostics if d.code.startswith("thumb")
    }
    assert found == {
        ("thumbnails.background", "thumbnails.background", "warning"),
        ("thumbnails.font", "thumbnails.fonts.family", "info"),
    }
    assert all(d.line > 0 for d in result.diagnostics if d.code.startswith("thumb"))
    with Image.open(out / "_og/index.jpg") as picture:
        assert picture.size == (1200, 630)


def test_footer_x_draws_the_x_logo(make_site, tmp_path):
    out, _ = site(make_site, tmp_path, {"footer": {"socials": {"x": "https://x.com/acme"}}})
    link = parse((out / "index.html").read_text()).find("a", aria_label="x")
    assert link.find("svg").attrs["data-icon"] == "fontawesome:brands:x-twitter"


@pytest.mark.parametrize("style, drawn", [("light", "regular"), ("thin", "regular"), ("duotone", "solid"),
                                          ("sharp", "solid"), ("sharp-light", "regular")])  # fmt: skip
def test_font_awesome_pro_styles_fall_back_visibly(make_site, tmp_path, style, drawn):
    files = {"index.mdx": f'---\ntitle: Home\n---\nText\n\n<Icon icon="house" iconType="{style}" />\n'}
    out, result = site(make_site, tmp_path, {}, files)
    span = parse((out / "index.html").read_text()).find("span", data_icon="house")
    assert span.find("svg").attrs["data-icon"] == f"fontawesome:{drawn}:house"
    notes = [d for d in result.diagnostics if d.code == "mdx.icon-style"]
    assert [(d.path, d.line, d.severity.value) for d in notes] == [("index.mdx", 6, "info")]


def test_styling_latex_false_leaves_dollars_as_text(make_site, tmp_path):
    files = {"index.mdx": "---\ntitle: Home\n---\nArea $x^2$ here.\n"}
    on, _ = site(make_site, tmp_path, {}, files, name="on")
    assert "<math" in (on / "index.html").read_text()
    forced, _ = site(make_site, tmp_path, {"styling": {"latex": True}}, files, name="forced")
    assert "<math" in (forced / "index.html").read_text()
    off, _ = site(make_site, tmp_path, {"styling": {"latex": False}}, files, name="off")
    page = (off / "index.html").read_text()
    assert "<math" not in page and "Area $x^2$ here." in page


def test_codeblock_themes_change_highlight_css(make_site, tmp_path):
    default, _ = site(make_site, tmp_path, {}, name="default")
    css = {"default": (default / "_static/highlight.css").read_text()}
    for name, value in (
        ("dracula", {"theme": "dracula"}),
        ("pair", {"theme": {"light": "github-light", "dark": "nord"}}),
        ("dark", "dark"),
    ):
        out, result = site(make_site, tmp_path, {"styling": {"codeblocks": value}}, name=name)
        css[name] = (out / "_static/highlight.css").read_text()
        # pages link the joined stylesheet (highlight.css is part of it): its URL changes with the code theme
        link = [n.attrs["href"] for n in head(out).find_all("link") if "docsgen.css" in n.attrs["href"]]
        assert link and link[0] != [n.attrs["href"] for n in head(default).find_all("link")
                                    if "docsgen.css" in n.attrs["href"]][0]  # fmt: skip
        assert css[name].rstrip() in (out / "_static/docsgen.css").read_text()
        assert not [w for w in result.warnings if w.code.startswith("styling.")]
    assert len(set(css.values())) == 4
    assert "background:#282a36" in css["dracula"]  # Dracula's own background, both modes
    assert ':is(html[data-theme="dark"], .dg-api-aside) .dg-api-code{--dg-code-bg:#2E3440' in css["pair"]
    assert (
        'html:not([data-theme="dark"]) .dg-api-code:not(.dg-api-aside *){--dg-code-bg:#0d1117' in css["dark"]
    )
    _, bad = site(make_site, tmp_path, {"styling": {"codeblocks": {"theme": "no-such-theme"}}}, name="bad")
    assert [(w.code, w.json_path) for w in bad.warnings] == [
        ("styling.codeblocks-theme", "styling.codeblocks.theme")
    ]


def test_404_description_is_markdown(make_site, tmp_path):
    text = (
        "Try the [quickstart](/quickstart) or **search**. <script>alert(1)</script> [x](javascript:alert(1))"
    )
    out, _ = site(make_site, tmp_path, {"errors": {"404": {"description": text}}})
    prose = parse((out / "404.html").read_text()).find("div", cls="dg-prose")
    assert prose.find("a").attrs["href"] == "/quickstart" and prose.find("strong").text == "search"
    assert prose.find("script") is None and "javascript:" not in str([a.attrs for a in prose.find_all("a")])


def test_seo_metatags_og_values_beat_page_defaults(make_site, tmp_path):
    seo = {"metatags": {"og:title": "Acme everywhere", "og:description": "Site-wide", "og:type": "article"}}
    files = {"quickstart.mdx": "---\ntitle: Quickstart\nog:title: Own title\n---\nGo.\n"}
    out, _ = site(make_site, tmp_path, {"seo": seo}, files)
    tags = metas(out)
    assert (tags["og:title"], tags["og:description"], tags["og:type"]) == (
        "Acme everywhere",
        "Site-wide",
        "article",
    )
    assert tags["description"] == "All about Acme."  # the page's own description stays for search engines
    assert metas(out, "quickstart/index.html")["og:title"] == "Own title"  # frontmatter still wins


def test_hostile_background_and_logo_are_skipped(make_site, tmp_path):
    big = io.BytesIO()
    Image.new("L", (10_000, 5_000)).save(big, "PNG")  # 50 megapixels in a small file
    files = {"bg.png": big.getvalue(), "logo.png": b"\x89PNG\r\n\x1a\n not really a png"}
    config = {"thumbnails": {"background": "/bg.png"}, "logo": "/logo.png"}
    out, result = site(make_site, tmp_path, config, files)
    with Image.open(out / "_og/index.jpg") as picture:
        assert picture.size == (1200, 630)
        assert picture.convert("RGB").getpixel((1100, 600)) == (255, 255, 255)  # plain light background
    _, outside = site(make_site, tmp_path, {"thumbnails": {"background": "../../etc/passwd.png"}}, name="out")
    assert [w.code for w in outside.warnings] == ["thumbnails.background"]


def test_nul_bytes_in_branding_paths(make_site, tmp_path):
    config = {
        "thumbnails": {"background": "bg\u0000.png"},
        "styling": {"codeblocks": {"languages": {"custom": ["a\u0000.json"]}}},
        "logo": "/lo\u0000go.png",
    }
    out, result = site(make_site, tmp_path, config)
    assert (out / "_og/index.jpg").is_file()
    assert sorted(w.code for w in result.warnings) == ["styling.custom-language", "thumbnails.background"]
