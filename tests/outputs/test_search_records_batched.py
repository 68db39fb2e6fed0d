"""A search bundle's records file (kept for the next build) is appended to once many pages' records wait, not once
a page: a cold build of 40 pages opened it 40 times."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.build import build
from docsgen.outputs.search_store import records_file
from tests.conftest import write_tree

CONFIG = {"name": "R", "theme": "mint", "colors": {"primary": "#112233"}, "navigation": {"pages": []}}


def test_records_are_written_in_batches_and_all_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("DOCSGEN_CACHE", raising=False)
    pages = {f"page-{n}.mdx": f"---\ntitle: Page {n}\n---\n\nText of page {n}.\n" for n in range(40)}
    config = dict(CONFIG, navigation={"pages": [f"page-{n}" for n in range(40)]})
    docs = write_tree(tmp_path / "docs", {"docs.json": json.dumps(config), **pages})
    appended: list[str] = []
    real_open = Path.open

    def counted(self, mode="r", *args, **kwargs):
        if "a" in mode and "records" in self.name:
            appended.append(self.name)
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", counted)
    build(docs, tmp_path / "out", workers=1)
    assert 1 <= len(appended) <= 2, appended  # once (the rest at the end), not once per page
    lines = records_file(docs, "pagefind").read_text(encoding="utf-8").splitlines()
    urls = sorted(json.loads(line)[2] for line in lines)
    assert len(urls) == 40 and all(f"page-{n}" in " ".join(urls) for n in range(40))
