"""JSON path -> line:column in the spec's source text, computed lazily so huge specs load fast."""

from __future__ import annotations

import bisect
import json
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # json's C scanner, not in typeshed
from typing import Protocol

import yaml

JsonPath = tuple  # tuple[str | int, ...]

_WS = re.compile(r"[ \t\n\r]*")
_SCAN = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # set by __init__, not in typeshed


class Locator(Protocol):
    """Finds the 1-based (line, column) of a JSON path (or of its deepest existing prefix) in a spec's text."""

    def locate(self, path: JsonPath, occurrence: int = 0) -> tuple[int, int]: ...


def format_path(path: JsonPath) -> str:
    """Return a readable JSON path: paths['/pets'].get.responses['200']."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", part) and not part.startswith("x-"):
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(part)}]" if out else json.dumps(part)
    return out


class _Lines:
    """Offset -> (line, column), with the newline index built on first use."""

    def __init__(self, text: str):
        self.text = text
        self._starts: list[int] | None = None

    def position(self, offset: int) -> tuple[int, int]:
        if self._starts is None:
            self._starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


class JsonLocator:
    """Find where a JSON path sits in JSON text by skipping sibling values with the C scanner."""

    def __init__(self, text: str):
        self.text = text
        self._lines = _Lines(text)
        self._children: dict[int, list] = {}  # container offset -> [members, resume offset, done]

    def _skip_ws(self, pos: int) -> int:
        return _WS.match(self.text, pos).end()  # type: ignore[union-attr]  # `[...]*` always matches

    def _members(self, start: int, want: str | int | None = None) -> dict | list:
        """Map keys (or indexes) of the container at `start` to [(key offset, value offset)], lazily.

        Scanning stops as soon as `want` is found and resumes from there on the next call, so finding an
        early key of a 13 MB object does not decode the rest of it.
        """
        state = self._children.get(start)
        text = self.text
        if state is None:
            is_object = text[start] == "{"
            state = [{} if is_object else [], self._skip_ws(start + 1), False]
            self._children[start] = state
        result, pos, done = state
        if done or (
            want is not None
            and (want in result if isinstance(result, dict) else isinstance(want, int) and want < len(result))
        ):
            return result
        end_char = "}" if isinstance(result, dict) else "]"
        while pos < len(text) and text[pos] != end_char:
            if isinstance(result, dict):
                if text[pos] != '"':
                    break
                key, end = scanstring(text, pos + 1)
                value_at = self._skip_ws(self._skip_ws(end) + 1)
                result.setdefault(key, []).append((pos, value_at))
                found = key == want
            else:
                value_at = pos
                result.append((pos, pos))
                found = want == len(result) - 1
            _, end = _SCAN(text, value_at)
            pos = self._skip_ws(end)
            if pos < len(text) and text[pos] == ",":
                pos = self._skip_ws(pos + 1)
            if found:
                state[1] = pos
                return result
        state[1], state[2] = pos, True
        return result

    def offset(self, path: JsonPath, occurrence: int = 0) -> int:
        """Return the offset of the deepest existing prefix of `path` (the key for object members)."""
        pos = self._skip_ws(0)
        spot = pos
        try:
            for step, part in enumerate(path):
                last = step == len(path) - 1
                if self.text[pos] not in "{[":
                    break
                want = str(part) if self.text[pos] == "{" else part
                members = self._members(pos, None if occurrence and last else want)
                if isinstance(members, dict):
                    hits = members.get(str(part))
                    if not hits:
                        break
                    key_at, pos = hits[occurrence] if last and len(hits) > occurrence else hits[0]
                    spot = key_at
                else:
                    if not isinstance(part, int) or not 0 <= part < len(members):
                        break
                    spot, pos = members[part]
        except (ValueError, IndexError):
            pass
        return spot

    def locate(self, path: JsonPath, occurrence: int = 0) -> tuple[int, int]:
        """Return the 1-based (line, column) of `path`, or of its deepest existing prefix."""
        return self._lines.position(self.offset(path, occurrence))


class YamlLocator:
    """Find where a JSON path sits in YAML text, composing the node tree (libyaml) on first use."""

    def __init__(self, text: str, root: yaml.Node | None = None):
        self.text = text
        self._root = root
        self._failed = False

    def _tree(self) -> yaml.Node | None:
        if self._root is None and not self._failed:
            try:
                self._root = yaml.compose(self.text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            except yaml.YAMLError:
                self._failed = True
        return self._root

    def locate(self, path: JsonPath, occurrence: int = 0) -> tuple[int, int]:
        """Return the 1-based (line, column) of `path`, or of its deepest existing prefix."""
        node = self._tree()
        if node is None:
            return (1, 1)
        mark = node.start_mark
        for step, part in enumerate(path):
            if isinstance(node, yaml.MappingNode):
                hits = [
                    (k, v)
                    for k, v in _mapping_pairs(node)
                    if isinstance(k, yaml.ScalarNode) and k.value == str(part)
                ]
                if not hits:
                    break
                key, node = hits[occurrence] if step == len(path) - 1 and len(hits) > occurrence else hits[0]
                mark = key.start_mark
            elif (
                isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value)
            ):
                node = node.value[part]
                mark = node.start_mark
            else:
                break
        return mark.line + 1, mark.column + 1


def _mapping_pairs(node: yaml.MappingNode) -> list[tuple[yaml.Node, yaml.Node]]:
    """Return a mapping's pairs with `<<` merge keys expanded (explicit keys first)."""
    pairs: list[tuple[yaml.Node, yaml.Node]] = []
    merged: list[tuple[yaml.Node, yaml.Node]] = []
    for key, value in node.value:
        if key.tag == "tag:yaml.org,2002:merge":
            sources = value.value if isinstance(value, yaml.SequenceNode) else [value]
            for source in sources:
                if isinstance(source, yaml.MappingNode):
                    merged.extend(_mapping_pairs(source))
        else:
            pairs.append((key, value))
    return pairs + merged


def make_locator(text: str, is_json: bool) -> JsonLocator | YamlLocator:
    """Return the locator for the document's syntax."""
    return JsonLocator(text) if is_json else YamlLocator(text)
