"""Search records kept between builds, so a rebuild does not restore unchanged pages' bodies to index them again.

A page whose files the rebuild keeps (docsgen.engine.reuse: its body and the rest of the site unchanged) has the
same search record as in the last build. The render engine then sends no record for it, only the mark that it
was kept; each search bundle's records are spooled in page order with such pages as placeholders
(FolderRecords). A bundle whose pages were all kept is the last build's bundle: its files are linked from the
previous output folder and nothing is indexed. A bundle with some changed pages takes its kept pages' records
from the records file the last build left (`search-records-<group>.jsonl` in the site's cache folder,
docsgen.engine.cachedir), one line per page: [page key, body key, url, lang, html]. Records files are put in place only
once the build's output folder is (save()), so they always describe the output the next build links from.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from docsgen.engine.cachedir import cache_dir
from docsgen.outputs.pagefind import SearchRecord
from docsgen.outputs.search_bundles import IndexKey
from docsgen.site.policies import INDEX_DIR


def records_file(docs_dir: Path, folder: str) -> Path:
    """Return where the last build's records of a search bundle's folder are kept."""
    name = "site-index" if folder == INDEX_DIR else folder.rpartition("/")[2]
    return cache_dir(docs_dir) / f"search-records-{name}.jsonl"


def read_records(path: Path) -> dict[str, tuple[str, SearchRecord]]:
    """Return a records file's records by page key, with the body key each was made from ({} when unreadable)."""
    found: dict[str, tuple[str, SearchRecord]] = {}
    try:
        with path.open(encoding="utf-8") as stream:
            for line in stream:
                page_key, body_key, url, lang, html = json.loads(line)
                found[page_key] = (body_key, SearchRecord(url, lang, html))
    except (OSError, ValueError, TypeError):
        return found
    return found


class FolderRecords:
    """One search bundle's records through a build, in page order, in a temporary file of the cache folder: the
    records made for rendered pages, placeholders for kept ones (resolved only when the bundle is made again)."""

    def __init__(self, docs_dir: Path, folder: str, *, keep: bool = True) -> None:
        """keep=False: the records are not kept for the next build (no cache): temporary files elsewhere."""
        self.docs_dir, self.folder, self.keep = docs_dir, folder, keep
        self.kept = self.made = 0
        self.missing: list[str] = []  # kept pages whose record the last build's file did not have
        self._file = self._temporary()
        self._rows: list[
            str
        ] = []  # lines not written yet (flush(): no file stays open, however many bundles)
        self._pending = 0  # characters in _rows
        self._open = True
        self._resolved: Path | None = None  # the file of complete records (once resolve() or complete() ran)

    def _temporary(self) -> Path:
        if self.keep:  # beside where it goes: put in place by a rename
            try:
                folder = records_file(self.docs_dir, self.folder).parent
                folder.mkdir(parents=True, exist_ok=True)
                handle, name = tempfile.mkstemp(dir=folder, prefix=".records-", suffix=".tmp")
                os.close(handle)
                return Path(name)
            except OSError:  # a cache folder that cannot be written: the records are not kept
                self.keep = False
        handle, name = tempfile.mkstemp(prefix="docsgen-records-", suffix=".tmp")
        os.close(handle)
        return Path(name)

    def add(self, page_key: str, body_key: str | None, record: SearchRecord) -> None:
        """Take a rendered page's record."""
        self.made += 1
        self._write([page_key, body_key or "", record.url, record.lang, record.html])

    def add_kept(self, page_key: str, body_key: str) -> None:
        """Note a kept page (its record is the last build's)."""
        self.kept += 1
        self._write([page_key, body_key])

    def _write(self, row: list[str]) -> None:
        assert self._open, "records are added before resolve() or complete()"
        line = json.dumps(row, ensure_ascii=False) + "\n"
        self._rows.append(line)
        self._pending += len(line)

    def flush(self, *, at_least: int = 0) -> None:
        """Write the lines taken since the last flush (the file is opened only meanwhile); at_least: only when they
        have that many characters (the file is opened once for many pages, and what waits stays bounded)."""
        if self._rows and self._pending >= at_least:
            with self._file.open("a", encoding="utf-8") as stream:
                stream.writelines(self._rows)
            self._rows, self._pending = [], 0

    def _closed(self) -> Path:
        if self._open:
            self.flush()
            self._open = False
        return self._file

    def complete(self) -> None:
        """Every record was added whole (no placeholders): they are the records to keep."""
        self._resolved = self._closed()

    @property
    def all_kept(self) -> bool:
        return self.made == 0 and self.kept > 0

    def resolve(self, binary: str) -> str:
        """Write the complete records (kept pages' taken from the last build's file) and return their index key."""
        previous = read_records(records_file(self.docs_dir, self.folder)) if self.kept else {}
        key, resolved = IndexKey(binary), self._temporary()
        with self._closed().open(encoding="utf-8") as rows, resolved.open("w", encoding="utf-8") as out:
            for line in rows:
                row = json.loads(line)
                if len(row) == 2:  # a kept page: its record from the last build, made from the same body
                    body_key, record = previous.get(row[0], ("", None))
                    if record is None or body_key != row[1]:
                        self.missing.append(row[0])
                        continue
                    row = [row[0], row[1], record.url, record.lang, record.html]
                    line = json.dumps(row, ensure_ascii=False) + "\n"
                key.add(SearchRecord(row[2], row[3], row[4]))
                out.write(line)
        self._file.unlink(missing_ok=True)
        self._file, self._resolved = resolved, resolved
        return key.hexdigest()

    def records(self) -> Iterator[SearchRecord]:
        """Yield the complete records in page order (after resolve())."""
        assert self._resolved is not None, "resolve() first"
        with self._resolved.open(encoding="utf-8") as rows:
            for line in rows:
                _, _, url, lang, html = json.loads(line)
                yield SearchRecord(url, lang, html)

    def save(self) -> None:
        """Put the complete records in place for the next build (the output folder is in place); else discard."""
        if self._resolved is not None and self.keep:
            try:
                os.replace(self._resolved, records_file(self.docs_dir, self.folder))
                self._resolved = None
            except OSError:
                pass
        self.close()

    def close(self) -> None:
        """Delete the temporary files."""
        for path in (self._closed(), self._resolved):
            if path is not None:
                path.unlink(missing_ok=True)
