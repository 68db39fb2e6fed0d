"""What readers get in the HTML (no browser): colour CSS inside <style>, the dark class, the language switcher."""

from __future__ import annotations

import json

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
    light_text = light_rule.split("--dg-primary-text:")[1].split("}")[0]
    dark_text = dark_rule.split("--dg-primary-text:")[1].split("}")[0]
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
