"""The search bundles a build writes under /pagefind/: Pagefind runs, what each bundle depends on, and bundles
reused from the previous build.

A site whose navigation has products or versions gets one bundle per product and version (pagefind/<group>/,
docsgen.site.policies): readers search the docs they are reading, and Pagefind, which holds its whole index in memory,
indexes one version's pages at a time instead of the whole site at once. "Search all" merges the other bundles in
the browser (pagefind/indexes.json lists them). Other sites get one bundle, pagefind/.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from docsgen.common.errors import Diagnostic, warning
from docsgen.engine.cachedir import cache_dir, code_fingerprint
from docsgen.engine.write import Linked, SiteFiles
from docsgen.outputs import pagefind
from docsgen.outputs.pagefind import SearchRecord
from docsgen.site.policies import INDEX_DIR

_CACHE_FILE = "search-bundle.bin"  # the previous build's bundle, reused when nothing it depends on changed
_CACHE_MAGIC = b"docsgen-search-bundle 1\n"
_CACHE_FORMAT = 1


@dataclass
class Part:
    """One bundle of the index: a Pagefind run (or one to start when collected), a reused bundle, or an error."""

    folder: str  # where it goes in the site: pagefind, or pagefind/<group>
    run: pagefind.PagefindRun | None = None
    error: Exception | None = None
    bundle: dict[str, bytes] | None = None
    store: Callable[[dict[str, bytes]], None] | None = None
    start: Callable[[], pagefind.PagefindRun] | None = None  # run later, one at a time (a rebuild's changes)
    key: str = ""  # what the bundle was made from (IndexKey), for the next build
    linked: dict[str, Linked] | None = (
        None  # the previous build's bundle, unchanged (docsgen.outputs.search_store)
    )
    written: dict[str, int] | None = None  # written to the output as soon as it was made: file name -> size

    def files(self) -> list[list[str | int]]:
        """Return [name, size] of each file of the bundle made (for the next build's output reuse)."""
        if self.linked is not None:
            return [[name, file.size] for name, file in sorted(self.linked.items())]
        if self.written is not None:
            return [[name, size] for name, size in sorted(self.written.items())]
        return [[name, len(data)] for name, data in sorted((self.bundle or {}).items())]


class PendingIndex:
    """The search index being built in Pagefind's own processes (or reused) while the build does other work:
    one bundle, or one per product and version (policies.PolicyTable.search_folder)."""

    def __init__(
        self,
        run: pagefind.PagefindRun | None = None,
        error: Exception | None = None,
        bundle: dict[str, bytes] | None = None,
        store: Callable[[dict[str, bytes]], None] | None = None,
        *,
        parts: list[Part] | None = None,
    ) -> None:
        if parts is None:
            parts = [Part(INDEX_DIR, run, error, bundle, store)] if run or error or bundle is not None else []
        self.parts = parts
        self.problems: list[str] = []  # bundles that failed before collect() (see finish())
        self.reused = bool(parts) and all(
            p.bundle is not None or p.linked for p in parts
        )  # Pagefind does not run

    def add_to(self, files: SiteFiles) -> None:
        """Wait for the bundles and add them; a missing or failing Pagefind only warns."""
        for path, data in self.collect(files.diagnostics).items():
            files.add(path, data, "search index")
        for part in self.parts:
            for name, file in (part.linked or {}).items():
                files.add(f"{part.folder}/{name}", file, "search index")

    def collect(self, diagnostics: list[Diagnostic]) -> dict[str, bytes]:
        """Wait for the bundles and return {site path: bytes} (linked bundles aside: add_to adds them); a missing
        or failing Pagefind adds a warning."""
        out: dict[str, bytes] = {}
        problems: list[str] = list(self.problems)
        for part in self.parts:
            bundle = self.finish(part, problems)
            out.update({f"{part.folder}/{rel}": data for rel, data in (bundle or {}).items()})
        folders = [
            p.folder
            for p in self.parts
            if p.folder != INDEX_DIR and (p.bundle is not None or p.linked or p.written is not None)
        ]
        if folders:  # a split index: the browser merges the others for "search all"
            listing = json.dumps([f.rpartition("/")[2] for f in sorted(set(folders))])
            out[f"{INDEX_DIR}/indexes.json"] = listing.encode("utf-8")
        if problems:  # one warning, however many bundles failed (they fail for the same reason)
            which = f" ({len(problems)} of {len(self.parts)} bundles)" if len(self.parts) > 1 else ""
            diagnostics.append(
                warning(
                    "search.index",
                    f"the search index could not be built{which}: {'; '.join(dict.fromkeys(problems))}",
                    hint="install Pagefind with `pip install 'pagefind[extended]'`",
                )
            )
        return out

    @staticmethod
    def finish(part: Part, problems: list[str]) -> dict[str, bytes] | None:
        """Return one part's bundle (starting its run now when it was deferred), noting why when there is none
        (None too when it was written to the output already)."""
        if part.bundle is not None:
            return part.bundle
        if part.written is not None:
            return None
        try:
            if part.error is not None:
                raise part.error
            if part.run is None and part.start is not None:
                part.run = part.start()
            if part.run is None:
                return None
            bundle = part.run.result()
        except Exception as exc:  # noqa: BLE001 - a missing or failing Pagefind must not break the build
            problems.append(str(exc))
            return None
        finally:
            part.run = part.error = part.start = None
        if part.store is not None:
            part.store(bundle)
        part.bundle = bundle
        return bundle

    def cancel(self) -> None:
        """Stop the indexing (the build failed before collecting it)."""
        for part in self.parts:
            if part.run is not None:
                part.run.close()
                part.run = None
            part.start = None


def cache_enabled(cache: bool | None = None) -> bool:
    """Return whether build caches are used: cache when given, else on unless $DOCSGEN_CACHE is 0/off/false/no."""
    if cache is not None:
        return cache
    return os.environ.get("DOCSGEN_CACHE", "").strip().lower() not in ("0", "off", "false", "no")


class IndexKey:
    """What the bundle depends on, taken record by record: every record, the Pagefind binary, docsgen's code."""

    def __init__(self, binary: str) -> None:
        stat = Path(binary).stat()
        self._digest = hashlib.sha256()
        for part in (str(_CACHE_FORMAT), code_fingerprint(), binary, f"{stat.st_size}:{stat.st_mtime_ns}"):
            self._update(part)

    def _update(self, part: str) -> None:
        data = part.encode("utf-8")
        self._digest.update(b"%d:%b" % (len(data), data))

    def add(self, record: SearchRecord) -> None:
        """Take one more record into the key."""
        for part in (record.url, record.lang, record.html):
            self._update(part)

    def hexdigest(self) -> str:
        return self._digest.hexdigest()


def index_key(records: Iterable[SearchRecord], binary: str) -> str:
    """Return what the bundle made of these records depends on (see IndexKey)."""
    key = IndexKey(binary)
    for record in records:
        key.add(record)
    return key.hexdigest()


def bundle_cache_file(docs_dir: Path, folder: str = INDEX_DIR) -> Path:
    """Return where the previous build's bundle of a folder is kept (outside the docs folder: docsgen.engine.cachedir)."""
    name = _CACHE_FILE if folder == INDEX_DIR else f"search-bundle-{folder.rpartition('/')[2]}.bin"
    return cache_dir(docs_dir) / name


def any_bundle_cached(docs_dir: Path) -> bool:
    """Tell whether the last build left a search bundle to reuse (a rebuild, not a cold build)."""
    folder = cache_dir(docs_dir)
    return folder.is_dir() and any(folder.glob("search-bundle*.bin"))


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
