"""What readers get in the HTML (no browser): colour CSS inside <style>, the dark class, the language switcher."""

from __future__ import annotations

import json
import re

from docsgen.build import build
from docsgen.common.contrast import parse_color, ratio
from tests.conftest import FIXTURES
from tests.htmldom import Node, parse
from tests.readers_sites import API_PAGE_FILES


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
            doc.find("aside", id="sidebar") is not None,
            doc.find("footer", cls="dg-footer") is not None,
            doc.find("aside", cls="dg-toc") is not None,
        )

    assert parts("custom") == (False, False, False)
    assert parts("center") == (False, True, False)
    assert parts("frame") == (True, False, False)
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


def test_typed_cards_get_their_kind_icon_and_tint_and_callout_type_styles_the_callout():
    from tests.mdx_helpers import render

    html = render(
        '<Card title="Careful" type="warning">Mind the gap.</Card>\n\n'
        '<Card title="Own icon" type="tip" icon="/logo.svg">Tip.</Card>\n\n'
        '<Card title="Odd" type="sparkly">Plain.</Card>\n\n'
        '<Callout type="danger">Do not.</Callout>\n'
    ).html
    cards = parse(html).find_all("div", cls="dg-card")
    warning, tip, odd = cards
    assert "dg-card-warning" in warning.attrs["class"]
    assert warning.find("div", cls="dg-card-icon").find("svg") is not None  # the warning triangle
    assert tip.find("div", cls="dg-card-icon").find("img") is not None  # its own icon wins
    assert "dg-card-sparkly" not in odd.attrs["class"] and odd.find("div", cls="dg-card-icon") is None
    assert parse(html).find("div", cls="dg-callout-danger") is not None


def test_typed_card_css_tints_background_border_and_icon():
    css = (FIXTURES.parent / "themes" / "base" / "static" / "components.css").read_text()
    rule = css[css.index(":is(.dg-card-info") :]
    assert "background: color-mix(in srgb, var(--dg-card-tint) 7%" in rule
    assert ".dg-card-danger) .dg-card-icon" in rule


def test_void_element_written_with_a_closing_tag_breaks_once():
    from tests.mdx_helpers import render

    for source in ("a<br></br>b\n", "<Note>a<br></br>b</Note>\n", "<div>a<br></br>b</div>\n"):
        html = render(source).html
        assert html.count("<br") == 1 and "</br>" not in html, (source, html)


def test_fence_languages_mintlify_writes_are_highlighted():
    from docsgen.mdx.code import highlight_lines

    samples = {
        "mdx": ('<Card title="x">\n  Hello\n</Card>', '<span class="nt">Card</span>'),
        "cURL": ("curl -X POST https://x -H 'A: b'", '<span class="s1">'),
        "prisma": ("model User {\n  id Int @id\n}", '<span class="nd">@id</span>'),
        "Sol": ("contract A {}", '<span class="k">contract</span>'),
        "jsonl": ('{"a": 1}', '<span class="nt">"a"</span>'),
        "cmd": ("echo hi", '<span class="k">echo</span>'),
    }
    for lang, (code, wanted) in samples.items():
        assert wanted in "\n".join(highlight_lines(code, lang)), lang
    for lang in ("sh", "shell", "zsh", "console", "bash", "jsx", "tsx", "http", "graphql", "dockerfile"):
        assert '<span class="' in "".join(highlight_lines("FROM x\nRUN echo {a: 1}", lang)), lang
    assert "<span" in "".join(highlight_lines("[a]\nb = 1", "toml"))
    assert "<span" in "".join(highlight_lines("A=1", "env"))


def test_mdx_written_for_an_api_page_comes_right_under_the_method_and_path_bar(make_site, tmp_path):
    out = tmp_path / "out"
    build(make_site(API_PAGE_FILES), out)
    prose = parse((out / "list" / "index.html").read_text()).find("div", cls="dg-prose")
    api = prose.find("div", cls="dg-api")
    assert api is not None and [c for c in prose.children if isinstance(c, Node)][0] is api  # nothing above
    first, second = [c for c in api.children if isinstance(c, Node)][:2]
    assert "dg-api-endpoint" in first.attrs["class"]
    assert second.attrs["class"] == "dg-api-page-content"
    assert "This endpoint is paginated." in second.text and second.find("div", cls="dg-callout-note")


def test_images_without_a_text_alternative_are_not_read_out_as_file_names():
    from tests.mdx_helpers import render

    source = (
        "export const Hero = ({ title }) => (\n"
        '  <a href="/q"><img src="/hero.png" className="block" /><h3>{title}</h3></a>\n'
        ");\n\n"
        '<Hero title="Quickstart" />\n\n<img src="/plain.png" />\n\n'
        '<img src="/described.png" alt="A chart" />\n\n<img src="/labelled.png" aria-label="Logo" />\n'
    )
    images = {n.attrs["src"]: n.attrs for n in parse(render(source).html).find_all("img")}
    assert images["/hero.png"]["alt"] == "" and images["/plain.png"]["alt"] == ""
    assert images["/described.png"]["alt"] == "A chart"
    assert "alt" not in images["/labelled.png"]


def test_a_switcher_with_one_visible_option_is_not_shown(make_site, tmp_path):
    config = {
        "theme": "mint",
        "name": "S",
        "colors": {"primary": "#1D4ED8"},
        "navigation": {
            "versions": [
                {"version": "v2", "languages": [{"language": "en", "pages": ["index"]}]},
                {"version": "v1", "hidden": True, "pages": ["v1/index"]},
            ]
        },
    }
    files = {"docs.json": json.dumps(config), "index.mdx": "# Home\n", "v1/index.mdx": "# Old\n"}
    out = tmp_path / "out"
    build(make_site(files), out)

    def switches(rel: str) -> dict[str, int]:
        doc = parse((out / rel).read_text())
        return {
            kind: len(doc.find_all("details", cls=f"dg-switch-{kind}")) for kind in ("version", "language")
        }

    # v2 alone is visible, with one language: no dropdown offers a single choice
    assert switches("index.html") == {"version": 0, "language": 0}
    # a reader on the hidden v1 can go back to v2 (header and phone menu)
    assert switches("v1/index.html") == {"version": 2, "language": 0}


def test_string_props_are_text_so_a_title_naming_a_tag_shows_the_tag():
    from tests.mdx_helpers import render

    html = render(
        '<Accordion title="<body>">Injected at the start of the body.</Accordion>\n\n'
        '<Card title="Use `<div>` and **bold** <b>x</b>">z</Card>\n\n'
        "<Accordion title={<b>jsx</b>}>y</Accordion>\n"
    ).html
    doc = parse(html)
    titles = doc.find_all("span", cls="dg-accordion-title")
    assert titles[0].text == "<body>" and not titles[0].find("body")
    card = doc.find("div", cls="dg-card-title")
    assert card.text == "Use <div> and bold <b>x</b>"
    assert card.find("code").text == "<div>" and card.find("strong").text == "bold" and not card.find("b")
    assert titles[1].find("b").text == "jsx"  # a JSX expression is markup


def test_api_example_panels_scroll_by_keyboard(make_site, tmp_path):
    out = tmp_path / "out"
    build(make_site(API_PAGE_FILES), out)
    panels = parse((out / "list" / "index.html").read_text()).find_all("pre", cls="dg-api-code")
    assert len(panels) >= 2 and all(p.attrs.get("tabindex") == "0" for p in panels)


def test_steps_around_a_plain_list_is_not_an_empty_aria_list():
    from tests.mdx_helpers import render

    html = render(
        '<Steps>\n  <Step title="Get credentials">\n    <Steps>\n      1. Sign in.\n      2. Copy the key.\n'
        "    </Steps>\n  </Step>\n</Steps>\n"
    ).html
    outer, inner = parse(html).find_all("div", cls="dg-steps")
    assert outer.attrs.get("role") == "list" and outer.find("div", role="listitem") is not None
    assert "role" not in inner.attrs and len(inner.find_all("li")) == 2


def test_embedded_frames_without_a_title_are_named_for_screen_readers():
    from tests.mdx_helpers import render

    html = render(
        '<iframe src="https://www.youtube.com/embed/x" width="100%"></iframe>\n\n'
        '<iframe src="/demo.html" title="Live demo"></iframe>\n\n<iframe src="http://[bad"></iframe>\n'
    ).html
    titles = [f.attrs.get("title") for f in parse(html).find_all("iframe")]
    assert titles == ["Embedded content from www.youtube.com", "Live demo", "Embedded content"]
