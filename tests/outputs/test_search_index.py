"""Search index: which pages Pagefind indexes, with which filters and weights (read from the built bundle)."""

from __future__ import annotations

import gzip
import json

import pytest

from docsgen.build import build
from tests.conftest import FIXTURES

SITE = FIXTURES / "site-features"


def fragments(out) -> dict[str, dict]:
    """Return {url: fragment} of every indexed page (Pagefind fragments are gzip'd JSON after a signature)."""
    found = {}
    for path in (out / "pagefind" / "fragment").iterdir():
        data = gzip.decompress(path.read_bytes())
        assert data.startswith(b"pagefind_dcd")
        record = json.loads(data[len(b"pagefind_dcd") :])
        found[record["url"]] = record
    return found


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    target = tmp_path_factory.mktemp("search") / "out"
    build(SITE, target)
    return target


def test_index_leaves_out_hidden_noindex_unlisted_and_unsearchable_pages(out):
    assert sorted(fragments(out)) == [
        "/",
        "/archive/kept/",
        "/quickstart/",
        "/reference/widgets/",
        "/v1/setup/",
        "/v2/setup/",
    ]


def test_records_carry_version_filter_crumbs_and_boost(out):
    records = fragments(out)
    assert records["/v1/setup/"]["filters"] == {"version": ["v1"]}
    assert records["/v2/setup/"]["filters"] == {"version": ["v2"]}
    assert records["/reference/widgets/"]["meta"]["boost"] == "3"
    assert records["/reference/widgets/"]["meta"]["crumbs"] == "Reference"
    assert records["/quickstart/"]["meta"]["title"] == "Quickstart"
    assert "zebrafish widget" in records["/quickstart/"]["content"]


def test_bundle_ships_only_what_the_browser_needs(out):
    names = {p.name for p in (out / "pagefind").iterdir()}
    assert {"pagefind.js", "pagefind-entry.json", "wasm.en.pagefind", "index", "fragment", "filter"} <= names
    assert not [n for n in names if "ui" in n or "highlight" in n]
    entry = json.loads((out / "pagefind" / "pagefind-entry.json").read_text())
    assert entry["languages"]["en"]["page_count"] == 6


def test_generated_api_pages_are_indexed(tmp_path):
    build(FIXTURES / "api-site", tmp_path / "out")
    urls = set(fragments(tmp_path / "out"))
    assert "/api-reference/pets/list-pets/" in urls and "/api-reference/pet-adopted/" in urls


def test_languages_get_their_own_index(tmp_path):
    build(FIXTURES / "nav-languages", tmp_path / "out")
    entry = json.loads((tmp_path / "out" / "pagefind" / "pagefind-entry.json").read_text())
    assert len(entry["languages"]) >= 2
