"""`docsgen migrate` backend: fixtures/legacy-mint converts to a valid docs.json, located warnings, no overwrite."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from docsgen.common.errors import DocsgenError
from docsgen.config.legacy import migrate_mint_json, read_mint_json, write_migration

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "legacy-mint"
SCHEMA = json.loads((REPO / "schemas" / "docs.schema.json").read_text(encoding="utf-8"))


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return Path(shutil.copytree(FIXTURE, tmp_path / "site"))


def pages_of(node: object) -> list[str]:
    if isinstance(node, dict):
        return [p for key, value in node.items() for p in pages_of(value) if key != "global"]
    if isinstance(node, list):
        return [p for item in node for p in ([item] if isinstance(item, str) else pages_of(item))]
    return []


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_fixture_converts_to_schema_valid_docs_json_with_every_page():
    result = read_mint_json(FIXTURE)
    assert [e.message for e in Draft202012Validator(SCHEMA).iter_errors(result.data)] == []
    nav = result.data["navigation"]
    pages = pages_of(nav)
    assert len(pages) == 6 and len(set(pages)) == 6
    for page in pages:
        assert (FIXTURE / f"{page}.mdx").is_file(), page
    assert [t["tab"] for t in nav["tabs"]] == ["Guides", "API Reference"]
    assert [a["anchor"] for a in nav["tabs"][0]["anchors"]] == ["Documentation", "Essentials"]
    assert [a["anchor"] for a in nav["global"]["anchors"]] == ["Community", "Blog"]
    assert result.data["navbar"]["primary"] == {
        "type": "button",
        "label": "Dashboard",
        "href": "https://dashboard.acme.example.com",
    }
    assert set(result.data["footer"]["socials"]) == {"x", "github", "linkedin"}


def test_fixture_warnings_name_the_key_and_its_mint_json_line():
    text = (FIXTURE / "mint.json").read_text(encoding="utf-8")
    result = read_mint_json(FIXTURE)
    assert all(not d.is_error for d in result.diagnostics)
    by_path = {d.json_path: d for d in result.diagnostics}
    assert set(by_path) == {"colors.anchors", "topbarCtaButton.style", "layout"}
    layout = by_path["layout"]
    assert (layout.path, layout.line, layout.column) == ("mint.json", line_of(text, '"layout"'), 3)
    assert "'layout'" in layout.message
    assert by_path["colors.anchors"].line == line_of(text, '"anchors": {')


def test_write_migration_writes_docs_json_and_refuses_to_overwrite(site: Path):
    written = write_migration(site)
    assert written == site / "docs.json"
    data = json.loads(written.read_text(encoding="utf-8"))
    assert data == read_mint_json(site).data
    assert data["$schema"] == "https://mintlify.com/docs.json"
    before = written.read_bytes()
    with pytest.raises(DocsgenError) as info:
        write_migration(site)
    assert "already exists" in info.value.format_message()
    assert written.read_bytes() == before


def test_migrate_returns_warnings(site: Path):
    path, diags = migrate_mint_json(site)
    assert path.is_file()
    assert {d.json_path for d in diags} == {"colors.anchors", "topbarCtaButton.style", "layout"}


def test_malformed_mint_json_is_a_located_error(site: Path):
    (site / "mint.json").write_text('{\n  "name": "Acme",\n  "navigation": [,]\n}\n', encoding="utf-8")
    with pytest.raises(DocsgenError) as info:
        write_migration(site)
    [diag] = info.value.diagnostics
    assert (diag.path, diag.line, diag.column) == ("mint.json", 3, 18)
    assert not (site / "docs.json").exists()


def test_mint_json_without_navigation_is_refused(site: Path):
    (site / "mint.json").write_text('{"name": "Acme", "colors": {"primary": "#000000"}}', encoding="utf-8")
    with pytest.raises(DocsgenError) as info:
        write_migration(site)
    assert any(d.code == "legacy.navigation" for d in info.value.diagnostics)
    assert not (site / "docs.json").exists()


def test_missing_mint_json_is_an_error(tmp_path: Path):
    with pytest.raises(DocsgenError) as info:
        write_migration(tmp_path)
    assert "no mint.json" in info.value.format_message()


def test_loader_reads_a_mint_json_site_through_the_conversion():
    from docsgen.config import load_config

    config, diags = load_config(FIXTURE)
    assert config is not None, [d.format() for d in diags]
    assert not [d for d in diags if d.is_error]
    assert {d.json_path for d in diags if d.code == "legacy.dropped"} == {
        "colors.anchors",
        "topbarCtaButton.style",
        "layout",
    }
    assert config.name == "Acme Legacy Docs"
