"""A page's translations are worked out once per page render: its language switcher and its hreflang links
share them; another page works out its own."""

from __future__ import annotations

import json

from docsgen.render import site_context, switchers
from docsgen.render.html import page_html
from docsgen.site.read import read_site
from tests.htmldom import parse

LANGUAGES = ("en", "fr", "ja")


def _site(make_site):
    files, languages = {}, []
    for lang in LANGUAGES:
        pages = (
            ["index", "guide"] if lang != "ja" else ["index"]
        )  # ja has no guide: its entry leads to ja's home
        languages.append(
            {"language": lang, "groups": [{"group": "G", "pages": [f"{lang}/{p}" for p in pages]}]}
        )
        files.update({f"{lang}/{p}.mdx": f"---\ntitle: {lang} {p}\n---\n\nText.\n" for p in pages})
    files["docs.json"] = json.dumps(
        {
            "theme": "mint",
            "name": "T",
            "colors": {"primary": "#0D9373"},
            "navigation": {"languages": languages},
        }
    )
    return make_site(files)


def _hrefs(html: str) -> tuple[dict[str, str], dict[str, str]]:
    doc = parse(html)
    alternates = {
        n.attrs["hreflang"]: n.attrs["href"] for n in doc.find_all("link") if n.attrs.get("hreflang")
    }
    menu = doc.find("ul", id="localization-select-content")
    items = {n.attrs["hreflang"]: n.attrs["href"] for n in menu.find_all("a")}
    return alternates, items


def test_translations_are_worked_out_once_per_page(make_site, tmp_path, monkeypatch):
    site = read_site(_site(make_site), tmp_path / "out")
    ctx = site_context(site)
    asked = []
    real = switchers._keys_by_language  # what every look-up of a translation starts with
    monkeypatch.setattr(switchers, "_keys_by_language", lambda c: asked.append(1) or real(c))
    guide = page_html(ctx, site.pages["fr/guide"], None)
    assert len(asked) == len(LANGUAGES) - 1  # once per other language, not once for the switcher and again
    alternates, items = _hrefs(guide)
    assert alternates == {"en": "../../en/guide/", "fr": "../../fr/guide/", "x-default": "../../en/guide/"}
    assert items == {"en": "../../en/guide/", "fr": "../../fr/guide/", "ja": "../../ja/"}
    home = page_html(ctx, site.pages["fr/index"], None)  # another page: its own translations
    assert len(asked) == 2 * (len(LANGUAGES) - 1)
    alternates, items = _hrefs(home)
    assert alternates == {"en": "../en/", "fr": "../fr/", "ja": "../ja/", "x-default": "../en/"}
    assert items == {"en": "../en/", "fr": "../fr/", "ja": "../ja/"}
