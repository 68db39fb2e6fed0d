"""Bundle a spec split over several files: `$ref`s to other files inside the docs folder become internal.

Each file referenced (`schemas/pet.yaml#/Pet`, `./common.json`) is read once, its content placed under
`x-docsgen-bundled/<id>` of the root document, and every reference to it (and its own references, relative to
its folder) rewritten to point there. Only regular files inside the docs folder are read, never a URL; a
reference that cannot be bundled stays as written with a located problem (a warning in a build) (its schema shows as unresolved).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docsgen.common.errors import Diagnostic, error
from docsgen.openapi.load import Document, LoadProblem, is_url, parse, read_file
from docsgen.openapi.locate import JsonPath

BUNDLE_KEY = "x-docsgen-bundled"
MAX_BUNDLED_FILES = 200  # files one spec may pull in through references
MAX_REFS_WALKED = 2_000_000  # containers walked over every bundled file together

Locate = Callable[[str, JsonPath], tuple[int, int]]


class Bundler:
    """Bundle the external references of one spec (`data`, read from docs-relative `source`)."""

    def __init__(self, docs_dir: Path, source: str, max_bytes: int):
        self.root = docs_dir.resolve()
        self.source = source
        self.budget = max_bytes
        self.ids: dict[str, str] = {}  # docs-relative file -> id under BUNDLE_KEY
        self.docs: dict[str, Document] = {}
        self.contents: dict[str, Any] = {}
        self.pending: list[str] = []
        self.diagnostics: list[Diagnostic] = []
        self.files: dict[str, Path] = {}
        self.walked = 0

    def bundle(self, data: dict, locate: Locate) -> dict:
        """Return `data` with every reachable file bundled (data is changed in place)."""
        self._rewrite(data, self.source, "", locate)
        while self.pending:
            name = self.pending.pop()
            doc = self.docs[name]
            self._rewrite(doc.data, name, self.ids[name], self._locator(doc))
            self.contents[self.ids[name]] = doc.data
        if self.contents:
            data[BUNDLE_KEY] = self.contents
        return data

    @staticmethod
    def _locator(doc: Document) -> Locate:
        def locate(_: str, path: JsonPath) -> tuple[int, int]:
            return doc.locator.locate(path) if doc.locator else (0, 0)

        return locate

    def _rewrite(self, node: Any, file: str, file_id: str, locate: Locate) -> None:
        """Rewrite every `$ref` under node (read from `file`, bundled under `file_id`, "" for the root)."""
        stack: list[tuple[Any, JsonPath]] = [(node, ())]
        while stack:
            item, path = stack.pop()
            self.walked += 1
            if self.walked > MAX_REFS_WALKED:
                return
            if isinstance(item, dict):
                ref = item.get("$ref")
                if isinstance(ref, str):
                    item["$ref"] = self._target(ref, file, file_id, (*path, "$ref"), locate)
                stack.extend((v, (*path, k)) for k, v in item.items() if isinstance(v, dict | list))
            elif isinstance(item, list):
                stack.extend((v, (*path, i)) for i, v in enumerate(item) if isinstance(v, dict | list))

    def _target(self, ref: str, file: str, file_id: str, path: JsonPath, locate: Locate) -> str:
        """Return what `ref` (written in `file`) becomes in the bundled document."""
        if ref.startswith("#"):
            return f"#/{BUNDLE_KEY}/{file_id}{ref[1:]}" if file_id else ref
        target, _, fragment = ref.partition("#")
        if is_url(target) or "://" in target:
            return self._refuse(ref, file, path, locate, "a reference to a URL is not fetched")
        name = posixpath.normpath(posixpath.join(posixpath.dirname(file), target.replace("\\", "/")))
        if name == self.source:
            return "#" + fragment
        if name not in self.ids:
            problem = self._read(name)
            if problem:
                return self._refuse(ref, file, path, locate, problem)
        return f"#/{BUNDLE_KEY}/{self.ids[name]}{fragment}"

    def _read(self, name: str) -> str:
        """Read and parse one referenced file; return why it cannot be bundled, or ""."""
        if len(self.ids) >= MAX_BUNDLED_FILES:
            return f"more than {MAX_BUNDLED_FILES} files referenced"
        path = (self.root / name).resolve()
        if name.startswith("../") or name.startswith("/") or not path.is_relative_to(self.root):
            return "the file is outside the docs folder"
        if not path.is_file():
            return f"no file {name} in the docs folder"
        try:
            raw = read_file(path, max_bytes=self.budget)
            doc = parse(raw, name)
        except LoadProblem as problem:
            return problem.message
        self.budget -= len(raw)
        self.ids[name] = f"f{len(self.ids) + 1}"
        self.docs[name] = doc
        self.files[name] = path
        self.pending.append(name)
        return ""

    def _refuse(self, ref: str, file: str, path: JsonPath, locate: Locate, why: str) -> str:
        line, column = locate(file, path)
        self.diagnostics.append(
            error(  # a build reports a spec's problems as warnings (ApiPages); openapi-check as errors
                "openapi.external-ref",
                f"external reference {ref!r} is not bundled: {why}; what it points to is not shown",
                file,
                line,
                column,
                hint="reference files inside the docs folder, or bundle the spec first (`redocly bundle`)",
            )
        )
        return ref
