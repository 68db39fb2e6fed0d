"""Find the spec a page or navigation entry means, the way Mintlify does.

- A spec named by path: from the docs root (`/openapi.json`, `api/openapi.json`), else from the page's own folder
  (`../analytics-api.json`); the extension may be left out (`v3-openapi` for `v3-openapi.yaml`).
- A spec named by file name only (`v2` for `restapi/versions/v2.json`): the repository's OpenAPI file of that name.
- No spec named and none declared: the repository's OpenAPI files (any .json/.yaml/.yml file in the docs folder
  that is an OpenAPI document) are searched for the operation.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from pathlib import Path

from docsgen.openapi.limits import SNIFF_BYTES
from docsgen.openapi.load import is_url

SPEC_SUFFIXES = (".json", ".yaml", ".yml")
# An `openapi` key at the top of a JSON or YAML document (a quoted key in JSON, a bare or quoted one in YAML).
_OPENAPI_KEY = re.compile(rb"""(?:^|[{\n,])\s*["']?openapi["']?\s*:""")


def _normalize(rel: str) -> str | None:
    """Return a docs-relative POSIX path with `.` and `..` applied, or None when it climbs out."""
    out: list[str] = []
    for part in rel.replace("\\", "/").split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                return None
            out.pop()
        else:
            out.append(part)
    return "/".join(out) if out else None


class SpecFinder:
    """The docs folder's candidate spec files, and the rules that turn a name into one of them."""

    def __init__(self, docs_dir: Path, files: Iterable[str] | None = None):
        self.docs_dir = Path(docs_dir)
        self._given = None if files is None else {f for f in files if f.lower().endswith(SPEC_SUFFIXES)}
        self._openapi: list[str] | None = None

    def _exists(self, rel: str) -> bool:
        if self._given is not None:
            return rel in self._given
        root = self.docs_dir.resolve()
        try:
            path = (root / rel).resolve()
        except (OSError, RuntimeError):
            return False
        return path.is_relative_to(root) and path.is_file()

    def _candidates(self) -> list[str]:
        if self._given is not None:
            return sorted(self._given)
        found: list[str] = []
        root = self.docs_dir
        for path in root.rglob("*"):
            rel = path.relative_to(root).as_posix()
            if any(p.startswith(".") or p == "node_modules" for p in rel.split("/")):
                continue
            if rel.lower().endswith(SPEC_SUFFIXES) and path.is_file() and not path.is_symlink():
                found.append(rel)
        return sorted(found)

    def openapi_files(self) -> list[str]:
        """Return the docs folder's OpenAPI documents (sniffed from their first bytes), sorted by path."""
        if self._openapi is None:
            self._openapi = [rel for rel in self._candidates() if self._looks_like_openapi(rel)]
        return list(self._openapi)

    def _looks_like_openapi(self, rel: str) -> bool:
        try:
            path = self.docs_dir / rel
            if not path.is_file():
                return False
            with path.open("rb") as handle:
                head = handle.read(SNIFF_BYTES)
        except OSError:
            return False
        return bool(_OPENAPI_KEY.search(head.removeprefix(b"\xef\xbb\xbf")))

    def find(self, name: str, page_source: str | None = None) -> str:
        """Return the spec source a name means (docs-relative path or URL); the name itself when none matches.

        Tried in order: the path from the docs root, the path from the page's folder, each with .json, .yaml
        and .yml added when the name has no such extension, then an OpenAPI file of the repository with that
        file name (with or without its extension).
        """
        name = name.strip()
        if is_url(name):
            return name
        tries: list[str] = []
        rooted = _normalize(name)
        if rooted:
            tries.append(rooted)
        if page_source and not name.startswith("/"):
            local = _normalize(posixpath.join(posixpath.dirname(page_source), name))
            if local and local not in tries:
                tries.append(local)
        has_suffix = name.lower().endswith(SPEC_SUFFIXES)
        for base in tries:
            for candidate in (base,) if has_suffix else (base, *(base + s for s in SPEC_SUFFIXES)):
                if self._exists(candidate):
                    return candidate
        wanted = posixpath.basename(name.replace("\\", "/"))
        if wanted:
            for rel in self.openapi_files():
                file = posixpath.basename(rel)
                if file == wanted or posixpath.splitext(file)[0] == wanted:
                    return rel
        return rooted or name
