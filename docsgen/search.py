"""Offline site search: a Pagefind index of every searchable page, written under /pagefind/ with the site."""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import json
import os
import re
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import escape

from docsgen.errors import Diagnostic, warning
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
_HEADING_LINK = re.compile(r'<a class="anchor" href="#[^"]*" aria-label="[^"]*">#</a>')
_COPY_BUTTON = re.compile(
    r'<button type="button" class="dg-copy" aria-label="Copy code"[^>]*>(?:<svg\b.*?</svg>)?</button>', re.S
)
_CODE_BLOCK = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)
_TAG = re.compile(r"<[^>]*>")
_CACHE_FILE = "search-bundle.bin"  # the previous build's bundle, reused when nothing it depends on changed
_CACHE_MAGIC = b"docsgen-search-bundle 1\n"
_CACHE_FORMAT = 1


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
    body = slim_html(body)
    html = (
        f'<!doctype html><html lang="{escape(lang)}"><head><title>{escape(page.title)}</title></head><body>'
        f"<main data-pagefind-body{weight}>{''.join(tags)}<h1>{escape(page.title)}</h1>{description}{body}</main>"
        "</body></html>"
    )
    return SearchRecord("/" + page.url, lang, html)


def slim_html(html: str) -> str:
    """Drop markup that carries no words (heading "#" links, copy buttons, code token spans): less to parse.

    Pagefind's time grows with the HTML it parses; the words, headings and ids it indexes stay the same,
    and results no longer end headings with the "#" of their anchor link.
    """
    if 'class="anchor"' in html:
        html = _HEADING_LINK.sub("", html)
    if "<pre" not in html:
        return html
    html = _COPY_BUTTON.sub("", html)
    return _CODE_BLOCK.sub(lambda m: m[1] + _TAG.sub("", m[2]) + m[3], html)


def pagefind_binary() -> str:
    """Return the Pagefind executable shipped by the `pagefind[extended]` wheel (or PAGEFIND_BINARY)."""
    override = os.environ.get("PAGEFIND_BINARY")
    if override:
        return override
    from pagefind.service import _must_get_executable

    return str(_must_get_executable())


def _message(message_id: int, payload: dict) -> bytes:
    """Encode one request of Pagefind's service protocol: base64 JSON, ended by a comma."""
    request = {"message_id": message_id, "payload": payload}
    return base64.b64encode(json.dumps(request, ensure_ascii=False).encode("utf-8")) + b","


class PagefindRun:
    """One Pagefind service process indexing records in memory (no temp tree), fed and read on threads.

    The service handles requests in order, on its own core: the build goes on while it indexes, and
    result() collects the bundle. The protocol is the one the `pagefind` Python package speaks, without its
    asyncio client (which polls every 100 ms per response: minutes for a thousand pages).
    """

    def __init__(self, records: list[SearchRecord], binary: str | None = None) -> None:
        self.records = records
        self._errors: list[str] = []
        self._files: list[dict] | None = None
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._proc = subprocess.Popen(
            [binary or pagefind_binary(), "--service"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
        )
        self._writer = threading.Thread(target=self._write, name="pagefind-writer", daemon=True)
        self._reader = threading.Thread(target=self._read, name="pagefind-reader", daemon=True)
        self._writer.start()
        self._reader.start()

    def _write(self) -> None:
        """Send: a new index, every record as an HTML file at its URL, then a request for the bundle."""
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            stdin.write(_message(0, {"type": "NewIndex", "config": None}))
            for number, record in enumerate(self.records, 1):
                payload = {"type": "AddFile", "index_id": 0, "url": record.url, "file_contents": record.html}
                stdin.write(_message(number, payload))
            stdin.write(_message(len(self.records) + 1, {"type": "GetFiles", "index_id": 0}))
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError) as exc:  # the reader reports why Pagefind stopped
            self._errors.append(f"Pagefind stopped reading: {exc}")

    def _read(self) -> None:
        """Read responses until the bundle arrives (or Pagefind exits), noting errors."""
        stdout = self._proc.stdout
        assert stdout is not None
        buffer = bytearray()
        last = len(self.records) + 1
        try:
            while self._files is None:
                chunk = stdout.read1(1 << 20)
                if not chunk:
                    return
                buffer += chunk
                start = 0
                while self._files is None and (end := buffer.find(b",", start)) != -1:
                    self._handle(bytes(buffer[start:end]), last)
                    start = end + 1
                del buffer[:start]
        except (OSError, ValueError) as exc:  # closed under us (cancelled) or an unreadable answer
            self._errors.append(f"unreadable answer from Pagefind: {exc}")

    def _handle(self, raw: bytes, last: int) -> None:
        """Record one response: an error (with the page it concerns) or the bundle."""
        response = json.loads(base64.b64decode(raw))
        payload, number = response.get("payload") or {}, response.get("message_id")
        if payload.get("type") == "Error":
            where = ""
            if isinstance(number, int) and 1 <= number <= len(self.records):
                where = f" ({self.records[number - 1].url})"
            self._errors.append(f"{payload.get('message', 'error')}{where}")
        elif number == last and payload.get("type") == "GetFiles":
            self._files = payload.get("files") or []

    def result(self, timeout: float = 600) -> dict[str, bytes]:
        """Wait for the bundle and return {path under pagefind/: bytes}; raise RuntimeError when it failed."""
        self._reader.join(timeout)
        timed_out = self._reader.is_alive()
        self._stop()
        if self._files is None or self._errors:
            self._stderr.seek(0)
            stderr = self._stderr.read().decode("utf-8", "replace").strip()
            self._stderr.close()
            reasons = [*self._errors, stderr[-500:]] if stderr else self._errors
            if timed_out:
                reasons.insert(0, f"Pagefind took longer than {timeout:g} s")
            raise RuntimeError("; ".join(reasons) or f"Pagefind exited with status {self._proc.returncode}")
        files = {}
        for item in sorted(self._files, key=lambda f: f["path"]):
            rel = item["path"].removeprefix(f"{INDEX_DIR}/")
            if _KEEP.match(rel):
                files[rel] = base64.b64decode(item["content"])
        return _stable_bundle(files)

    def close(self) -> None:
        """Stop the service at once (the build no longer wants the bundle) and release everything."""
        self._stop(kill=True)
        self._stderr.close()

    def _stop(self, kill: bool = False) -> None:
        """Stop the service: end of input makes it exit; killed first when it is still busy."""
        if kill or self._reader.is_alive():
            self._proc.kill()  # the reader then sees end of output and returns
        self._reader.join(5)
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


def build_index(records: list[SearchRecord]) -> dict[str, bytes]:
    """Run Pagefind over the records and return {path under pagefind/: bytes} of the browser bundle."""
    return PagefindRun(records).result()


def _stable_bundle(files: dict[str, bytes]) -> dict[str, bytes]:
    """Make the bundle byte-identical across runs: Pagefind writes filter values and languages in hash-map order.

    Each filter file is rewritten with its values sorted and named after its content; the language's meta
    file (which lists the filter files) and pagefind-entry.json (which names the meta file) follow.
    """
    if "pagefind-entry.json" not in files:
        return files
    entry = json.loads(files["pagefind-entry.json"])
    languages = entry.get("languages") if isinstance(entry.get("languages"), dict) else {}
    for info in languages.values():
        meta_name = f"pagefind.{info.get('hash')}.pf_meta"
        if meta_name not in files:
            continue
        meta = _unpack(files[meta_name])
        if not (isinstance(meta, list) and len(meta) > 3 and meta[3]):
            continue  # no filters: Pagefind's output is already stable
        prefix = str(info["hash"]).rsplit("_", 1)[0]
        for pair in meta[3]:  # [filter name, filter file hash]
            name, values = _unpack(files.pop(f"filter/{pair[1]}.pf_filter"))
            data = _pack([name, sorted(values, key=lambda value: value[0])])
            pair[1] = f"{prefix}_{hashlib.sha256(data).hexdigest()[:7]}"
            files[f"filter/{pair[1]}.pf_filter"] = data
        meta[3].sort(key=lambda pair: pair[0])
        data = _pack(meta)
        info["hash"] = f"{prefix}_{hashlib.sha256(data).hexdigest()[:10]}"
        del files[meta_name]
        files[f"pagefind.{info['hash']}.pf_meta"] = data
    entry["languages"] = dict(sorted(languages.items()))
    files["pagefind-entry.json"] = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8"
    )
    return dict(sorted(files.items()))


_SIGNATURE = b"pagefind_dcd"


def _unpack(data: bytes) -> Any:
    """Decode a Pagefind data file: gzip'd (or not), the signature, then CBOR."""
    raw = data if data.startswith(_SIGNATURE) else gzip.decompress(data)
    if not raw.startswith(_SIGNATURE):
        raise ValueError("not a Pagefind data file")
    value, end = _cbor_decode(raw, len(_SIGNATURE))
    if end != len(raw):
        raise ValueError("trailing bytes in a Pagefind data file")
    return value


def _pack(value: Any) -> bytes:
    """Encode a Pagefind data file as Pagefind does: signature and CBOR, gzip'd (fixed mtime: stable bytes)."""
    out = bytearray(_SIGNATURE)
    _cbor_encode(value, out)
    return gzip.compress(bytes(out), mtime=0)


def _cbor_decode(data: bytes, at: int) -> tuple[Any, int]:
    """Decode the CBOR item at `at` (the subset Pagefind writes: integers, strings, arrays, maps)."""
    major, info = data[at] >> 5, data[at] & 31
    at += 1
    if info < 24:
        arg = info
    elif info <= 27:
        size = 1 << (info - 24)
        arg, at = int.from_bytes(data[at : at + size], "big"), at + size
    else:
        raise ValueError(f"unsupported CBOR item {data[at - 1]:#x}")
    if major == 0:
        return arg, at
    if major == 1:
        return -1 - arg, at
    if major == 2:
        return bytes(data[at : at + arg]), at + arg
    if major == 3:
        return data[at : at + arg].decode("utf-8"), at + arg
    if major == 4:
        items = []
        for _ in range(arg):
            item, at = _cbor_decode(data, at)
            items.append(item)
        return items, at
    if major == 5:
        mapping = {}
        for _ in range(arg):
            key, at = _cbor_decode(data, at)
            mapping[key], at = _cbor_decode(data, at)
        return mapping, at
    raise ValueError(f"unsupported CBOR major type {major}")


def _cbor_head(major: int, arg: int, out: bytearray) -> None:
    """Write a CBOR head in its shortest form."""
    if arg < 24:
        out.append(major << 5 | arg)
        return
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if arg < 1 << (8 * size):
            out.append(major << 5 | info)
            out += arg.to_bytes(size, "big")
            return
    raise ValueError("integer too large for CBOR")


def _cbor_encode(value: Any, out: bytearray) -> None:
    """Append the CBOR encoding of value (the subset _cbor_decode reads)."""
    if isinstance(value, bool) or value is None:
        raise ValueError("unsupported value in a Pagefind data file")
    if isinstance(value, int):
        if value >= 0:
            _cbor_head(0, value, out)
        else:
            _cbor_head(1, -1 - value, out)
    elif isinstance(value, bytes):
        _cbor_head(2, len(value), out)
        out += value
    elif isinstance(value, str):
        data = value.encode("utf-8")
        _cbor_head(3, len(data), out)
        out += data
    elif isinstance(value, list):
        _cbor_head(4, len(value), out)
        for item in value:
            _cbor_encode(item, out)
    elif isinstance(value, dict):
        _cbor_head(5, len(value), out)
        for key, item in value.items():
            _cbor_encode(key, out)
            _cbor_encode(item, out)
    else:
        raise ValueError(f"unsupported value in a Pagefind data file: {type(value).__name__}")


def search_records(ctx: SiteContext, site: Site) -> list[SearchRecord]:
    """Return the record of every searchable page, in page order."""
    return [record_for(ctx, site, page, policy) for page, policy in searchable_pages(site)]


def search_bundle(ctx: SiteContext, site: Site) -> dict[str, bytes]:
    """Return {site path: bytes} of the whole search bundle (the dev server swaps it in after edits)."""
    records = search_records(ctx, site)
    return {f"{INDEX_DIR}/{rel}": data for rel, data in build_index(records).items()} if records else {}


class PendingIndex:
    """A search index being built in Pagefind's own process (or reused) while the build does other work."""

    def __init__(
        self,
        run: PagefindRun | None = None,
        error: Exception | None = None,
        bundle: dict[str, bytes] | None = None,
        store: Callable[[dict[str, bytes]], None] | None = None,
    ) -> None:
        self._run, self._error, self._bundle, self._store = run, error, bundle, store
        self.reused = bundle is not None  # the previous build's bundle: Pagefind does not run

    def add_to(self, files: SiteFiles) -> None:
        """Wait for the bundle and add it under /pagefind/; a missing or failing Pagefind only warns."""
        for path, data in self.collect(files.diagnostics).items():
            files.add(path, data, "search index")

    def collect(self, diagnostics: list[Diagnostic]) -> dict[str, bytes]:
        """Wait for the bundle and return {site path: bytes}; a missing or failing Pagefind adds a warning."""
        bundle = self._bundle
        if bundle is None and (self._run is not None or self._error is not None):
            try:
                if self._error is not None:
                    raise self._error
                assert self._run is not None
                bundle = self._run.result()
            except Exception as exc:  # noqa: BLE001 - a missing or failing Pagefind must not break the build
                diagnostics.append(
                    warning(
                        "search.index",
                        f"the search index could not be built: {exc}",
                        hint="install Pagefind with `pip install 'pagefind[extended]'`",
                    )
                )
                return {}
            finally:
                self._run = self._error = None
            if self._store is not None:
                self._store(bundle)
            self._bundle = bundle
        return {f"{INDEX_DIR}/{rel}": data for rel, data in (bundle or {}).items()}

    def cancel(self) -> None:
        """Stop the indexing (the build failed before collecting it)."""
        if self._run is not None:
            self._run.close()
            self._run = None


def cache_enabled(cache: bool | None = None) -> bool:
    """Return whether build caches are used: cache when given, else on unless $DOCSGEN_CACHE is 0/off/false/no."""
    if cache is not None:
        return cache
    return os.environ.get("DOCSGEN_CACHE", "").strip().lower() not in ("0", "off", "false", "no")


def index_key(records: list[SearchRecord], binary: str) -> str:
    """Return what the bundle depends on: every record, the Pagefind binary and docsgen's own code."""
    from docsgen.cache import code_fingerprint

    stat = Path(binary).stat()
    digest = hashlib.sha256()
    for part in (str(_CACHE_FORMAT), code_fingerprint(), binary, f"{stat.st_size}:{stat.st_mtime_ns}"):
        data = part.encode("utf-8")
        digest.update(b"%d:%b" % (len(data), data))
    for record in records:
        for part in (record.url, record.lang, record.html):
            data = part.encode("utf-8")
            digest.update(b"%d:%b" % (len(data), data))
    return digest.hexdigest()


def bundle_cache_file(docs_dir: Path) -> Path:
    """Return where the previous build's search bundle is kept (outside the docs folder: docsgen.cachedir)."""
    from docsgen.cachedir import cache_dir

    return cache_dir(docs_dir) / _CACHE_FILE


def load_bundle(path: Path, key: str) -> dict[str, bytes] | None:
    """Return the bundle stored at path under this key, or None (absent, other key, damaged)."""
    try:
        with path.open("rb") as stream:
            if stream.readline() != _CACHE_MAGIC:
                return None
            header = json.loads(stream.readline())
            if header.get("key") != key:
                return None
            bundle = {}
            for name, size in header["files"]:
                data = stream.read(size)
                if len(data) != size:
                    return None
                bundle[str(name)] = data
            return bundle if not stream.read(1) else None
    except (OSError, ValueError, TypeError, KeyError):
        return None


def save_bundle(path: Path, key: str, bundle: dict[str, bytes]) -> None:
    """Store the bundle under its key (atomically; a cache that cannot be written is skipped)."""
    header = {"key": key, "files": [[name, len(data)] for name, data in bundle.items()]}
    temp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=".search-", delete=False) as stream:
            temp = Path(stream.name)
            stream.write(_CACHE_MAGIC + json.dumps(header, separators=(",", ":")).encode("utf-8") + b"\n")
            for data in bundle.values():
                stream.write(data)
        os.replace(temp, path)
    except OSError:
        if temp is not None:
            temp.unlink(missing_ok=True)


def start_search_index(ctx: SiteContext, site: Site, *, cache: bool | None = None) -> PendingIndex:
    """Start indexing every searchable page now (hidden, noindex, `searchable: false` left out); collect later.

    With the cache on, a build whose records, Pagefind and docsgen code equal the previous build's reuses
    its bundle instead of running Pagefind.
    """
    records = search_records(ctx, site)
    if not records:
        return PendingIndex()
    try:
        binary = pagefind_binary()
        store = None
        if cache_enabled(cache):
            path, key = bundle_cache_file(site.docs_dir), index_key(records, binary)
            bundle = load_bundle(path, key)
            if bundle is not None:
                return PendingIndex(bundle=bundle)
            store = functools.partial(save_bundle, path, key)
        return PendingIndex(PagefindRun(records, binary), store=store)
    except Exception as exc:  # noqa: BLE001 - reported as a warning when collected
        return PendingIndex(error=exc)


def add_search_index(ctx: SiteContext, site: Site, files: SiteFiles, *, cache: bool | None = None) -> None:
    """Index every searchable page into /pagefind/ (start_search_index and collect at once)."""
    start_search_index(ctx, site, cache=cache).add_to(files)


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
