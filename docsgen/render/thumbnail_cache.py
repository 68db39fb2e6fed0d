"""The thumbnails of one docs folder kept between builds: one pack file, read whole and written whole.

A file per image cost more than drawing it: on mintlify-docs (1,059 images) creating, renaming and checking the
files took about 1.1 s of CPU in a cold build, against about 2.4 s for the drawing. The pack is written (to a
temporary file, then renamed over the old one) only when the build's set of images differs from the pack's, and it
then holds exactly that set, so the cache keeps one site's thumbnails. A pack that cannot be read is an empty one.

Layout: MAGIC, the index's length (8 bytes, big-endian), the index (JSON: key -> [offset, size] in the data), the
data (the JPEGs one after another).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

MAGIC = b"docsgen-thumbnails-1\n"
NAME = "thumbnails.pack"
MAX_INDEX = 64_000_000


def read_pack(folder: Path) -> dict[str, bytes]:
    """Return the images of the folder's pack by key ({} when there is none or it is not a whole pack)."""
    try:
        data = (folder / NAME).read_bytes()
    except OSError:
        return {}
    start = len(MAGIC) + 8
    if not data.startswith(MAGIC) or len(data) < start:
        return {}
    size = int.from_bytes(data[len(MAGIC) : start], "big")
    if size > min(MAX_INDEX, len(data) - start):
        return {}
    try:
        index = json.loads(data[start : start + size])
    except ValueError:
        return {}
    body = memoryview(data)[start + size :]
    images: dict[str, bytes] = {}
    if not isinstance(index, dict):
        return {}
    for key, where in index.items():
        if not (
            isinstance(where, list) and len(where) == 2 and all(type(v) is int and v >= 0 for v in where)
        ):
            return {}
        offset, length = where
        if offset + length > len(body):
            return {}
        images[key] = bytes(body[offset : offset + length])
    return images


def write_pack(folder: Path, images: dict[str, bytes]) -> None:
    """Replace the folder's pack with exactly these images (a cache that cannot be written only costs time)."""
    index, offset = {}, 0
    for key, data in images.items():
        index[key] = [offset, len(data)]
        offset += len(data)
    head = json.dumps(index, separators=(",", ":")).encode()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f"{NAME}.{os.getpid()}-{threading.get_ident()}.tmp"
        with temporary.open("wb") as out:
            out.write(MAGIC + len(head).to_bytes(8, "big") + head)
            for data in images.values():
                out.write(data)
        temporary.replace(folder / NAME)
    except OSError:
        pass
