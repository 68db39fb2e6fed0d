"""init, migrate and openapi scaffold never write through a symbolic link (dangling or not, at the file or on a
folder on its way): a located error, nothing created outside the folder."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bounded import run_cli

SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "T", "version": "1"},
    "paths": {
        "/pets": {
            "get": {"tags": ["pets"], "summary": "List pets", "responses": {"200": {"description": "ok"}}}
        }
    },
}


def outside_files(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "outside").iterdir())


def test_init_refuses_a_dangling_link_named_like_a_starter_file(tmp_path):
    (tmp_path / "outside").mkdir()
    site = tmp_path / "site"
    site.mkdir()
    (site / "docs.json").symlink_to(tmp_path / "outside" / "planted.json")  # dangling
    done = run_cli("init", "-o", site)
    assert done.returncode == 1
    assert "docs.json is a symbolic link; docsgen never writes through a link" in done.stderr
    assert "[init.exists]" in done.stderr
    assert outside_files(tmp_path) == []


def test_init_refuses_a_folder_link_on_the_way(tmp_path):
    (tmp_path / "outside").mkdir()
    site = tmp_path / "site"
    site.mkdir()
    (site / "writing").symlink_to(tmp_path / "outside")  # the starter writes writing/*.mdx
    done = run_cli("init", "-o", site)
    assert done.returncode == 1 and "is a symbolic link" in done.stderr
    assert outside_files(tmp_path) == []


def test_migrate_refuses_a_dangling_docs_json_link(tmp_path):
    (tmp_path / "outside").mkdir()
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "mint.json").write_text(
        json.dumps({"name": "M", "navigation": [{"group": "G", "pages": ["index"]}]})
    )
    (docs / "index.mdx").write_text("# Hi\n")
    (docs / "docs.json").symlink_to(tmp_path / "outside" / "docs.json")
    done = run_cli("migrate", docs)
    assert done.returncode == 1
    assert "is a symbolic link" in done.stderr and "[legacy.exists]" in done.stderr
    assert outside_files(tmp_path) == []


def test_scaffold_refuses_links_and_cuts_long_names(tmp_path):
    (tmp_path / "outside").mkdir()
    docs = tmp_path / "docs"
    (docs / "api").mkdir(parents=True)
    (docs / "spec.json").write_text(json.dumps(SPEC))
    (docs / "api" / "pets").symlink_to(tmp_path / "outside")
    done = run_cli("openapi", "scaffold", docs / "spec.json", "-o", docs / "api", cwd=docs)
    assert done.returncode == 1
    assert "is a symbolic link" in done.stderr and "[scaffold.exists]" in done.stderr
    assert outside_files(tmp_path) == []
    # a 400-character summary: a file name within the system's limit (was an internal error)
    SPEC["paths"]["/pets"]["get"]["summary"] = "List all the pets " * 22
    (docs / "long.json").write_text(json.dumps(SPEC))
    done = run_cli("openapi", "scaffold", docs / "long.json", "-o", docs / "long", cwd=docs)
    assert done.returncode == 0, done.stderr
    (written,) = (docs / "long" / "pets").iterdir()
    assert len(written.name.encode()) <= 124 and written.name.startswith("list-all-the-pets-")
