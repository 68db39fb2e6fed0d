"""What readers get in the HTML (no browser): colour CSS inside <style>, the dark class, the language switcher."""

from __future__ import annotations

import json
import re

from docsgen.build import build
from docsgen.contrast import parse_color, ratio
from tests.conftest import FIXTURES
from tests.htmldom import parse


def _site(make_site, colors: dict, **extra) -> dict[str, str]:
    config = {"theme": "mint", "name": "S", "colors": colors, "navigation": {"pages": ["index"]}, **extra}
    return {"docs.json": json.dumps(config), "index.mdx": "---\ntitle: Home\n---\n\nHello [link](/index).\n"}


def _style(html: str) -> str:
    styles = [n for n in parse(html).find_all("style") if "--dg-primary" in n.text]
    assert len(styles) == 1
    return styles[0].text


def test_colour_css_is_not_html_escaped_and_dark_mode_uses_the_light_colour(make_site, tmp_path):
    out = tmp_path / "out"
    build(make_site(_site(make_site, {"primary": "#16A34A", "light": "#F472B6", "dark": "#15803D"})), out)
    html = (out / "index.html").read_text()
    css = _style(html)
    assert "&#34;" not in html.split("</head>")[0].split("--dg-primary")[1][:200]
    assert 'html[data-theme="dark"]{--dg-primary:#F472B6;' in css
    assert ":root{--dg-primary:#16A34A;" in css


def test_accent_text_reads_on_the_background_of_each_mode(make_site, tmp_path):
    out = tmp_path / "out"
    # A pale yellow primary and a near-black dark-mode colour: links would be unreadable as they are.
    build(make_site(_site(make_site, {"primary": "#FDE047", "light": "#1E1B4B"})), out)
    css = _style((out / "index.html").read_text())
    light_rule, dark_rule = css.split('html[data-theme="dark"]')
    light_text = re.search(r"--dg-primary-text:([^;}]+)", light_rule)[1]
    dark_text = re.search(r"--dg-primary-text:([^;}]+)", dark_rule)[1]
    assert ratio(parse_color(light_text), parse_color("#ffffff")) >= 4.5
    assert ratio(parse_color(dark_text), parse_color("#0f1115")) >= 4.5
    assert (
        "--dg-primary:#FDE047" in light_rule and "--dg-primary:#1E1B4B" in dark_rule
    )  # the accent itself stays


def test_theme_script_sets_the_dark_class_for_mintlify_site_css(make_site, tmp_path):
    out = tmp_path / "out"
    build(make_site(_site(make_site, {"primary": "#16A34A"})), out)
    head = (out / "index.html").read_text().split("</head>")[0]
    assert 'classList.toggle("dark",t==="dark")' in head
    assert 'doc.classList.toggle("dark"' in (out / "_static" / "site.js").read_text()


def test_language_switcher_leads_to_the_same_page_in_the_other_language(tmp_path):
    out = tmp_path / "out"
    build(FIXTURES / "nav-languages", out)

    def targets(rel: str) -> dict[str, str]:
        doc = parse((out / rel).read_text())
        switch = doc.find("details", cls="dg-switch-language")
        return {a.attrs["hreflang"]: a.attrs["href"] for a in switch.find_all("a")}

    assert targets("guide/index.html") == {"en": "../guide/", "fr": "../fr/guide/", "ja": "../ja/"}
    # fr/guide exists in English as guide; ja has no guide page: its home.
    assert targets("fr/guide/index.html") == {
        "en": "../../guide/",
        "fr": "../../fr/guide/",
        "ja": "../../ja/",
    }


def test_page_modes_custom_center_and_frame(make_site, tmp_path):
    pages = {
        "index.mdx": "---\ntitle: Home\n---\n\n## A\n\ntext\n",
        "custom.mdx": "---\ntitle: Landing\nmode: custom\n---\n\n## A\n\n<div>hero</div>\n",
        "center.mdx": "---\ntitle: Centred\nmode: center\n---\n\n## A\n\ntext\n",
        "frame.mdx": "---\ntitle: Framed\nmode: frame\n---\n\n## A\n\ntext\n",
    }
    config = {
        "theme": "mint",
        "name": "S",
        "colors": {"primary": "#1D4ED8"},
        "footer": {"socials": {"github": "https://github.com/x"}},
        "navigation": {"pages": ["index", "custom", "center", "frame"]},
    }
    out = tmp_path / "out"
    build(make_site({"docs.json": json.dumps(config), **pages}), out)

    def parts(rel: str) -> tuple[bool, bool, bool]:
        doc = parse((out / rel / "index.html").read_text())
        return (
            doc.find("aside", id="dg-sidebar") is not None,
            doc.find("footer", cls="dg-footer") is not None,
            doc.find("aside", cls="dg-toc") is not None,
        )

    assert parts("custom") == (False, False, False)
    assert parts("center") == (False, True, False)
    assert parts("frame") == (True, True, False)
    css = (out / "_static" / "site.css").read_text()
    assert ".dg-mode-frame .dg-article" in css and ".dg-shell.dg-no-sidebar" in css


def test_one_site_font_also_sets_headings_over_the_theme_serif(make_site, tmp_path):
    config = {
        "theme": "maple",
        "name": "S",
        "colors": {"primary": "#1D4ED8"},
        "fonts": {"family": "Inter", "source": "/inter.woff2"},
        "navigation": {"pages": ["index"]},
    }
    out = tmp_path / "out"
    build(make_site({"docs.json": json.dumps(config), "index.mdx": "# Home\n", "inter.woff2": b"wOF2"}), out)
    style = parse((out / "index.html").read_text()).find("style", id="dg-custom-style").text
    assert '.dg-title,.dg-prose h1,.dg-prose h2,.dg-prose h3,.dg-prose h4{font-family:"Inter"' in style


def test_node_scripts_in_the_docs_folder_are_not_included_in_pages_and_say_why(make_site, tmp_path):
    config = {
        "theme": "mint",
        "name": "S",
        "colors": {"primary": "#1D4ED8"},
        "navigation": {"pages": ["index"]},
    }
    files = {
        "docs.json": json.dumps(config),
        "index.mdx": "# Home\n",
        "tools/gen.js": "#!/usr/bin/env node\nconst fs = require('fs');\n",
        "widget.js": "window.x = 1;\nif (typeof module !== 'undefined' && module.exports) { module.exports = {}; }\n",
    }
    out = tmp_path / "out"
    site = build(make_site(files), out)
    html = (out / "index.html").read_text()
    assert 'src="./widget.js"' in html and "tools/gen.js" not in html
    found = [(d.code, d.path, d.line) for d in site.diagnostics if d.code == "customize.node-script"]
    assert found == [("customize.node-script", "tools/gen.js", 1)]
