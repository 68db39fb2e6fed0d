"""Frontmatter YAML read within bounds: size, nesting, aliases (billion laughs), recursive aliases, bad dates.

Every problem comes back as a located diagnostic (file lines, not lines of the YAML text); nothing raises.
"""

from __future__ import annotations

import contextlib
import datetime
import re
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from docsgen.common.errors import Diagnostic, error, warning
from docsgen.common.safeload import NumberTooLarge, bounded_yaml_int
from docsgen.mdx.limits import MAX_FRONTMATTER_BYTES, MAX_YAML_ALIASES, MAX_YAML_DEPTH, MAX_YAML_NODES

# Keys whose value must be text (a number is accepted and read as text); other keys are free-form.
TEXT_KEYS = ("title", "sidebarTitle", "description", "openapi", "api", "mode", "url", "iconType", "tag")


class _Loader(yaml.CSafeLoader):
    """The safe loader, except that an impossible date (`2024-13-45`) stays text instead of raising."""

    bad_dates: list[yaml.Node]


def _timestamp(loader: _Loader, node: yaml.ScalarNode) -> Any:
    try:
        return SafeConstructor.construct_yaml_timestamp(loader, node)
    except (ValueError, OverflowError):
        loader.bad_dates.append(node)
        return str(node.value)


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
_Loader.add_constructor("tag:yaml.org,2002:int", bounded_yaml_int)  # huge integers: located, not raised later


class _Rejected(Exception):
    def __init__(self, message: str, mark: Any):
        super().__init__(message)
        self.message = message
        self.mark = mark


def _check_events(text: str) -> dict[str, Any]:
    """Walk the YAML events once: bound nesting, aliases and expanded size; return top-level key marks."""
    sizes: dict[str, int] = {}  # anchor -> nodes in its value, aliases expanded
    open_nodes: list[tuple[str | None, int]] = []  # (anchor, nodes counted when it opened)
    total = 0
    aliases = 0
    keys: dict[str, Any] = {}
    root_items = 0
    event: Any  # narrowed by `kind` below, which mypy does not follow
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        kind = type(event)
        if kind in (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent, yaml.AliasEvent):
            if len(open_nodes) == 1 and kind is yaml.ScalarEvent and root_items % 2 == 0:
                keys.setdefault(str(event.value), event.start_mark)
            if len(open_nodes) == 1:
                root_items += 1
        if kind is yaml.AliasEvent:
            aliases += 1
            if aliases > MAX_YAML_ALIASES:
                raise _Rejected(f"more than {MAX_YAML_ALIASES} aliases (*name)", event.start_mark)
            if any(anchor == event.anchor for anchor, _ in open_nodes):
                raise _Rejected(f"alias *{event.anchor} refers to a value that contains it", event.start_mark)
            total += sizes.get(event.anchor, 1)
        elif kind is yaml.ScalarEvent:
            total += 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif kind in (yaml.MappingStartEvent, yaml.SequenceStartEvent):
            total += 1
            open_nodes.append((event.anchor, total))
            if len(open_nodes) > MAX_YAML_DEPTH:
                raise _Rejected(f"nested more than {MAX_YAML_DEPTH} levels deep", event.start_mark)
        elif kind in (yaml.MappingEndEvent, yaml.SequenceEndEvent):
            anchor, start = open_nodes.pop()
            if anchor:
                sizes[anchor] = total - start + 1
        if total > MAX_YAML_NODES:
            raise _Rejected(
                f"more than {MAX_YAML_NODES} values once aliases are expanded",
                getattr(event, "start_mark", None),
            )
    return keys


_FLAT_FORBIDDEN = frozenset("&*[]{}")


def _flat(text: str) -> bool:
    """Tell whether the frontmatter is flat `key: value` lines (nearly every page's): no anchor or alias, no flow
    collection, no indented or list line, few enough values. Such text cannot exceed a nesting, alias or size
    bound, so the event walk that enforces them is skipped."""
    if not _FLAT_FORBIDDEN.isdisjoint(text):
        return False
    lines = text.split("\n")
    if 2 * len(lines) >= MAX_YAML_NODES:
        return False
    return not any(line[:1] in (" ", "\t", "-", "?") for line in lines)


# The value runs to the end of the line; its trailing spaces are stripped in Python (a lazy `.*?` before ` *` was
# quadratic on a value followed by many spaces and then a character).
_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*): +([^\s!&*%@`|>'\"#,\[\]{}?:-].*)")
_STR = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()


def _plain(text: str) -> dict[str, Any] | None:
    """Return the frontmatter when every line is `key: text` that YAML reads as that very text (nearly every
    page's: a title, a description), else None (YAML reads it). No YAML parser runs for such pages: a value that
    could mean anything else (a number, a boolean, a date, null, a comment, a quote, a flow or block collection,
    a continuation line) is left to YAML."""
    out: dict[str, Any] = {}
    for line in text.split("\n"):
        if not line.strip(" "):
            continue
        found = _PAIR.fullmatch(line)
        if found is None:
            return None
        key, value = found[1], found[2].rstrip(" ")
        if key in out or ": " in value or " #" in value or value.endswith(":") or not value.isprintable():
            return None
        if _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) != _STR:
            return None
        if _RESOLVER.resolve(yaml.ScalarNode, key, (True, False)) != _STR:
            return None
        out[key] = value
    return out


class _Keys(dict):
    """Top-level key marks of flat frontmatter, found only when a message needs one (the walk is skipped)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text: str | None = text

    def get(self, key: Any, default: Any = None) -> Any:
        if self._text is not None:
            text, self._text = self._text, None
            with contextlib.suppress(_Rejected, yaml.YAMLError):
                self.update(_check_events(text))
        return super().get(key, default)


def load_frontmatter(
    text: str, source: str, first_line: int
) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """Parse frontmatter YAML (which starts on file line first_line); None when it cannot be used."""
    if len(text) > MAX_FRONTMATTER_BYTES:
        return None, [
            error(
                "page.frontmatter",
                f"frontmatter is {len(text):,} characters long; the limit is {MAX_FRONTMATTER_BYTES:,}: ignored",
                source,
                first_line,
                1,
            )
        ]
    plain = _plain(text)
    if plain is not None:
        return plain, []
    try:
        keys = _check_events(text) if not _flat(text) else _Keys(text)
        loader = _Loader(text)
        loader.bad_dates = []
        try:
            meta = loader.get_single_data()
        finally:
            loader.dispose()
    except _Rejected as exc:
        line, col = _where(exc.mark, first_line)
        return None, [error("page.frontmatter", f"frontmatter rejected: {exc.message}", source, line, col)]
    except yaml.YAMLError as exc:
        line, col = _where(getattr(exc, "problem_mark", None), first_line)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, [error("page.frontmatter", f"invalid YAML frontmatter: {problem}", source, line, col)]
    except NumberTooLarge as exc:
        line = first_line + exc.line - 1
        return None, [error("page.frontmatter", f"invalid YAML frontmatter: {exc}", source, line, exc.column)]
    except (ValueError, TypeError, RecursionError) as exc:  # constructor problems the checks did not foresee
        return None, [error("page.frontmatter", f"invalid YAML frontmatter: {exc}", source, first_line, 1)]
    diags = [
        warning(
            "page.frontmatter",
            f"{node.value!r} is not a valid date: kept as text",
            source,
            *_where(node.start_mark, first_line),
        )
        for node in loader.bad_dates
    ]
    if meta is None:
        return {}, diags
    if not isinstance(meta, dict):
        diags.append(
            error(
                "page.frontmatter",
                "frontmatter must be a YAML mapping (key: value lines)",
                source,
                first_line,
                1,
            )
        )
        return None, diags
    meta = {str(k): v for k, v in meta.items()}
    for key in TEXT_KEYS:
        if key not in meta or meta[key] is None:
            continue
        value = meta[key]
        if isinstance(value, (datetime.date, datetime.datetime)):
            meta[key] = value.isoformat()
        elif isinstance(value, bool) or not isinstance(value, (str, int, float)):
            del meta[key]
            found = (
                "a mapping"
                if isinstance(value, dict)
                else "a list"
                if isinstance(value, list)
                else repr(value)
            )
            line, col = _where(keys.get(key), first_line)
            diags.append(
                warning(
                    "page.frontmatter",
                    f"`{key}` must be text, found {found}: ignored",
                    source,
                    line,
                    col,
                )
            )
        elif key in ("openapi", "api") and not isinstance(value, str):
            del meta[key]
            line, col = _where(keys.get(key), first_line)
            diags.append(
                warning(
                    "page.frontmatter",
                    f'`{key}` must be text like "GET /users" or "spec.yaml GET /users", found {value!r}: ignored',
                    source,
                    line,
                    col,
                )
            )
    return meta, diags


def _where(mark: Any, first_line: int) -> tuple[int, int]:
    """Return the file (line, column) of a YAML mark (the first line of the YAML when unknown)."""
    if mark is None:
        return first_line, 1
    return first_line + mark.line, mark.column + 1
