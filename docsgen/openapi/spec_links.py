"""Links written in a spec's descriptions, pointed at this site's generated pages or the vendor's docs."""

from __future__ import annotations

import re
from urllib.parse import unquote

from docsgen.common.urls import relative_url
from docsgen.openapi.spec import Operation, Spec
from docsgen.pages.markdown_export import rewrite_links
from docsgen.pages.page import Page

# Links written in spec descriptions (markdown-it writes href first; the renderer's own anchors start with class).
_REDOC_LINK = re.compile(r'<a href="#((?:operation|tag)/[^"]+)"')
_ANCHOR_LINK = re.compile(r'<a href="#([^"]+)"')
_ID_ATTR = re.compile(r'\sid="([^"]+)"')
_ROOTED_LINK = re.compile(r'<a href="(/(?!/)[^"]*)"')
_LINK_TARGET = '<a class="dg-api-link-target"'
_LINK_TARGET_RE = re.compile(r'<a class="dg-api-link-target" data-operation="([^"]+)">')
_METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"}


class SpecLinks:
    """Resolves description links for the pages ApiPages made (lookup tables built once per spec)."""

    def __init__(
        self, pages: dict[str, Page], made: dict[tuple[str, str], list[Page]], used: dict[str, Spec]
    ):
        self.pages, self.made, self.used = pages, made, used
        self._targets: dict[str, tuple[int, dict[str, list[Page]], dict[str, list[Page]]]] = {}

    def targets(
        self, spec_source: str, spec: Spec | None
    ) -> tuple[dict[str, list[Page]], dict[str, list[Page]]]:
        """Return the spec's generated pages by "METHOD /path" and by operationId (rebuilt when pages are added)."""
        count = sum(len(v) for v in self.made.values())
        cached = self._targets.get(spec_source)
        if cached is not None and cached[0] == count:
            return cached[1], cached[2]
        by_key = {ident: targets for (source, ident), targets in self.made.items() if source == spec_source}
        by_id = {
            op.operation_id: by_key[op.key]
            for op in (spec.operations() if spec else [])
            if op.operation_id and op.key in by_key
        }
        self._targets[spec_source] = (count, by_key, by_id)
        return by_key, by_id

    def fix(self, page: Page, html: str, spec_source: str, markdown: str = "") -> tuple[str, str]:
        """Make links written in spec descriptions work on this site, in the page's HTML and its Markdown.

        Redoc-style anchors (#operation/id, #tag/t/METHOD/path) point at the generated pages; root-relative
        links (/guides/x) go to a page of this site when there is one, else to the vendor's documentation
        named by the spec's externalDocs. The Markdown gets root-relative URLs (its twin makes them absolute).
        """
        if '<a href="#' not in html and '<a href="/' not in html and _LINK_TARGET not in html:
            return html, markdown
        spec = self.used.get(spec_source)
        all_by_key, all_by_id = self.targets(spec_source, spec)
        by_key, by_id = _Nearest(page, all_by_key), _Nearest(page, all_by_id)
        if _LINK_TARGET in html:

            def link_target(m: re.Match) -> str:
                # A response link's operationId (render/response_links.py): linked when it has a page here.
                target = by_id.get(unquote(m.group(1)))
                return (
                    f'{m.group(0)[:-1]} href="{relative_url(page.output, target.url)}">'
                    if target
                    else m.group(0)
                )

            html = _LINK_TARGET_RE.sub(link_target, html)
        vendor = _docs_origin(spec, page)

        def redoc_target(ref: str) -> Page | None:
            ref = unquote(ref)
            if ref.startswith("operation/"):
                return by_id.get(ref.split("/", 1)[1])
            parts = ref.split("/", 3)
            if len(parts) == 4 and parts[2].upper() in _METHODS:
                return by_key.get(f"{parts[2].upper()} /{parts[3]}")
            return None

        def rooted_target(href: str) -> tuple[Page | None, str]:
            path, _, fragment = href.partition("#")
            key = path.strip("/") or "index"
            return self.pages.get(key) or self.pages.get(key + "/index"), "#" + fragment if fragment else ""

        def redoc(m: re.Match) -> str:
            target = redoc_target(m.group(1))
            return f'<a href="{relative_url(page.output, target.url)}"' if target else m.group(0)

        def rooted(m: re.Match) -> str:
            target, fragment = rooted_target(m.group(1))
            if target is not None:
                return f'<a href="{relative_url(page.output, target.url)}{fragment}"'
            return f'<a href="{vendor}{m.group(1)}"' if vendor else m.group(0)

        html = _REDOC_LINK.sub(redoc, html)
        html = _ROOTED_LINK.sub(rooted, html)
        docs_page = _docs_page(spec, page)
        ids: set[str] = set()
        if docs_page and '<a href="#' in html:
            ids = set(_ID_ATTR.findall(html))

            def foreign(m: re.Match) -> str:
                # An anchor the page does not have belongs to the vendor's page this description was written for.
                return m.group(0) if unquote(m.group(1)) in ids else f'<a href="{docs_page}#{m.group(1)}"'

            html = _ANCHOR_LINK.sub(foreign, html)

        def markdown_href(href: str) -> str:
            if href.startswith(("#operation/", "#tag/")):
                target = redoc_target(href[1:])
                if target is not None:
                    return "/" + target.url
            if href.startswith("#"):
                return f"{docs_page}{href}" if docs_page and unquote(href[1:]) not in ids else href
            if href.startswith("/") and not href.startswith("//"):
                target, fragment = rooted_target(href)
                if target is not None:
                    return f"/{target.url}{fragment}"
                return f"{vendor}{href}" if vendor else href
            return href

        if "](#" in markdown or "](/" in markdown:
            markdown = rewrite_links(markdown, markdown_href)
        return html, markdown


class _Nearest:
    """An operation's page seen from `page`: of a spec shown in several folders, the one nearest the page."""

    def __init__(self, page: Page, pages: dict[str, list[Page]]):
        self.page, self.pages = page, pages

    def get(self, name: str) -> Page | None:
        found = self.pages.get(name)
        if not found:
            return None
        return (
            max(found, key=lambda target: _shared_folders(self.page.key, target.key))
            if found[1:]
            else found[0]
        )


def _shared_folders(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.split("/"), b.split("/"), strict=False):
        if x != y:
            break
        n += 1
    return n


def _operation_of(spec: Spec | None, page: Page) -> Operation | None:
    """Return the operation a generated or openapi-frontmatter page documents."""
    if spec is None or not page.method or page.method == "WEBHOOK":
        return None
    return spec.find_operation(page.method, page.api_path or "")


def _docs_url(value: object) -> str:
    return value.get("url", "") if isinstance(value, dict) and isinstance(value.get("url"), str) else ""


def _docs_page(spec: Spec | None, page: Page) -> str:
    """Return the operation's own externalDocs page (without fragment), or ""."""
    op = _operation_of(spec, page)
    return _docs_url(op.data.get("externalDocs")).split("#")[0] if op else ""


def _docs_origin(spec: Spec | None, page: Page) -> str:
    """Return scheme://host of the spec's externalDocs (the operation's, else the document's), or ""."""
    op = _operation_of(spec, page)
    for url in (
        _docs_url(op.data.get("externalDocs")) if op else "",
        _docs_url(spec.data.get("externalDocs")) if spec else "",
    ):
        m = re.match(r"^(https?://[^/]+)", url)
        if m:
            return m.group(1)
    return ""
