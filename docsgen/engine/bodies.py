"""The page cache's body files: the heavy parts of many page bodies in one file, as text, read back part by part.

A body file is a JSON line listing each entry's key and the byte lengths of its parts (HEAVY, in order; -1 for
None), then those parts one after the other: the HTML and Markdown as UTF-8 text (writing them costs a copy where
JSON escaped every quote of the HTML: a tenth of a cold build's rendering on API pages), the table of contents and
the API data as JSON. Nothing in it is executable; a file that does not add up is refused whole (ValueError).
"""

from __future__ import annotations

import json
from typing import Any

HEAVY = (
    "html",
    "toc",
    "text_html",
    "panel_html",
    "aside_html",
    "markdown",
    "search_html",
    "api_data",
)  # body file
JSON_PARTS = frozenset({"toc", "api_data"})  # of those, the parts that are not text (None or str)


def encode_body(parts: dict[str, Any]) -> tuple[list[int], bytes] | None:
    """Return a body's parts (HEAVY, in order) as their byte lengths (-1: None) and their bytes one after the other;
    None when a part cannot be written (text holding a lone surrogate)."""
    lengths, chunks = [], []
    try:
        for name in HEAVY:
            value = parts[name]
            if name in JSON_PARTS:
                value = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            elif value is None:
                lengths.append(-1)
                continue
            data = value.encode("utf-8")
            lengths.append(len(data))
            chunks.append(data)
    except (TypeError, ValueError):  # UnicodeEncodeError is a ValueError
        return None
    return lengths, b"".join(chunks)


def encode_bodies(bodies: dict[str, tuple[list[int], bytes]]) -> bytes:
    """Return a body file: a JSON line of [key, lengths] pairs, then every entry's bytes in that order."""
    keys = sorted(bodies)
    head = json.dumps([[key, bodies[key][0]] for key in keys], separators=(",", ":")).encode("utf-8")
    return b"\n".join([head, b"".join(bodies[key][1] for key in keys)])


class BodyPack:
    """A body file read back: each entry's parts decoded when asked for (get); any inconsistency raises ValueError."""

    def __init__(self, data: bytes) -> None:
        head, newline, self._data = data.partition(b"\n")
        rows = json.loads(head)
        if not newline or not isinstance(rows, list):
            raise ValueError("not a body file")
        self._where: dict[str, tuple[int, list[int]]] = {}
        offset = 0
        for row in rows:
            if not (isinstance(row, list) and len(row) == 2 and isinstance(row[0], str)):
                raise ValueError("not a body file")
            key, lengths = row
            if not (isinstance(lengths, list) and len(lengths) == len(HEAVY)):
                raise ValueError("not a body file")
            if not all(type(n) is int and n >= -1 for n in lengths):
                raise ValueError("not a body file")
            self._where[key] = (offset, lengths)
            offset += sum(n for n in lengths if n > 0)
        if offset != len(self._data):
            raise ValueError("the body file is not whole")

    def get(self, key: str) -> dict[str, Any] | None:
        """Return an entry's parts by name (None: no such entry); raise ValueError when they cannot be decoded."""
        if key not in self._where:
            return None
        offset, lengths = self._where[key]
        parts: dict[str, Any] = {}
        for name, length in zip(HEAVY, lengths, strict=True):
            if length < 0:
                parts[name] = None
                continue
            text = self._data[offset : offset + length].decode("utf-8")
            offset += length
            parts[name] = json.loads(text) if name in JSON_PARTS else text
        return parts
