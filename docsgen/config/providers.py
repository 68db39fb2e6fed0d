"""Snippets of the integrations added after the first ten (docsgen/config/analytics.py): analytics, support chat, consent.

Each function takes the provider's docs.json object (fields as in Mintlify's integrations docs) and returns its
standard loader, or None when the identifier it needs is missing or invalid (analytics.diagnostics warns then).
Identifiers reach JavaScript through `js_literal` (cannot close the <script>) and URLs only when they are https.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

from markupsafe import escape

_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(?::[0-9]{1,5})?")
_URL_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
MIXPANEL_HOSTS = {
    "us": "https://api-js.mixpanel.com",
    "eu": "https://api-eu.mixpanel.com",
    "in": "https://api-in.mixpanel.com",
}


def js_literal(value: Any) -> str:
    """Return a JavaScript literal that cannot close the surrounding <script> element."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def text_field(c: dict, *names: str) -> str | None:
    """Return the first non-empty string (or number) among fields, stripped."""
    for name in names:
        value = c.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def https_url(value: Any) -> str | None:
    """Return value when it is an https URL made of URL characters only (no quotes, spaces or angle brackets)."""
    if not isinstance(value, str) or not _URL_CHARS.fullmatch(value.strip()):
        return None
    parts = urlsplit(value.strip())
    if parts.scheme != "https" or not parts.hostname or not _HOST.fullmatch(parts.netloc):
        return None
    return value.strip()


def host_url(value: Any, default: str) -> str | None:
    """Return https://HOST for a bare host name or an https URL (Hightouch's apiHost), None when invalid."""
    if value is None or value == "":
        value = default
    if isinstance(value, str) and _HOST.fullmatch(value.strip()):
        return "https://" + value.strip()
    url = https_url(value)
    return url.rstrip("/") if url else None


def _loader(src_js: str, onload: str = "", attrs: str = "") -> str:
    """Return a script adding <script src=...> to <head>; src_js is a JavaScript expression."""
    return (
        '<script>(function(){var s=document.createElement("script");s.async=true;' + attrs + "s.src=" + src_js + ";"
        + (f"s.onload=function(){{{onload}}};" if onload else "")
        + "document.head.appendChild(s)})();</script>"
    )  # fmt: skip


def _encoded(template: str, value: str) -> str:
    """Return a JavaScript expression: template with {} replaced by the URL-encoded value."""
    before, _, after = template.partition("{}")
    return f"{js_literal(before)}+encodeURIComponent({js_literal(value)})+{js_literal(after)}"


def adobe(c: dict) -> str | None:
    url = https_url(c.get("launchUrl"))
    return f'<script src="{escape(url)}" async></script>' if url else None


def amplitude(c: dict) -> str | None:
    key = text_field(c, "apiKey")
    if not key:
        return None
    init = f"window.amplitude&&window.amplitude.init({js_literal(key)},{{autocapture:true}})"
    return _loader(_encoded("https://cdn.amplitude.com/script/{}.js", key), init)


def clearbit(c: dict) -> str | None:
    key = text_field(c, "publicApiKey")
    if not key:
        return None
    return _loader(_encoded("https://tag.clearbitscripts.com/v1/{}/tags.js", key))


def frontchat(c: dict) -> str | None:
    chat = text_field(c, "snippetId", "chatId")
    if not chat:
        return None
    init = f'window.FrontChat&&window.FrontChat("init",{{chatId:{js_literal(chat)},useDefaultLauncher:true}})'
    return _loader(js_literal("https://chat-assets.frontapp.com/v1/chat.bundle.js"), init)


def hightouch(c: dict) -> str | None:
    key = text_field(c, "writeKey")
    host = host_url(c.get("apiHost"), "us-east-1.hightouch-events.com")
    if not key or not host:
        return None
    return (
        "<script>(function(){var h=window.htevents=window.htevents||[];if(h.initialize)return;"
        'h.methods=["track","identify","page","group","alias","ready","reset"];'
        "h.methods.forEach(function(m){h[m]=function(){h.push([m].concat([].slice.call(arguments)));}});"
        f"h.load=function(k,o){{h._writeKey=k;h._loadOptions=o}};h.load({js_literal(key)},"
        f"{{apiHost:{js_literal(host.removeprefix('https://'))}}});h.page();}})();</script>"
        + _loader(js_literal("https://cdn.hightouch-events.com/browser/release/v1-latest/events.min.js"))
    )


def intercom(c: dict) -> str | None:
    app = text_field(c, "appId")
    if not app:
        return None
    return (
        f'<script>window.intercomSettings={{api_base:"https://api-iam.intercom.io",app_id:{js_literal(app)}}};'
        "(function(){var w=window,i=function(){i.c(arguments)};i.q=[];i.c=function(a){i.q.push(a)};"
        "w.Intercom=w.Intercom||i;})();</script>"
        + _loader(_encoded("https://widget.intercom.io/widget/{}", app))
    )


def koala(c: dict) -> str | None:
    key = text_field(c, "publicApiKey")
    if not key:
        return None
    return (
        '<script>!function(){var k=window.ko=window.ko||[];["identify","track","removeListeners","on","off",'
        '"qualify","ready"].forEach(function(m){k[m]=function(){k.unshift([m].concat([].slice.call(arguments)))}})}();'
        "</script>" + _loader(_encoded("https://cdn.getkoala.com/v1/{}/sdk.js", key))
    )


def logrocket(c: dict) -> str | None:
    app = text_field(c, "appId", "apiKey")  # Mintlify's schema says appId, its LogRocket page apiKey
    if not app:
        return None
    init = f"window.LogRocket&&window.LogRocket.init({js_literal(app)})"
    return _loader(
        js_literal("https://cdn.lr-ingest.com/LogRocket.min.js"), init, 's.crossOrigin="anonymous";'
    )


def mixpanel(c: dict) -> str | None:
    token = text_field(c, "projectToken")
    region = c.get("region", "us")
    if not token or region not in MIXPANEL_HOSTS:
        return None
    options = {"api_host": MIXPANEL_HOSTS[region], "track_pageview": True}
    init = f"window.mixpanel&&window.mixpanel.init({js_literal(token)},{js_literal(options)})"
    return _loader(js_literal("https://cdn.mxpnl.com/libs/mixpanel-2-latest.min.js"), init)


def onetrust(c: dict) -> str | None:
    domain = text_field(c, "domainScript", "id", "scriptId")
    if not domain or not re.fullmatch(r"[A-Za-z0-9-]{1,100}", domain):
        return None
    return (
        '<script src="https://cdn.cookielaw.org/scripttemplates/otSDKStub.js" charset="UTF-8" '
        f'data-domain-script="{escape(domain)}"></script><script>function OptanonWrapper(){{}}</script>'
    )


def transcend(c: dict) -> str | None:
    bundle = text_field(c, "bundleId")
    if not bundle or not re.fullmatch(r"[A-Za-z0-9_-]{1,100}", bundle):
        return None
    return f'<script data-cfasync="false" src="https://transcend-cdn.com/cm/{escape(bundle)}/airgap.js"></script>'


PROVIDERS = {
    "adobe": adobe,
    "amplitude": amplitude,
    "clearbit": clearbit,
    "frontchat": frontchat,
    "hightouch": hightouch,
    "intercom": intercom,
    "koala": koala,
    "logrocket": logrocket,
    "mixpanel": mixpanel,
    "onetrust": onetrust,
    "transcend": transcend,
}
# Loaded before every other provider: consent managers must see the trackers come.
FIRST = ("onetrust", "transcend")


def consent_gate(c: dict) -> tuple[str, str] | None:
    """Return (key, value) of docs.json `integrations.cookies`: scripts load only when localStorage says so."""
    key, value = text_field(c, "key"), c.get("value")
    if not key or not isinstance(value, str | int | float | bool):
        return None
    return key, value if isinstance(value, str) else json.dumps(value)


def gated(html: str, gate: tuple[str, str]) -> str:
    """Return the scripts of html inert inside a <template>, started only when localStorage[key] == value.

    Checked when the page loads and again when another tab stores the consent (a `storage` event)."""
    key, value = gate
    return (
        '<template id="dg-consented">' + html + "</template><script>(function(){var done=false;function go(){"
        f"try{{if(done||localStorage.getItem({js_literal(key)})!=={js_literal(value)})return}}catch(e){{return}}"
        'done=true;var t=document.getElementById("dg-consented");t.content.querySelectorAll("script").forEach('
        'function(o){var s=document.createElement("script");for(var a of o.attributes)s.setAttribute(a.name,a.value);'
        's.text=o.text;document.head.appendChild(s)})}go();addEventListener("storage",go);'
        'addEventListener("dg:consent",go)})();</script>'
    )
