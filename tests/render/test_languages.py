"""Every language: a site in ar, de and ja shows the interface's words translated (docs.json `strings` overrides
them), lang and dir="rtl" with the mirrored stylesheet for Arabic, and valid hreflang alternates with x-default
on every translated page; the catalogue covers every language code Mintlify supports, none of them English."""

from __future__ import annotations

import html as htmllib
import json
import re

from docsgen.build import build
from docsgen.common.resources import themes_dir
from docsgen.config.model import bcp47
from docsgen.render.strings import SCRIPT_KEYS, catalogue, catalogue_code, interface_strings, script_strings
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


# Words a language spells exactly as English does: its own word, not an English placeholder ("No" is Spanish,
# "Server" German, "Send" Danish and Norwegian, "Cookies" a loanword in these languages, "Message" and "Pages"
# French). Anything else equal to the English text fails the test below.
SAME_AS_ENGLISH = {
    ("fr", "version"), ("de", "version"), ("sv", "version"), ("da", "version"),
    # "Webhook" is the word many languages use (Mintlify's own translations keep it)
    *((code, "webhook") for code in ("ca", "cs", "cn", "zh-Hant", "nl", "fr", "de", "he", "hu", "id", "it", "jp",
                                      "no", "pl", "pt-BR", "ro", "es", "sv", "tr", "vi", "da", "fi")),
    ("ca", "no"), ("es", "no"), ("it", "no"), ("no", "send"), ("da", "send"), ("da", "send_feedback"),
    ("de", "server"), ("nl", "server"), ("it", "server"), ("it", "password"), ("it", "file_of_type"),
    ("de", "cookies"), ("nl", "cookies"), ("fr", "cookies"), ("es", "cookies"), ("pt-BR", "cookies"),
    ("da", "cookies"), ("fr", "sources"), ("fr", "message"), ("fr", "messages"), ("fr", "pages_nav"),
    ("fr", "pages_one"), ("fr", "pages_n"),
    # API reference words (loanwords in these languages)
    ("ca", "n_elements"), ("nl", "payload"), ("nl", "callbacks"), ("de", "callbacks"), ("it", "payload"),
    ("pt-BR", "callbacks"), ("es", "callbacks"), ("nl", "type"), ("fr", "type"), ("no", "type"), ("da", "type"),
}  # fmt: skip


def test_every_supported_language_has_every_string_translated():
    english = catalogue()["en"]
    for code in [*SPEC_CODES, *catalogue()]:  # the spec's codes and the two more the catalogue has
        words = catalogue()[catalogue_code(code)]
        assert set(words) == set(english), code
        if code != "en":
            same = {(code, k) for k, v in words.items() if v == english[k]}
            assert same <= SAME_AS_ENGLISH, sorted(same - SAME_AS_ENGLISH)
        for key, text in words.items():  # every {placeholder} of the English text, and no other
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", english[key])), (
                code,
                key,
            )
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


# T("key", "English", ...) and the playground's problem(path, "key", "English", ...) (a validation message)
SCRIPT_CALL = re.compile(
    r'\b(?:T\(|problem\((?:[^;()"]|"[^"]*"|\([^()]*\))*?,)\s*"([a-z_]+)",\s*"((?:[^"\\]|\\.)*)"'
)


def test_every_word_a_script_writes_comes_from_the_catalogue():
    """Each T("key", "English") call (and problem(path, "key", "English")) in the theme's scripts names a catalogued key whose English text is the
    script's own (so an English page, which carries no strings, reads the same), and every catalogued script key is
    used by a script."""
    english = catalogue()["en"]
    calls: dict[str, str] = {}
    for path in sorted((themes_dir() / "base" / "static").rglob("*.js")):
        if "vendor" in path.parts:
            continue
        for key, text in SCRIPT_CALL.findall(path.read_text(encoding="utf-8")):
            calls[key] = json.loads(f'"{text}"')
            assert english.get(key) == calls[key], (path.name, key)
    assert set(calls) == set(SCRIPT_KEYS)
    assert {"no_results_for", "feedback_thanks", "try_it", "sending", "copied", "ask_ai"} <= set(calls)


def _data_strings(page: str) -> dict:
    found = re.search(r'<html [^>]*data-strings="([^"]*)"', page)
    return json.loads(htmllib.unescape(found.group(1))) if found else {}


def test_pages_carry_only_their_languages_script_words(tmp_path):
    out = _site(tmp_path)
    de, ar, ja = (
        _data_strings(_html(out, "guide")),
        _data_strings(_html(out, "ar/guide")),
        _data_strings(_html(out, "jp")),
    )
    assert de["copied"] == "Kopiert" and de["no_results_for"] == "Keine Ergebnisse für „{q}“"
    assert ar["try_it"] == catalogue()["ar"]["try_it"] and ja["send"] == "送信"
    assert set(de) <= set(SCRIPT_KEYS) and "on_this_page" not in de  # the template's words are in the HTML
    assert "server" not in de  # the same word as English is not carried
    assert script_strings(interface_strings("en")) == {}
    english = write_tree(
        tmp_path / "en",
        {
            "docs.json": json.dumps(
                {
                    "name": "A",
                    "theme": "mint",
                    "colors": {"primary": "#4F46E5"},
                    "navigation": {"pages": ["index"]},
                    "strings": {"*": {"copied": "Done!"}},
                }
            ),
            "index.mdx": "---\ntitle: Home\n---\n\nHi.\n",
        },
    )
    build(english, tmp_path / "en-out")
    assert _data_strings((tmp_path / "en-out" / "index.html").read_text(encoding="utf-8")) == {
        "copied": "Done!"
    }
    plain = write_tree(
        tmp_path / "plain",
        {
            "docs.json": json.dumps(
                {
                    "name": "A",
                    "theme": "mint",
                    "colors": {"primary": "#4F46E5"},
                    "navigation": {"pages": ["index"]},
                }
            ),
            "index.mdx": "---\ntitle: Home\n---\n\nHi.\n",
        },
    )
    build(plain, tmp_path / "plain-out")
    assert "data-strings" not in (tmp_path / "plain-out" / "index.html").read_text(encoding="utf-8")


def test_a_languages_words_are_made_once_and_their_script_part_once():
    """The pages of one language share one words object (docsgen.render.html.page_strings), whose script part
    script_strings works out once; another language, or another words object, gets its own."""
    from types import SimpleNamespace

    from docsgen.render.html import page_strings
    from docsgen.render.strings import interface_strings, script_strings

    site = SimpleNamespace(config=SimpleNamespace(raw={"strings": {"de": {"copied": "Kopiert!"}}}))
    de = page_strings(site, "de")  # type: ignore[arg-type]
    assert page_strings(site, "de") is de and de == interface_strings("de", site.config.raw["strings"])
    fr = page_strings(site, "fr")  # type: ignore[arg-type]
    assert fr is not de and fr["copied"] != "Kopiert!"
    first = script_strings(de)
    assert first["copied"] == "Kopiert!" and script_strings(de) is first
    other = dict(de, copied="Kopiert (2)")
    assert script_strings(other)["copied"] == "Kopiert (2)"  # a new object: worked out anew, not the memo's
    assert script_strings(interface_strings("en")) == {}


def test_the_data_strings_attribute_is_dumped_once_per_words_object(monkeypatch):
    """<html data-strings> is the script words as Jinja's `tojson|forceescape` writes them, dumped and escaped once
    per words object (not on every page of the language); another words object gets its own."""
    import jinja2

    from docsgen.render import strings

    calls = []
    real = strings.htmlsafe_json_dumps
    monkeypatch.setattr(strings, "htmlsafe_json_dumps", lambda *a, **k: calls.append(1) or real(*a, **k))
    words = dict(interface_strings("de"), copied='Kopiert "<ok>" & fertig')
    reference = jinja2.Environment(autoescape=True).from_string("{{ s|tojson|forceescape }}")
    attr = strings.script_strings_attr(words)
    assert str(attr) == reference.render(s=strings.script_strings(words))
    assert (
        "&amp;#34;" in attr or "&amp;quot;" in attr or "\\u0026" in attr
    )  # escaped twice, as forceescape does
    assert strings.script_strings_attr(words) is attr and len(calls) == 1
    other = dict(words, copied="Kopiert (2)")
    assert "Kopiert (2)" in strings.script_strings_attr(other) and len(calls) == 2
    assert strings.script_strings_attr(interface_strings("en")) == "" and len(calls) == 2
