"""Load each spec of a build once (file or URL), and cache load and validation results by content hash."""

from __future__ import annotations

import copy
import hashlib
import json
import marshal
import os
import posixpath
import sys
import tempfile
from pathlib import Path
from typing import Any

from docsgen.common.errors import Diagnostic, Severity, error, warning
from docsgen.openapi.bundle import Bundler
from docsgen.openapi.fetch import fetch_url
from docsgen.openapi.limits import FETCH_DEADLINE_SECONDS, MAX_SPEC_BYTES
from docsgen.openapi.load import (
    Document,
    LazyLocator,
    LoadProblem,
    content_hash,
    detect_version,
    gc_paused,
    is_url,
    parse,
    read_file,
)
from docsgen.openapi.overlay import apply_overlay
from docsgen.openapi.spec import Spec
from docsgen.openapi.validate import duplicate_operations, external_ref_errors, validate_spec

# Bump when the rules change so cached validation results are recomputed.
RULES_VERSION = "3"
# The parsed data of a spec is cached in marshal's format, which only this Python reads back the same way.
_DATA_TAG = f"docsgen-openapi-data {RULES_VERSION} {sys.implementation.cache_tag} {marshal.version}"
# Problems reported where the spec is referenced (docs.json or a page), not inside the spec. They concern one spec:
# warnings (the pages that need the spec are left out, everything else is built); --strict makes them errors.
_UNREACHABLE = {"openapi.network", "openapi.http-status"}
_AT_ORIGIN_ERRORS = {"openapi.outside-docs"}
_AT_ORIGIN = {
    "openapi.missing-file",
    "openapi.network",
    "openapi.http-status",
    "openapi.too-big",
    "openapi.outside-docs",
}


def default_cache_dir(docs_dir: Path) -> Path:
    """Return where validation results are cached: outside the docs folder (see docsgen.engine.cachedir)."""
    from docsgen.engine.cachedir import cache_dir

    return cache_dir(docs_dir) / "openapi"


class SpecStore:
    """The specs of one build: parsed once however many pages use them, validated with a content-hash cache."""

    def __init__(
        self,
        docs_dir: Path,
        *,
        timeout: float = FETCH_DEADLINE_SECONDS,
        max_bytes: int = MAX_SPEC_BYTES,
        cache_dir: Path | None = None,
        use_cache: bool = True,
    ):
        self.docs_dir = Path(docs_dir)
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir(self.docs_dir)
        self.use_cache = use_cache
        self._loaded: dict[str, tuple[Spec | None, list[Diagnostic], LoadProblem | None]] = {}
        self._stale: dict[str, LoadProblem] = {}  # URL specs built from the last good copy: why
        self._files: dict[str, Path] = {}
        self._validated: dict[int, list[Diagnostic]] = {}
        self.overlays: dict[
            str, list[str]
        ] = {}  # source -> overlay files applied to it, in order (docs.json)

    def normalize(self, ref: str) -> str:
        """Return the spec's source name: a docs-relative POSIX path, or the URL as written."""
        ref = ref.strip()
        if is_url(ref):
            return ref
        parts = [p for p in ref.replace("\\", "/").split("/") if p not in ("", ".")]
        out: list[str] = []
        for part in parts:
            if part == "..":
                if not out:
                    return "../" + "/".join(parts)  # outside the docs folder: reported by load()
                out.pop()
            else:
                out.append(part)
        return "/".join(out)

    def load(self, ref: str, *, origin: tuple = ("", 0, 0)) -> tuple[Spec | None, list[Diagnostic]]:
        """Return the spec named by `ref` (docs-relative path or http(s) URL) and the problems found loading it."""
        source = self.normalize(ref)
        if source not in self._loaded:
            self._loaded[source] = self._load(source)
        spec, diagnostics, problem = self._loaded[source]
        file, line, column = origin[:3]
        json_path = origin[3] if len(origin) > 3 else ""
        where = f"{source}: " if file else ""
        if problem is not None:
            make = error if problem.code in _AT_ORIGIN_ERRORS else warning
            diagnostics = [
                make(
                    problem.code,
                    f"{where}{problem.message}",
                    file or source,
                    line,
                    column,
                    json_path,
                    hint=problem.hint,
                )
            ]
        elif source in self._stale:
            stale = self._stale.pop(source)  # said once, where the spec is first used
            diagnostics = [
                warning(
                    stale.code,
                    f"{where}{stale.message}; built from the last copy fetched successfully",
                    file or source,
                    line,
                    column,
                    json_path,
                    hint="the pages may be out of date until the URL answers again",
                ),
                *diagnostics,
            ]
        return spec, list(diagnostics)

    def _load(self, source: str) -> tuple[Spec | None, list[Diagnostic], LoadProblem | None]:
        try:
            if is_url(source):
                raw = self._fetch(source)
            else:
                path = self._file_path(source)
                raw = read_file(path, max_bytes=self.max_bytes)
                self._files[source] = path
            sha = content_hash(raw)
            report_file = self._cache_file(source, sha, "load")
            cached = self._read_load_report(report_file) if report_file else None
            data_file = self._data_file(source)
            data = self._read_data(data_file, sha) if cached is not None and data_file else None
            if cached is not None and data is not None:
                # Unchanged content: its data straight from the cache, the text decoded only if a location is
                # ever needed.
                doc = Document(data, cached[2], sha, locator=LazyLocator(raw, cached[2]))
            else:
                # With this exact content's duplicate keys already known, parse without the bookkeeping that
                # finds them (the data is the same: the last value wins either way).
                doc = parse(raw, source.split("?")[0], find_duplicates=cached is None, sha256=sha)
        except LoadProblem as problem:
            if problem.code in _AT_ORIGIN:
                return None, [], problem
            return None, [self._located(source, problem)], None
        if cached is not None:
            duplicates, external, _, targets = cached
        else:
            duplicates = [
                error(
                    "openapi.duplicate-key",
                    f"duplicate key {key!r}: the later value would silently replace the earlier one",
                    source,
                    line,
                    column,
                    json_path=Spec(source, {}, "").format_path(path) if path else "",
                )
                for line, column, key, path in doc.duplicates
            ]
        try:
            version = detect_version(doc)
        except LoadProblem as problem:
            return None, [*duplicates, self._located(source, problem)], None
        spec = Spec(source, doc.data, version, doc.locator, doc.sha256)
        if cached is None:
            # Finding external references walks the whole document; the result depends only on the content.
            external = external_ref_errors(spec)
            targets = sorted({ref.partition("#")[0] for _, ref in spec.ref_report()[0]})
            if report_file:
                self._write_json(
                    report_file,
                    {
                        "duplicates": [d.to_json() for d in duplicates],
                        "external": [d.to_json() for d in external],
                        "targets": targets,
                        "is_json": doc.is_json,
                    },
                )
        if data is None and data_file:
            self._write_data(data_file, sha, doc.data)
        overlays = self.overlays.get(source, [])
        if overlays or (not is_url(source) and any(self._bundleable(source, t) for t in targets)):
            spec, found = self._bundled(spec, source, overlays)
            # bundling reports the references it could not follow: the cached "external" list is not needed
            external = [*external, *found] if is_url(source) else found
        return spec, [*duplicates, *external], None

    def _bundleable(self, source: str, target: str) -> bool:
        """Tell whether an external reference's file part names a file inside the docs folder."""
        if not target or is_url(target) or "://" in target:
            return False
        name = posixpath.normpath(posixpath.join(posixpath.dirname(source), target.replace("\\", "/")))
        root = self.docs_dir.resolve()
        path = (root / name).resolve()
        return not name.startswith("../") and path.is_relative_to(root) and path.is_file()

    def _bundled(self, spec: Spec, source: str, overlays: list[str]) -> tuple[Spec, list[Diagnostic]]:
        """Return the spec with its overlays applied and its external files bundled (never the cached data)."""
        data = copy.deepcopy(spec.data)
        found: list[Diagnostic] = []
        parts = [spec.sha256]  # the content hash covers every file the spec is made of (caches key on it)
        for name in overlays:
            overlay = self.normalize(name)
            try:
                if is_url(overlay):
                    raise LoadProblem("openapi.overlay", "an overlay is read from the docs folder, not a URL")
                doc = parse(read_file(self._file_path(overlay), max_bytes=self.max_bytes), overlay)
            except LoadProblem as problem:
                found.append(
                    warning("openapi.overlay", f"overlay {name!r} not applied: {problem.message}", source)
                )
                continue
            data, problems = apply_overlay(data, doc, overlay)
            found += problems
            parts.append(doc.sha256)
        if not is_url(
            source
        ):  # after the overlays: they change the document as written, not the files it uses
            bundler = Bundler(self.docs_dir, source, self.max_bytes)
            data = bundler.bundle(data, lambda file, path: spec.line_of(path) if file == source else (0, 0))
            found += bundler.diagnostics
            parts += [doc.sha256 for doc in bundler.docs.values()]
        sha = hashlib.sha256("\0".join(parts).encode()).hexdigest() if spec.sha256 else ""
        return Spec(source, data, spec.version, spec.locator, sha), found

    def _fetch(self, url: str) -> bytes:
        """Download a spec; keep the last good copy, and fall back to it when the URL cannot be fetched."""
        copy = self._last_good_file(url)
        try:
            raw = fetch_url(url, timeout=self.timeout, max_bytes=self.max_bytes)
        except LoadProblem as problem:
            if problem.code not in _UNREACHABLE or copy is None:
                raise
            try:
                raw = copy.read_bytes()
            except OSError:
                raise problem from None
            if len(raw) > self.max_bytes:
                raise problem from None
            self._stale[url] = problem
            return raw
        if copy is not None:
            self._write_bytes(copy, raw)
        return raw

    def _last_good_file(self, url: str) -> Path | None:
        if not self.use_cache:
            return None
        key = hashlib.sha256(f"last-good\0{url}".encode()).hexdigest()
        return self.cache_dir / f"{key[:32]}.spec"

    def _file_path(self, source: str) -> Path:
        root = self.docs_dir.resolve()
        path = (root / source).resolve()
        if source.startswith("../") or not path.is_relative_to(root):
            raise LoadProblem("openapi.outside-docs", "spec path points outside the docs folder")
        if not path.is_file():
            raise LoadProblem("openapi.missing-file", f"spec file not found (looked for {path})")
        return path

    @staticmethod
    def _located(source: str, problem: LoadProblem) -> Diagnostic:
        return error(
            problem.code,
            problem.message,
            source,
            problem.line,
            problem.column,
            problem.json_path,
            problem.hint,
        )

    def specs(self) -> list[Spec]:
        """Return the specs loaded successfully so far, in load order."""
        return [spec for spec, _, _ in self._loaded.values() if spec is not None]

    def local_files(self) -> dict[str, Path]:
        """Return source -> file for specs read from the docs folder (the build copies them to the site)."""
        return dict(self._files)

    def validate(self, spec: Spec, *, keep_errors: bool = False) -> list[Diagnostic]:
        """Return the spec's validation problems, from the on-disk cache when the content is unchanged.

        In a build they are warnings (a slightly invalid spec still renders); keep_errors (openapi-check) keeps
        the few rules that make a spec unusable as errors.
        """
        if id(spec) not in self._validated:
            cache_file = self._cache_file(spec.source, spec.sha256, "validate") if spec.sha256 else None
            found = self._read_cache(cache_file) if cache_file else None
            if found is None:
                found = validate_spec(spec)
                if cache_file:
                    self._write_json(cache_file, [d.to_json() for d in found])
            self._validated[id(spec)] = found
        found = self._validated[id(spec)]
        return list(found) if keep_errors else [_as_warning(d) if d.is_error else d for d in found]

    def validate_together(self, specs: list[Spec]) -> list[Diagnostic]:
        """Return problems between specs used together (the same METHOD /path in two of them)."""
        return duplicate_operations(specs)

    def _cache_file(self, source: str, sha256: str, kind: str) -> Path | None:
        if not self.use_cache:
            return None
        # The validation results keep their original key (no kind in it), so existing caches stay valid.
        extra = "" if kind == "validate" else f"{kind}\0"
        key = hashlib.sha256(f"{RULES_VERSION}\0{extra}{source}\0{sha256}".encode()).hexdigest()
        return self.cache_dir / f"{key[:32]}.json"

    @staticmethod
    def _diagnostics(items: list) -> list[Diagnostic]:
        return [Diagnostic(**{**item, "severity": Severity(item["severity"])}) for item in items]

    @classmethod
    def _read_cache(cls, path: Path) -> list[Diagnostic] | None:
        try:
            return cls._diagnostics(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError, KeyError):
            return None

    @classmethod
    def _read_load_report(
        cls, path: Path
    ) -> tuple[list[Diagnostic], list[Diagnostic], bool, list[str]] | None:
        """Return the cached (duplicate-key errors, external-reference errors, is JSON, files referenced) of one
        content, or None."""
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
            is_json = report["is_json"]
            if not isinstance(is_json, bool):
                return None
            targets = [t for t in report["targets"] if isinstance(t, str)]
            return (
                cls._diagnostics(report["duplicates"]),
                cls._diagnostics(report["external"]),
                is_json,
                targets,
            )
        except (OSError, ValueError, TypeError, KeyError):
            return None

    def _data_file(self, source: str) -> Path | None:
        """Return where the parsed data of a source is kept: one file per source, replaced when it changes."""
        if not self.use_cache:
            return None
        key = hashlib.sha256(f"data\0{source}".encode()).hexdigest()
        return self.cache_dir / f"{key[:32]}.data"

    @staticmethod
    def _read_data(path: Path, sha256: str) -> Any:
        """Return the cached data of exactly this content (None when absent, stale or unreadable)."""
        try:
            header, _, body = path.read_bytes().partition(b"\n")
            if header != f"{_DATA_TAG} {sha256}".encode():
                return None
            with gc_paused():
                data = marshal.loads(body)
        except (OSError, ValueError, EOFError, TypeError):
            return None
        return data if isinstance(data, dict) else None

    @classmethod
    def _write_data(cls, path: Path, sha256: str, data: Any) -> None:
        try:
            body = marshal.dumps(data)
        except ValueError:
            return  # nested too deeply for marshal: parsed again next time
        cls._write_bytes(path, f"{_DATA_TAG} {sha256}\n".encode() + body)

    @classmethod
    def _write_json(cls, path: Path, value: object) -> None:
        cls._write_bytes(path, json.dumps(value).encode("utf-8"))

    @staticmethod
    def _write_bytes(path: Path, content: bytes) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only cache folder only costs the work again next time


def _as_warning(d: Diagnostic) -> Diagnostic:
    return Diagnostic(d.path, d.line, d.column, d.code, d.message, Severity.WARNING, d.json_path, d.hint)
