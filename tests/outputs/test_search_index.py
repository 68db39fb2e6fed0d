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
    for path in (p for folder in (out / "pagefind").glob("**/fragment") for p in folder.iterdir()):
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
    # A site with versions: one bundle per version, listed for the browser's "search all" merge.
    folders = json.loads((out / "pagefind" / "indexes.json").read_text())
    assert len(folders) == 2 and all(name.startswith(("v1-", "v2-")) for name in folders)
    counts = []
    for name in folders:
        names = {p.name for p in (out / "pagefind" / name).iterdir()}
        assert {
            "pagefind.js",
            "pagefind-entry.json",
            "wasm.en.pagefind",
            "index",
            "fragment",
            "filter",
        } <= names
        assert not [n for n in names if "ui" in n or "highlight" in n]
        entry = json.loads((out / "pagefind" / name / "pagefind-entry.json").read_text())
        counts.append(entry["languages"]["en"]["page_count"])
    assert sum(counts) == 6 and min(counts) >= 1


def test_each_page_names_the_bundle_of_its_version(out):
    import re

    folders = set(json.loads((out / "pagefind" / "indexes.json").read_text()))
    for page, version in (("v1/setup/index.html", "v1"), ("v2/setup/index.html", "v2")):
        html = (out / page).read_text()
        (index,) = re.findall(r'data-index="pagefind/([^"]+)"', html)
        assert index in folders and index.startswith(version + "-")
        url = "/" + page.removesuffix("index.html")
        fragments_here = fragments_of(out / "pagefind" / index)
        assert url in fragments_here, f"{url} is in its own version's bundle"


def fragments_of(bundle) -> set[str]:
    found = set()
    for path in (bundle / "fragment").iterdir():
        data = gzip.decompress(path.read_bytes())
        found.add(json.loads(data[len(b"pagefind_dcd") :])["url"])
    return found


def test_generated_api_pages_are_indexed(tmp_path):
    build(FIXTURES / "api-site", tmp_path / "out")
    urls = set(fragments(tmp_path / "out"))
    assert "/api-reference/pets/list-pets/" in urls and "/api-reference/pet-adopted/" in urls


def test_languages_get_their_own_index(tmp_path):
    build(FIXTURES / "nav-languages", tmp_path / "out")
    entry = json.loads((tmp_path / "out" / "pagefind" / "pagefind-entry.json").read_text())
    assert len(entry["languages"]) >= 2
