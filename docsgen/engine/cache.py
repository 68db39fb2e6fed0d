"""Content-hash page cache: an unchanged page keeps its rendered body from the previous build.

The cache lives outside the docs folder (docsgen.engine.cachedir: $DOCSGEN_CACHE_DIR or ~/.cache/docsgen/<site>/), under
`pages-<fingerprint>/`. The process that renders a run of pages (a render worker's chunk) writes their entries as
one pack file (`pack-<hash>.json`, an object of entries by key): creating a file costs far more than writing its
bytes on many file systems, so one file per chunk instead of one per page. A pack holds what checks an entry and
the body's small facts (assets, icons, diagnostics); the body's HTML, Markdown and table of contents are in the
pack's `body-<hash>.txt`, read only when the page is rendered again (a page whose files a rebuild keeps,
docsgen.engine.reuse, never needs them). `index.json` maps each entry the last build used to its pack; the main
process reads it once (workers inherit it) and writes it at the end.

A page's MDX result is a function of its source (body, frontmatter, file and output paths), the snippets it
imports, the site configuration, the docsgen code, and the answers of the link/asset resolvers (which depend on
every page of the site). The cache key covers the first four; each entry also records every resolver call made
while rendering, and a cached result is only reused when replaying those calls against this build's resolvers
gives the same answers (so a page linking to a page that was removed or renamed is rendered again). The full
page HTML (navigation, neighbours) is always re-rendered: it is cheap and depends on the whole site.

The cache is JSON and plain text (body files: docsgen.engine.bodies), never pickle: a docs folder may come from
anyone, and loading it must not run code.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from docsgen.common.errors import Diagnostic, Severity
from docsgen.engine.bodies import HEAVY, BodyPack, encode_bodies, encode_body
from docsgen.engine.cachedir import cache_dir, code_fingerprint
from docsgen.mdx import MdxResult, TocItem
from docsgen.mdx.grammars import grammar_files
from docsgen.pages.page import Page
from docsgen.render import LinkCall, SiteContext
from docsgen.site.read import Site

FORMAT = 7  # 3: packs with an index; 4: text_html; 5: typed API fields; 6: bodies apart; 7: bodies as text
INDEX = "index.json"
PACKS_KEPT = 4  # packs a process keeps parsed (chunks are contiguous runs of the sorted pages)
_DIAG_FIELDS = tuple(f.name for f in fields(Diagnostic))


@dataclass
class Restored:
    """A page body taken from the cache, with the link problems replaying its links found in this build."""

    key: str
    content: MdxResult
    diagnostics: list[Diagnostic]


def _sha(*parts: str | bytes) -> str:
    """Return the hex SHA-256 of the parts, each length-prefixed so boundaries cannot shift."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(str(len(data)).encode() + b":" + data)
    return digest.hexdigest()


def cache_folder(docs_dir: Path) -> Path:
    """Return the folder holding a docs folder's page cache: outside it (docsgen.engine.cachedir), sources stay untouched."""
    return cache_dir(docs_dir)


def entry_files(docs_dir: Path) -> list[Path]:
    """Return every pack file of a docs folder's page cache (all fingerprints)."""
    return sorted(cache_folder(docs_dir).glob("pages-*/pack-*.json"))


def cached_keys(docs_dir: Path) -> dict[str, str]:
    """Return the entries the last build used and kept: key -> pack file name (all fingerprints)."""
    keys: dict[str, str] = {}
    for index in sorted(cache_folder(docs_dir).glob(f"pages-*/{INDEX}")):
        keys.update(_read_index(index))
    return keys


def _read_index(path: Path) -> dict[str, str]:
    """Return an index file's key -> pack map ({} when missing or unreadable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


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
        "classes": sorted(result.classes),
        "text_html": result.text_html,
        "panel_html": result.panel_html,
        "aside_html": result.aside_html,
        "markdown": result.markdown,
        "search_html": result.search_html,
        "api_data": result.api_data,
    }
    if result.changelog or not _plain_json(result.api_data):  # dataclasses, tuples: not worth a schema
        return None
    return data


def _plain_json(value: object) -> bool:
    """Tell whether JSON gives the value back as it is: str keys; str, finite numbers, bool, None, lists, dicts."""
    if value is None or type(value) in (str, int, bool):
        return True
    if type(value) is float:
        return value == value and value not in (float("inf"), float("-inf"))
    if type(value) is list:
        return all(_plain_json(v) for v in value)
    if type(value) is dict:
        return all(type(k) is str and _plain_json(v) for k, v in value.items())
    return False


def body_file(pack: str) -> str:
    """Return the name of the file holding the bodies of a pack's entries."""
    return "body-" + pack.removeprefix("pack-").removesuffix(".json") + ".txt"


def decode_facts(data: dict) -> MdxResult:
    """Rebuild an MdxResult without its body (html ""): the facts the stages after rendering read."""
    return MdxResult(
        html="",
        diagnostics=[Diagnostic(**{**d, "severity": Severity(d["severity"])}) for d in data["diagnostics"]],
        dependencies=set(data["dependencies"]),
        assets=set(data["assets"]),
        icons=set(data["icons"]),
        classes=set(data.get("classes", ())),
    )


def decode_result(data: dict) -> MdxResult:
    """Rebuild an MdxResult from encode_result's form."""
    result = MdxResult(
        html=data["html"],
        toc=[TocItem(level, id_, title) for level, id_, title in data["toc"]],
        diagnostics=[Diagnostic(**{**d, "severity": Severity(d["severity"])}) for d in data["diagnostics"]],
        dependencies=set(data["dependencies"]),
        assets=set(data["assets"]),
        icons=set(data["icons"]),
        classes=set(data.get("classes", ())),
        text_html=data["text_html"],
        panel_html=data["panel_html"],
        aside_html=data["aside_html"],
        markdown=data["markdown"],
        search_html=data["search_html"],
        api_data=data["api_data"],
    )
    return result


class PageCache:
    """The page cache of one docs folder for one build: restore() and store() run wherever pages render."""

    def __init__(self, site: Site, *, strict: bool = False, folder: Path | None = None):
        self.site = site
        config_parts: list[str | bytes] = [f"strict={strict}", f"dev={site.dev}"]
        for rel in sorted(site.config.files) + grammar_files(site.config, site.docs_dir):  # custom languages
            try:
                config_parts += [rel, (site.docs_dir / rel).read_bytes()]
            except OSError:
                config_parts += [rel, "<unreadable>"]
        self.fingerprint = _sha(str(FORMAT), code_fingerprint(), *config_parts)
        self.root = folder or cache_folder(site.docs_dir)
        self.folder = self.root / f"pages-{self.fingerprint[:24]}"
        self.hits = 0
        self.misses = 0
        self._file_hashes: dict[str, str | None] = {}
        self._map: str | None = None
        self._missed: tuple[Page, str] | None = None  # the page restore() just missed, and its key
        self._index: dict[str, str] | None = (
            None  # key -> pack of the previous build (read once, before forks)
        )
        self._packs: dict[
            str, Any
        ] = {}  # packs (dict) and body files (BodyPack) read, the last PACKS_KEPT of each
        self._pending: dict[str, str] = {}  # entries stored since the last flush(): key -> JSON text
        self._bodies: dict[str, tuple[list[int], bytes]] = {}  # and their bodies (encode_body)

    def _file_hash(self, rel: str) -> str | None:
        """Return the content hash of a docs-relative file (None when unreadable), once per process."""
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
        meta = json.dumps(page.meta, sort_keys=True, default=repr, ensure_ascii=False)
        parts = [page.key, page.url, page.output, page.source or "", str(page.body_line), meta, page.body]
        parts += [
            page.spec or "",
            page.api_path or "",
            page.api_tag or "",
            "\x1f".join(page.api_tag_parents),
            page.summary,
        ]
        if page.generate is not None:
            parts += [self.site.spec_hashes.get(page.spec or "", ""), self._site_map()]
        return _sha(*parts)

    def _site_map(self) -> str:
        """Return the hash of every page's key and URL (computed once per process)."""
        if self._map is None:
            self._map = _sha(*(f"{key}\0{p.url}" for key, p in sorted(self.site.pages.items())))
        return self._map

    def cacheable(self, page: Page) -> bool:
        """Pages read from a file, and pages generated from a spec whose content hash is known."""
        if page.generate is None:
            return page.source is not None
        return bool(self.site.spec_hashes.get(page.spec or ""))

    def load_index(self) -> dict[str, str]:
        """Return the previous build's key -> pack map (read once; render workers inherit it when forked)."""
        if self._index is None:
            self._index = _read_index(self.folder / INDEX)
        return self._index

    def pack_of(self, key: str) -> str | None:
        """Return the pack holding a restored entry."""
        return self.load_index().get(key)

    def _entry(self, key: str, *, body: bool = False) -> dict | None:
        """Return the stored entry of a key (body: the body's part), from its file (parsed once per process)."""
        pack = self.load_index().get(key)
        if pack is None or "/" in pack or not pack.startswith("pack-"):
            return None
        name = body_file(pack) if body else pack
        if name in self._packs:
            self._packs[name] = self._packs.pop(name)  # most recently used last: the oldest is dropped first
        else:
            data: Any = None
            try:
                if body:
                    data = BodyPack((self.folder / name).read_bytes())
                else:
                    data = json.loads((self.folder / name).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                pass
            if len(self._packs) >= 2 * PACKS_KEPT:
                self._packs.pop(next(iter(self._packs)))
            self._packs[name] = data if isinstance(data, dict | BodyPack) else {}
        entry = self._packs[name].get(key)  # a body file: raises ValueError when the entry cannot be decoded
        return entry if isinstance(entry, dict) else None

    def restore_body(self, restored: Restored) -> Restored | None:
        """Return a restore(body=False) with the body read too (None: it cannot be read: render the page)."""
        try:
            parts = self._entry(restored.key, body=True)
            facts = self._entry(restored.key)
            if parts is None or facts is None:
                raise KeyError(restored.key)
            content = decode_result({**facts["result"], **parts})
        except (KeyError, TypeError, ValueError):
            self.hits -= 1
            self.misses += 1
            return None
        return Restored(restored.key, content, restored.diagnostics)

    def restore(self, ctx: SiteContext, page: Page, *, body: bool = True) -> Restored | None:
        """Return the page's body from the cache when its entry is still valid, else None (body=False: only the
        facts the stages after rendering read, see decode_facts; restore_body() reads the rest when needed).

        Its links are resolved again against this build: a link whose target moved means rendering again, and
        the problems found (broken links) come back with the body, as a render would report them.
        """
        self._missed = None
        if page.content is not None or not self.cacheable(page):
            return None
        key = self.key(page)
        self._missed = (page, key)  # rendered and stored next: its key is not computed again
        entry = self._entry(key)
        if entry is None or not self._still_valid(entry):
            self.misses += 1
            return None
        diagnostics: list[Diagnostic] = []
        resolvers = {
            "link": ctx.links.for_page(page, diagnostics),
            "asset": ctx.links.asset_for_page(page, diagnostics),
        }
        try:
            for kind, href, url in entry["links"]:
                if resolvers[kind](href) != url:  # a linked page moved or disappeared: render again
                    self.misses += 1
                    return None
            content = decode_facts(entry["result"])
        except (KeyError, TypeError, ValueError):
            self.misses += 1
            return None
        self.hits += 1
        restored = Restored(key, content, diagnostics)
        return self.restore_body(restored) if body else restored

    def _still_valid(self, entry: dict) -> bool:
        deps = entry.get("deps")
        return isinstance(deps, dict) and all(self._file_hash(rel) == h for rel, h in deps.items())

    def store(self, page: Page, result: MdxResult, links: list[LinkCall]) -> str | None:
        """Keep a freshly rendered page's entry for the next flush() (unless it depends on something the key cannot
        see); return its key."""
        missed, self._missed = self._missed, None
        if not self.cacheable(page):
            return None
        if any(d.code == "mdx.missing-snippet" for d in result.diagnostics):
            return None  # creating the snippet later must re-render the page, and it is in no dependency list
        encoded = encode_result(result)
        if encoded is None:
            return None
        deps = {rel: self._file_hash(rel) for rel in sorted(result.dependencies)}
        if any(h is None for h in deps.values()):
            return None
        facts = {name: value for name, value in encoded.items() if name not in HEAVY}
        entry = {"deps": deps, "links": [list(c) for c in links], "result": facts}
        key = missed[1] if missed is not None and missed[0] is page else self.key(page)
        try:
            text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
            text.encode("utf-8")  # written as UTF-8: a lone surrogate could not be
        except (TypeError, ValueError):
            return None
        body = encode_body(encoded)
        if body is None:
            return None
        self._pending[key], self._bodies[key] = text, body
        return key

    def flush(self) -> str | None:
        """Write the entries stored since the last flush as one pack file; return its name (None: nothing written)."""
        pending, self._pending = self._pending, {}
        bodies, self._bodies = self._bodies, {}
        if not pending:
            return None
        keys = sorted(pending)
        name = f"pack-{_sha(*keys)[:24]}.json"
        if not _write_atomic(self.folder / body_file(name), encode_bodies(bodies)):  # first: a pack is whole
            return None  # when it exists
        text = "{" + ",".join(f"{json.dumps(k)}:{pending[k]}" for k in keys) + "}"
        return name if _write_atomic(self.folder / name, text) else None

    def finish(self, used: dict[str, str]) -> None:
        """Record the entries this build used (key -> pack) as the index; delete packs no entry uses, other files,
        and the folders of other fingerprints (older code or config)."""
        try:
            for folder in self.root.glob("pages-*"):
                if folder != self.folder:
                    shutil.rmtree(folder, ignore_errors=True)
            if not _write_atomic(self.folder / INDEX, json.dumps(used, sort_keys=True)):
                return
            packs = set(used.values()) | {body_file(pack) for pack in used.values()}
            for path in self.folder.iterdir():
                if path.name != INDEX and path.name not in packs:
                    path.unlink(missing_ok=True)
            stale = self.root / "pages.json"  # the single-file format of docsgen 0.1
            stale.unlink(missing_ok=True)
        except OSError:
            pass  # an unwritable cache folder: the build is fine without it


def _write_atomic(path: Path, text: str | bytes) -> bool:
    """Write a file through a temporary name so a reader never sees half of it; never fail the build."""
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".entry-", suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.replace(tmp, path)
        return True
    except OSError:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        return False
