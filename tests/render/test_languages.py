"""Every language: a site in ar, de and ja shows the interface's words translated (docs.json `strings` overrides
them), lang and dir="rtl" with the mirrored stylesheet for Arabic, and valid hreflang alternates with x-default
on every translated page; the catalogue covers every language code Mintlify supports, none of them English."""

from __future__ import annotations

import json
import re

from docsgen.build import build
from docsgen.config.model import bcp47
from docsgen.render.strings import catalogue, catalogue_code, interface_strings
from tests.conftest import write_tree

SPEC_CODES = [
    "ar",
    "ca",
    "cs",
    "cn",
    "zh-Hant",
    "nl",
    "en",
    "fr",
    "de",
    "he",
    "hi",
    "hu",
    "id",
    "it",
    "jp",
    "ko",
    "lv",
    "no",
    "pl",
    "pt-BR",
    "ro",
    "ru",
    "es",
    "sv",
    "tr",
    "ua",
    "uz",
    "vi",
]
BCP47_TAG = re.compile(r"^[a-z]{2,3}(?:-[A-Z][a-z]{3})?(?:-[A-Z]{2})?$")


def test_every_supported_language_has_every_string_translated():
    english = catalogue()["en"]
    for code in SPEC_CODES:
        words = catalogue()[catalogue_code(code)]
        assert set(words) == set(english), code
        if code != "en":
            same = [k for k, v in words.items() if v == english[k] and k not in ("no",)]
            # a few words are the same in some languages (de "Feedback senden" is not, "No" in es/it/ca is)
            assert len(same) <= 2, (code, same)
    assert (
        catalogue_code("ja") == "jp" and catalogue_code("zh-TW") == "zh-Hant" and catalogue_code("xx") == "en"
    )
    assert (
        interface_strings("de", {"*": {"search": "Finden"}, "de": {"next": "Nächste"}})["next"] == "Nächste"
    )


DOCS = {
    "name": "Acme",
    "theme": "mint",
    "colors": {"primary": "#4F46E5"},
    "feedback": {"endpoint": "https://feedback.acme.test/v1/feedback/acme", "thumbsRating": True},
    "strings": {"de": {"related": "Siehe auch"}},
    "navigation": {
        "languages": [
            {"language": "de", "default": True, "groups": [{"group": "Start", "pages": ["index", "guide"]}]},
            {"language": "ar", "groups": [{"group": "البداية", "pages": ["ar/index", "ar/guide"]}]},
            {"language": "jp", "groups": [{"group": "開始", "pages": ["jp/index", "jp/only-ja"]}]},
        ]
    },
}


def _page(title: str) -> str:
    return f"---\ntitle: {title}\nrelated: [index]\n---\n\n## Abschnitt\n\nText.\n\n## Zwei\n\nMehr.\n"


def _site(tmp_path):
    files = {"docs.json": json.dumps(DOCS)}
    for prefix, names in (
        ("", ["index", "guide"]),
        ("ar/", ["index", "guide"]),
        ("jp/", ["index", "only-ja"]),
    ):
        for name in names:
            files[f"{prefix}{name}.mdx"] = _page(f"{prefix}{name}")
    root = write_tree(tmp_path / "docs", files)
    build(root, tmp_path / "out", site_url="https://docs.acme.test")
    return tmp_path / "out"


def _html(out, path):
    return (out / path / "index.html").read_text(encoding="utf-8")


def test_translated_interface_rtl_and_hreflang(tmp_path):
    out = _site(tmp_path)
    de, ar, ja = _html(out, "guide"), _html(out, "ar/guide"), _html(out, "jp")
    assert (
        '<html lang="de" dir="ltr"' in de and "Auf dieser Seite" in de and "War diese Seite hilfreich?" in de
    )
    assert "Siehe auch" in de  # docs.json strings override
    assert '<html lang="ar" dir="rtl"' in ar and "في هذه الصفحة" in ar and "هل كانت هذه الصفحة مفيدة؟" in ar
    assert "_static/rtl.css" in ar and "_static/rtl.css" not in de
    assert (out / "_static" / "rtl.css").is_file()
    assert '<html lang="ja" dir="ltr"' in ja and "このページの内容" in ja and "On this page" not in ja
    for html in (de, ar):  # guide exists in de and ar, not ja
        links = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html))
        assert links == {
            "de": "https://docs.acme.test/guide/",
            "ar": "https://docs.acme.test/ar/guide/",
            "x-default": "https://docs.acme.test/guide/",
        }
    home = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', _html(out, "jp")))
    assert home["ja"] == "https://docs.acme.test/jp/" and home["x-default"] == "https://docs.acme.test/"
    assert all(BCP47_TAG.match(tag) for tag in home if tag != "x-default")
    only = _html(out, "jp/only-ja")
    assert 'hreflang="x-default"' not in only and 'rel="alternate" hreflang' not in only  # not translated
    notfound = (out / "404.html").read_text(encoding="utf-8")
    assert "Seite nicht gefunden" in notfound and "Zur Startseite" in notfound  # the default language
    assert bcp47("jp") == "ja"
