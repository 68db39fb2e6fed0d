"""SEO: which pages crawlers, site search and agents see; meta tags, canonical, JSON-LD, sitemap.xml, robots.txt."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from html import escape as html_escape
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from docsgen.config.model import NavNode
from docsgen.errors import info, warning
from docsgen.nav import NavGroup, Navigation, Section

if TYPE_CHECKING:
    from docsgen.build import Site
    from docsgen.config import SiteConfig
    from docsgen.pages import Page
    from docsgen.render import SiteContext
    from docsgen.write import SiteFiles

SITE_URL_ENV = "DOCSGEN_SITE_URL"
SITEMAP_LIMIT = 50_000  # URLs per sitemap file (sitemaps.org)
_SCOPE_KINDS = ("language", "version", "product")


@dataclass(frozen=True)
class PagePolicy:
    """Where a page may appear: navigation, sitemap and llms.txt, site search; its robots tag and search boost."""

    navigable: bool  # listed in the visible navigation
    indexed: bool  # in sitemap.xml and llms.txt (search engines and agents may list it)
    searchable: bool  # in the site search index
    noindex: bool  # gets <meta name="robots" content="noindex">
    boost: float = 1.0
    scope: dict[str, str] = field(
        default_factory=dict
    )  # {"language": "fr", "version": "v2", "product": "API"}
    crumbs: tuple[str, ...] = ()  # section and group labels, outermost first


def site_url(obj: Any = None) -> str | None:
    """Return the public site URL, no trailing slash: --site-url, else $DOCSGEN_SITE_URL, else seo.metatags.canonical."""
    value = getattr(obj, "site_url", None) or os.environ.get(SITE_URL_ENV)
    config = getattr(obj, "config", None)
    if not value and config is not None:
        value = (config.seo.get("metatags") or {}).get("canonical")
    if not isinstance(value, str) or not re.match(r"^https?://[^/\s]+", value.strip()):
        return None
    return value.strip().rstrip("/")


def absolute_url(base: str, page: Page, config: SiteConfig | None = None) -> str:
    """Return a page's public URL; `seo.trailingSlash: false` drops the slash of pretty URLs."""
    url = page.url
    if config is not None and config.seo.get("trailingSlash") is False and url.endswith("/"):
        url = url[:-1]
    return f"{base}/{url}"


def indexing_all(config: SiteConfig) -> bool:
    """Tell whether docs.json asks for every page to be indexed (`seo.indexing: all`)."""
    return config.seo.get("indexing") == "all"


def policies(config: SiteConfig, nav: Navigation, pages: dict[str, Page]) -> dict[str, PagePolicy]:
    """Return the policy of every page (cached on the navigation; a replaced Page object is recomputed)."""
    cache = getattr(nav, "_dg_policies", None)
    if cache is None or cache[0] is not config:
        cache = (config, _group_fields(config, nav), {})
        nav._dg_policies = cache  # type: ignore[attr-defined]
    _, groups, known = cache
    out = {}
    for key, page in pages.items():
        hit = known.get(key)
        if hit is None or hit[0] is not page:
            hit = known[key] = (page, _policy(config, nav, page, groups))
        out[key] = hit[1]
    return out


def policy_of(ctx: SiteContext, page: Page) -> PagePolicy:
    """Return one page's policy (pages the site does not know, like 404, are never indexed)."""
    if ctx.pages.get(page.key) is not page:
        return PagePolicy(False, False, False, True)
    return policies(ctx.config, ctx.nav, {page.key: page})[page.key]


def _policy(config: SiteConfig, nav: Navigation, page: Page, groups: dict[int, dict]) -> PagePolicy:
    place = nav.placements.get(page.key)
    chain: list[dict] = []
    scope: dict[str, str] = {}
    crumbs: list[str] = []
    if place is not None:
        for section in place.section.chain():
            chain.append(section.fields)
            if section.kind in _SCOPE_KINDS and section.label:
                scope[section.kind] = section.label
            elif section.label:
                crumbs.append(section.label)
        for group in place.groups:
            chain.append(getattr(group, "fields", None) or groups.get(id(group), {}))
            crumbs.append(group.label)
    explicit_noindex = bool(page.meta.get("noindex")) or "noindex" in str(page.meta.get("robots", ""))
    hidden_parent = any(f.get("hidden") is True for f in chain)
    parent_searchable = any(f.get("searchable") is True for f in chain)
    external = isinstance(page.meta.get("url"), str) and "://" in page.meta["url"]
    navigable = place is not None and not page.hidden and not hidden_parent and not external
    everything = indexing_all(config)
    indexed = not explicit_noindex and (
        navigable
        or (everything and not external)
        or (place is not None and hidden_parent and parent_searchable and not page.hidden)
    )
    searchable = (
        indexed
        and page.meta.get("searchable") is not False
        and not any(f.get("searchable") is False for f in chain)
    )
    noindex = explicit_noindex or (page.hidden and not everything)
    return PagePolicy(navigable, indexed, searchable, noindex, _boost(page, chain), scope, tuple(crumbs))


def _boost(page: Page, chain: list[dict]) -> float:
    """Return the search boost: the page's own, else the nearest group or section that sets one."""
    for value in [page.meta.get("boost"), *(f.get("boost") for f in reversed(chain))]:
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            return float(value)
    return 1.0


def _group_fields(config: SiteConfig, nav: Navigation) -> dict[int, dict]:
    """Map each sidebar group (by id) to its docs.json fields, walking docs.json beside the built navigation."""
    sections = {id(s.fields): s for s in nav.sections}
    out: dict[int, dict] = {}

    def pair(node: NavNode, items: list) -> None:
        nodes = [c for c in node.children if isinstance(c, NavNode) and c.kind == "group"]
        built = [i for i in items if isinstance(i, NavGroup)]
        visible = [n for n in nodes if not n.get("hidden")]
        for group_node, group in zip(visible, built, strict=False):
            out[id(group)] = group_node.fields
            pair(group_node, group.children)

    def walk(node: NavNode) -> None:
        section: Section | None = sections.get(id(node.fields))
        if section is not None and node.kind != "group":
            pair(node, section.items)
        for child in node.children:
            if isinstance(child, NavNode) and child.kind != "group":
                walk(child)

    walk(config.navigation)
    # Groups hidden in docs.json are not in the sidebar: find them by label under their parent.
    # Pages share sections and groups, so each lookup is made once (the walk was pages x tree).
    section_nodes: dict[int, NavNode | None] = {}
    found: dict[tuple[int, int], NavNode | None] = {}
    for place in nav.placements.values():
        key = id(place.section)
        if key not in section_nodes:
            section_nodes[key] = _node_of(config.navigation, place.section)
        parent: NavNode | None = section_nodes[key]
        for group in place.groups:
            if parent is None:
                break
            step = (id(parent), id(group))
            if step in found:
                parent = found[step]
                continue
            if id(group) in out:
                match = _find_node(parent, out[id(group)])
            else:
                match = next(
                    (
                        c
                        for c in parent.children
                        if isinstance(c, NavNode) and c.kind == "group" and c.label == group.label
                    ),
                    None,
                )
                if match is not None:
                    out[id(group)] = match.fields
            found[step] = match
            parent = match
    return out


def _node_of(root: NavNode, section: Section) -> NavNode | None:
    """Return the docs.json element a section was built from."""
    if root.fields is section.fields:
        return root
    for child in root.children:
        if isinstance(child, NavNode) and child.kind != "group":
            found = _node_of(child, section)
            if found is not None:
                return found
    return None


def _find_node(root: NavNode, fields: dict) -> NavNode | None:
    """Return the element under root whose fields are `fields`."""
    for child in root.children:
        if isinstance(child, NavNode):
            if child.fields is fields:
                return child
            found = _find_node(child, fields)
            if found is not None:
                return found
    return None


def adjust_meta_tags(ctx: SiteContext, page: Page, tags: dict[tuple[str, str], str]) -> None:
    """Complete render.meta_tags: per-folder seo.paths, keywords, twitter card, og:url, robots by policy."""
    config = ctx.config
    for rule in config.seo.get("paths") or []:
        if not isinstance(rule, dict) or not isinstance(rule.get("metatags"), dict):
            continue
        prefix = str(rule.get("path", "")).strip("/")
        if prefix and (page.key == prefix or page.key.startswith(prefix + "/")):
            for name, value in rule["metatags"].items():
                if isinstance(value, str | int | float):
                    tags[("property" if name.startswith("og:") else "name", name)] = str(value)
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
    base = site_url(ctx)
    if base:
        tags[("property", "og:url")] = canonical_url(ctx, page) or absolute_url(base, page, config)
    tags.setdefault(("name", "generator"), "docsgen")
    tags.setdefault(("name", "application-name"), config.name)
    tags.pop(("name", "canonical"), None)  # a <link rel="canonical">, not a meta tag (see head_html)
    robots = page.meta.get("robots")
    if policy_of(ctx, page).noindex:
        tags[("name", "robots")] = "noindex"
    elif isinstance(robots, str) and robots.strip():
        tags[("name", "robots")] = robots.strip()
    elif tags.get(("name", "robots")) == "noindex" and "robots" not in (config.seo.get("metatags") or {}):
        del tags[("name", "robots")]  # hidden page under seo.indexing "all"


def canonical_url(ctx: SiteContext, page: Page) -> str | None:
    """Return the page's canonical URL: frontmatter `canonical`, else the public URL when the site URL is known."""
    own = page.meta.get("canonical")
    if isinstance(own, str) and re.match(r"^https?://", own.strip()):
        return own.strip()
    base = site_url(ctx)
    if base is None or ctx.pages.get(page.key) is not page:
        return None
    return absolute_url(base, page, ctx.config)


def organization_ld(config: SiteConfig, base: str | None = None) -> dict | None:
    """Return the JSON-LD Organization: docs.json `seo.organization`, else derived from the site when its URL is known."""
    org = config.seo.get("organization")
    if not isinstance(org, dict) or not org:
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
    base = site_url(ctx)
    org = organization_ld(ctx.config, base)
    if org is None:
        return None
    if base is None or ctx.pages.get(page.key) is not page:
        return {"@context": "https://schema.org", **org}
    graph: list[dict[str, Any]] = [org]
    website = {"@type": "WebSite", "@id": f"{base}/#website", "url": f"{base}/", "name": ctx.config.name}
    if "@id" in org:
        website["publisher"] = {"@id": org["@id"]}
    graph.append(website)
    if not policy_of(ctx, page).noindex:
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


def _script_json(data: Any) -> str:
    """Serialise JSON for a <script> element without letting it close the element."""
    text = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def head_html(ctx: SiteContext, page: Page, root: str = "") -> Markup:
    """Return the extra <head> elements of a page: canonical link, Markdown twin link, JSON-LD organisation."""
    parts: list[str] = []
    canonical = canonical_url(ctx, page)
    if canonical:
        parts.append(f'<link rel="canonical" href="{escape(canonical)}">')
    if ctx.pages.get(page.key) is page:
        from docsgen.agents import markdown_path

        parts.append(
            f'<link rel="alternate" type="text/markdown" href="{escape(root + markdown_path(page))}">'
        )
    base = site_url(ctx)
    if base and ctx.pages.get(page.key) is page:
        parts.append(f'<link rel="sitemap" type="application/xml" href="{escape(base)}/sitemap.xml">')
    data = structured_data(ctx, page)
    if data:
        parts.append(f'<script type="application/ld+json">{_script_json(data)}</script>')
    return Markup("\n".join(parts))


def sitemap_pages(site: Site) -> list[Page]:
    """Return the pages the sitemap lists, in navigation order then by key."""
    from docsgen.build import pages_to_render

    rendered = {p.key: p for p in pages_to_render(site)}
    table = policies(site.config, site.nav, site.pages)
    order = {key: i for i, key in enumerate(site.nav.order)}
    chosen = [p for key, p in rendered.items() if table[key].indexed]
    return sorted(chosen, key=lambda p: (order.get(p.key, len(order)), p.key))


def sitemap_xml(base: str, pages: list[Page], config: SiteConfig) -> str:
    """Return a sitemap.xml document listing the pages' absolute URLs."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    for page in pages:
        lines.append(f"  <url><loc>{html_escape(absolute_url(base, page, config), quote=False)}</loc></url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def sitemap_index_xml(base: str, names: list[str]) -> str:
    """Return a sitemap index pointing at several sitemap files."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ]
    lines += [
        f"  <sitemap><loc>{html_escape(f'{base}/{name}', quote=False)}</loc></sitemap>" for name in names
    ]
    lines.append("</sitemapindex>")
    return "\n".join(lines) + "\n"


def robots_txt(base: str | None) -> str:
    """Return robots.txt: everything allowed, Content-Signal opt-ins, and the sitemap when the URL is known."""
    lines = ["User-agent: *", "Content-Signal: ai-train=yes, search=yes, ai-input=yes", "Allow: /"]
    if base:
        lines += ["", f"Sitemap: {base}/sitemap.xml"]
    return "\n".join(lines) + "\n"


def add_seo_files(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write sitemap.xml and robots.txt (files of the same name in the docs folder win)."""
    raw = getattr(site, "site_url", None) or os.environ.get(SITE_URL_ENV)
    base = site_url(site)
    if raw and base is None:
        files.diagnostics.append(
            warning(
                "seo.site-url",
                f"site URL '{raw}' is not an absolute http(s) URL: no sitemap.xml written",
                hint="pass --site-url https://docs.example.com (or set DOCSGEN_SITE_URL)",
            )
        )
    if not files.has("robots.txt"):
        files.add("robots.txt", robots_txt(base), "seo")
    if files.has("sitemap.xml"):
        return
    if base is None:
        if not raw:
            files.diagnostics.append(
                info(
                    "seo.no-site-url",
                    "no sitemap.xml and no canonical links: the public site URL is unknown",
                    hint="pass --site-url https://docs.example.com or set DOCSGEN_SITE_URL",
                )
            )
        return
    pages = sitemap_pages(site)
    if len(pages) <= SITEMAP_LIMIT:
        files.add("sitemap.xml", sitemap_xml(base, pages, site.config), "seo")
        return
    names = []
    for n, start in enumerate(range(0, len(pages), SITEMAP_LIMIT), 1):
        name = f"sitemap-{n}.xml"
        files.add(name, sitemap_xml(base, pages[start : start + SITEMAP_LIMIT], site.config), "seo")
        names.append(name)
    files.add("sitemap.xml", sitemap_index_xml(base, names), "seo")
