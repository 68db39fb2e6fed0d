"""Resolve links as authors write them (/path, ../page.mdx#x, images) to relative URLs of the built site."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

from docsgen.common.errors import Diagnostic, warning
from docsgen.common.urls import is_external, relative_url
from docsgen.pages.page import Page

_PAGE_SUFFIX = re.compile(r"\.(mdx|md)$", re.I)


class LinkResolver:
    """Map hrefs found in a page to relative URLs, knowing every page and static file of the site."""

    def __init__(
        self,
        docs_dir: Path,
        pages: dict[str, Page],
        static: set[str],
        redirects: dict[str, str] | None = None,
    ):
        self.docs_dir, self.pages, self.static = docs_dir, pages, static
        self.redirects = redirects if redirects is not None else {}  # LinkTargets: falsy when empty

    def target(self, page: Page, href: str, _hops: int = 0) -> tuple[str | None, str]:
        """Return (site-relative URL, external URL through a redirect, or None when unknown; fragment-and-query)."""
        path, sep, rest = href.partition("#")
        query = ""
        if "?" in path:
            path, _, query = path.partition("?")
        suffix = ("?" + query if query else "") + (sep + rest)
        if path.startswith("/"):
            joined = path.lstrip("/")
        else:
            base = posixpath.dirname(page.source or page.key)
            joined = posixpath.normpath(posixpath.join(base, path)) if path else ""
        joined = unquote(joined)
        if joined in (".", ""):
            return "", suffix
        key = _PAGE_SUFFIX.sub("", joined).rstrip("/")
        folder = self._version_folder(page) if path.startswith("/") else None
        if folder and key and not key.startswith(folder + "/"):
            for candidate in (f"{folder}/{key}", f"{folder}/{key}/index"):
                if candidate in self.pages:  # a link written without the version, on a page of that version
                    return self.pages[candidate].url, suffix
        for candidate in (key, key + "/index"):
            if candidate in self.pages:
                return self.pages[candidate].url, suffix
        if key == "" or key == "index":
            return "", suffix
        if key in self.redirects:
            if key in getattr(self.redirects, "expanded", ()):
                return self._wildcard(page, key, _hops), suffix  # straight to the destination
            return key + "/", suffix
        if joined in self.static or joined.rstrip("/") in self.static:
            return joined.rstrip("/"), suffix
        return self._wildcard(page, key, _hops), suffix

    def _version_folder(self, page: Page) -> str | None:
        """Return the version folder a page lives in ("v2" for v2/en/x), when the site has versions."""
        folders = getattr(self.redirects, "version_folders", None)
        first = page.key.split("/", 1)[0]
        return first if folders and "/" in page.key and first in folders else None

    def _wildcard(self, page: Page, key: str, hops: int) -> str | None:
        """Return where a wildcard redirect matching the path leads (an external URL or a page URL), else None."""
        match = getattr(self.redirects, "wildcard_destination", None)
        destination = match(key) if match is not None and hops < 5 else None
        if destination is None:
            return None
        if is_external(destination):
            return destination
        url, _ = self.target(page, "/" + destination.lstrip("/"), hops + 1)
        return url

    def for_page(self, page: Page, diagnostics: list[Diagnostic]) -> Callable[[str], str]:
        """Return the resolver the MDX reader calls for every link of one page."""

        def resolve(href: str) -> str:
            if not href or href.startswith("#") or is_external(href):
                return href
            url, suffix = self.target(page, href)
            if url is None:
                path = href[: len(href) - len(suffix)]  # the fragment and query are added once, below
                if posixpath.splitext(path)[1].lower() in ("", ".mdx", ".md"):  # a page, not a file
                    diagnostics.append(
                        warning(
                            "link.broken",
                            f"link to '{href}' does not match any page or file",
                            page.source or page.key,
                            *locate_in_page(page, href),
                        )
                    )
                url = path.lstrip("/") if path.startswith("/") else None
                if url is None:
                    return href
            if is_external(url):
                return url + suffix
            return relative_url(page.output, url) + suffix

        return resolve

    def asset_for_page(self, page: Page, diagnostics: list[Diagnostic]) -> Callable[[str], str]:
        """Return the resolver for image, video and file sources of one page."""

        def resolve(src: str) -> str:
            if not src or is_external(src) or src.startswith("data:"):
                return src
            url, suffix = self.target(page, src)
            if url is None:
                diagnostics.append(
                    warning(
                        "asset.missing",
                        f"file '{src}' does not exist in the docs folder",
                        page.source or page.key,
                        *locate_in_page(page, src),
                    )
                )
                url = (
                    src.lstrip("/")
                    if src.startswith("/")
                    else posixpath.normpath(posixpath.join(posixpath.dirname(page.source or page.key), src))
                )
            if is_external(url):
                return url + suffix
            return relative_url(page.output, url) + suffix

        return resolve


def locate_in_page(page: Page, text: str) -> tuple[int, int]:
    """Return (line, column) of the first place a page's source names `text` (a link or an image source), or
    (0, 0) when the page does not (the link came from a snippet or a variable). Asked only for problems."""
    body = page.body or ""
    at = body.find(text)
    if at < 0:
        return 0, 0
    line_start = body.rfind("\n", 0, at) + 1
    return page.body_line + body.count("\n", 0, at), at - line_start + 1
