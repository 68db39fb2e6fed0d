"""Files for AI agents: /llms.txt (the page list, also under /.well-known/) and /llms-full.txt (all text).

Each page's Markdown twin (`guides/setup.md`) is rendered with the page (docsgen.render.twin) and written
beside its HTML; these files list and join them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping

from docsgen.common.urls import twin_path
from docsgen.engine.write import SiteFiles, Streamed
from docsgen.pages.page import Page
from docsgen.render.twin import instructions
from docsgen.site.policies import site_url
from docsgen.site.read import Site

LLMS_LIMIT = 100_000  # characters of llms.txt
DESCRIPTION_LIMIT = 300  # characters per page description in llms.txt


def _link(base: str | None, page: Page) -> str:
    """Return the link to a page's twin: absolute when the site URL is known, else relative to the site root."""
    path = twin_path(page.url)
    return f"{base}/{path}" if base else path


def _page_url(base: str | None, page: Page) -> str:
    return f"{base}/{page.url}" if base else (page.url or "./")


def agent_pages(site: Site) -> list[Page]:
    """Return the pages agents see (llms.txt, llms-full.txt): indexed pages, navigation order first."""
    order = {key: i for i, key in enumerate(site.nav.order)}
    chosen = [p for p in site.pages_to_render() if site.policy(p).indexed]
    return sorted(chosen, key=lambda p: (order.get(p.key, len(order)), p.key))


def _truncate(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def llms_txt(site: Site, pages: list[Page], base: str | None) -> str:
    """Return /llms.txt: site name, description, pages grouped by navigation, at most LLMS_LIMIT characters."""
    head = [f"# {site.config.name}", ""]
    if site.config.description:
        head += [f"> {' '.join(site.config.description.split())}", ""]
    sections: dict[str, list[Page]] = {}
    for page in pages:
        policy = site.policy(page)
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
        extra = instructions(site.config)
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


def llms_full_parts(
    site: Site, pages: list[Page], base: str | None, twins: Mapping[str, str]
) -> Iterator[str]:
    """Yield /llms-full.txt in pieces, one page at a time (a large site's twins are read as they are needed)."""
    for number, page in enumerate(pages):
        body = twins.get(page.key, "")
        first, _, rest = body.partition("\n")
        yield f"{chr(10) if number else ''}{first}\nSource: {_page_url(base, page)}\n{rest.rstrip()}\n"
    extra = instructions(site.config)
    if extra and not pages:
        yield f"\n{extra}\n"


def add_agent_files(site: Site, twins: Mapping[str, str], files: SiteFiles) -> None:
    """Add /llms.txt, /.well-known/llms.txt and /llms-full.txt (files of these names in the docs folder win)."""
    base = site_url(site)
    pages = agent_pages(site)
    llms = llms_txt(site, pages, base)
    for path in ("llms.txt", ".well-known/llms.txt"):
        files.add(path, llms, "agents", on_clash="yield")
    parts = functools.partial(llms_full_parts, site, pages, base, twins)
    files.add("llms-full.txt", Streamed(parts), "agents", on_clash="yield")
