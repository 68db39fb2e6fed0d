"""Read docs.json (or the older mint.json), resolve `$ref` includes, and remember where every value came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from docsgen.errors import Diagnostic, error, info, warning
from docsgen.jsonpos import JsonPath, JsonSyntaxError, PositionIndex, format_path, loads, type_name

CONFIG_NAMES = ("docs.json", "mint.json")


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


def read_json_file(
    docs_dir: Path, rel: str, indexes: dict[str, PositionIndex]
) -> tuple[object, list[Diagnostic]]:
    """Parse one JSON file of the docs folder, recording its position index."""
    path = docs_dir / rel
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, [error("config.encoding", f"file is not UTF-8 text ({exc.reason})", rel, 1, 1)]
    except OSError as exc:
        return None, [error("config.read", f"cannot read file: {exc.strerror}", rel)]
    if not text.strip():
        return None, [error("config.empty", "file is empty; expected a JSON object", rel, 1, 1)]
    try:
        data = loads(text)
    except JsonSyntaxError as exc:
        return None, [error("config.json", f"invalid JSON: {exc.message}", rel, exc.line, exc.column)]
    index = PositionIndex(text)
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
    raw.data = resolver.resolve(data, main, (), (), (main,))
    return raw, diags


class _RefResolver:
    """Inline `{"$ref": "file.json"}` objects, merging sibling keys over the referenced value."""

    def __init__(self, root: Path, raw: RawConfig, diags: list[Diagnostic]):
        self.root, self.raw, self.diags = root, raw, diags
        self.cache: dict[str, object] = {}

    def resolve(
        self, value: object, file: str, inner: JsonPath, outer: JsonPath, stack: tuple[str, ...]
    ) -> object:
        self.raw.origins[outer] = (file, inner)
        if isinstance(value, dict):
            ref = value.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                return self._include(value, ref, file, inner, outer, stack)
            return {k: self.resolve(v, file, (*inner, k), (*outer, k), stack) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v, file, (*inner, i), (*outer, i), stack) for i, v in enumerate(value)]
        return value

    def _include(
        self, value: dict, ref: str, file: str, inner: JsonPath, outer: JsonPath, stack: tuple[str, ...]
    ) -> object:
        index = self.raw.indexes[file]
        line, col = index.locate((*inner, "$ref"))
        where = (file, line, col, format_path(outer) + ".$ref" if outer else "$ref")
        base = (self.root / file).parent
        target = (base / ref.split("#", 1)[0]).resolve()
        try:
            rel = target.relative_to(self.root).as_posix()
        except ValueError:
            self.diags.append(
                error("config.ref-outside", f"$ref '{ref}' points outside the docs folder", *where)
            )
            return None
        if rel in stack:
            chain = " -> ".join([*stack, rel])
            self.diags.append(error("config.ref-cycle", f"$ref cycle: {chain}", *where))
            return None
        if not target.is_file():
            self.diags.append(
                error("config.ref-missing", f"$ref '{ref}' names a file that does not exist ({rel})", *where)
            )
            return None
        if rel not in self.raw.indexes:
            data, diags = read_json_file(self.root, rel, self.raw.indexes)
            self.diags.extend(diags)
            if data is None:
                return None
            self.cache[rel] = data
            self.raw.files.append(rel)
        referenced = self.resolve(self.cache[rel], rel, (), outer, (*stack, rel))
        siblings = {k: v for k, v in value.items() if k != "$ref"}
        if not siblings:
            return referenced
        if not isinstance(referenced, dict):
            self.diags.append(
                error(
                    "config.ref-merge",
                    f"$ref '{ref}' holds {type_name(referenced)}, so sibling keys cannot be merged over it",
                    *where,
                )
            )
            return referenced
        merged = dict(referenced)
        for k, v in siblings.items():
            merged[k] = self.resolve(v, file, (*inner, k), (*outer, k), stack)
        return merged
