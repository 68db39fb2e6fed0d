"""AsyncAPI 2.6 / 3.0 documents: loaded like OpenAPI specs (docs folder or URL), one page per channel.

Mintlify's `asyncapi` frontmatter ("/asyncapi.yaml channelName") and navigation field (a group whose channels
are generated) are supported; the page body comes from docsgen.openapi.asyncapi_render.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from docsgen.common.errors import Diagnostic, warning
from docsgen.openapi.load import LoadProblem, is_url, parse, read_file
from docsgen.openapi.store import SpecStore

SUPPORTED = re.compile(r"^(2\.[0-6]|3\.0)(\.\d+)?$")


@dataclass
class AsyncSpec:
    """A loaded AsyncAPI document."""

    source: str
    data: dict
    version: str
    locator: Any = None

    @property
    def v3(self) -> bool:
        return self.version.startswith("3.")

    def channels(self) -> list[str]:
        chans = self.data.get("channels")
        return [str(k) for k in chans] if isinstance(chans, dict) else []

    def channel(self, name: str) -> dict | None:
        chans = self.data.get("channels")
        value = chans.get(name) if isinstance(chans, dict) else None
        return value if isinstance(value, dict) else None

    def line_of(self, path: tuple) -> tuple[int, int]:
        try:
            return self.locator.locate(path) if self.locator else (0, 0)
        except Exception:  # noqa: BLE001 - a location is a nicety, never a failure
            return 0, 0


@dataclass
class AsyncStore:
    """AsyncAPI documents of one build, each read once; files stay inside the docs folder."""

    store: SpecStore
    _loaded: dict[str, tuple[AsyncSpec | None, LoadProblem | None]] = field(default_factory=dict)

    def load(self, ref: str, where: tuple) -> tuple[AsyncSpec | None, list[Diagnostic]]:
        source = self.store.normalize(ref.lstrip("/") if not is_url(ref) else ref)
        if source not in self._loaded:
            self._loaded[source] = self._load(source)
        spec, problem = self._loaded[source]
        if problem is None:
            return spec, []
        file, line, column = where[:3]
        json_path = where[3] if len(where) > 3 else ""
        return None, [
            warning(
                problem.code,
                f"{source}: {problem.message}; the page is built without it",
                file,
                line,
                column,
                json_path,
                hint=problem.hint,
            )
        ]

    def _load(self, source: str) -> tuple[AsyncSpec | None, LoadProblem | None]:
        try:
            if is_url(source):
                raw = self.store._fetch(source)  # same deadline, size limit and last good copy
            else:
                raw = read_file(self.store._file_path(source), max_bytes=self.store.max_bytes)
            doc = parse(raw, source, find_duplicates=False)
        except LoadProblem as problem:
            problem.code = problem.code.replace("openapi.", "asyncapi.")
            return None, problem
        data = doc.data
        version = data.get("asyncapi") if isinstance(data, dict) else None
        if not isinstance(version, str) or not SUPPORTED.match(version):
            found = "no top-level `asyncapi` field" if version is None else f"asyncapi: {str(version)[:20]}"
            return None, LoadProblem(
                "asyncapi.unsupported-version",
                f"not an AsyncAPI 2.x/3.0 document ({found})",
                1,
                1,
                hint="docsgen reads AsyncAPI 2.0 to 2.6 and 3.0",
            )
        return AsyncSpec(source, data, version, doc.locator), None


def parse_ref(value: str) -> tuple[str, str]:
    """Split frontmatter `asyncapi: "/file.yaml channelName"` into (file, channel); channel may be empty."""
    parts = value.strip().split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1].strip() if len(parts) > 1 else ""
