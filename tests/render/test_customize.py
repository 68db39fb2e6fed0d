"""Site owners' customisation: custom CSS/JS, fonts, background, appearance, timestamps and analytics."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from docsgen.build import build
from tests.conftest import FIXTURES
from tests.htmldom import parse

BASE = {"name": "Custom", "theme": "mint", "colors": {"primary": "#0D9373"}}


def docs_json(**extra) -> str:
    config = {**BASE, "navigation": {"pages": ["index", "guides/deep/page"]}, **extra}
    return json.dumps(config)


PAGES = {
    "index.mdx": "---\ntitle: Home\n---\nHello.\n",
    "guides/deep/page.mdx": "---\ntitle: Deep\n---\nDeep page.\n",
}


def built(make_site, tmp_path, files: dict, **config):
    docs = make_site({"docs.json": docs_json(**config), **PAGES, **files})
    out = tmp_path / "out"
    result = build(docs, out)
    return out, result


def head(out, rel="index.html"):
    return parse((out / rel).read_text()).find("head")


def test_custom_css_and_js_on_every_page_in_sorted_order(make_site, tmp_path):
    out, _ = built(
        make_site,
        tmp_path,
        {
            "z.css": "a{}",
            "styles/a.css": "b{}",
            "app.js": "1",
            "snippets/s.js": "no",
            "snippets/s.css": "no",
            "node_modules/pkg/x.js": "no",
            "tailwind.config.js": "no",
        },
    )
    for rel, prefix in (("index.html", "./"), ("guides/deep/page/index.html", "../../../")):
        h = head(out, rel)
        sheets = [n.attrs["href"] for n in h.find_all("link") if "data-dg-custom" in n.attrs]
        scripts = [n for n in h.find_all("script") if "data-dg-custom" in n.attrs]
        assert sheets == [prefix + "styles/a.css", prefix + "z.css"]
        assert [s.attrs["src"] for s in scripts] == [prefix + "app.js"]
        assert "defer" in scripts[0].attrs
        theme_css = [n.attrs["href"] for n in h.find_all("link") if "_static/" in (n.attrs.get("href") or "")]
        all_links = [n.attrs.get("href") for n in h.find_all("link")]
        assert all_links.index(theme_css[-1]) < all_links.index(sheets[0])  # owners' CSS wins


def test_no_customisation_adds_nothing(make_site, tmp_path):
    out, result = built(make_site, tmp_path, {})
    h = head(out)
    assert not [n for n in h.iter() if "data-dg-custom" in n.attrs]
    assert h.find("style", id="dg-custom-style") is None
    assert not [s for s in h.find_all("script") if "://" in (s.attrs.get("src") or "")]
    assert "googletagmanager" not in (out / "index.html").read_text()
    assert "dg-last-updated" not in (out / "index.html").read_text()
    assert not result.warnings


def test_local_fonts_heading_and_body(make_site, tmp_path):
    fonts = {
        "heading": {"family": "Display", "source": "/fonts/d.woff2", "weight": 700},
        "body": {"family": "Text", "source": "fonts/t.ttf"},
    }
    out, result = built(make_site, tmp_path, {"fonts/d.woff2": b"x", "fonts/t.ttf": b"x"}, fonts=fonts)
    css = head(out, "guides/deep/page/index.html").find("style", id="dg-custom-style").text
    assert (
        '@font-face{font-family:"Display";src:url("../../../fonts/d.woff2") format("woff2");font-weight:700'
        in css
    )
    assert '@font-face{font-family:"Text";src:url("../../../fonts/t.ttf") format("truetype")' in css
    assert ':root{--dg-font:"Text",system-ui' in css
    assert '.dg-title,.dg-prose h1,.dg-prose h2,.dg-prose h3,.dg-prose h4{font-family:"Display",' in css
    assert not result.warnings
    assert (out / "fonts/d.woff2").is_file()


def test_single_font_for_everything(make_site, tmp_path):
    out, _ = built(make_site, tmp_path, {"f.woff": b"x"}, fonts={"family": "One", "source": "/f.woff"})
    css = head(out).find("style", id="dg-custom-style").text
    assert css.count("@font-face") == 1 and ':root{--dg-font:"One",' in css


def test_google_font_by_name_warns_and_falls_back(make_site, tmp_path):
    out, result = built(make_site, tmp_path, {}, fonts={"family": "Inter"})
    assert head(out).find("style", id="dg-custom-style") is None
    assert [w.code for w in result.warnings] == ["fonts.google"]
    assert "Inter" in result.warnings[0].message and "could not be downloaded" in result.warnings[0].message


def test_missing_font_file_warns(make_site, tmp_path):
    _, result = built(make_site, tmp_path, {}, fonts={"family": "Gone", "source": "/fonts/gone.woff2"})
    assert [(w.code, w.json_path) for w in result.warnings] == [("fonts.missing", "fonts.source")]


def test_background_decoration_color_and_images(make_site, tmp_path):
    background = {
        "decoration": "gradient",
        "color": {"light": "#fafafa", "dark": "#010203"},
        "image": {"light": "/bg/light.png", "dark": "/bg/dark.png"},
    }
    out, _ = built(make_site, tmp_path, {"bg/light.png": b"x", "bg/dark.png": b"x"}, background=background)
    css = head(out).find("style", id="dg-custom-style").text
    assert "radial-gradient" in css
    assert ":root{--dg-bg:#fafafa}" in css and 'html[data-theme="dark"]{--dg-bg:#010203}' in css
    assert 'html body{background-image:url("./bg/light.png")' in css
    assert 'html[data-theme="dark"] body{background-image:url("./bg/dark.png")' in css


def test_background_rejects_css_injection(make_site, tmp_path):
    background = {"image": '/x.png");}body{display:none}</style><script>alert(1)'}
    out, _ = built(make_site, tmp_path, {}, background=background)
    doc = parse((out / "index.html").read_text())
    assert not [s for s in doc.find_all("script") if "alert(1)" in s.text]
    css = doc.find("style", id="dg-custom-style").text
    assert 'url("./x.png\\");}body{display:none}<\\/style><script>alert(1)")' in css  # one CSS string


@pytest.mark.parametrize("decoration", ["grid", "windows"])
def test_background_decorations(make_site, tmp_path, decoration):
    out, _ = built(make_site, tmp_path, {}, background={"decoration": decoration})
    assert "background-size" in head(out).find("style", id="dg-custom-style").text


def test_appearance_default_and_strict(make_site, tmp_path):
    out, _ = built(make_site, tmp_path, {}, appearance={"default": "dark"})
    html = (out / "index.html").read_text()
    assert 'var def="dark"' in html and "dg-theme-toggle" in html
    out2, _ = built(make_site, tmp_path / "b", {}, appearance={"default": "light", "strict": True})
    html2 = (out2 / "index.html").read_text()
    assert "dg-theme-toggle" not in html2
    assert 'localStorage.removeItem("dg-theme")' in html2 and 'm="light"' in html2


def _git(cwd, *args, date="2025-03-04T05:06:07+00:00"):
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is part of the CI image")
def test_timestamps_from_git_one_call_per_build(make_site, tmp_path):
    docs = make_site(
        {
            "docs.json": docs_json(metadata={"timestamp": True}),
            **PAGES,
            "hidden.mdx": "---\ntitle: Off\ntimestamp: false\n---\nx\n",
        }
    )
    _git(docs, "init", "-q")
    _git(docs, "add", ".")
    _git(docs, "commit", "-q", "-m", "one")
    (docs / "index.mdx").write_text("---\ntitle: Home\n---\nChanged.\n")
    _git(docs, "commit", "-q", "-am", "two", date="2026-01-15T10:00:00+01:00")
    out = tmp_path / "out"
    build(docs, out)
    home = parse((out / "index.html").read_text()).find("p", cls="dg-last-updated")
    assert home.text == "Last updated January 15, 2026"
    assert home.find("time").attrs["datetime"] == "2026-01-15T10:00:00+01:00"
    deep = parse((out / "guides/deep/page/index.html").read_text()).find("p", cls="dg-last-updated")
    assert deep.text == "Last updated March 4, 2025"
    assert "dg-last-updated" not in (out / "hidden/index.html").read_text()


def test_timestamps_outside_git_use_source_date_epoch(make_site, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    out, _ = built(make_site, tmp_path, {}, metadata={"timestamp": True})
    stamp = parse((out / "index.html").read_text()).find("p", cls="dg-last-updated")
    assert stamp.text == "Last updated November 14, 2023"


def test_page_can_opt_in_and_give_its_own_date(make_site, tmp_path):
    files = {"guides/deep/page.mdx": "---\ntitle: Deep\nlastUpdatedDate: 2024-02-29\n---\nx\n"}
    out, _ = built(make_site, tmp_path, files)
    stamp = parse((out / "guides/deep/page/index.html").read_text()).find("p", cls="dg-last-updated")
    assert stamp.text == "Last updated February 29, 2024"
    assert "dg-last-updated" not in (out / "index.html").read_text()


def test_analytics_only_when_configured(make_site, tmp_path):
    integrations = {
        "ga4": {"measurementId": "G-ABC</script>"},
        "gtm": {"tagId": "GTM-123"},
        "plausible": {"domain": "docs.example.com", "server": "stats.example.com"},
        "posthog": {"apiKey": "phc_key"},
        "fathom": {"siteId": "FATHOM1"},
        "acmetrics": {"apiKey": "a"},
        "telemetry": {"enabled": False},
    }
    out, result = built(make_site, tmp_path, {}, integrations=integrations)
    html = (out / "index.html").read_text()
    h = head(out)
    srcs = [s.attrs.get("src") for s in h.find_all("script") if s.attrs.get("src")]
    assert "https://www.googletagmanager.com/gtag/js?id=G-ABC&lt;/script&gt;" in html
    assert "G-ABC</script>" not in html
    assert "https://stats.example.com/js/script.js" in srcs
    assert "https://cdn.usefathom.com/script.js" in srcs
    assert "googletagmanager.com/gtm.js" in html and '"GTM-123"' in html
    assert '"phc_key"' in html and "posthog.init" in html
    assert [(w.code, w.json_path) for w in result.warnings] == [
        ("config.unknown-field", "integrations.acmetrics"),
        ("integrations.unsupported", "integrations.acmetrics"),
    ]


def test_customize_fixture_builds_strictly(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    docs = shutil.copytree(FIXTURES / "customize", tmp_path / "docs")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    out = tmp_path / "out"
    build(docs, out, strict=True)
    h = head(out)
    assert [n.attrs["href"] for n in h.find_all("link") if "data-dg-custom" in n.attrs] == [
        "./assets/extra.css",
        "./style.css",
    ]
    assert [n.attrs["src"] for n in h.find_all("script") if "data-dg-custom" in n.attrs] == [
        "./analytics-consent.js"
    ]
    assert "SHOULD_NOT_LOAD" not in "".join(n.text for n in h.find_all("script"))
    assert "dg-last-updated" not in (out / "guides/no-date/index.html").read_text()
    assert "November 14, 2023" in (out / "index.html").read_text()
