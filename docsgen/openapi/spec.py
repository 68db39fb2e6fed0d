"""The loaded spec as the rest of docsgen sees it: raw data, operations in document order, lookups, locations."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from docsgen.openapi.limits import MAX_REF_HOPS
from docsgen.openapi.locate import JsonPath, Locator, format_path
from docsgen.openapi.resolve import RefError, Scan, check_refs, resolve_ref, scan

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_UNKNOWN = object()
_BROKEN = object()


@dataclass(frozen=True)
class Operation:
    """One operation (METHOD /path) with the defaults pages need already worked out."""

    method: str  # upper case: "GET"
    path: str
    data: dict = field(hash=False, compare=False, repr=False)  # the raw operation object
    path_item: dict = field(hash=False, compare=False, repr=False)
    summary: str = ""
    description: str = ""
    operation_id: str = ""
    tags: tuple[str, ...] = ()
    deprecated: bool = False
    hidden: bool = False  # x-hidden
    excluded: bool = False  # x-excluded
    extension: dict = field(default_factory=dict, hash=False, compare=False, repr=False)  # x-svc, else x-mint
    servers: list[dict] = field(default_factory=list, hash=False, compare=False, repr=False)
    source: str = ""  # the spec it comes from (Spec.source)
    json_path: JsonPath = ()  # ("paths", path, method) or ("webhooks", name, method)

    @property
    def key(self) -> str:
        """Return "METHOD /path", the form used in navigation and frontmatter."""
        return f"{self.method} {self.path}"


class Spec:
    """A parsed OpenAPI 3.0/3.1 document; `$ref`s stay as written (use deref to follow them)."""

    def __init__(
        self,
        source: str,
        data: dict,
        version: str,
        locator: Locator | None = None,
        sha256: str = "",
    ):
        self.source = source
        self.data = data
        self.version = version
        self.sha256 = sha256
        self._locator = locator
        self._operations: list[Operation] | None = None
        self._by_key: dict[tuple[str, str], Operation] | None = None
        self._refs: tuple[list, list] | None = None
        self._scan: Scan | None = None
        self._targets: dict[str, Any] = {}  # reference -> what it points to (_BROKEN when nothing)

    def __repr__(self) -> str:
        return f"Spec({self.source!r}, {self.version!r})"

    @property
    def locator(self) -> Locator | None:
        """What locates a JSON path in the spec's text (None for a spec made in memory)."""
        return self._locator

    @property
    def is_31(self) -> bool:
        """Tell whether the document is OpenAPI 3.1 or later (webhooks, JSON Schema 2020-12 schemas)."""
        return self.version.startswith(("3.1", "3.2"))

    def tag_parents(self, tag: str) -> list[str]:
        """Return the tags above `tag` in the 3.2 hierarchy (`parent`), outermost first; a loop stops it."""
        tags = self.data.get("tags")
        parent_of = {
            t["name"]: t["parent"]
            for t in (tags if isinstance(tags, list) else [])
            if isinstance(t, dict) and isinstance(t.get("name"), str) and isinstance(t.get("parent"), str)
        }
        chain: list[str] = []
        while tag in parent_of and parent_of[tag] not in chain and parent_of[tag] != tag and len(chain) < 16:
            tag = parent_of[tag]
            chain.append(tag)
        return chain[::-1]

    def line_of(self, json_path: tuple) -> tuple[int, int]:
        """Return the 1-based (line, column) of a JSON path (its deepest existing prefix); (0, 0) if unknown."""
        if self._locator is None:
            return (0, 0)
        return self._locator.locate(tuple(json_path))

    def format_path(self, json_path: tuple) -> str:
        """Return the readable form of a JSON path, as printed in diagnostics."""
        return format_path(tuple(json_path))

    def deref(self, obj: Any) -> Any:
        """Follow internal `$ref` chains to the value they point to (cycles and dead ends return the last object).

        Each reference string is resolved once per spec; at most MAX_REF_HOPS references are followed.
        """
        seen: set[str] = set()
        while isinstance(obj, dict) and isinstance(obj.get("$ref"), str) and len(seen) < MAX_REF_HOPS:
            ref = obj["$ref"]
            if ref in seen:
                return obj
            seen.add(ref)
            target = self._targets.get(ref, _UNKNOWN)
            if target is _UNKNOWN:
                try:
                    target = resolve_ref(ref, self.data)
                except RefError:
                    target = _BROKEN
                self._targets[ref] = target
            if target is _BROKEN:
                return obj
            obj = target
        return obj

    def ref_report(self) -> tuple[list[tuple[JsonPath, str]], list[tuple[JsonPath, str, str]]]:
        """Return (external refs, unresolvable internal refs with reasons), computed once per spec."""
        if self._refs is None:
            self._refs = check_refs(self.data, self.scan().refs)
        return self._refs

    def scan(self) -> Scan:
        """Return the one-pass scan of the document (references, defaults, allOf+required), computed once."""
        if self._scan is None:
            self._scan = scan(self.data)
        return self._scan

    def _operation(self, method: str, path: str, op: dict, item: dict, json_path: JsonPath) -> Operation:
        extension = op.get("x-svc")
        if not isinstance(extension, dict):
            extension = op.get("x-mint")
        servers = op.get("servers") or item.get("servers") or self.data.get("servers") or []
        tags = op.get("tags")
        return Operation(
            method=method.upper(),
            path=path,
            data=op,
            path_item=item,
            summary=text_field(op.get("summary")),
            description=text_field(op.get("description")),
            operation_id=text_field(op.get("operationId")),
            tags=tuple(str(t) for t in tags) if isinstance(tags, list) else (),
            deprecated=op.get("deprecated") is True,
            hidden=op.get("x-hidden") is True,
            excluded=op.get("x-excluded") is True,
            extension=extension if isinstance(extension, dict) else {},
            servers=[s for s in servers if isinstance(s, dict)] if isinstance(servers, list) else [],
            source=self.source,
            json_path=json_path,
        )

    def operations(self) -> list[Operation]:
        """Return every operation under `paths`, in document order."""
        if self._operations is None:
            found = []
            paths = self.data.get("paths")
            for path, raw_item in (paths if isinstance(paths, dict) else {}).items():
                item = self.deref(raw_item)
                if not isinstance(item, dict) or not path.startswith("/"):
                    continue
                for key, op in item.items():
                    if (key in METHODS or key == "query" and self.version.startswith("3.2")) and isinstance(
                        op, dict
                    ):
                        found.append(self._operation(key, path, op, item, ("paths", path, key)))
            self._operations = found
        return list(self._operations)

    def find_operation(self, method: str, path: str) -> Operation | None:
        """Return the operation for METHOD and path (method in any case, path exactly as in the spec)."""
        if self._by_key is None:
            self._by_key = {}
            for op in self.operations():
                self._by_key.setdefault((op.method, op.path), op)
        return self._by_key.get((method.upper(), path))

    def webhooks(self) -> dict[str, tuple[str, dict]]:
        """Return 3.1 `webhooks`: name -> (METHOD, operation object), the first operation of each path item."""
        result: dict[str, tuple[str, dict]] = {}
        hooks = self.data.get("webhooks")
        for name, raw_item in (hooks if isinstance(hooks, dict) else {}).items():
            item = self.deref(raw_item)
            if not isinstance(item, dict):
                continue
            for key, op in item.items():
                if key in METHODS and isinstance(op, dict):
                    result[name] = (key.upper(), op)
                    break
        return result

    def webhook_operation(self, name: str) -> Operation | None:
        """Return a webhook as an Operation (path is the webhook name), or None."""
        hooks = self.data.get("webhooks")
        item = self.deref(hooks.get(name)) if isinstance(hooks, dict) else None
        found = self.webhooks().get(name)
        if found is None or not isinstance(item, dict):
            return None
        method, op = found
        return self._operation(method, name, op, item, ("webhooks", name, method.lower()))

    def schemas(self) -> dict[str, dict]:
        """Return `components.schemas` (name -> raw schema)."""
        components = self.data.get("components")
        schemas = components.get("schemas") if isinstance(components, dict) else None
        return schemas if isinstance(schemas, dict) else {}

    def names(self, kind: str) -> list[str]:
        """Return the existing names of a kind: "operation" ("METHOD /path"), "webhook" or "schema"."""
        if kind == "operation":
            return [op.key for op in self.operations()]
        if kind == "webhook":
            return list(self.webhooks())
        if kind == "schema":
            return list(self.schemas())
        raise ValueError(f"unknown kind {kind!r}")

    def nearest(self, kind: str, name: str, n: int = 3) -> list[str]:
        """Return the existing names closest to `name`, for "did you mean" messages."""
        candidates = self.names(kind)
        close = difflib.get_close_matches(name, candidates, n=n, cutoff=0.6)
        if not close and kind == "operation" and " " in name:
            # Same path with another method, or same method on a similar path.
            path = name.split(" ", 1)[1]
            paths = {c.split(" ", 1)[1]: c for c in candidates}
            close = [paths[p] for p in difflib.get_close_matches(path, list(paths), n=n, cutoff=0.5)]
        if not close:
            lowered = {c.lower(): c for c in candidates}
            close = [
                lowered[c] for c in difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.5)
            ]
        return close


def text_field(value: Any) -> str:
    """The value when it is a string, else "" (a spec field that should be text)."""
    return value if isinstance(value, str) else ""
