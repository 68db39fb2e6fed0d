"""A page as a complete HTML document: pure functions of (site context, page, rendered body)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from docsgen.common.theme import environment
from docsgen.common.urls import is_external, root_of
from docsgen.config.model import RTL_LANGUAGES, bcp47
from docsgen.config.sections import Banner, Footer, Navbar
from docsgen.mdx import MdxResult
from docsgen.nav.tree import Section
from docsgen.pages.page import Page
from docsgen.render import thumbnails
from docsgen.render.context import SiteContext
from docsgen.render.endpoints_menu import endpoint_menu
from docsgen.render.head import adjust_meta_tags, head_html, script_json
from docsgen.render.hooks import add_hooks
from docsgen.render.languages import alternate_links
from docsgen.render.strings import interface_strings
from docsgen.render.switchers import Translations, fragment_generation, switchers


def language_of(section: Section | None) -> str | None:
    """Return the language code of a section chain, if the site is multilingual."""
    for s in section.chain() if section else []:
        if s.kind == "language":
            return s.label
    return None


def language_settings(site: SiteContext, section: Section | None) -> dict[str, Any]:
    """Return banner, footer and navbar, with a language's own values winning."""
    banner, footer, navbar = site.config.banner, site.config.footer, site.config.navbar
    for s in section.chain() if section else []:
        if s.kind == "language":
            own = s.fields
            banner = Banner.from_json(own["banner"]) if isinstance(own.get("banner"), dict) else banner
            footer = Footer.from_json(own["footer"]) if isinstance(own.get("footer"), dict) else footer
            navbar = Navbar.from_json(own["navbar"]) if isinstance(own.get("navbar"), dict) else navbar
    return {"banner": banner, "footer": footer, "navbar": navbar}


def global_anchors(site: SiteContext, section: Section | None) -> tuple[dict, ...]:
    """Return the anchors shown on every page: the page's language's own `global`, else navigation.global."""
    for s in section.chain() if section else []:
        own = s.fields.get("global") if s.kind == "language" else None
        if isinstance(own, dict) and isinstance(own.get("anchors"), list):
            return tuple(a for a in own["anchors"] if isinstance(a, dict) and a.get("href"))
    return site.config.global_anchors


def page_html(site: SiteContext, page: Page, content: MdxResult | None, *, root: str | None = None) -> str:
    """Render one page, whose body is `content`, to a complete HTML document."""
    env = environment(site.theme.name)
    template = env.get_template("page.html")
    place = site.nav.placements.get(page.key)
    section = place.section if place else None
    root = root if root is not None else root_of(page.output)
    prev_key, next_key = site.nav.neighbours(page.key)
    lang = language_of(section) or (
        site.config.raw.get("language") if isinstance(site.config.raw.get("language"), str) else None
    )

    def link(url: str) -> str:
        return url if is_external(url) else (root + url if root != "./" else url or "./")

    def neighbour(key: str | None) -> dict | None:
        if not key:
            return None
        other = site.pages[key]
        return {"title": other.sidebar_title, "url": link(other.url), "key": other.key}

    translations: Translations = {}  # the switcher's and the hreflang links' translations of this page
    search_index = site.site.policies().search_base(site.policy(page))
    sidebar_sid = (
        section.id if section else (site.nav.leaf_sections()[0].id if site.nav.leaf_sections() else None)
    )
    context = {
        **site.helpers,
        "site": site,
        "config": site.config,
        "page": page,
        "content": Markup(content.html) if content else Markup(""),
        "panel": Markup(content.panel_html) if content and content.panel_html else None,
        "aside": Markup(content.aside_html) if content and content.aside_html else None,
        "toc": content.toc if content else [],
        "assets": sorted(content.assets) if content else [],
        "root": root,
        "link": link,
        "lang": bcp47(lang) if lang else "en",
        "dir": "rtl" if lang in RTL_LANGUAGES else "ltr",
        "breadcrumbs": site.nav.breadcrumbs(page.key) if site.breadcrumbs else [],
        "eyebrow": (site.nav.breadcrumbs(page.key) or [""])[-1] if not site.breadcrumbs else "",
        "prev": None if page.meta.get("hideFooterPagination") else neighbour(prev_key),
        "next": None if page.meta.get("hideFooterPagination") else neighbour(next_key),
        "switchers": switchers(site, section, page.key, translations),
        "endpoints": endpoint_menu(place, page.key),  # the API section's endpoints (#endpoints-menu-trigger)
        "global_anchors": global_anchors(site, section),
        "settings": language_settings(site, section),
        "sidebar_src": site.nav_files.get(sidebar_sid or "", ""),
        "sidebar_key": page.key,
        "drilldown": site.drilldown,
        "meta_tags": meta_tags(site, page),
        "head_html": head_html(site, page, root)
        + alternate_links(site, section, page, root, lang, translations),
        "has_body": content is not None,
        "body": content,  # the rendered body (MdxResult): its changelog, assets ...
        "api_data": Markup(script_json(content.api_data)) if content and content.api_data else None,
        "search_index": search_index,  # this page's search bundle
        "search_access": site.site.policies().access_marked,  # restricted bundles: pagefind/access.json
        "edit_links": edit_links(site, page),  # "Edit this page" / "Report an issue"
        "t": page_strings(site, lang),  # the interface's words, translated
        # what the header's and phone sidebar's fragments depend on (theme.FragmentCache)
        "fragment_key": (fragment_generation(site), section.id if section else "", root, search_index),
    }
    return add_hooks(template.render(context))


def page_words(site: SiteContext, page: Page) -> dict[str, str]:
    """Return the interface words of a page's language (its language section's, else docs.json `language`)."""
    place = site.nav.placements.get(page.key)
    raw = site.config.raw.get("language")
    lang = language_of(place.section if place else None) or (raw if isinstance(raw, str) else None)
    return page_strings(site, lang)


def page_strings(site: SiteContext, lang: str | None) -> dict[str, str]:
    """Return the interface words of a page in `lang`: made once per language and site context, shared by its
    pages (never changed after; script_strings then works out their script part once)."""
    memo = site.__dict__.setdefault("_dg_page_strings", {})
    found = memo.get(lang)
    if found is None:
        found = memo[lang] = interface_strings(lang, site.config.raw.get("strings"))
    return found


def edit_links(site: SiteContext, page: Page) -> dict[str, str]:
    """Return the page's {"edit": URL, "issue": URL} as docs.json `feedback.suggestEdit` / `raiseIssue` ask."""
    repo, feedback = site.repository, site.config.feedback if isinstance(site.config.feedback, dict) else {}
    if repo is None or page.mode == "custom":
        return {}
    links = {}
    if feedback.get("suggestEdit") is True and page.source:
        links["edit"] = repo.edit_url(page.source)
    if feedback.get("raiseIssue") is True:
        where = f"{site.site_url}/{page.url}" if site.site_url else "/" + page.url
        body = f"Page: {where}\n" + (f"Source: {page.source}\n" if page.source else "") + "\n"
        links["issue"] = repo.issue_url(f"Issue on docs: {page.title}", body)
    return links


def meta_tags(site: SiteContext, page: Page) -> list[tuple[str, str, str]]:
    """Return (attribute, name, content) for the page's meta tags: description, og:*, twitter:*, seo.metatags."""
    tags: dict[tuple[str, str], str] = {}
    for name, value in site.config.seo.metatags.items():
        if isinstance(value, str | int | float):
            tags[("property" if name.startswith("og:") else "name", name)] = str(value)
    description = page.meta_description or site.config.description
    if description:
        tags[("name", "description")] = description
        tags[("property", "og:description")] = description
    tags[("property", "og:title")] = page.title
    tags[("property", "og:type")] = "website"
    tags[("property", "og:site_name")] = site.config.name
    for name, value in site.config.seo.metatags.items():  # site-wide og:* beat page defaults
        if name.startswith(("og:", "twitter:")) and isinstance(value, str | int | float):
            tags[("property" if name.startswith("og:") else "name", name)] = str(value)
    for name, value in page.meta.items():
        if (name.startswith("og:") or name.startswith("twitter:")) and isinstance(value, str | int | float):
            tags[("property" if name.startswith("og:") else "name", name)] = str(value)
    if page.noindex:
        tags[("name", "robots")] = "noindex"
    thumbnails.add_image_tags(site, page, tags)
    adjust_meta_tags(site, page, tags)
    return [(attr, name, value) for (attr, name), value in sorted(tags.items())]


def sidebar_html(site: SiteContext, section: Section) -> str:
    """Render a section's sidebar once, as a standalone document shared by every page of the section."""
    env = environment(site.theme.name)
    raw_lang = site.config.raw.get("language")
    lang = language_of(section) or (raw_lang if isinstance(raw_lang, str) else None)
    return add_hooks(
        env.get_template("sidebar.html").render(
            **site.helpers,
            site=site,
            config=site.config,
            section=section,
            items=section.items,
            drilldown=site.drilldown,
            root="../",
            t=interface_strings(
                lang, site.config.raw.get("strings")
            ),  # the section's language ("Deprecated")
        )
    )
