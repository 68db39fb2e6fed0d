"""A page's <head> for search engines and agents: meta tags by policy, canonical link, JSON-LD."""

from __future__ import annotations

import json
import re
from typing import Any

from markupsafe import Markup, escape

from docsgen.common.urls import twin_path
from docsgen.config import SiteConfig
from docsgen.pages.page import Page
from docsgen.render.context import SiteContext
from docsgen.site.policies import absolute_url


def adjust_meta_tags(ctx: SiteContext, page: Page, tags: dict[tuple[str, str], str]) -> None:
    """Complete render.meta_tags: per-folder seo.paths, keywords, twitter card, og:url, robots by policy."""
    config = ctx.config
    for rule in config.seo.paths:
        if rule.applies_to(page.key):
            for name, value in rule.metatags.items():
                tags[("property" if name.startswith("og:") else "name", name)] = value
    keywords = page.meta.get("keywords")
    if isinstance(keywords, list) and keywords:
        tags[("name", "keywords")] = ", ".join(str(k) for k in keywords)
    elif isinstance(keywords, str) and keywords.strip():
        tags[("name", "keywords")] = keywords.strip()
    if ("property", "og:title") in tags:
        tags.setdefault(("name", "twitter:title"), tags[("property", "og:title")])
    if ("property", "og:description") in tags:
        tags.setdefault(("name", "twitter:description"), tags[("property", "og:description")])
    image = tags.get(("property", "og:image"))
    tags.setdefault(("name", "twitter:card"), "summary_large_image" if image else "summary")
    base = ctx.public_url
    if base:
        tags[("property", "og:url")] = canonical_url(ctx, page) or absolute_url(base, page, config)
    tags.setdefault(("name", "generator"), "docsgen")
    tags.setdefault(("name", "application-name"), config.name)
    tags.pop(("name", "canonical"), None)  # a <link rel="canonical">, not a meta tag (see head_html)
    robots = page.meta.get("robots")
    if ctx.policy(page).noindex:
        tags[("name", "robots")] = "noindex"
    elif isinstance(robots, str) and robots.strip():
        tags[("name", "robots")] = robots.strip()
    elif tags.get(("name", "robots")) == "noindex" and "robots" not in config.seo.metatags:
        del tags[("name", "robots")]  # hidden page under seo.indexing "all"


def canonical_url(ctx: SiteContext, page: Page) -> str | None:
    """Return the page's canonical URL: frontmatter `canonical`, else the public URL when the site URL is known."""
    own = page.meta.get("canonical")
    if isinstance(own, str) and re.match(r"^https?://", own.strip()):
        return own.strip()
    base = ctx.public_url
    if base is None or not ctx.knows(page):
        return None
    return absolute_url(base, page, ctx.config)


def organization_ld(config: SiteConfig, base: str | None = None) -> dict | None:
    """Return the JSON-LD Organization: docs.json `seo.organization`, else derived from the site when its URL is known."""
    org: Any = config.seo.organization
    if not org:
        if base is None:
            return None
        org = {"name": config.name, "url": base + "/"}
        logo = config.logo.get("light") if isinstance(config.logo, dict) else None
        if isinstance(logo, str) and logo:
            org["logo"] = logo if "://" in logo else f"{base}/{logo.lstrip('/')}"
    data: dict[str, Any] = {"@type": "Organization"}
    if isinstance(org.get("id"), str):
        data["@id"] = org["id"]
    elif base:
        data["@id"] = f"{base}/#organization"
    for key in ("name", "legalName", "url", "logo"):
        if isinstance(org.get(key), str | int | float):
            data[key] = str(org[key])
    data.setdefault("name", config.name)
    same = [s for s in org.get("sameAs") or [] if isinstance(s, str)]
    if same:
        data["sameAs"] = same
    return data


def structured_data(ctx: SiteContext, page: Page) -> dict | None:
    """Return the page's JSON-LD: Organization, plus WebSite and the article when the site URL is known."""
    base = ctx.public_url
    org = organization_ld(ctx.config, base)
    if org is None:
        return None
    if base is None or not ctx.knows(page):
        return {"@context": "https://schema.org", **org}
    graph: list[dict[str, Any]] = [org]
    website: dict[str, Any] = {
        "@type": "WebSite",
        "@id": f"{base}/#website",
        "url": f"{base}/",
        "name": ctx.config.name,
    }
    if "@id" in org:
        website["publisher"] = {"@id": org["@id"]}
    graph.append(website)
    if not ctx.policy(page).noindex:
        url = canonical_url(ctx, page) or absolute_url(base, page, ctx.config)
        article: dict[str, Any] = {
            "@type": "APIReference" if page.kind in ("endpoint", "webhook", "schema") else "TechArticle",
            "@id": url + "#article",
            "headline": page.title,
            "url": url,
            "isPartOf": {"@id": website["@id"]},
        }
        if page.meta_description:
            article["description"] = page.meta_description
        keywords = page.meta.get("keywords")
        if isinstance(keywords, list) and keywords:
            article["keywords"] = [str(k) for k in keywords]
        graph.append(article)
    return {"@context": "https://schema.org", "@graph": graph}


def script_json(data: Any) -> str:
    """Serialise JSON for a <script> element without letting it close the element."""
    text = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def head_html(ctx: SiteContext, page: Page, root: str = "") -> Markup:
    """Return the extra <head> elements of a page: canonical link, Markdown twin link, JSON-LD organisation."""
    parts: list[str] = []
    canonical = canonical_url(ctx, page)
    if canonical:
        parts.append(f'<link rel="canonical" href="{escape(canonical)}">')
    if ctx.knows(page):
        parts.append(
            f'<link rel="alternate" type="text/markdown" href="{escape(root + twin_path(page.url))}">'
        )
    base = ctx.public_url
    if base and ctx.knows(page):
        parts.append(f'<link rel="sitemap" type="application/xml" href="{escape(base)}/sitemap.xml">')
    data = structured_data(ctx, page)
    if data:
        parts.append(f'<script type="application/ld+json">{script_json(data)}</script>')
    return Markup("\n".join(parts))
