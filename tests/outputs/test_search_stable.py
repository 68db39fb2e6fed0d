"""Search bundle stability: byte-identical across runs although Pagefind writes filters in hash-map order."""

from __future__ import annotations

import gzip

from docsgen.outputs.pagefind import SearchRecord, build_index
from docsgen.outputs.pagefind_bundle import _cbor_decode, _cbor_encode, _unpack

SIGNATURE = b"pagefind_dcd"


def records() -> list[SearchRecord]:
    """Pages in three languages, each with four filters of four values and some metadata."""
    out = []
    for i in range(24):
        lang = ("en", "fr", "de")[i % 3]
        tags = "".join(
            f'<span data-pagefind-filter="{k}:{k}{i % 4}"></span>' for k in ("version", "product", "tab", "x")
        )
        tags += f'<span data-pagefind-meta="crumbs:Group {i}"></span>'
        html = f"<main data-pagefind-body>{tags}<h1>Page {i}</h1><p>word{i} shared text</p></main>"
        out.append(SearchRecord(f"/p{i}/", lang, f'<html lang="{lang}"><body>{html}</body></html>'))
    return out


def test_bundle_is_byte_identical_across_runs_with_filters_and_languages():
    runs = [build_index(records()) for _ in range(4)]
    assert all(run == runs[0] for run in runs[1:])
    bundle = runs[0]
    filters = {rel: _unpack(data) for rel, data in bundle.items() if rel.startswith("filter/")}
    assert len(filters) == 12  # four filters in each of three languages
    for _name, values in filters.values():
        assert [v[0] for v in values] == sorted(v[0] for v in values)
    metas = {rel: _unpack(data) for rel, data in bundle.items() if rel.endswith(".pf_meta")}
    assert len(metas) == 3
    for meta in metas.values():
        named = [pair[0] for pair in meta[3]]
        assert named == sorted(named) == ["product", "tab", "version", "x"]
        assert all(f"filter/{pair[1]}.pf_filter" in bundle for pair in meta[3])


def test_cbor_reencoding_is_exact_for_every_pagefind_data_file():
    bundle = build_index(records())
    checked = 0
    for rel, data in bundle.items():
        if rel.endswith((".pf_meta", ".pf_filter", ".pf_index")):
            raw = gzip.decompress(data)
            value, end = _cbor_decode(raw, len(SIGNATURE))
            out = bytearray(SIGNATURE)
            _cbor_encode(value, out)
            assert end == len(raw) and bytes(out) == raw, rel
            checked += 1
    assert checked >= 18
