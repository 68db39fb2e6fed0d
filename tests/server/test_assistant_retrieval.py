"""The assistant's retrieval on a real corpus site: fixtures/mintlify-docs (its English pages) built by docsgen,
asked the fixed questions of bench/assistant_questions.json; the page that answers each must be among the cited
pages. Plus the parts of the index that need no corpus: chunks, twin paths, translations, private builds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docsgen.server.retrieval import SiteIndex, chunks_of, translation_prefixes, twin_url

REPO = Path(__file__).resolve().parents[2]
QUESTIONS = json.loads((REPO / "bench" / "assistant_questions.json").read_text(encoding="utf-8"))["questions"]


@pytest.mark.slow
def test_the_right_page_is_cited_for_every_benchmark_question(tmp_path):
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    from insights import english_site

    index = SiteIndex(english_site(tmp_path / "out"))
    assert index.pages > 200
    missed = []
    for q in QUESTIONS:
        cited = {p.url for p in index.search(q["question"])}
        if q["page"] not in cited:
            missed.append((q["question"], q["page"], sorted(cited)))
    assert not missed, missed


def test_twins_are_cut_at_headings_and_named_by_their_page():
    title, parts = chunks_of("# Billing\n\nIntro.\n\n## Invoices\n\nMonthly.\n\n### Refunds\n\nFive days.\n")
    assert title == "Billing" and parts == [
        ("", "Intro."),
        ("Invoices", "Monthly."),
        ("Refunds", "Five days."),
    ]
    assert [twin_url(p) for p in ("index.md", "guides/setup.md", "guides/index.md")] == [
        "/",
        "/guides/setup",
        "/guides",
    ]
    urls = {"/a", "/b", "/c", "/fr/a", "/fr/b", "/fr/c", "/de/x", "/api/a"}
    assert translation_prefixes(urls) == {"fr"}


def write(root: Path, rel: str, text: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text(text, encoding="utf-8")


def test_translations_and_private_pages_stay_apart(tmp_path):
    for name in ("a", "b", "c"):
        write(tmp_path, f"{name}.md", f"# Page {name}\n\nThe zebrafish swims in {name}.\n")
        write(tmp_path, f"fr/{name}.md", f"# Page {name}\n\nLe zebrafish nage dans {name}.\n")
    index = SiteIndex(tmp_path)
    assert {p.url for p in index.search("zebrafish")} == {"/a", "/b", "/c"}
    assert {p.url for p in index.search("zebrafish", page="/fr/b")} == {"/fr/a", "/fr/b", "/fr/c"}
    manifest = {
        "pages": {
            "/a/": {"access": "public", "files": ["a.md"]},
            "/b/": {"access": "members", "files": ["b.md"]},
        }
    }
    write(tmp_path, "_access.json", json.dumps(manifest))
    assert {p.url for p in SiteIndex(tmp_path).search("zebrafish")} == {"/a"}
