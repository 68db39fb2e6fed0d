"""Files for AI agents: a Markdown twin of every page, /llms.txt (page list) and /llms-full.txt (all text)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docsgen.markdown_export import page_markdown_of, rewrite_links
from docsgen.seo import policies, site_url

if TYPE_CHECKING:
    from docsgen.build import Site
    from docsgen.pages import Page
    from docsgen.render import SiteContext
    from docsgen.write import SiteFiles

LLMS_LIMIT = 100_000  # characters of llms.txt
DESCRIPTION_LIMIT = 300  # characters per page description in llms.txt


def markdown_path(page: Page) -> str:
    """Return the site path of a page's Markdown twin: 'guides/setup/' -> 'guides/setup.md', home -> 'index.md'."""
    url = page.url.rstrip("/")
    return (url or "index") + ".md"


def twin_owners(site: Site, pages: list[Page]) -> dict[str, str]:
    """Map each twin path to the page whose twin it is: the first page claiming it (in render order), unless a
    file of the docs folder has that path (`index.mdx` and `index/index.mdx` both claim `index.md`)."""
    static = set(site.sources.static)
    owners: dict[str, str] = {}
    for page in pages:
        path = markdown_path(page)
        if path not in static:
            owners.setdefault(path, page.key)
    return owners


def twin_path_free(site: Site, page: Page) -> str | None:
    """Return the twin's site path when the page owns it (site.twin_owners), so its render worker may write it."""
    path = markdown_path(page)
    return path if site.twin_owners.get(path) == page.key else None


def instructions(site: Site) -> str:
    """Return docs.json `markdown.instructions` as text (appended to every agent file)."""
    markdown = site.config.raw.get("markdown")
    value = markdown.get("instructions") if isinstance(markdown, dict) else None
    if isinstance(value, list):
        value = "\n".join(str(v) for v in value if isinstance(v, str | int | float))
    return value.strip() if isinstance(value, str) else ""


def page_body_markdown(site: Site, page: Page) -> str:
    """Return a page's content as Markdown: from its MDX source, or as its renderer wrote it when generated."""
    markdown = getattr(page.content, "markdown", None)
    if isinstance(markdown, str):  # generated API pages: made with the page (docsgen.openapi.render)
        return rewrite_links(markdown, _link_resolver(site, page))
    if page.generate is not None or page.source is None:
        return ""
    body = page_markdown_of(page.body, site.docs_dir, site.config.variables, page.source)
    return rewrite_links(body, _link_resolver(site, page))


# The LinkResolver of the last site seen, with the objects it was made from (reused while they are the same).
_RESOLVER: tuple[Any, ...] | None = None


def _site_resolver(site: Site):
    """Return a LinkResolver for the site's pages and static files, made once per site."""
    global _RESOLVER
    from docsgen.links import LinkResolver

    static = site.sources.static
    if _RESOLVER is not None:
        pages, known, count, docs_dir, resolver = _RESOLVER
        if pages is site.pages and known is static and count == len(static) and docs_dir == site.docs_dir:
            return resolver
    resolver = LinkResolver(site.docs_dir, site.pages, set(static))
    _RESOLVER = (site.pages, static, len(static), site.docs_dir, resolver)
    return resolver


def _link_resolver(site: Site, page: Page) -> Callable[[str], str]:
    """Return a function making a page's links independent of where its twin lives (absolute or root-based)."""
    from docsgen.render import is_external

    resolver = _site_resolver(site)
    base = site_url(site) or ""

    def resolve(href: str) -> str:
        if not href or href.startswith("#") or is_external(href):
            return href
        url, suffix = resolver.target(page, href)
        return href if url is None else f"{base}/{url}{suffix}"

    return resolve


def page_markdown(site: Site, page: Page) -> str:
    """Return the complete Markdown twin of a page: title, description, body, site instructions."""
    head = f"# {page.title}\n\n"
    if page.description:
        head += f"> {' '.join(page.description.split())}\n\n"
    text = head + page_body_markdown(site, page).strip() + "\n"
    extra = instructions(site)
    return text + (f"\n---\n\n{extra}\n" if extra else "")


def _link(base: str | None, page: Page) -> str:
    """Return the link to a page's twin: absolute when the site URL is known, else relative to the site root."""
    path = markdown_path(page)
    return f"{base}/{path}" if base else path


def _page_url(base: str | None, page: Page) -> str:
    return f"{base}/{page.url}" if base else (page.url or "./")


def agent_pages(site: Site) -> list[Page]:
    """Return the pages agents see (llms.txt, llms-full.txt): indexed pages, navigation order first."""
    from docsgen.build import pages_to_render

    table = policies(site.config, site.nav, site.pages)
    order = {key: i for i, key in enumerate(site.nav.order)}
    chosen = [p for p in pages_to_render(site) if table[p.key].indexed]
    return sorted(chosen, key=lambda p: (order.get(p.key, len(order)), p.key))


def _truncate(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def llms_txt(site: Site, pages: list[Page], base: str | None) -> str:
    """Return /llms.txt: site name, description, pages grouped by navigation, at most LLMS_LIMIT characters."""
    table = policies(site.config, site.nav, site.pages)
    head = [f"# {site.config.name}", ""]
    if site.config.description:
        head += [f"> {' '.join(site.config.description.split())}", ""]
    sections: dict[str, list[Page]] = {}
    for page in pages:
        policy = table[page.key]
        label = " > ".join([*policy.scope.values(), *policy.crumbs]) if policy.navigable else "Other pages"
        sections.setdefault(label or "Pages", []).append(page)

    if "Other pages" in sections:
        sections["Other pages"] = sections.pop("Other pages")

    def render(with_descriptions: bool, limit: int | None) -> str:
        lines = list(head)
        count = 0
        for label, group in sections.items():
            lines += [f"## {label}", ""]
            for page in group:
                if limit is not None and count >= limit:
                    break
                entry = f"- [{page.title}]({_link(base, page)})"
                if with_descriptions and page.meta_description:
                    entry += ": " + _truncate(page.meta_description, DESCRIPTION_LIMIT)
                lines.append(entry)
                count += 1
            lines.append("")
        extra = instructions(site)
        if extra:
            lines += ["## Instructions", "", extra, ""]
        lines += [
            "## Optional",
            "",
            f"- [Full text of every page]({(base + '/') if base else ''}llms-full.txt)",
            "",
        ]
        return "\n".join(lines)

    text = render(True, None)
    if len(text) > LLMS_LIMIT:
        text = render(False, None)
    limit = len(pages)
    while len(text) > LLMS_LIMIT and limit > 0:
        limit = limit * 9 // 10
        text = render(False, limit)
    return text


def llms_full_txt(site: Site, pages: list[Page], base: str | None, twins: dict[str, str]) -> str:
    """Return /llms-full.txt: every agent page's Markdown, each with its source URL."""
    parts = []
    for page in pages:
        body = twins.get(page.key) or page_markdown(site, page)
        first, _, rest = body.partition("\n")
        parts.append(f"{first}\nSource: {_page_url(base, page)}\n{rest.rstrip()}\n")
    extra = instructions(site)
    text = "\n".join(parts)
    return text + (f"\n{extra}\n" if extra and not parts else "")


def add_agent_files(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write the Markdown twin of every rendered page, /llms.txt, /.well-known/llms.txt and /llms-full.txt."""
    from docsgen.build import pages_to_render

    twins: dict[str, str] = {}
    for page in pages_to_render(site):
        twin = site.twins.get(page.key) or page_markdown(site, page)
        if page.key in site.twins_written:  # in the output folder and in `files` already (render_site)
            twins[page.key] = twin
            continue
        path = markdown_path(page)
        # a file of the docs folder (or another page) owning this path wins, with a warning
        if files.add(
            path,
            twin,
            f"the Markdown twin of {page.source or page.key}",
            on_clash="keep",
        ):
            twins[page.key] = twin
    base = site_url(site)
    pages = agent_pages(site)
    llms = llms_txt(site, pages, base)
    for path in ("llms.txt", ".well-known/llms.txt"):
        if not files.has(path):
            files.add(path, llms, "agents")
    if not files.has("llms-full.txt"):
        files.add("llms-full.txt", llms_full_txt(site, pages, base, twins), "agents")


def read_markdown_twin(out_dir: Path, page_url: str) -> str:
    """Return the Markdown twin written for a page URL in a built site (used by tests and the dev server)."""
    url = page_url.strip("/")
    return (out_dir / ((url or "index") + ".md")).read_text(encoding="utf-8")


def page_twin(site: Site, page: Page) -> tuple[str, bytes]:
    """Return (site path, bytes) of one page's Markdown twin (the dev server refreshes edited pages with it)."""
    return markdown_path(page), page_markdown(site, page).encode("utf-8")
