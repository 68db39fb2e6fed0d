"""Read a spec from a file or an http(s) URL and parse it as JSON or YAML, keeping what locates problems."""

from __future__ import annotations

import gc
import hashlib
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from docsgen.common.safeload import (
    NestingError,
    NumberTooLarge,
    bounded_yaml_int,
    check_nesting,
    huge_json_int,
)
from docsgen.openapi.limits import MAX_EXPANDED_NODES, MAX_NESTING
from docsgen.openapi.locate import JsonLocator, JsonPath, YamlLocator, make_locator

SUPPORTED = re.compile(r"^3\.[012]\.\d+(-.+)?$")


class LoadProblem(Exception):
    """A spec that cannot be read or parsed: code, message and where (line, column, JSON path)."""

    def __init__(
        self, code: str, message: str, line: int = 0, column: int = 0, json_path: str = "", hint: str = ""
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.json_path = json_path
        self.hint = hint


class LazyLocator:
    """Decode and index the text only when a location is asked for: a load from the cache may never need one."""

    def __init__(self, raw: bytes, is_json: bool):
        self._raw: bytes | None = raw
        self._is_json = is_json
        self._inner: JsonLocator | YamlLocator | None = None

    def locate(self, path: JsonPath, occurrence: int = 0) -> tuple[int, int]:
        """Return the 1-based (line, column) of a JSON path, as the eager locator would."""
        if self._inner is None:
            self._inner = make_locator(decode(self._raw or b""), self._is_json)
            self._raw = None
        return self._inner.locate(path, occurrence)


@dataclass
class Document:
    """A parsed spec: data, syntax, content hash, duplicate keys found, and what locates a JSON path in the text."""

    data: Any
    is_json: bool
    sha256: str
    duplicates: list[tuple[int, int, str, JsonPath]] = field(default_factory=list)  # line, column, key, path
    locator: JsonLocator | YamlLocator | LazyLocator | None = None


def is_url(ref: str) -> bool:
    """Tell whether a spec reference is an http(s) URL."""
    return ref.startswith(("http://", "https://"))


def read_file(path: Path, *, max_bytes: int) -> bytes:
    """Read a spec file, refusing missing files, folders and files over max_bytes."""
    if not path.is_file():
        raise LoadProblem("openapi.missing-file", "spec file not found")
    size = path.stat().st_size
    if size > max_bytes:
        raise LoadProblem("openapi.too-big", f"spec is {size:,} bytes, over the {max_bytes:,}-byte limit")
    return path.read_bytes()


def decode(raw: bytes) -> str:
    """Decode UTF-8 (a BOM is allowed), reporting where invalid bytes start."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise LoadProblem("openapi.encoding", "spec is not valid UTF-8", line, column) from None


def content_hash(raw: bytes) -> str:
    """Return the sha256 of a spec's bytes: the key of everything cached about that content."""
    return hashlib.sha256(raw).hexdigest()


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cycle collector while parsing: 10^5 new acyclic containers would set off full collections."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse(raw: bytes, name: str, *, find_duplicates: bool = True, sha256: str = "") -> Document:
    """Parse JSON (when it looks like JSON) or YAML; duplicate keys are recorded with their location.

    find_duplicates=False skips the duplicate-key bookkeeping (the data is the same: the last value wins);
    use it only when this very content is known to have none (SpecStore's load cache).
    """
    text = decode(raw)
    sha = sha256 or content_hash(raw)
    stripped = text.lstrip()
    is_json = name.lower().endswith(".json") or stripped.startswith("{")
    try:
        # Before any parser runs: libyaml would overflow the C stack on a deep enough document. A JSON
        # spec proven shallow on its bytes skips the exact (slower) measure, which locates a too-deep one.
        if not (is_json and json_depth_fits(raw, MAX_NESTING)):
            check_nesting(text, MAX_NESTING, syntax="json" if is_json else "yaml")
    except NestingError as exc:
        raise LoadProblem(
            "openapi.too-deep",
            f"the spec nests objects and arrays more than {MAX_NESTING} levels deep",
            exc.line,
            exc.column,
            hint="no real API needs this depth: flatten it with `$ref`s to named schemas",
        ) from None
    if is_json:
        return _parse_json(text, sha, find_duplicates)
    return _parse_yaml(text, sha, find_duplicates)


_NOT_STRUCTURE = bytes(sorted(set(range(256)) - set(b'{}[]"')))


def _unescaped(raw: bytes) -> bytes:
    """`raw` without its escaped backslashes and escaped quotes (pairs taken from the left, as a JSON lexer does).

    The same bytes as `raw.replace(b"\\\\", b"").replace(b'\\"', b"")`, in one pass over the few
    backslashes instead of two copies of a spec that may be megabytes.
    """
    parts = raw.split(b"\\")
    if len(parts) == 1:
        return raw
    out = [parts[0]]
    index, count = 1, len(parts)
    while index < count:
        part = parts[index]
        if not part and index + 1 < count:  # an escaped backslash: both go
            out.append(parts[index + 1])
            index += 2
        elif part[:1] == b'"':  # an escaped quote: both go
            out.append(part[1:])
            index += 1
        else:  # any other escape keeps its backslash
            out.append(b"\\" + part)
            index += 1
    return b"".join(out)


def json_depth_fits(raw: bytes, limit: int) -> bool:
    """Return True when UTF-8 JSON bytes provably nest at most `limit` deep; False: too deep, or not sure.

    Fast on large specs (byte operations in C, no per-character Python): escaped backslashes and quotes go
    first, then every byte but brackets and quotes, then the strings (between quote pairs); each pass then
    removes the innermost `{}` and `[]` pairs, at least one level and at most two. Valid JSON emptied within
    limit // 2 passes nests at most `limit` deep. Invalid JSON or anything deeper: False, and the exact
    measure (docsgen.common.safeload.check_nesting) decides. In UTF-8, these ASCII bytes never occur inside a
    multibyte character.
    """
    # Two adjacent quotes are an empty string or the end of one and the start of the next: dropping them
    # leaves every other quote's parity (and what lies between quote pairs) as it was.
    data = _unescaped(raw).translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    brackets = b"".join(data.split(b'"')[::2])
    for _ in range(limit // 2):
        if not brackets:
            return True
        shorter = brackets.replace(b"{}", b"").replace(b"[]", b"")
        if len(shorter) == len(brackets):
            return False  # unbalanced: not valid JSON
        brackets = shorter
    return not brackets


def _parse_json(text: str, sha: str, find_duplicates: bool = True) -> Document:
    dupes: dict[int, list[str]] = {}

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            repeated = dupes[id(obj)] = []
            for k, _ in pairs:
                if k in seen:
                    repeated.append(k)
                seen.add(k)
        return obj

    try:
        with gc_paused():
            # The plain C decoder builds the same dicts (first position, last value) without a Python call
            # per object; the hook is only there to notice duplicates.
            data = json.loads(text, object_pairs_hook=pairs_hook) if find_duplicates else json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoadProblem("openapi.syntax", f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise LoadProblem("openapi.syntax", "invalid JSON: nested too deeply") from None
    except ValueError:  # an integer past Python's conversion limit
        huge = huge_json_int(text)
        raise LoadProblem("openapi.syntax", f"invalid JSON: {huge}", huge.line, huge.column) from None
    locator = JsonLocator(text)
    doc = Document(data, True, sha, locator=locator)
    if dupes:
        for obj_path, obj in _walk_containers(data):
            for key in dupes.get(id(obj), []):
                line, column = locator.locate((*obj_path, key), occurrence=1)
                doc.duplicates.append((line, column, key, (*obj_path, key)))
    return doc


def _walk_containers(data: Any):
    """Yield (path, dict) for every object in the document, iteratively."""
    stack: list[tuple[JsonPath, Any]] = [((), data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            yield path, node
            stack.extend(((*path, k), v) for k, v in node.items() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(((*path, i), v) for i, v in enumerate(node) if isinstance(v, (dict, list)))


_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class SpecYamlLoader(_BaseLoader):  # type: ignore[misc, valid-type]  # libyaml's loader, or PyYAML's without it
    """libyaml safe loader: dates stay strings, keys are strings as written, duplicate keys are recorded."""

    yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def __init__(self, stream: str, find_duplicates: bool = True):
        super().__init__(stream)
        self.find_duplicates = find_duplicates
        self.duplicates: list[tuple[int, int, str, int]] = []  # line, column, key, id of the mapping node

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set[str] = set()
        for key_node, _ in node.value if self.find_duplicates else ():
            if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(key_node, yaml.ScalarNode):
                continue
            if key_node.value in seen:
                mark = key_node.start_mark
                self.duplicates.append((mark.line + 1, mark.column + 1, key_node.value, id(node)))
            seen.add(key_node.value)
        self.flatten_mapping(node)
        mapping: dict = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str):
                key = (
                    key_node.value if isinstance(key_node, yaml.ScalarNode) else json.dumps(key, default=str)
                )
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


def _as_written(loader: SpecYamlLoader, node: yaml.Node) -> str:
    return loader.construct_scalar(node)


def _set_as_list(loader: SpecYamlLoader, node: yaml.MappingNode) -> list:
    return list(loader.construct_mapping(node))


# Keep the data JSON-shaped: explicit !!binary and !!timestamp stay the text written, !!set becomes a list.
SpecYamlLoader.add_constructor("tag:yaml.org,2002:binary", _as_written)
SpecYamlLoader.add_constructor("tag:yaml.org,2002:timestamp", _as_written)
SpecYamlLoader.add_constructor("tag:yaml.org,2002:set", _set_as_list)
SpecYamlLoader.add_constructor("tag:yaml.org,2002:int", bounded_yaml_int)


def _parse_yaml(text: str, sha: str, find_duplicates: bool = True) -> Document:
    loader = SpecYamlLoader(text, find_duplicates)
    root = None
    try:
        # Compose then construct: the node tree (with marks) is kept for locating problems later.
        with gc_paused():
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "syntax error"
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise LoadProblem("openapi.syntax", f"invalid YAML: {problem}", line, column) from None
    except yaml.YAMLError as exc:
        raise LoadProblem("openapi.syntax", f"invalid YAML: {exc.__class__.__name__}") from None
    except RecursionError:
        raise LoadProblem("openapi.syntax", "invalid YAML: nested too deeply") from None
    except NumberTooLarge as exc:
        raise LoadProblem("openapi.syntax", f"invalid YAML: {exc}", exc.line, exc.column) from None
    finally:
        loader.dispose()
    if root is not None and "*" in text:
        _check_aliases(root)
    doc = Document(data, False, sha, locator=YamlLocator(text, root))
    if loader.duplicates and root is not None:
        paths = _node_paths(root, {node_id for *_, node_id in loader.duplicates})
        doc.duplicates = [
            (line, col, key, (*paths.get(node_id, ()), key)) for line, col, key, node_id in loader.duplicates
        ]
    return doc


def _node_paths(root: yaml.Node, wanted: set[int]) -> dict[int, JsonPath]:
    """Return the JSON paths of some mapping nodes (by id), walking the node tree once."""
    found: dict[int, JsonPath] = {}
    stack: list[tuple[yaml.Node, JsonPath]] = [(root, ())]
    seen: set[int] = set()
    while stack and len(found) < len(wanted):
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if id(node) in wanted:
            found[id(node)] = path
        if isinstance(node, yaml.MappingNode):
            stack.extend((v, (*path, k.value)) for k, v in node.value if isinstance(k, yaml.ScalarNode))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((v, (*path, i)) for i, v in enumerate(node.value))
    return found


def _check_aliases(root: yaml.Node) -> None:
    """Refuse recursive aliases, alias bombs and aliases nesting the data too deep (iteratively).

    Each would make later walks of the data endless or too deep; the node graph is walked once, children before
    parents, keeping each node's expanded size and depth.
    """
    sizes: dict[int, tuple[int, int]] = {}  # id -> (expanded size, depth)
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if isinstance(node, yaml.ScalarNode) or (key in sizes and not done):
            sizes.setdefault(key, (1, 0))
            continue
        children = (
            node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
        )
        if not done:
            if key in open_nodes:
                raise _alias_problem(node, "an alias refers to itself")
            open_nodes.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        open_nodes.discard(key)
        total = 1 + sum(sizes[id(c)][0] for c in children)
        depth = 1 + max((sizes[id(c)][1] for c in children), default=0)
        if total > MAX_EXPANDED_NODES:
            raise _alias_problem(node, "aliases expand to too much data")
        if depth > MAX_NESTING:
            raise _alias_problem(node, f"aliases nest the data more than {MAX_NESTING} levels deep")
        sizes[key] = (total, depth)


def _alias_problem(node: yaml.Node, message: str) -> LoadProblem:
    mark = node.start_mark
    return LoadProblem("openapi.syntax", f"invalid YAML: {message}", mark.line + 1, mark.column + 1)


def detect_version(doc: Document) -> str:
    """Return the OpenAPI version, or raise a located problem naming what was found instead."""
    data = doc.data
    if not isinstance(data, dict):
        kind = type(data).__name__ if data is not None else "empty"
        raise LoadProblem(
            "openapi.not-openapi", f"not an OpenAPI document: the top level is {kind}, not an object", 1, 1
        )
    if "swagger" in data:
        line, column = doc.locator.locate(("swagger",)) if doc.locator else (0, 0)
        raise LoadProblem(
            "openapi.unsupported-version",
            f"Swagger {str(data['swagger'])[:20]} is not supported: docsgen reads OpenAPI 3.0, 3.1 and 3.2",
            line,
            column,
            "swagger",
            hint="convert it with swagger2openapi or the Swagger Editor (Edit > Convert to OpenAPI 3)",
        )
    if "openapi" not in data:
        raise LoadProblem(
            "openapi.not-openapi",
            "not an OpenAPI document: no top-level `openapi` field (expected 3.0.x, 3.1.x or 3.2.x)",
            1,
            1,
        )
    version = data["openapi"]
    line, column = 0, 0
    if not (isinstance(version, str) and SUPPORTED.match(version)) and doc.locator:
        line, column = doc.locator.locate(("openapi",))
    if not isinstance(version, str):
        raise LoadProblem(
            "openapi.unsupported-version",
            f'`openapi` must be a string like "3.1.0", found {json.dumps(version)[:20]}',
            line,
            column,
            "openapi",
            hint='quote the version in YAML: openapi: "3.0.3"',
        )
    if not SUPPORTED.match(version):
        raise LoadProblem(
            "openapi.unsupported-version",
            f"OpenAPI {version[:20]} is not supported: docsgen reads OpenAPI 3.0.x, 3.1.x and 3.2.x",
            line,
            column,
            "openapi",
        )
    return version
