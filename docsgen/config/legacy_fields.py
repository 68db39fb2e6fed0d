"""Convert the non-navigation parts of a mint.json (topbar, footer, api, seo, analytics...) to docs.json fields."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from docsgen.common.jsonpos import JsonPath

if TYPE_CHECKING:
    from docsgen.config.legacy import Converter

SOCIALS = {
    "x", "website", "facebook", "youtube", "discord", "slack", "github", "linkedin", "instagram", "hacker-news",
    "medium", "telegram", "twitter", "x-twitter", "earth-americas", "bluesky", "threads", "reddit", "podcast",
}  # fmt: skip
# mint.json `analytics` and `integrations` entries -> docs.json integrations (field names are the same).
INTEGRATION_FIELDS = {
    "adobe": {"launchUrl"}, "amplitude": {"apiKey"}, "clarity": {"projectId"}, "clearbit": {"publicApiKey"},
    "cookies": {"key", "value"}, "fathom": {"siteId"}, "frontchat": {"snippetId"}, "ga4": {"measurementId"},
    "gtm": {"tagId"}, "heap": {"appId"}, "hightouch": {"writeKey", "apiHost"}, "hotjar": {"hjid", "hjsv"},
    "intercom": {"appId"}, "koala": {"publicApiKey"}, "logrocket": {"appId"}, "mixpanel": {"projectToken", "region"},
    "pirsch": {"id"}, "plausible": {"domain", "server"}, "posthog": {"apiKey", "apiHost", "sessionRecording"},
    "segment": {"key"}, "telemetry": {"enabled"},
}  # fmt: skip
STRING_INTEGRATIONS = {"intercom": "appId", "frontchat": "snippetId"}  # older mint.json gave just the id
PLAYGROUND_MODES = {
    "show": "interactive",
    "simple": "simple",
    "hide": "none",
    "interactive": "interactive",
    "none": "none",
    "auth": "auth",
}


def appearance(c: Converter, d: dict, out: dict) -> None:
    """Carry modeToggle, backgroundImage and background.style over to appearance and background."""
    toggle = d.get("modeToggle")
    if isinstance(toggle, dict):
        appearance = {}
        if toggle.get("default") in ("light", "dark", "system"):
            appearance["default"] = toggle["default"]
        if isinstance(toggle.get("isHidden"), bool):
            appearance["strict"] = toggle["isHidden"]
        for key in toggle:
            if key not in ("default", "isHidden"):
                c.drop(("modeToggle", key))
        if appearance:
            c.put(out, "appearance", appearance, ("modeToggle",))
    if isinstance(d.get("backgroundImage"), str):
        out.setdefault("background", {})["image"] = d["backgroundImage"]
    background = d.get("background")
    if isinstance(background, dict):
        if background.get("style") in ("gradient", "grid", "windows"):
            out.setdefault("background", {})["decoration"] = background["style"]
        for key in background:
            if key != "style":
                c.drop(("background", key))
    if "background" in out:
        c.origins[("background",)] = (c.source, ("background",) if "background" in d else ())


def fonts(c: Converter, d: dict, out: dict) -> None:
    """Carry `font` (one font, or headings/body) over to docs.json `fonts`."""
    font = d.get("font")
    if not isinstance(font, dict):
        return

    def one(value: object, path: JsonPath) -> dict | None:
        if not isinstance(value, dict) or not isinstance(value.get("family"), str):
            c.warn("legacy.font", "font entry has no 'family'; dropped", path)
            return None
        result = {"family": value["family"]}
        if isinstance(value.get("weight"), int | float):
            result["weight"] = value["weight"]
        if isinstance(value.get("url"), str):
            result["source"] = value["url"]
        if value.get("format") in ("woff", "woff2"):
            result["format"] = value["format"]
        return result

    if "headings" in font or "body" in font:
        fonts = {}
        for old, new in (("headings", "heading"), ("body", "body")):
            if old in font and (converted := one(font[old], ("font", old))):
                fonts[new] = converted
    else:
        fonts = one(font, ("font",)) or {}
    if fonts:
        c.put(out, "fonts", fonts, ("font",))


def styling(c: Converter, d: dict, out: dict) -> None:
    """Carry `styling` and the older `codeBlock.mode` over to docs.json `styling`."""
    styling = dict(d["styling"]) if isinstance(d.get("styling"), dict) else {}
    code = d.get("codeBlock")
    if isinstance(code, dict) and code.get("mode") in ("dark", "auto"):
        styling.setdefault("codeblocks", "dark" if code["mode"] == "dark" else "system")
    elif code is not None:
        c.drop(("codeBlock",))
    kept = {k: v for k, v in styling.items() if k in ("eyebrows", "codeblocks", "latex")}
    for key in styling:
        if key not in kept:
            c.drop(("styling", key))
    if kept:
        c.put(out, "styling", kept, ("styling",) if "styling" in d else ("codeBlock",))


def navbar(c: Converter, d: dict, out: dict) -> None:
    """Turn topbarLinks and topbarCtaButton into navbar links and the primary button."""
    navbar: dict = {}
    links = d.get("topbarLinks")
    if isinstance(links, list):
        converted = []
        for i, link in enumerate(links):
            where = ("topbarLinks", i)
            if not isinstance(link, dict) or not isinstance(link.get("url"), str):
                c.warn("legacy.link", "topbar link without a 'url'; dropped", where)
            elif link.get("type") in ("github", "discord"):
                converted.append({"type": link["type"], "href": link["url"]})
            elif isinstance(link.get("name"), str):
                converted.append({"label": link["name"], "href": link["url"]})
            else:
                c.warn("legacy.link", "topbar link without a 'name'; dropped", where)
        if converted:
            navbar["links"] = converted
    cta = d.get("topbarCtaButton")
    if isinstance(cta, dict) and isinstance(cta.get("url"), str):
        if cta.get("type") == "github":
            navbar["primary"] = {"type": "github", "href": cta["url"]}
        elif isinstance(cta.get("name"), str):
            navbar["primary"] = {"type": "button", "label": cta["name"], "href": cta["url"]}
        else:
            c.warn("legacy.link", "topbarCtaButton without a 'name'; dropped", ("topbarCtaButton",))
        for key in cta:
            if key in ("style", "arrow"):
                c.drop(("topbarCtaButton", key), "the button style is chosen by the theme")
            elif key not in ("type", "url", "name"):
                c.drop(("topbarCtaButton", key))
    elif cta is not None:
        c.warn("legacy.link", "topbarCtaButton without a 'url'; dropped", ("topbarCtaButton",))
    if navbar:
        c.put(out, "navbar", navbar, ("topbarLinks",) if "links" in navbar else ("topbarCtaButton",))
        if "primary" in navbar:
            c.origins[("navbar", "primary")] = (c.source, ("topbarCtaButton",))


def footer(c: Converter, d: dict, out: dict) -> None:
    """Turn footerSocials (object or array) and the footer link columns into docs.json `footer`."""
    footer: dict = {}
    legacy = found if isinstance(found := d.get("footer"), dict) else {}
    socials_in = d.get("footerSocials", legacy.get("socials"))
    where: JsonPath = ("footerSocials",) if "footerSocials" in d else ("footer", "socials")
    pairs: list[tuple[object, object, JsonPath]] = []
    if isinstance(socials_in, dict):
        pairs = [(k, v, (*where, k)) for k, v in socials_in.items()]
    elif isinstance(socials_in, list):
        pairs = [
            (s.get("type"), s.get("url"), (*where, i))
            for i, s in enumerate(socials_in)
            if isinstance(s, dict)
        ]
    socials = {}
    for key, url, at in pairs:
        if key in SOCIALS and isinstance(url, str):
            socials[key] = url
        else:
            c.warn("legacy.social", f"social link '{key}' is not a supported network; dropped", at)
    if socials:
        footer["socials"] = socials
    columns = legacy.get("links")
    if isinstance(columns, list):
        converted = []
        for i, column in enumerate(columns):
            if not isinstance(column, dict):
                continue
            links = column.get("links", column.get("items", []))
            if not isinstance(links, list):
                at = ("footer", "links", i, "links" if "links" in column else "items")
                c.warn("legacy.footer", "footer column links are not an array; the column was left empty", at)
                links = []
            items = [
                {
                    "label": link.get("label") or link.get("name"),
                    "href": link.get("url") or link.get("href"),
                }
                for link in links
                if isinstance(link, dict)
            ]
            items = [
                item for item in items if isinstance(item["label"], str) and isinstance(item["href"], str)
            ]
            header = column.get("title", column.get("header"))
            converted.append({**({"header": header} if isinstance(header, str) else {}), "items": items})
            if i >= 4:
                c.warn(
                    "legacy.footer",
                    "docs.json footers hold at most 4 link columns; column dropped",
                    ("footer", "links", i),
                )
        footer["links"] = converted[:4]
    if footer:
        c.put(out, "footer", footer, where[:1])


def redirects(c: Converter, d: dict, out: dict) -> None:
    """Keep every redirect that has a source and a destination."""
    redirects = d.get("redirects")
    if redirects is None:
        return
    kept = []
    for i, r in enumerate(redirects if isinstance(redirects, list) else []):
        if isinstance(r, dict) and isinstance(r.get("source"), str) and isinstance(r.get("destination"), str):
            kept.append({k: v for k, v in r.items() if k in ("source", "destination", "permanent")})
        else:
            c.warn(
                "legacy.redirect",
                "redirect needs a 'source' and a 'destination'; dropped",
                ("redirects", i),
            )
    if kept:
        c.put(out, "redirects", kept, ("redirects",))


def api(c: Converter, d: dict, out: dict) -> None:
    """Map api.baseUrl/auth/playground/request/paramFields and top-level openapi to docs.json `api`."""
    api_in = found if isinstance(found := d.get("api"), dict) else {}
    api: dict = {}
    if isinstance(d.get("openapi"), str | list):
        api["openapi"] = d["openapi"]
    mdx: dict = {}
    base = api_in.get("baseUrl")
    if isinstance(base, str | list):
        mdx["server"] = base
    auth = api_in.get("auth")
    if isinstance(auth, dict):
        converted = {k: auth[k] for k in ("method", "name") if isinstance(auth.get(k), str)}
        if converted.get("method") not in (None, "bearer", "basic", "key", "cobo"):
            c.drop(("api", "auth", "method"), f"unknown method '{converted.pop('method')}'")
        if converted:
            mdx["auth"] = converted
        for key in auth:
            if key not in ("method", "name"):
                c.drop(("api", "auth", key))
    if mdx:
        api["mdx"] = mdx
    playground = api_in.get("playground")
    if isinstance(playground, dict):
        converted = {}
        if playground.get("mode") in PLAYGROUND_MODES:
            converted["display"] = PLAYGROUND_MODES[playground["mode"]]
        if isinstance(playground.get("disableProxy"), bool):
            converted["proxy"] = not playground["disableProxy"]
        for key in playground:
            if key not in ("mode", "disableProxy"):
                c.drop(("api", "playground", key))
        if converted:
            api["playground"] = converted
    example = (
        (api_in.get("request") or {}).get("example") if isinstance(api_in.get("request"), dict) else None
    )
    if isinstance(example, dict) and isinstance(example.get("languages"), list):
        api["examples"] = {"languages": [x for x in example["languages"] if isinstance(x, str)]}
    fields = api_in.get("paramFields")
    if isinstance(fields, dict) and "expanded" in fields:
        api["params"] = {"expanded": "all" if fields["expanded"] == "all" else "closed"}
        if fields["expanded"] not in ("all", "none", "closed"):
            c.warn(
                "legacy.api",
                f"paramFields.expanded '{fields['expanded']}' became 'closed'",
                ("api", "paramFields", "expanded"),
            )
    for key in api_in:
        if key not in ("baseUrl", "auth", "playground", "request", "paramFields"):
            c.drop(("api", key))
    if api:
        c.put(out, "api", api, ("api",) if "api" in d else ("openapi",))


def seo(c: Converter, d: dict, out: dict) -> None:
    """Map seo.indexHiddenPages and the global `metadata` meta tags to docs.json `seo`."""
    seo_in = found if isinstance(found := d.get("seo"), dict) else {}
    seo: dict = {}
    if isinstance(seo_in.get("indexHiddenPages"), bool):
        seo["indexing"] = "all" if seo_in["indexHiddenPages"] else "navigable"
    if seo_in.get("indexing") in ("all", "navigable"):
        seo["indexing"] = seo_in["indexing"]
    metatags = {}
    for key, at in (("metadata", ("metadata",)), ("metatags", ("seo", "metatags"))):
        source = d.get("metadata") if key == "metadata" else seo_in.get("metatags")
        if isinstance(source, dict):
            metatags.update({str(k): v if isinstance(v, str) else json.dumps(v) for k, v in source.items()})
        elif source is not None:
            c.drop(at)
    if metatags:
        seo["metatags"] = metatags
    for key in seo_in:
        if key not in ("indexHiddenPages", "indexing", "metatags"):
            c.drop(("seo", key))
    if seo:
        c.put(out, "seo", seo, ("seo",) if "seo" in d else ("metadata",))


def feedback(c: Converter, d: dict, out: dict) -> None:
    """Keep the feedback switches docs.json knows."""
    feedback = d.get("feedback")
    if not isinstance(feedback, dict):
        return
    kept = {
        k: v
        for k, v in feedback.items()
        if k in ("thumbsRating", "suggestEdit", "raiseIssue") and isinstance(v, bool)
    }
    for key in feedback:
        if key not in kept:
            c.drop(("feedback", key))
    if kept:
        c.put(out, "feedback", kept, ("feedback",))


def integrations(c: Converter, d: dict, out: dict) -> None:
    """Merge `analytics` and `integrations` into docs.json `integrations`, keeping known fields only."""
    integrations: dict = {}
    for section in ("analytics", "integrations"):
        entries = d.get(section)
        if not isinstance(entries, dict):
            continue
        for name, value in entries.items():
            at = (section, name)
            if isinstance(value, str) and name in STRING_INTEGRATIONS:
                value = {STRING_INTEGRATIONS[name]: value}
            if name not in INTEGRATION_FIELDS or not isinstance(value, dict):
                c.drop(at, "docsgen knows no such integration")
                continue
            kept = {k: v for k, v in value.items() if k in INTEGRATION_FIELDS[name]}
            for key in value:
                if key not in kept:
                    c.drop((*at, key))
            if kept:
                integrations[name] = kept
    if integrations:
        c.put(out, "integrations", integrations, ("analytics",) if "analytics" in d else ("integrations",))
