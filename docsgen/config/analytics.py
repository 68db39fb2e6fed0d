"""Analytics from docs.json `integrations`: each provider's standard snippet, only when the site owner configures it.

The first ten providers are here; the rest (analytics, support chat, consent managers) in docsgen/config/providers.py.
`integrations.cookies` holds every script back until the reader's consent is in localStorage;
`integrations.telemetry.enabled: false` also turns the feedback widget off (as on Mintlify). `docsgen dev` strips
the whole block from the pages it serves unless started with DOCSGEN_DEV_INTEGRATIONS=1 (docsgen/dev/server.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

from docsgen.common.errors import Diagnostic, warning
from docsgen.config import providers
from docsgen.config.model import SiteConfig

# Integrations that are settings rather than scripts: never reported as unsupported.
_NOT_SCRIPTS = frozenset({"telemetry", "cookies"})
# Marks around the integrations block of a page: the dev server removes what lies between them.
BLOCK_START = "<!--dg:integrations-->"
BLOCK_END = "<!--/dg:integrations-->"


def _js(value: Any) -> str:
    """Return a JavaScript literal that cannot close the surrounding <script> element."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _ga4(c: dict) -> str | None:
    mid = c.get("measurementId")
    if not isinstance(mid, str) or not mid:
        return None
    return (
        f'<script async src="https://www.googletagmanager.com/gtag/js?id={escape(mid)}"></script>\n'
        "<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}"
        f"gtag('js',new Date());gtag('config',{_js(mid)});</script>"
    )


def _gtm(c: dict) -> str | None:
    tag = c.get("tagId")
    if not isinstance(tag, str) or not tag:
        return None
    return (
        "<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});"
        "var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;"
        "j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);})"
        f"(window,document,'script','dataLayer',{_js(tag)});</script>"
    )


def _plausible(c: dict) -> str | None:
    domain = c.get("domain")
    if not isinstance(domain, str) or not domain:
        return None
    server = found if isinstance(found := c.get("server"), str) and found else "plausible.io"
    server = server if "://" in server else "https://" + server
    return f'<script defer data-domain="{escape(domain)}" src="{escape(server.rstrip("/"))}/js/script.js"></script>'


def _posthog(c: dict) -> str | None:
    key = c.get("apiKey")
    if not isinstance(key, str) or not key:
        return None
    host = (
        c.get("apiHost")
        if isinstance(c.get("apiHost"), str) and c.get("apiHost")
        else "https://us.i.posthog.com"
    )
    options = {"api_host": host, "disable_session_recording": not c.get("sessionRecording", False)}
    return (
        "<script>(function(){var h=" + _js(host) + ',s=document.createElement("script");s.async=true;'
        's.crossOrigin="anonymous";s.src=h.replace(".i.posthog.com","-assets.i.posthog.com")+"/static/array.js";'
        "s.onload=function(){window.posthog&&window.posthog.init(" + _js(key) + "," + _js(options) + ")};"
        "document.head.appendChild(s)})();</script>"
    )


def _fathom(c: dict) -> str | None:
    site_id = c.get("siteId")
    if not isinstance(site_id, str) or not site_id:
        return None
    return f'<script src="https://cdn.usefathom.com/script.js" data-site="{escape(site_id)}" defer></script>'


def _segment(c: dict) -> str | None:
    key = c.get("key")
    if not isinstance(key, str) or not key:
        return None
    return (
        "<script>(function(){var a=window.analytics=window.analytics||[];if(a.initialize)return;"
        'a.methods=["track","identify","page","group","alias","ready","on","once","off","reset"];'
        "a.methods.forEach(function(m){a[m]=function(){a.push([m].concat([].slice.call(arguments)));}});"
        'var s=document.createElement("script");s.async=true;'
        's.src="https://cdn.segment.com/analytics.js/v1/"+encodeURIComponent('
        + _js(key)
        + ')+"/analytics.min.js";'
        "document.head.appendChild(s);a.page();})();</script>"
    )


def _hotjar(c: dict) -> str | None:
    hjid = c.get("hjid")
    if not isinstance(hjid, str | int) or not str(hjid):
        return None
    hjsv = c.get("hjsv") if isinstance(c.get("hjsv"), str | int) else 6
    return (
        "<script>(function(h,o,t,j,a,r){h.hj=h.hj||function(){(h.hj.q=h.hj.q||[]).push(arguments)};"
        f"h._hjSettings={{hjid:{_js(hjid)},hjsv:{_js(hjsv)}}};a=o.getElementsByTagName('head')[0];"
        "r=o.createElement('script');r.async=1;r.src=t+h._hjSettings.hjid+j+h._hjSettings.hjsv;a.appendChild(r);})"
        "(window,document,'https://static.hotjar.com/c/hotjar-','.js?sv=');</script>"
    )


def _clarity(c: dict) -> str | None:
    project = c.get("projectId")
    if not isinstance(project, str) or not project:
        return None
    return (
        "<script>(function(c,l,a,r,i,t,y){c[a]=c[a]||function(){(c[a].q=c[a].q||[]).push(arguments)};"
        't=l.createElement(r);t.async=1;t.src="https://www.clarity.ms/tag/"+i;y=l.getElementsByTagName(r)[0];'
        f'y.parentNode.insertBefore(t,y);}})(window,document,"clarity","script",{_js(project)});</script>'
    )


def _pirsch(c: dict) -> str | None:
    code = c.get("id")
    if not isinstance(code, str) or not code:
        return None
    return f'<script defer src="https://api.pirsch.io/pa.js" id="pianjs" data-code="{escape(code)}"></script>'


def _heap(c: dict) -> str | None:
    app = c.get("appId")
    if not isinstance(app, str | int) or not str(app):
        return None
    return (
        '<script>window.heap=window.heap||[];(function(){var s=document.createElement("script");s.async=true;'
        's.src="https://cdn.heapanalytics.com/js/heap-"+encodeURIComponent(' + _js(str(app)) + ')+".js";'
        "document.head.appendChild(s)})();</script>"
    )


PROVIDERS: dict[str, Callable[[dict], str | None]] = {
    "ga4": _ga4,
    "gtm": _gtm,
    "plausible": _plausible,
    "posthog": _posthog,
    "fathom": _fathom,
    "segment": _segment,
    "hotjar": _hotjar,
    "clarity": _clarity,
    "pirsch": _pirsch,
    "heap": _heap,
    **providers.PROVIDERS,
}


def configured(config: SiteConfig) -> dict[str, dict]:
    """Return docs.json integrations that are objects, by provider name, in a stable order."""
    raw = config.raw.get("integrations")
    if not isinstance(raw, dict):
        return {}
    return {k: v for k, v in sorted(raw.items()) if isinstance(v, dict)}


def without_integrations(html: bytes) -> bytes:
    """Remove a page's integrations block (analytics, chat, consent scripts): `docsgen dev` previews send nothing."""
    start = html.find(BLOCK_START.encode())
    end = html.find(BLOCK_END.encode(), start)
    if start < 0 or end < 0:
        return html
    note = b"<!-- docs.json integrations left out (docsgen dev --with-integrations) -->"
    return html[:start] + note + html[end + len(BLOCK_END) :]


def telemetry_enabled(config: SiteConfig) -> bool:
    """Return False when docs.json says `integrations.telemetry.enabled: false` (no feedback widget either)."""
    telemetry = configured(config).get("telemetry")
    return not (isinstance(telemetry, dict) and telemetry.get("enabled") is False)


def feedback_server(config: SiteConfig) -> tuple[str, str] | None:
    """Return (server URL, project id) of docs.json `feedback` (`server` + `project`, or an endpoint ending in
    /v1/feedback/<project>), or None: docsgen's own analytics and assistant use the feedback server."""
    fb = config.feedback if isinstance(config.feedback, dict) and telemetry_enabled(config) else None
    if not fb:
        return None
    server, project = fb.get("server"), fb.get("project")
    if isinstance(server, str) and server and isinstance(project, str) and project:
        return server.rstrip("/"), project
    endpoint = fb.get("endpoint")
    found = re.fullmatch(
        r"(https?://.+?)/v1/feedback/([A-Za-z0-9][A-Za-z0-9_-]{0,63})/?", str(endpoint or "")
    )
    return (found.group(1), found.group(2)) if found else None


def assistant_endpoint(site: Any) -> str:
    """Return the assistant's endpoint on the feedback server (`<server>/v1/assistant/<project>`), or ''."""
    found = feedback_server(site.config)
    return f"{found[0]}/v1/assistant/{found[1]}" if found else ""


def page_path(page: Any) -> str:
    """Return the path a page is reported under: `/` and its URL without the trailing slash."""
    return "/" + str(getattr(page, "url", "") or "").strip("/")


# The 404 page reports itself inline, before its redirect script (docs.json errors.404) leaves the page.
_NOT_FOUND = (
    '(function(){if(navigator.doNotTrack==="1"||navigator.globalPrivacyControl===true)return;'
    'try{if(%s)return;navigator.sendBeacon(%s,new Blob([JSON.stringify({events:[{kind:"notfound",'
    'path:location.pathname.slice(0,2048)}]})],{type:"text/plain"}))}catch(e){}})()'
)


def not_found_beacon(config: SiteConfig) -> Markup:
    """Return the 404 page's report (before its redirect), honouring Do Not Track and the consent gate."""
    found = feedback_server(config)
    if found is None:
        return Markup("")
    cookies = configured(config).get("cookies")
    gate = providers.consent_gate(cookies) if isinstance(cookies, dict) else None
    refused = f"localStorage.getItem({_js(gate[0])})!=={_js(gate[1])}" if gate else "false"
    endpoint = f"{found[0]}/v1/events/{found[1]}"
    return Markup("<script>" + _NOT_FOUND % (refused, _js(endpoint)) + "</script>")


def insights(site: Any, page: Any, root: str) -> str | None:
    """Return the script reporting page views and searches to the feedback server, when one is configured."""
    found = feedback_server(site.config)
    if found is None or page is None or getattr(page, "key", "") == "404":
        return None
    server, project = found
    endpoint = f"{server}/v1/events/{project}"
    return (
        f'<script defer src="{escape(root)}_static/js/insights.js" data-endpoint="{escape(endpoint)}" '
        f'data-path="{escape(page_path(page))}"></script>'
    )


def snippets(site: Any, page: Any = None, root: str = "/") -> Markup:
    """Return the <script> tags of every configured provider, consent managers first; nothing when none is set."""
    found = configured(site.config)
    order = [n for n in providers.FIRST if n in found] + [n for n in found if n not in providers.FIRST]
    parts = [own] if (own := insights(site, page, root)) else []
    for name in order:
        provider = PROVIDERS.get(name)
        html = provider(found[name]) if provider else None
        if html:
            parts.append(html)
    if not parts:
        return Markup("")
    html = "\n".join(parts)
    gate = providers.consent_gate(found["cookies"]) if isinstance(found.get("cookies"), dict) else None
    if gate:
        html = providers.gated(html, gate)
    return Markup(BLOCK_START + html + BLOCK_END)


def where_in_config(config: SiteConfig, path: tuple) -> tuple[str, int, int]:
    """Return (file, line, column) of a docs.json value, as far as it is known."""
    try:
        return config.locate(path) if config.locate else ("docs.json", 0, 0)
    except (KeyError, IndexError, TypeError, ValueError):
        return "docs.json", 0, 0


def diagnostics(config: SiteConfig) -> list[Diagnostic]:
    """Warn about configured integrations docsgen does not load (so owners know nothing is sent)."""
    out = []
    for name, settings in configured(config).items():
        where = where_in_config(config, ("integrations", name))
        if name == "cookies" and providers.consent_gate(settings) is None:
            out.append(
                warning(
                    "integrations.incomplete",
                    "integration 'cookies' needs a 'key' and a 'value' (the localStorage entry of consent): "
                    "scripts are not held back",
                    *where,
                    json_path=f"integrations.{name}",
                )
            )
        if name in _NOT_SCRIPTS:
            continue
        provider = PROVIDERS.get(name)
        if provider is None:
            out.append(
                warning(
                    "integrations.unsupported",
                    f"integration '{name}' is not supported by docsgen yet: its script is not added",
                    *where,
                    json_path=f"integrations.{name}",
                    hint="supported: " + ", ".join(sorted(PROVIDERS)),
                )
            )
        elif provider(settings) is None:
            out.append(
                warning(
                    "integrations.incomplete",
                    f"integration '{name}' lacks its identifier: nothing is added",
                    *where,
                    json_path=f"integrations.{name}",
                )
            )
    return out
