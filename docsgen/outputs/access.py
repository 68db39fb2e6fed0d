"""The access manifest (`_access.json`) that `docsgen server`'s sign-in gate reads, and the search bundle listing.

Written only for sites that mark access (a page's `public` or `groups`, OpenAPI `x-mint.groups`, a navigation
group's `public`). It names, for each page, who may read it (`public`, `members`: any signed-in reader, or
`groups:<a>,<b>`) and the files that carry its text: its HTML and Markdown twin, the search bundle holding its
records, the spec file documenting it; and the docs folder's own files (`assets`), which the gate opens to the
readers of the pages that show them. Static hosts serve these files to everyone; the server's gate does not
(docs/deploy/private-docs.mdx). `pagefind/access.json` lists, per base bundle, the restricted bundles the
search box merges (the gate drops those a reader may not read).

`_headers` (Netlify, Cloudflare Pages) marks the restricted files for static hosts, the docs folder's files shown
only by restricted pages included (read from the pages' Markdown twins, as the gate reads their HTML).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Mapping
from urllib.parse import unquote, urlsplit

from docsgen.common.errors import warning
from docsgen.common.urls import twin_path
from docsgen.engine.write import SiteFiles
from docsgen.pages.page import Page
from docsgen.site.policies import INDEX_DIR, site_url
from docsgen.site.read import Site

MANIFEST = "_access.json"
SEARCH_LISTING = f"{INDEX_DIR}/access.json"
FORMAT = 1
BASIC_AUTH_ENV = "DOCSGEN_BASIC_AUTH"  # user:password for the Netlify Basic-Auth rule of restricted paths


def _agent_order(site: Site) -> list[Page]:
    from docsgen.outputs.agents import agent_pages  # the order llms.txt and llms-full.txt use

    return agent_pages(site)


def access_manifest(site: Site) -> tuple[dict, dict[str, list[str]]]:
    """Return the manifest of a site that marks access, and the search listing (see the module docstring)."""
    table = site.policies()
    pages: dict[str, dict] = {}
    spec_needs: dict[str, set[str]] = {}
    search: dict[str, dict[str, str]] = {}
    listing: dict[str, list[str]] = {}
    for page in site.pages_to_render():
        policy = site.policy(page)
        label = policy.access.label
        pages["/" + page.url] = {
            "access": label,
            "files": [page.output, twin_path(page.url)],
            "sitemap": policy.indexed,
        }
        if page.spec and "://" not in page.spec:
            spec_needs.setdefault(page.spec.lstrip("/"), set()).add(label)
        if policy.searchable:
            folder, base = table.search_folder(policy), table.search_base(policy)
            search[folder] = {"access": label, "base": base}
            if label == "members" and folder not in listing.setdefault(base, []):
                # A static host checks nobody: it lists no group's bundle (the gate lists them per reader).
                listing[base].append(folder)
    base_url = site_url(site)
    return {
        "format": FORMAT,
        "pages": pages,
        # the docs folder's own files (images, downloads): readable by whoever may read a page showing them
        "assets": sorted(rel for rel in site.sources.static if rel not in site.config.files),
        "specs": {path: sorted(labels) for path, labels in sorted(spec_needs.items())},
        "search": dict(sorted(search.items())),
        "llms": {
            "base": base_url,
            "pages": [["/" + p.url, twin_path(p.url)] for p in _agent_order(site)],
        },
    }, listing


def add_access_files(site: Site, files: SiteFiles, twins: Mapping[str, str] | None = None) -> None:
    """Add _access.json, pagefind/access.json and _headers when the site marks access."""
    if not site.policies().access_marked:
        return
    manifest, listing = access_manifest(site)
    manifest["specs"] = {p: labels for p, labels in manifest["specs"].items() if files.has(p)}
    files.add(MANIFEST, json.dumps(manifest, indent=1, sort_keys=True), "access manifest")
    files.add(SEARCH_LISTING, json.dumps(dict(sorted(listing.items())), sort_keys=True), "search")
    basic_auth = os.environ.get(BASIC_AUTH_ENV) or None
    assets = restricted_assets(site, twins or {}, set(manifest["assets"]))
    files.add("_headers", static_host_rules(manifest, basic_auth, assets), "access rules", on_clash="yield")
    restricted = sum(1 for e in manifest["pages"].values() if e["access"] != "public")
    groups = sum(1 for e in manifest["pages"].values() if e["access"].startswith("groups:"))
    if restricted:
        how = (
            "Netlify asks for the $DOCSGEN_BASIC_AUTH password on them (_headers); Cloudflare Pages, GitHub "
            "Pages, S3 and nginx cannot be told by a file"
            if basic_auth
            else "no static host can check sign-in from the built files ($DOCSGEN_BASIC_AUTH adds a Netlify "
            "password rule)"
        )
        shown = f", {len(assets)} file(s) only they show (images, downloads)" if assets else ""
        files.diagnostics.append(
            warning(
                "access.static-host",
                f"{restricted} page(s) need a signed-in reader ({groups} of them a group): {how}; a static "
                f"host serves them, their Markdown twins, their search bundles{shown} to anyone with the URL, "
                "and no static host tells one group from another",
                hint="serve the site with `docsgen server run --site PROJECT` (docs/deploy/private-docs)",
            )
        )


_MD_TARGET = re.compile(r"\]\(\s*<?([^)\s>]{1,2000})")
_HTML_TARGET = re.compile(r"\s(?:src|href|poster|srcset)=[\"']([^\"'<>]{1,4000})")
SITEWIDE = (".css", ".js")  # a site's own stylesheet and scripts: every page's template loads them


def restricted_assets(site: Site, twins: Mapping[str, str], assets: set[str]) -> dict[str, str]:
    """Return the docs folder's files that only restricted pages show, with the widest access among those pages
    (a file a public page shows, a file no page shows and a site-wide stylesheet or script are left out)."""
    readers: dict[str, set[str]] = {}
    base = site_url(site)
    for page in site.pages_to_render():
        try:
            text = twins[page.key]
        except (KeyError, OSError, UnicodeDecodeError):
            continue
        label = site.policy(page).access.label
        folder = posixpath.dirname(twin_path(page.url))
        for ref in _twin_references(text, folder, base):
            if ref in assets:
                readers.setdefault(ref, set()).add(label)
    return {
        path: widest(labels)
        for path, labels in sorted(readers.items())
        if "public" not in labels and not path.lower().endswith(SITEWIDE)
    }


def _twin_references(text: str, folder: str, base: str | None) -> set[str]:
    found = set()
    for m in (*_MD_TARGET.finditer(text), *_HTML_TARGET.finditer(text)):
        for part in m.group(1).split(","):  # srcset: "a.png 1x, b.png 2x"
            words = part.split()
            if words:
                found.add(site_path(words[0], folder, base))
    found.discard("")
    return found


def site_path(ref: str, folder: str, base: str | None) -> str:
    """Return the site path a reference names from a file in `folder`, or '' when it is not one of the site's."""
    if base and ref.startswith(base.rstrip("/") + "/"):
        ref = ref[len(base.rstrip("/")) :]
    parts = urlsplit(ref)
    if parts.scheme or parts.netloc or not parts.path:
        return ""
    path = unquote(parts.path)
    joined = path.lstrip("/") if path.startswith("/") else posixpath.join(folder, path)
    normal = posixpath.normpath(joined)
    return "" if normal.startswith("..") or normal == "." else normal


def widest(labels: set[str]) -> str:
    """Return one access label a reader passes when they pass any of `labels`."""
    if "public" in labels:
        return "public"
    if "members" in labels or not labels:
        return "members"
    groups = sorted({g for label in labels for g in label.removeprefix("groups:").split(",") if g})
    return "groups:" + ",".join(groups)


def static_host_rules(manifest: dict, basic_auth: str | None, assets: Mapping[str, str] | None = None) -> str:
    """Return `_headers` (Netlify, Cloudflare Pages): restricted files (pages, twins, specs, search bundles, the
    files only restricted pages show) kept out of search engines and caches, and with a `user:password` (Netlify
    only) behind HTTP basic authentication."""
    paths: set[str] = set()
    for entry in manifest["pages"].values():
        if entry["access"] != "public":
            paths.update("/" + f.removesuffix("index.html") for f in entry["files"])
    paths.update("/" + p for p in manifest["specs"])
    paths.update("/" + p for p in assets or {})
    paths.update(f"/{folder}/*" for folder, e in manifest["search"].items() if e["access"] != "public")
    paths.add("/" + MANIFEST)
    lines = []
    for path in sorted(paths):
        lines += [path, "  X-Robots-Tag: noindex", "  Cache-Control: private, no-store"]
        if basic_auth:
            lines.append(f"  Basic-Auth: {basic_auth}")
    return "\n".join(lines) + "\n"
