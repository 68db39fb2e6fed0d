"""Offline site search: a Pagefind index of every searchable page, written under /pagefind/ with the site."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from markupsafe import escape

from docsgen.errors import warning
from docsgen.render import language_of
from docsgen.seo import PagePolicy, policies

if TYPE_CHECKING:
    from docsgen.build import Site
    from docsgen.pages import Page
    from docsgen.render import SiteContext
    from docsgen.write import SiteFiles

INDEX_DIR = "pagefind"
# What the browser needs from Pagefind's output: its search API, the WebAssembly, the index chunks.
_KEEP = re.compile(
    r"^(pagefind\.js|pagefind-worker\.js|pagefind-entry\.json|pagefind\.[^/]+\.pf_meta|wasm\.[^/]+\.pagefind"
    r"|index/.*|fragment/.*|filter/.*)$"
)
_MAX_WEIGHT = 10.0  # Pagefind weights range from 0 to 10


@dataclass(frozen=True)
class SearchRecord:
    """One page as the index sees it: URL, language, title, body HTML, filters, metadata, weight."""

    url: str
    lang: str
    html: str


def searchable_pages(site: Site) -> list[tuple[Page, PagePolicy]]:
    """Return the rendered pages that go into the search index, with their policies."""
    from docsgen.build import pages_to_render

    table = policies(site.config, site.nav, site.pages)
    return [(p, table[p.key]) for p in pages_to_render(site) if table[p.key].searchable and p.content]


def page_language(ctx: SiteContext, site: Site, page: Page) -> str:
    """Return the page's language code, as its <html lang> says."""
    place = site.nav.placements.get(page.key)
    lang = language_of(place.section if place else None)
    if lang is None and isinstance(site.config.raw.get("language"), str):
        lang = site.config.raw["language"]
    return lang or "en"


def record_for(ctx: SiteContext, site: Site, page: Page, policy: PagePolicy) -> SearchRecord:
    """Return the HTML document Pagefind indexes for a page: title, body, scope filters, boost."""
    lang = page_language(ctx, site, page)
    weight = ""
    if policy.boost != 1.0:
        weight = f' data-pagefind-weight="{min(_MAX_WEIGHT, max(0.0, policy.boost)):g}"'
    tags = [
        f'<span data-pagefind-filter="{kind}:{escape(value)}"></span>' for kind, value in policy.scope.items()
    ]
    crumbs = " › ".join(policy.crumbs)
    if crumbs:
        tags.append(f'<span data-pagefind-meta="crumbs:{escape(crumbs)}"></span>')
    if policy.boost != 1.0:
        tags.append(f'<span data-pagefind-meta="boost:{policy.boost:g}"></span>')
    description = f"<p>{escape(page.meta_description)}</p>" if page.meta_description else ""
    keywords = page.meta.get("keywords")
    if isinstance(keywords, list) and keywords:
        description += f'<p data-pagefind-weight="2">{escape(" ".join(str(k) for k in keywords))}</p>'
    # Generated API pages carry a compact search_html (no nested rows or code samples): far fewer words to index.
    body = (getattr(page.content, "search_html", None) or page.content.html) if page.content else ""
    html = (
        f'<!doctype html><html lang="{escape(lang)}"><head><title>{escape(page.title)}</title></head><body>'
        f"<main data-pagefind-body{weight}>{''.join(tags)}<h1>{escape(page.title)}</h1>{description}{body}</main>"
        "</body></html>"
    )
    return SearchRecord("/" + page.url, lang, html)


def pagefind_binary() -> str:
    """Return the Pagefind executable shipped by the `pagefind[extended]` wheel (or PAGEFIND_BINARY)."""
    override = os.environ.get("PAGEFIND_BINARY")
    if override:
        return override
    from pagefind.service import _must_get_executable

    return str(_must_get_executable())


def build_index(records: list[SearchRecord]) -> dict[str, bytes]:
    """Run Pagefind over the records and return {path under pagefind/: bytes} of the browser bundle."""
    with tempfile.TemporaryDirectory(prefix="docsgen-pagefind-") as tmp:
        site, out = Path(tmp) / "site", Path(tmp) / "pagefind"
        for record in records:
            # The page's own output path, so Pagefind derives the very URL the site serves.
            target = site / record.url.strip("/") / "index.html"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(record.html, encoding="utf-8")
        proc = subprocess.run(
            [
                pagefind_binary(),
                "--site",
                str(site),
                "--output-path",
                str(out),
                "--silent",
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if proc.returncode != 0:
            raise RuntimeError(
                (proc.stderr or proc.stdout).strip()[-500:] or f"exit status {proc.returncode}"
            )
        files = {}
        for path in sorted(out.rglob("*")):
            rel = path.relative_to(out).as_posix()
            if path.is_file() and _KEEP.match(rel):
                files[rel] = path.read_bytes()
        if "pagefind-entry.json" in files:
            files["pagefind-entry.json"] = _stable_entry(files["pagefind-entry.json"])
        return files


def _stable_entry(data: bytes) -> bytes:
    """Sort the language table of pagefind-entry.json: Pagefind writes it in hash-map order, builds must not vary."""
    entry = json.loads(data)
    if isinstance(entry.get("languages"), dict):
        entry["languages"] = dict(sorted(entry["languages"].items()))
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def search_bundle(ctx: SiteContext, site: Site) -> dict[str, bytes]:
    """Return {site path: bytes} of the whole search bundle (the dev server swaps it in after edits)."""
    records = [record_for(ctx, site, page, policy) for page, policy in searchable_pages(site)]
    return {f"{INDEX_DIR}/{rel}": data for rel, data in build_index(records).items()} if records else {}


def add_search_index(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Index every searchable page (hidden, noindex and `searchable: false` pages left out) into /pagefind/."""
    records = [record_for(ctx, site, page, policy) for page, policy in searchable_pages(site)]
    if not records:
        return
    try:
        bundle = build_index(records)
    except Exception as exc:  # noqa: BLE001 - a missing or failing Pagefind must not break the build
        files.diagnostics.append(
            warning(
                "search.index",
                f"the search index could not be built: {exc}",
                hint="install Pagefind with `pip install 'pagefind[extended]'`",
            )
        )
        return
    for rel, data in bundle.items():
        files.add(f"{INDEX_DIR}/{rel}", data, "search index")


def index_size(files: SiteFiles) -> dict[str, int]:
    """Return the bytes of the search bundle: 'index' (chunks, fragments, filters, meta) and 'runtime'."""
    sizes = {"index": 0, "runtime": 0}
    for path, content in files.files.items():
        if path.startswith(INDEX_DIR + "/"):
            size = content.stat().st_size if isinstance(content, Path) else len(content)
            rel = path[len(INDEX_DIR) + 1 :]
            sizes["runtime" if rel.startswith(("pagefind.js", "pagefind-worker", "wasm.")) else "index"] += (
                size
            )
    return sizes
