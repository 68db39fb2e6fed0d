"""The site gate's own pages in the reader's language: the sign-in form, its wrong-password note and the failed
sign-in pages take the words of the language of the page the reader was going to (its language folder, else
the site's default language), with `lang` and, for Arabic and Hebrew, `dir="rtl"`; English pages as before."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from docsgen.build import build
from docsgen.server.app import create_app
from docsgen.server.site_auth import hash_password
from docsgen.server.testing import LiveServer
from tests.conftest import write_tree
from tests.htmldom import parse
from tests.server.gate_helpers import JwtSigner, OidcProvider, build_private_site, gate_project

PASSWORD = {"method": "password", "passwordHash": hash_password("open sesame")}
LANGUAGES = ("de", "en", "ar")  # de is the default language


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A private site in German (the default), English and Arabic, each language in its own folder."""
    docs = tmp_path_factory.mktemp("languages") / "docs"
    nav = [
        {
            "language": lang,
            **({"default": True} if lang == "de" else {}),
            "pages": [f"{lang}/index", f"{lang}/guide"],
        }
        for lang in LANGUAGES
    ]
    config = {
        "name": "Acme",
        "theme": "mint",
        "colors": {"primary": "#112233"},
        "navigation": {"languages": nav},
    }
    files = {"docs.json": json.dumps(config)}
    for lang in LANGUAGES:
        files[f"{lang}/index.mdx"] = f"---\ntitle: Home {lang}\n---\n\nHome."
        files[f"{lang}/guide.mdx"] = f"---\ntitle: Guide {lang}\n---\n\nGuide."
    write_tree(docs, files)
    out = docs.parent / "out"
    build(docs, out)
    return out


def _serve(tmp_path: Path, site: Path, config: dict):
    engine = gate_project(tmp_path, site, config)
    return engine, LiveServer(create_app(engine=engine, site_project="acme"))


def _html(text: str) -> dict[str, str | None]:
    root = parse(text).find("html")
    return {"lang": root.attrs.get("lang"), "dir": root.attrs.get("dir")}


def test_password_form_and_wrong_password_note_in_the_target_pages_language(tmp_path, site):
    engine, live = _serve(tmp_path, site, PASSWORD)
    with live, httpx.Client(base_url=live.url) as client:
        german = client.get("/login?redirect=/de/guide/").text
        assert _html(german) == {"lang": "de", "dir": None}
        dom = parse(german)
        assert dom.find("title").text == "Anmelden" and dom.find("h1").text == "Anmelden"
        assert dom.find("label").text == "Passwort" and dom.find("button").text == "Anmelden"
        assert "Sign in" not in german and "Password" not in german
        wrong = client.post("/login?redirect=/de/guide/", data={"password": "nope"})
        assert wrong.status_code == 401 and _html(wrong.text)["lang"] == "de"
        assert "Dieses Passwort ist nicht richtig." in wrong.text and "not right" not in wrong.text
        arabic = client.get("/login?redirect=/ar/guide/").text
        assert _html(arabic) == {"lang": "ar", "dir": "rtl"}
        assert parse(arabic).find("h1").text == "تسجيل الدخول"
        # a page the site does not have, in a language folder: that language
        assert _html(client.get("/login?redirect=/ar/nowhere/").text)["dir"] == "rtl"
        english = client.get("/login?redirect=/en/guide/").text
        assert _html(english) == {"lang": "en", "dir": None} and "<h1>Sign in</h1>" in english
        # anything else: the site's default language
        for target in ("/", "/nowhere/", "//evil.test/"):
            assert _html(client.get("/login", params={"redirect": target}).text)["lang"] == "de", target
    engine.dispose()


def test_failed_sign_in_pages_are_translated_and_provider_messages_escaped(tmp_path, site):
    signer = JwtSigner()
    config = {"method": "jwt", "publicKey": signer.public_pem}
    engine, live = _serve(tmp_path, site, config)
    with live, httpx.Client(base_url=live.url) as client:
        page = client.get("/login?redirect=/ar/guide/")
        assert _html(page.text) == {"lang": "ar", "dir": "rtl"}
        assert "سجّل الدخول عبر التطبيق الذي أرسلك إلى هنا." in page.text
        handover = client.get("/login/jwt-callback?redirect=/de/guide/").text
        assert _html(handover)["lang"] == "de" and "Aktiviere JavaScript, um dich anzumelden." in handover
        assert parse(handover).find("title").text == "Anmeldung läuft"
        failed = client.post("/login/jwt-callback?redirect=/ar/guide/", data={"token": "<b>not-a-jwt</b>"})
        assert failed.status_code == 401 and _html(failed.text) == {"lang": "ar", "dir": "rtl"}
        assert parse(failed.text).find("h1").text == "فشل تسجيل الدخول"
        assert "<b>" not in failed.text  # the verifier's message stays escaped
    engine.dispose()
    provider = OidcProvider()
    with LiveServer(provider.app) as idp:
        provider.url = idp.url
        oauth = {"method": "oauth", "issuer": idp.url, "clientId": provider.client_id}
        (tmp_path / "oidc").mkdir()
        engine, live = _serve(tmp_path / "oidc", site, oauth)
        with live, httpx.Client(base_url=live.url) as client:
            expired = client.get("/login/oidc-callback?code=x&state=y")  # no flow: the default language
            assert expired.status_code == 400 and _html(expired.text)["lang"] == "de"
            dom = parse(expired.text)
            assert dom.find("h1").text == "Anmeldung fehlgeschlagen"
            assert "Diese Anmeldung ist abgelaufen; bitte neu beginnen." in expired.text
        engine.dispose()


def test_an_english_site_keeps_its_sign_in_page(tmp_path):
    site = build_private_site(tmp_path / "out")
    engine, live = _serve(tmp_path, site, PASSWORD)
    with live, httpx.Client(base_url=live.url) as client:
        form = client.get("/login?redirect=/guides/members-guide/").text
        assert form.startswith(
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title>'
        )
        assert '<h1>Sign in</h1><form method="post"' in form
        assert (
            '<label for="dg-password">Password</label>' in form
            and '<button type="submit">Sign in</button>' in form
        )
        wrong = client.post("/login?redirect=/guides/members-guide/", data={"password": "nope"}).text
        assert '<h1>Sign in</h1><p role="alert">That password is not right.</p>' in wrong
    engine.dispose()
