"""Read docs.json (or the older mint.json), resolve `$ref` includes, and remember where every value came from."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from docsgen.common.errors import Diagnostic, error, info, warning
from docsgen.common.jsonpos import JsonPath, JsonSyntaxError, PositionIndex, format_path, loads, type_name

CONFIG_NAMES = ("docs.json", "mint.json")

# Deepest nesting accepted in docs.json (its `$ref` files included); real configurations stay under 20 levels.
MAX_DEPTH = 64
# Values docs.json may hold once its `$ref` files are inlined: a file included twice by a file included twice...
# grows exponentially (22 files of two `$ref`s each: 4 million values). Real configurations hold a few thousand.
MAX_VALUES = 100_000

_BRACKETS = re.compile(r'(?<!\\)"(?:[^"\\]|\\.)*+"|[\[\]{}]', re.S)  # no start at an escaped quote: linear
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


@dataclass
class RawConfig:
    """docs.json after `$ref` resolution, with the origin (file, path in file) of every value."""

    data: dict
    main_file: str  # "docs.json" or "mint.json"
    origins: dict[JsonPath, tuple[str, JsonPath]] = field(default_factory=dict)
    indexes: dict[str, PositionIndex] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # every JSON file read (for the dev watcher)

    def locate(self, path: JsonPath, *, key: bool = False) -> tuple[str, int, int]:
        """Return (file, line, column) of the value at a path of the merged document."""
        path = tuple(path)
        probe = path
        while probe not in self.origins and probe:
            probe = probe[:-1]
        file, inner = self.origins.get(probe, (self.main_file, ()))
        inner = inner + path[len(probe) :]
        index = self.indexes.get(file)
        if index is None:
            return file, 0, 0
        line, col = index.locate(inner, key=key)
        return file, line, col

    def diagnostic(
        self,
        code: str,
        message: str,
        path: JsonPath,
        *,
        severity: str = "error",
        key: bool = False,
        hint: str = "",
    ) -> Diagnostic:
        """Build a diagnostic located at a path of the merged document."""
        file, line, col = self.locate(path, key=key)
        make = {"error": error, "warning": warning, "info": info}[severity]
        return make(code, message, file, line, col, format_path(path), hint)


def find_config(docs_dir: Path) -> Path | None:
    """Return docs.json, else mint.json, else None."""
    for name in CONFIG_NAMES:
        candidate = docs_dir / name
        if candidate.is_file():
            return candidate
    return None


def _too_deep(text: str) -> int | None:
    """Return the offset where the text's brackets nest deeper than MAX_DEPTH, else None (strings skipped)."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        ch = m.group(0)
        if ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return m.start()
        elif ch in "]}":
            depth -= 1
    return None


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= c <= "\udfff" for c in text)


def _surrogate_path(value: object, path: JsonPath) -> tuple[JsonPath, bool] | None:
    """Return (path, is a key) of the first string holding a lone surrogate, else None."""
    if isinstance(value, str):
        return (path, False) if _has_surrogate(value) else None
    if isinstance(value, dict):
        for k, v in value.items():
            if _has_surrogate(k):
                return (*path, k), True
            found = _surrogate_path(v, (*path, k))
            if found:
                return found
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found = _surrogate_path(v, (*path, i))
            if found:
                return found
    return None


def read_json_file(
    docs_dir: Path, rel: str, indexes: dict[str, PositionIndex], expected: str = "a JSON object"
) -> tuple[object, list[Diagnostic]]:
    """Parse one JSON file of the docs folder, recording its position index (None with the reasons if unusable)."""
    path = docs_dir / rel
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, [error("config.encoding", f"file is not UTF-8 text ({exc.reason})", rel, 1, 1)]
    except OSError as exc:
        return None, [error("config.read", f"cannot read file: {exc.strerror}", rel)]
    if not text.strip():
        return None, [error("config.empty", "file is empty; expected a JSON object", rel, 1, 1)]
    too_deep = _too_deep(text)
    if too_deep is not None:
        line, col = _line_col(text, too_deep)
        return None, [
            error(
                "config.depth",
                f"JSON nested more than {MAX_DEPTH} levels deep; expected a flatter document",
                rel,
                line,
                col,
            )
        ]
    try:
        data = loads(text)
    except JsonSyntaxError as exc:
        return None, [error("config.json", f"invalid JSON: {exc.message}", rel, exc.line, exc.column)]
    except RecursionError:  # bounded above; kept so no input can end in a traceback
        return None, [error("config.depth", "JSON nested too deeply", rel, 1, 1)]
    index = PositionIndex(text)
    if data is None:
        return None, [error("config.type", f"{rel} holds null; expected {expected}", rel, *index.locate(()))]
    if _SURROGATE_ESCAPE.search(text):
        bad = _surrogate_path(data, ())
        if bad is not None:
            json_path, is_key = bad
            return None, [
                error(
                    "config.encoding",
                    "string holds an unpaired UTF-16 surrogate escape (such as \\ud800), which is not text; "
                    "expected a valid Unicode string (escape a character outside the BMP as a surrogate pair)",
                    rel,
                    *index.locate(json_path, key=is_key),
                    format_path(json_path),
                )
            ]
    indexes[rel] = index
    diags = [
        warning(
            "config.duplicate-key",
            f"key '{p[-1]}' appears twice in one object; the last one wins",
            rel,
            line,
            col,
            format_path(p),
        )
        for p, line, col in index.duplicate_keys()
    ]
    return data, diags


def load_raw_config(docs_dir: Path) -> tuple[RawConfig | None, list[Diagnostic]]:
    """Read the site configuration with `$ref`s resolved; return it with every problem found."""
    config_path = find_config(docs_dir)
    if config_path is None:
        return None, [
            error(
                "config.missing",
                f"no docs.json found in {docs_dir}",
                hint="create one with `docsgen init`, or pass the docs folder as an argument",
            )
        ]
    main = config_path.name
    indexes: dict[str, PositionIndex] = {}
    data, diags = read_json_file(docs_dir, main, indexes)
    if data is None:
        return None, diags
    if not isinstance(data, dict):
        return None, [
            *diags,
            error("config.type", f"{main} must hold a JSON object, found {type_name(data)}", main, 1, 1),
        ]
    raw = RawConfig(data={}, main_file=main, indexes=indexes, files=[main])
    resolver = _RefResolver(docs_dir.resolve(), raw, diags)
    resolved = resolver.resolve(data, main, (), (), (main,))
    if resolver.values > MAX_VALUES:
        return None, diags  # reported where the limit was reached; what was made is not worth checking
    if not isinstance(resolved, dict):  # a top-level $ref that failed (reported) or holds no object
        if not any(d.is_error for d in diags):
            found = f"its $ref includes {type_name(resolved)}"
            where = indexes[main].locate(("$ref",))
            diags.append(
                error("config.type", f"{main} must hold a JSON object, {found}", main, *where, "$ref")
            )
        return None, diags
    raw.data = resolved
    return raw, diags


class _RefResolver:
    """Inline `{"$ref": "file.json"}` objects, merging sibling keys over the referenced value."""

    def __init__(self, root: Path, raw: RawConfig, diags: list[Diagnostic]):
        self.root, self.raw, self.diags = root, raw, diags
        self.cache: dict[str, object] = {}
        self.values = 0  # values made so far (MAX_VALUES)
        self.targets: dict[tuple[str, str], tuple[Path, str | None]] = {}

    def resolve(
        self, value: object, file: str, inner: JsonPath, outer: JsonPath, stack: tuple[str, ...]
    ) -> object:
        self.values += 1
        if self.values > MAX_VALUES:
            if self.values == MAX_VALUES + 1:
                line, col = self.raw.indexes[file].locate(inner)
                self.diags.append(
                    error(
                        "config.too-large",
                        f"configuration holds more than {MAX_VALUES:,} values once its $ref files are "
                        "included (a file included many times over); include each file fewer times",
                        file,
                        line,
                        col,
                        format_path(outer),
                    )
                )
            return None
        self.raw.origins[outer] = (file, inner)
        if len(outer) > MAX_DEPTH and isinstance(value, dict | list):
            line, col = self.raw.indexes[file].locate(inner)
            self.diags.append(
                error(
                    "config.depth",
                    f"configuration nested more than {MAX_DEPTH} levels deep (through $ref includes); "
                    "expected a flatter document",
                    file,
                    line,
                    col,
                    format_path(outer),
                )
            )
            return None
        if isinstance(value, dict):
            ref = value.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                return self._include(value, ref, file, inner, outer, stack)
            return {k: self.resolve(v, file, (*inner, k), (*outer, k), stack) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v, file, (*inner, i), (*outer, i), stack) for i, v in enumerate(value)]
        return value

    def _target(self, file: str, ref_file: str) -> tuple[Path, str | None]:
        """The file a `$ref` in `file` names and its path in the docs folder (None: outside), memoised."""
        key = (file, ref_file)
        found = self.targets.get(key)
        if found is None:
            target = ((self.root / file).parent / ref_file).resolve()
            try:
                found = target, target.relative_to(self.root).as_posix()
            except ValueError:
                found = target, None
            self.targets[key] = found
        return found

    def _include(
        self, value: dict, ref: str, file: str, inner: JsonPath, outer: JsonPath, stack: tuple[str, ...]
    ) -> object:
        def where() -> tuple[str, int, int, str]:  # made only for a problem: paths through includes are long
            line, col = self.raw.indexes[file].locate((*inner, "$ref"))
            return file, line, col, format_path(outer) + ".$ref" if outer else "$ref"

        ref_file, _, fragment = ref.partition("#")
        target, rel = self._target(file, ref_file)
        if rel is None:
            self.diags.append(
                error("config.ref-outside", f"$ref '{ref}' points outside the docs folder", *where())
            )
            return None
        if len(stack) > MAX_DEPTH:
            message = f"more than {MAX_DEPTH} $ref files included inside each other; expected a shorter chain"
            self.diags.append(error("config.depth", message, *where()))
            return None
        if rel in stack:
            chain = " -> ".join([*stack, rel])
            self.diags.append(error("config.ref-cycle", f"$ref cycle: {chain}", *where()))
            return None
        if not target.is_file():
            self.diags.append(
                error(
                    "config.ref-missing", f"$ref '{ref}' names a file that does not exist ({rel})", *where()
                )
            )
            return None
        if rel not in self.cache:
            data, diags = read_json_file(self.root, rel, self.raw.indexes, "the value to include")
            self.diags.extend(diags)
            self.cache[rel] = data
            if data is None:
                return None
            self.raw.files.append(rel)
        if self.cache[rel] is None:
            return None
        pointer = _pointer(self.cache[rel], fragment)
        if pointer is None:
            self.diags.append(
                error(
                    "config.ref-missing",
                    f"$ref '{ref}': {rel} has no value at '#{fragment}'; expected a JSON pointer such as "
                    "'#/navigation/groups' to a value of the file",
                    *where(),
                )
            )
            return None
        referenced = self.resolve(_at(self.cache[rel], pointer), rel, pointer, outer, (*stack, rel))
        siblings = {k: v for k, v in value.items() if k != "$ref"}
        if not siblings:
            return referenced
        if not isinstance(referenced, dict):
            self.diags.append(
                error(
                    "config.ref-merge",
                    f"$ref '{ref}' holds {type_name(referenced)}, so sibling keys cannot be merged over it",
                    *where(),
                )
            )
            return referenced
        merged = dict(referenced)
        for k, v in siblings.items():
            merged[k] = self.resolve(v, file, (*inner, k), (*outer, k), stack)
        return merged


def _pointer(data: object, fragment: str) -> JsonPath | None:
    """Return the path a `$ref` fragment (a JSON pointer such as /a/0/b; empty for the whole file) names, or None."""
    if not fragment or fragment == "/":
        return ()
    if not fragment.startswith("/"):
        return None
    path: list[str | int] = []
    node = data
    for token in fragment[1:].split("/"):
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            path.append(token)
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            path.append(int(token))
            node = node[int(token)]
        else:
            return None
    return tuple(path)


def _at(data: Any, path: JsonPath) -> object:
    """The value at `path` (found by _pointer: every step exists)."""
    for part in path:
        data = data[part]
    return data
