"""The 13 integrations added to the first ten: each emitted only when configured, values escaped, dev leaves them out."""

from __future__ import annotations

import json

import httpx
import pytest

from docsgen.build import build
from docsgen.dev.app import start
from tests.htmldom import parse

BASE = {"name": "Int", "theme": "mint", "colors": {"primary": "#0D9373"}, "navigation": {"pages": ["index"]}}
PAGES = {"index.mdx": "---\ntitle: Home\n---\nHello.\n"}

ALL = {
    "adobe": {"launchUrl": "https://assets.adobedtm.com/launch-EN93.min.js"},
    "amplitude": {"apiKey": "amp-key"},
    "clearbit": {"publicApiKey": "pk_clear"},
    "frontchat": {"snippetId": "front-chat-id"},
    "hightouch": {"writeKey": "ht-write", "apiHost": "eu-west-1.hightouch-events.com"},
    "intercom": {"appId": "abc123def4"},
    "koala": {"publicApiKey": "pk_koala"},
    "logrocket": {"appId": "org/app"},
    "mixpanel": {"projectToken": "mp-token", "region": "eu"},
    "onetrust": {"domainScript": "0190-aaaa-bbbb"},
    "transcend": {"bundleId": "bundle-1"},
}
# What each provider's page must carry (its loader URL and its identifier as a JavaScript string or attribute).
EXPECT = {
    "adobe": ['src="https://assets.adobedtm.com/launch-EN93.min.js"'],
    "amplitude": ["https://cdn.amplitude.com/script/", '"amp-key"', "amplitude.init"],
    "clearbit": ["https://tag.clearbitscripts.com/v1/", '"pk_clear"'],
    "frontchat": ["https://chat-assets.frontapp.com/v1/chat.bundle.js", 'chatId:"front-chat-id"'],
    "hightouch": ["events.min.js", '"ht-write"', 'apiHost:"eu-west-1.hightouch-events.com"'],
    "intercom": ["https://widget.intercom.io/widget/", 'app_id:"abc123def4"'],
    "koala": ["https://cdn.getkoala.com/v1/", '"pk_koala"'],
    "logrocket": ["https://cdn.lr-ingest.com/LogRocket.min.js", 'LogRocket.init("org/app")'],
    "mixpanel": ["mixpanel-2-latest.min.js", '"mp-token"', "https://api-eu.mixpanel.com"],
    "onetrust": [
        "https://cdn.cookielaw.org/scripttemplates/otSDKStub.js",
        'data-domain-script="0190-aaaa-bbbb"',
    ],
    "transcend": ['src="https://transcend-cdn.com/cm/bundle-1/airgap.js"'],
}


def site(make_site, tmp_path, integrations: dict, name: str = "docs"):
    docs = make_site({"docs.json": json.dumps({**BASE, "integrations": integrations}), **PAGES}, name)
    out = tmp_path / (name + "-out")
    return out, build(docs, out)


def head_html(out) -> str:
    return "".join(str(n.attrs) + n.text for n in parse((out / "index.html").read_text()).find("head").iter())


def test_each_provider_only_when_configured(make_site, tmp_path):
    out, result = site(make_site, tmp_path, ALL)
    html = (out / "index.html").read_text()
    for name, needles in EXPECT.items():
        for needle in needles:
            assert needle in html, (name, needle)
    assert not [w for w in result.warnings if w.code.startswith("integrations.")]
    # consent managers come first, before any tracker
    assert html.index("otSDKStub.js") < html.index("airgap.js") < html.index("assets.adobedtm.com")
    for name in EXPECT:
        one, _ = site(make_site, tmp_path, {name: ALL[name]}, name)
        page = (one / "index.html").read_text()
        others = [n for n in EXPECT if n != name and EXPECT[n][0] in page]
        assert others == [], name
        assert all(needle in page for needle in EXPECT[name])


def test_nothing_when_nothing_configured(make_site, tmp_path):
    out, _ = site(make_site, tmp_path, {})
    assert "dg:integrations" not in (out / "index.html").read_text()


def test_hostile_values_escaped_or_refused(make_site, tmp_path):
    hostile = {
        "adobe": {"launchUrl": 'javascript:alert(1)"><script>x</script>'},
        "onetrust": {"domainScript": '"><script>alert(1)</script>'},
        "transcend": {"bundleId": "../../evil"},
        "hightouch": {"writeKey": "k", "apiHost": "http://evil.example/<x>"},
        "intercom": {"appId": "</script><script>alert(1)</script>"},
        "koala": {"publicApiKey": "x'+alert(1)+'"},
    }
    out, result = site(make_site, tmp_path, hostile)
    html = (out / "index.html").read_text()
    assert "alert(1)</script>" not in html and "javascript:" not in html and "evil" not in html
    assert (
        '"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"' in html
    )  # intercom id, inert
    incomplete = sorted(w.json_path for w in result.warnings if w.code == "integrations.incomplete")
    assert incomplete == [f"integrations.{n}" for n in ("adobe", "hightouch", "onetrust", "transcend")]
    assert all(w.line > 0 for w in result.warnings if w.code == "integrations.incomplete")


def test_cookies_hold_scripts_until_consent(make_site, tmp_path):
    out, result = site(
        make_site,
        tmp_path,
        {"cookies": {"key": "consent", "value": "yes"}, "mixpanel": {"projectToken": "mp"}},
    )
    head = parse((out / "index.html").read_text()).find("head")
    template = head.find("template", id="dg-consented")
    assert template is not None and "mixpanel" in "".join(n.text for n in template.iter())
    loader = [s.text for s in head.find_all("script") if "dg-consented" in s.text]
    assert loader and 'localStorage.getItem("consent")!=="yes"' in loader[0]
    # the tracker is not a live script outside the template
    live = [s for s in head.find_all("script") if template not in s.ancestors() and "mixpanel" in s.text]
    assert live == []
    _, bad = site(make_site, tmp_path, {"cookies": {"key": "consent"}}, "bad")
    assert [w.json_path for w in bad.warnings if w.code == "integrations.incomplete"] == [
        "integrations.cookies"
    ]


def test_telemetry_off_removes_feedback_widget(make_site, tmp_path):
    feedback = {"thumbsRating": True, "endpoint": "https://fb.example.com/v1/feedback"}
    docs = make_site({"docs.json": json.dumps({**BASE, "feedback": feedback}), **PAGES}, "on")
    build(docs, tmp_path / "on-out")
    assert "dg-feedback" in (tmp_path / "on-out/index.html").read_text()
    off = {**BASE, "feedback": feedback, "integrations": {"telemetry": {"enabled": False}}}
    docs = make_site({"docs.json": json.dumps(off), **PAGES}, "off")
    build(docs, tmp_path / "off-out")
    assert "dg-feedback" not in (tmp_path / "off-out/index.html").read_text()


@pytest.mark.parametrize("asked", [False, True])
def test_dev_leaves_integrations_out_unless_asked(make_site, asked):
    docs = make_site({"docs.json": json.dumps({**BASE, "integrations": ALL}), **PAGES})
    app = start(docs, watch=False, integrations=asked)
    try:
        html = httpx.get(app.url).text
    finally:
        app.stop()
    for needles in EXPECT.values():
        assert (needles[0] in html) is asked
    assert ("--with-integrations" in html) is not asked


@pytest.mark.browser
def test_cookie_consent_gate_in_a_browser(make_site, tmp_path, browser):
    from tests.readers_sites import serve

    integrations = {
        "cookies": {"key": "docs-consent", "value": "granted"},
        "adobe": {"launchUrl": "https://assets.adobedtm.com/launch-test.min.js"},
    }
    out, _ = site(make_site, tmp_path, integrations)
    server, url = serve(out)
    try:
        context = browser.new_context()
        context.route("https://**/*", lambda route: route.abort())  # no request leaves the machine
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        live = "() => [...document.head.querySelectorAll('script[src]')].map(s => s.src).filter(s => s.includes('adobedtm'))"
        page.goto(url)
        assert page.evaluate(live) == []  # no consent yet: the tracker is inert in its <template>
        page.evaluate(
            "localStorage.setItem('docs-consent', 'granted'); dispatchEvent(new Event('dg:consent'))"
        )
        assert page.evaluate(live) == ["https://assets.adobedtm.com/launch-test.min.js"]
        page.reload()
        assert page.evaluate(live) == [
            "https://assets.adobedtm.com/launch-test.min.js"
        ]  # at load, with consent
        page.evaluate("localStorage.setItem('docs-consent', 'denied')")
        page.reload()
        assert page.evaluate(live) == []
        assert errors == []
        context.close()
    finally:
        server.shutdown()
        server.server_close()
