"""Pagefind's browser bundle made byte-identical across runs (its data files are gzip'd CBOR)."""

from __future__ import annotations

import gzip
import hashlib
import json
from typing import Any


def stable_bundle(files: dict[str, bytes]) -> dict[str, bytes]:
    """Make the bundle byte-identical across runs: Pagefind writes filter values and languages in hash-map order.

    Each filter file is rewritten with its values sorted and named after its content; the language's meta
    file (which lists the filter files) and pagefind-entry.json (which names the meta file) follow.
    """
    if "pagefind-entry.json" not in files:
        return files
    entry = json.loads(files["pagefind-entry.json"])
    languages = entry.get("languages") if isinstance(entry.get("languages"), dict) else {}
    for info in languages.values():
        meta_name = f"pagefind.{info.get('hash')}.pf_meta"
        if meta_name not in files:
            continue
        meta = _unpack(files[meta_name])
        if not (isinstance(meta, list) and len(meta) > 3 and meta[3]):
            continue  # no filters: Pagefind's output is already stable
        prefix = str(info["hash"]).rsplit("_", 1)[0]
        for pair in meta[3]:  # [filter name, filter file hash]
            name, values = _unpack(files.pop(f"filter/{pair[1]}.pf_filter"))
            data = _pack([name, sorted(values, key=lambda value: value[0])])
            pair[1] = f"{prefix}_{hashlib.sha256(data).hexdigest()[:7]}"
            files[f"filter/{pair[1]}.pf_filter"] = data
        meta[3].sort(key=lambda pair: pair[0])
        data = _pack(meta)
        info["hash"] = f"{prefix}_{hashlib.sha256(data).hexdigest()[:10]}"
        del files[meta_name]
        files[f"pagefind.{info['hash']}.pf_meta"] = data
    entry["languages"] = dict(sorted(languages.items()))
    files["pagefind-entry.json"] = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8"
    )
    return dict(sorted(files.items()))


_SIGNATURE = b"pagefind_dcd"


def _unpack(data: bytes) -> Any:
    """Decode a Pagefind data file: gzip'd (or not), the signature, then CBOR."""
    raw = data if data.startswith(_SIGNATURE) else gzip.decompress(data)
    if not raw.startswith(_SIGNATURE):
        raise ValueError("not a Pagefind data file")
    value, end = _cbor_decode(raw, len(_SIGNATURE))
    if end != len(raw):
        raise ValueError("trailing bytes in a Pagefind data file")
    return value


def _pack(value: Any) -> bytes:
    """Encode a Pagefind data file as Pagefind does: signature and CBOR, gzip'd (fixed mtime: stable bytes)."""
    out = bytearray(_SIGNATURE)
    _cbor_encode(value, out)
    return gzip.compress(bytes(out), mtime=0)


def _cbor_decode(data: bytes, at: int) -> tuple[Any, int]:
    """Decode the CBOR item at `at` (the subset Pagefind writes: integers, strings, arrays, maps)."""
    major, info = data[at] >> 5, data[at] & 31
    at += 1
    if info < 24:
        arg = info
    elif info <= 27:
        size = 1 << (info - 24)
        arg, at = int.from_bytes(data[at : at + size], "big"), at + size
    else:
        raise ValueError(f"unsupported CBOR item {data[at - 1]:#x}")
    if major == 0:
        return arg, at
    if major == 1:
        return -1 - arg, at
    if major == 2:
        return bytes(data[at : at + arg]), at + arg
    if major == 3:
        return data[at : at + arg].decode("utf-8"), at + arg
    if major == 4:
        items = []
        for _ in range(arg):
            item, at = _cbor_decode(data, at)
            items.append(item)
        return items, at
    if major == 5:
        mapping = {}
        for _ in range(arg):
            key, at = _cbor_decode(data, at)
            mapping[key], at = _cbor_decode(data, at)
        return mapping, at
    raise ValueError(f"unsupported CBOR major type {major}")


def _cbor_head(major: int, arg: int, out: bytearray) -> None:
    """Write a CBOR head in its shortest form."""
    if arg < 24:
        out.append(major << 5 | arg)
        return
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if arg < 1 << (8 * size):
            out.append(major << 5 | info)
            out += arg.to_bytes(size, "big")
            return
    raise ValueError("integer too large for CBOR")


def _cbor_encode(value: Any, out: bytearray) -> None:
    """Append the CBOR encoding of value (the subset _cbor_decode reads)."""
    if isinstance(value, bool) or value is None:
        raise ValueError("unsupported value in a Pagefind data file")
    if isinstance(value, int):
        if value >= 0:
            _cbor_head(0, value, out)
        else:
            _cbor_head(1, -1 - value, out)
    elif isinstance(value, bytes):
        _cbor_head(2, len(value), out)
        out += value
    elif isinstance(value, str):
        data = value.encode("utf-8")
        _cbor_head(3, len(data), out)
        out += data
    elif isinstance(value, list):
        _cbor_head(4, len(value), out)
        for item in value:
            _cbor_encode(item, out)
    elif isinstance(value, dict):
        _cbor_head(5, len(value), out)
        for key, item in value.items():
            _cbor_encode(key, out)
            _cbor_encode(item, out)
    else:
        raise ValueError(f"unsupported value in a Pagefind data file: {type(value).__name__}")
