"""Frontmatter read before the navigation is built: `{{variables}}` in titles, `groups`, `related` pages.

Runs once per page (docsgen.nav.tree.build_nav calls it; it is idempotent, so the dev server's rebuilt navigation
may call it again). Diagnostics are located at the page's frontmatter (line 1: pages keep no positions of
their frontmatter keys).
"""

from __future__ import annotations

import re
from typing import Any

from docsgen.common.errors import Diagnostic, info, warning
from docsgen.common.theme import register_template_globals
from docsgen.common.urls import is_external
from docsgen.config.model import SiteConfig
from docsgen.config.safety import is_unsafe_url
from docsgen.mdx.page_body import substitute_variables
from docsgen.pages.page import Page

TEXT_FIELDS = ("title", "description", "sidebarTitle", "og:title", "og:description")
MAX_RELATED = 10  # Mintlify's maximum
_LEFT_VARIABLE = re.compile(r"\{\{\s*([\w.-]+)\s*\}\}")


def prepare_pages(config: SiteConfig, pages: dict[str, Page]) -> list[Diagnostic]:
    """Apply the frontmatter fields that change what a page is called or where it is listed."""
    diags: list[Diagnostic] = []
    for page in pages.values():
        if page.meta:
            diags += _variables(config, page)
            diags += _groups(page)
    for page in pages.values():
        if "related" in page.meta:
            page.related, more = _related(page, pages)
            diags += more
    return diags


def _where(page: Page) -> tuple[str, int, int]:
    return (page.source or page.key, 1, 1)


def _variables(config: SiteConfig, page: Page) -> list[Diagnostic]:
    """Replace `{{name}}` in the title and description with docs.json `variables`; warn on unknown names."""
    diags = []
    for name in TEXT_FIELDS:
        value = page.meta.get(name)
        if not isinstance(value, str) or "{{" not in value:
            continue
        new = substitute_variables(value, config.variables)
        page.meta[name] = new
        for m in _LEFT_VARIABLE.finditer(new):
            diags.append(
                warning(
                    "page.unknown-variable",
                    f"frontmatter {name} uses {{{{{m.group(1)}}}}}, which docs.json `variables` does not define: "
                    "shown as written",
                    *_where(page),
                    name,
                    "add it to `variables` in docs.json",
                )
            )
    return diags


def _groups(page: Page) -> list[Diagnostic]:
    """A page for signed-in groups only: a static site cannot check who reads it, so keep it out of every list."""
    groups = page.meta.get("groups")
    if groups is None or groups == []:
        return []
    names = [str(g) for g in groups] if isinstance(groups, list) else [str(groups)]
    page.meta["hidden"] = True
    page.meta["noindex"] = True
    return [
        info(
            "page.groups",
            f"page is restricted to groups {', '.join(names)[:120]}: a static site cannot check who reads it, so "
            "it is built but left out of the navigation, sitemap.xml and llms.txt, its search records kept in a "
            "bundle only `docsgen server`'s sign-in gate serves (anyone with its URL can still open it)",
            *_where(page),
            "groups",
            "serve the site with `docsgen server` and sign-in (docs/deploy/private-docs.mdx), or keep the page "
            "off public hosts",
        )
    ]


def _related(page: Page, pages: dict[str, Page]) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """Resolve `related` (paths, URLs, `Title: link` objects) to [{title, url, external}]; `false` hides it."""
    value = page.meta.get("related")
    if value is False or value is None:
        return [], []
    diags: list[Diagnostic] = []
    if not isinstance(value, list):
        bad = f"frontmatter related must be a list of pages or false, found {type(value).__name__}"
        return [], [warning("page.related", bad, *_where(page), "related")]
    out: list[dict[str, Any]] = []
    for i, entry in enumerate(value[: MAX_RELATED * 4]):
        title: str | None = None
        target: Any = entry
        if isinstance(entry, dict) and len(entry) == 1:
            title, target = next(iter(entry.items()))
            title = str(title)
        if not isinstance(target, str) or not target.strip():
            diags.append(
                warning(
                    "page.related", f"related[{i}] is not a page path or URL", *_where(page), f"related[{i}]"
                )
            )
            continue
        target = target.strip()
        if is_unsafe_url(target):
            diags.append(
                warning(
                    "page.related",
                    f"related[{i}] {target[:60]!r} would run code in the reader's browser: left out",
                    *_where(page),
                    f"related[{i}]",
                )
            )
            continue
        if is_external(target):
            out.append({"title": title or target, "url": target, "external": True})
        else:
            key = target.split("#")[0].strip("/") or "index"
            other = pages.get(key) or pages.get(key + "/index")
            if other is None:
                diags.append(
                    warning(
                        "page.related",
                        f"related[{i}] names page '{target}', which does not exist: left out",
                        *_where(page),
                        f"related[{i}]",
                    )
                )
                continue
            fragment = "#" + target.split("#", 1)[1] if "#" in target else ""
            out.append(
                {"title": title or other.sidebar_title, "url": other.url + fragment, "external": False}
            )
        if len(out) == MAX_RELATED:
            break
    return out, diags


def related_links(site: Any, page: Page) -> list[dict[str, Any]]:
    """Return a page's resolved `related` list for its template (resolved now if the page was read again since
    the navigation was built, as the dev server does after an edit; diagnostics then come from the next build)."""
    if "related" not in page.meta:
        return []
    return page.related if page.related is not None else _related(page, site.pages)[0]


register_template_globals({"dg_related": related_links})
