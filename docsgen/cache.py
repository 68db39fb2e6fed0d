"""Content-hash page cache: an unchanged page keeps its rendered MDX body from the previous build.

The cache lives outside the docs folder (docsgen.cachedir: $DOCSGEN_CACHE_DIR or ~/.cache/docsgen/<site>/).

A page's MDX result is a function of its source (body, frontmatter, file and output paths), the snippets it
imports, the site configuration, the docsgen code, and the answers of the link/asset resolvers (which depend on
every page of the site). The cache key covers the first four; each entry also records every resolver call made
while rendering, and a cached result is only reused when replaying those calls against this build's resolvers
gives the same answers (so a page linking to a page that was removed or renamed is rendered again). The full
page HTML (navigation, neighbours) is always re-rendered: it is cheap and depends on the whole site.

The cache is JSON, never pickle: a docs folder may come from anyone, and loading it must not run code.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docsgen.errors import Diagnostic, Severity
from docsgen.mdx import MdxResult, TocItem

if TYPE_CHECKING:
    from docsgen.build import Site
    from docsgen.pages import Page
    from docsgen.render import SiteContext

CACHE_FILE = "pages.json"
FORMAT = 1
_RESULT_FIELDS = tuple(f.name for f in fields(MdxResult))
_DIAG_FIELDS = tuple(f.name for f in fields(Diagnostic))
LinkCall = tuple[str, str, str]  # ("link" | "asset", href as written, resolved URL)
API_DATA = "__api_data"  # page.meta entry an API page's render adds (its playground data)


def _sha(*parts: str | bytes) -> str:
    """Return the hex SHA-256 of the parts, each length-prefixed so boundaries cannot shift."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(str(len(data)).encode() + b":" + data)
    return digest.hexdigest()


@cache
def code_fingerprint() -> str:
    """Hash docsgen's own code and theme data: a new docsgen (or an edited checkout) renders pages anew."""
    from importlib import metadata

    try:
        version = metadata.version("docsgen")
    except metadata.PackageNotFoundError:
        version = "0"
    package = Path(__file__).resolve().parent
    parts: list[str | bytes] = [version]
    for path in sorted(package.rglob("*.py")):
        parts += [path.relative_to(package).as_posix(), path.read_bytes()]
    themes = package.parent / "themes"
    if themes.is_dir():  # icon sets and other theme data the MDX reader uses: size and mtime are enough
        for path in sorted(themes.rglob("*")):
            if path.is_file():
                stat = path.stat()
                parts.append(f"{path.relative_to(themes).as_posix()}:{stat.st_size}:{stat.st_mtime_ns}")
    return _sha(*parts)


def cache_file(docs_dir: Path) -> Path:
    """Return the page cache file of a docs folder: outside it (docsgen.cachedir), so sources stay untouched."""
    from docsgen.cachedir import cache_dir

    return cache_dir(docs_dir) / CACHE_FILE


def encode_result(result: MdxResult) -> dict | None:
    """Return a JSON-ready form of an MDX result, or None when it holds something JSON cannot carry."""
    data: dict[str, Any] = {
        "html": result.html,
        "toc": [[t.level, t.id, t.title] for t in result.toc],
        "diagnostics": [
            {**{name: getattr(d, name) for name in _DIAG_FIELDS}, "severity": d.severity.value}
            for d in result.diagnostics
        ],
        "dependencies": sorted(result.dependencies),
        "assets": sorted(result.assets),
        "icons": sorted(result.icons),
        "text": result.text,
        "panel_html": result.panel_html,
        "aside_html": result.aside_html,
    }
    extras = {k: v for k, v in vars(result).items() if k not in _RESULT_FIELDS}
    try:
        if json.loads(json.dumps(extras)) != extras:  # tuples, dataclasses: not worth a schema
            return None
    except (TypeError, ValueError):
        return None
    data["extras"] = extras
    return data


def decode_result(data: dict) -> MdxResult:
    """Rebuild an MdxResult from encode_result's form."""
    result = MdxResult(
        html=data["html"],
        toc=[TocItem(level, id_, title) for level, id_, title in data["toc"]],
        diagnostics=[Diagnostic(**{**d, "severity": Severity(d["severity"])}) for d in data["diagnostics"]],
        dependencies=set(data["dependencies"]),
        assets=set(data["assets"]),
        icons=set(data["icons"]),
        text=data["text"],
        panel_html=data["panel_html"],
        aside_html=data["aside_html"],
    )
    for key, value in data.get("extras", {}).items():
        setattr(result, key, value)
    return result


class PageCache:
    """The cached MDX results of one docs folder, loaded at the start of a build and saved at its end."""

    def __init__(self, site: Site, *, strict: bool = False, path: Path | None = None):
        self.site = site
        self.path = path or cache_file(site.docs_dir)
        config_parts: list[str | bytes] = [f"strict={strict}"]
        for rel in sorted(site.config.files):
            try:
                config_parts += [rel, (site.docs_dir / rel).read_bytes()]
            except OSError:
                config_parts += [rel, "<unreadable>"]
        self.fingerprint = _sha(str(FORMAT), code_fingerprint(), *config_parts)
        self.entries: dict[str, dict] = {}
        self.used: dict[str, dict] = {}
        self.hits = 0
        self.misses = 0
        self._file_hashes: dict[str, str | None] = {}
        self._map: str | None = None
        self._load()

    def _load(self) -> None:
        """Read the cache file; a missing, corrupt or foreign-format file is an empty cache."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if (
            isinstance(data, dict)
            and data.get("format") == FORMAT
            and data.get("fingerprint") == self.fingerprint
        ):
            entries = data.get("pages")
            if isinstance(entries, dict):
                self.entries = entries

    def _file_hash(self, rel: str) -> str | None:
        """Return the content hash of a docs-relative file (None when unreadable), once per build."""
        if rel not in self._file_hashes:
            try:
                self._file_hashes[rel] = _sha((self.site.docs_dir / rel).read_bytes())
            except OSError:
                self._file_hashes[rel] = None
        return self._file_hashes[rel]

    def key(self, page: Page) -> str:
        """Return the hash of everything of the page itself that its render reads.

        A generated API page also reads its spec (by content hash) and the site's page URLs (links written in
        the spec's descriptions are pointed at this site's pages).
        """
        own = {k: v for k, v in page.meta.items() if k != API_DATA}  # API_DATA is written by the render
        meta = json.dumps(own, sort_keys=True, default=repr, ensure_ascii=False)
        parts = [page.key, page.url, page.output, page.source or "", str(page.body_line), meta, page.body]
        if page.generate is not None:
            parts += [self.site.spec_hashes.get(str(page.meta.get("__spec")), ""), self._site_map()]
        return _sha(*parts)

    def _site_map(self) -> str:
        """Return the hash of every page's key and URL (computed once per build)."""
        if self._map is None:
            self._map = _sha(*(f"{key}\0{p.url}" for key, p in sorted(self.site.pages.items())))
        return self._map

    def cacheable(self, page: Page) -> bool:
        """Pages read from a file, and pages generated from a spec whose content hash is known."""
        if page.content is not None:
            return False
        if page.generate is None:
            return page.source is not None
        return bool(self.site.spec_hashes.get(str(page.meta.get("__spec"))))

    def restore(self, ctx: SiteContext, page: Page) -> bool:
        """Set page.content from the cache when the entry is still valid; report the page's link diagnostics."""
        if not self.cacheable(page):
            return False
        key = self.key(page)
        entry = self.entries.get(key)
        if entry is None or not self._still_valid(entry):
            self.misses += 1
            return False
        diagnostics: list[Diagnostic] = []
        resolvers = {
            "link": ctx.links.for_page(page, diagnostics),
            "asset": ctx.links.asset_for_page(page, diagnostics),
        }
        for kind, href, url in entry["links"]:
            if resolvers[kind](href) != url:  # a linked page moved or disappeared: render again
                self.misses += 1
                return False
        page.content = decode_result(entry["result"])
        if API_DATA in entry:
            page.meta[API_DATA] = entry[API_DATA]
        self.site.diagnostics.extend(diagnostics)
        self.used[key] = entry
        self.hits += 1
        return True

    def _still_valid(self, entry: dict) -> bool:
        deps = entry.get("deps")
        return isinstance(deps, dict) and all(self._file_hash(rel) == h for rel, h in deps.items())

    def store(self, page: Page, result: MdxResult, links: list[LinkCall]) -> None:
        """Remember a freshly rendered page (unless it depends on something the key cannot see)."""
        if not self.cacheable(_Unrendered(page)):
            return
        if any(d.code == "mdx.missing-snippet" for d in result.diagnostics):
            return  # creating the snippet later must re-render the page, and it is in no dependency list
        encoded = encode_result(result)
        if encoded is None:
            return
        deps = {rel: self._file_hash(rel) for rel in sorted(result.dependencies)}
        if any(h is None for h in deps.values()):
            return
        entry = {"deps": deps, "links": [list(c) for c in links], "result": encoded}
        if API_DATA in page.meta:
            try:
                entry[API_DATA] = json.loads(json.dumps(page.meta[API_DATA]))
            except (TypeError, ValueError):
                return
        self.used[self.key(page)] = entry

    def save(self) -> None:
        """Write the entries used by this build (stale ones are dropped), atomically; never fail the build."""
        data = {"format": FORMAT, "fingerprint": self.fingerprint, "pages": self.used}
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".pages-", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, self.path)
        except OSError:
            if tmp:
                Path(tmp).unlink(missing_ok=True)  # an unwritable cache folder: the build is fine without it


class _Unrendered:
    """A page seen as before its render (store() asks whether the page was cacheable then)."""

    def __init__(self, page: Page):
        self.generate, self.source, self.meta, self.content = page.generate, page.source, page.meta, None
