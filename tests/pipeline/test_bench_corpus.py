"""The corpus case of the benchmark (bench/corpus.py) and the RESULTS.md merge (bench/results_file.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import corpus
import results_file

CONFIG = {"theme": "mint", "name": "Bench", "colors": {"primary": "#112233"}}


def site_files(pages: dict[str, str], **extra: object) -> dict[str, str]:
    config = {**CONFIG, "navigation": {"pages": [p.rsplit(".", 1)[0] for p in pages]}, **extra}
    return {"docs.json": json.dumps(config), **pages}


def test_corpus_sites_are_mintlify_docs_then_each_real_site_with_a_config(make_site, tmp_path):
    make_site({"docs.json": "{}"}, name="corpus/mintlify-docs")
    make_site({"mint.json": "{}"}, name="corpus/real-sites/b-legacy")
    make_site({"docs.json": "{}"}, name="corpus/real-sites/a-site")
    make_site({"README.md": "no config"}, name="corpus/real-sites/c-not-a-site")
    names = [p.name for p in corpus.corpus_sites(tmp_path / "corpus")]
    assert names == ["mintlify-docs", "a-site", "b-legacy"]
    assert corpus.corpus_sites(tmp_path / "absent") == []


def test_build_summary_urls_and_per_page_figures():
    line = "Built 1,059 pages"  # not docsgen's format: no thousands separator there
    assert corpus.built_summary(line) is None
    assert corpus.built_summary("x\nBuilt 71 pages (300 files) with 40 warning(s) in 1.5s -> out") == (71, 40)
    assert corpus.page_url("a/b.mdx") == "/a/b/"
    assert corpus.page_url("a/index.mdx") == "/a/"
    assert corpus.page_url("index.md") == "/"
    assert corpus.per_page(2.0, 100.0, 100) == "20.0 ms, 1024 KB"
    assert corpus.in_turn([["a b", "c"], ["d"]]) == ["sh", "-c", "'a b' c && d"]


def test_the_page_to_edit_is_the_median_sized_built_page(make_site, tmp_path):
    docs = make_site(
        {
            "docs.json": "{}",
            "small.mdx": "a",
            "mid.mdx": "a" * 50,
            "big.mdx": "a" * 500,
            "huge-not-built.mdx": "a" * 5000,
            "snippets/x.mdx": "a" * 60,
            "guide/index.mdx": "a" * 100,
        }
    )
    out = tmp_path / "out"
    for url in ("small", "mid", "big", "guide", "snippets/x"):
        (out / url).mkdir(parents=True)
        (out / url / "index.html").write_text("<p>page</p>")
    # built: small (1), mid (50), snippets/x (60), guide/index (100), big (500): the median is the third
    assert corpus.pick_edit_page(docs, out) == ("snippets/x.mdx", "/snippets/x/")
    assert corpus.pick_edit_page(docs, tmp_path / "nothing") is None


def test_api_site_names_each_spec_and_keeps_referenced_files(make_site, tmp_path):
    docs = make_site(
        {"docs.json": "{}", "api/a.yaml": "openapi: 3.1.0", "api/shared/common.json": "{}", "page.mdx": "x"}
    )
    root = corpus.write_api_site(docs, ["api/a.yaml"], tmp_path / "api")
    config = json.loads((root / "docs.json").read_text())
    assert config["navigation"]["groups"] == [{"group": "api/a.yaml", "openapi": "api/a.yaml"}]
    assert (root / "api" / "shared" / "common.json").is_file() and not (root / "page.mdx").exists()


def test_local_specs_are_the_files_the_build_uses(make_site):
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1"},
        "paths": {"/ping": {"get": {"summary": "Ping", "responses": {"200": {"description": "ok"}}}}},
    }
    docs = make_site(
        {
            "docs.json": json.dumps(
                {**CONFIG, "navigation": {"groups": [{"group": "API", "openapi": "spec/api.json"}]}}
            ),
            "spec/api.json": json.dumps(spec),
            "spec/unused.json": json.dumps(spec),
        }
    )
    assert corpus.local_specs(docs) == (["spec/api.json"], "")
    remote = make_site(
        {
            "docs.json": json.dumps(
                {
                    **CONFIG,
                    "navigation": {"groups": [{"group": "API", "openapi": "https://spec.invalid/o.json"}]},
                }
            )
        },
        name="remote",
    )
    assert corpus.local_specs(remote) == (
        [],
        "it names 1 spec(s) by URL, not fetched: this machine is offline",
    )


@pytest.mark.slow
def test_dev_session_times_first_page_and_edits_and_restores_the_page(make_site, tmp_path):
    docs = make_site(
        site_files({"index.mdx": "---\ntitle: Home\n---\nHello.\n", "guide.mdx": "Guide text.\n"})
    )
    original = (docs / "guide.mdx").read_bytes()
    env = {**corpus.os.environ, "DOCSGEN_CACHE_DIR": str(tmp_path / "cache"), "CI": "1"}
    docsgen = REPO / ".venv" / "bin" / "docsgen"
    if not docsgen.exists():
        docsgen = corpus.Path(sys.executable).parent / "docsgen"
    run = corpus.dev_session(docs, ("guide.mdx", "/guide/"), 2, env, docsgen)
    assert run.note == "" and run.first_served is not None and run.first_served > 0
    assert len(run.edits) == 2 and all(t > 0 for t in run.edits)
    assert run.rss_mb > 10 and run.cpu > 0
    assert (docs / "guide.mdx").read_bytes() == original  # the edited source is put back


OLD = """# Benchmark results

Written on day 1.

## Machine

| | |
| --- | --- |
| CPUs (nproc) | 2 |

## Targets (issue 9)

| case | target | measured | bar | verdict |
| --- | --- | --- | --- | --- |
| site | site target | 1 s | < 2 s | met |
| corpus | old corpus target | 9 s | < 2 s | NOT met |

## Cases

<!-- case: site; day 1, commit aaa -->
### Site

old site table

<!-- case: corpus; day 1, commit aaa -->
### Corpus

old corpus table
"""

NEW = """# Benchmark results

Written on day 2.

## Targets (issue 9)

| case | target | measured | bar | verdict |
| --- | --- | --- | --- | --- |
| corpus | new corpus target | 1 s | < 2 s | met |

## Cases

<!-- case: corpus; day 2, commit bbb -->
### Corpus

new corpus table
"""


def test_a_partial_run_replaces_its_cases_and_keeps_the_others():
    merged = results_file.merge(NEW, OLD, {"corpus"}, ("site", "corpus"))
    assert merged.startswith("# Benchmark results\n\nWritten on day 2.")
    assert "old corpus" not in merged and "new corpus table" in merged and "old site table" in merged
    targets = merged.split("## Targets")[1].split("## Cases")[0]
    rows = [line for line in targets.splitlines() if line.startswith(("| site |", "| corpus |"))]
    assert rows == [
        "| site | site target | 1 s | < 2 s | met |",
        "| corpus | new corpus target | 1 s | < 2 s | met |",
    ]
    assert merged.index("old site table") < merged.index("new corpus table")  # the cases' order
    runs = merged.split("## Runs")[1].split("## Targets")[0]
    assert "| site | day 1, commit aaa |" in runs and "| corpus | day 2, commit bbb |" in runs
    # merging again with the same run changes nothing
    assert results_file.merge(NEW, merged, {"corpus"}, ("site", "corpus")) == merged
    assert results_file.merge(merged, merged, {"corpus"}, ("site", "corpus")) == merged  # one Runs table


def test_a_run_of_every_case_has_no_runs_table():
    merged = results_file.merge(NEW, OLD, {"corpus", "site"}, ("site", "corpus"))
    assert "## Runs" not in merged and "old site table" not in merged


@pytest.mark.slow
def test_corpus_case_runs_end_to_end_and_says_when_the_corpus_is_absent(make_site, tmp_path):
    make_site(
        site_files({"index.mdx": "Home.\n", "a.mdx": "A page.\n", "b.mdx": "B page.\n"}), "c/real-sites/s1"
    )
    out = tmp_path / "RESULTS.md"
    out.write_text(OLD)  # a partial run keeps the site case of an earlier file
    base = [sys.executable, str(REPO / "bench" / "run.py"), "--no-peers", "--runs", "1", "--cases", "corpus"]
    base += ["--work", str(tmp_path / "work"), "--out", str(out)]
    result = subprocess.run(
        [*base, "--corpus", str(tmp_path / "c")], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-2000:]
    text = out.read_text()
    assert "old site table" in text and "old corpus table" not in text
    build = text.split("### Real sites (corpus): build")[1].split("###")[0]
    row = next(line for line in build.splitlines() if line.startswith("| s1 |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:4] == ["3", "0", "1"]  # pages, warnings, runs
    assert cells[4].endswith(" s") and cells[7].endswith(" KB")  # cold wall ... cold per page
    dev = text.split("### Real sites (corpus): docsgen dev")[1].split("###")[0]
    assert "| s1 | 3 |" in dev and "5 edits" in dev
    assert "- s1: its build uses no local OpenAPI spec" in text
    stages = text.split("### Real sites (corpus): stages of a cold build of s1")[1].split("```")[1]
    assert "render pages" in stages and "total" in stages
    result = subprocess.run(
        [*base, "--corpus", str(tmp_path / "none")], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0 and "Not run: no corpus at" in out.read_text()


class FakeReport:
    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.targets: list[tuple] = []
        self.data: dict = {}

    def text(self, title: str, body: str) -> None:
        self.texts[title] = body

    def target(self, *args) -> None:
        self.targets.append(args)


def test_a_harness_failure_on_one_site_is_reported_and_the_others_still_run(make_site, tmp_path, monkeypatch):
    make_site({"docs.json": "{}"}, name="c/real-sites/bad")
    make_site({"docs.json": "{}"}, name="c/real-sites/good")

    def fake(src, *args):
        if src.name == "bad":
            raise OSError("disk full")
        return corpus.SiteResult(src.name, 3, 1)

    monkeypatch.setattr(corpus, "measure_site", fake)
    report = FakeReport()
    corpus.case_corpus(
        report, tmp_path, 1, False, env=dict, docsgen=tmp_path, docsgen_job=None, root=tmp_path / "c"
    )
    build = report.texts["Real sites (corpus): build"]
    assert "| bad |" in build and "failed: harness error: OSError: disk full" in build and "| good |" in build
    assert (
        "- bad: not measured"
        in report.texts["Real sites (corpus): OpenAPI specs, docsgen vs redocly build-docs"]
    )
    assert [row["site"] for row in report.data["corpus"]] == ["bad", "good"]


def stats(label: str, wall: float, cpu: float, rss: float) -> corpus.measure.Stats:
    return corpus.measure.Stats(label, [corpus.measure.Sample(wall, cpu, rss, 0)])


def test_tables_give_per_page_figures_and_the_ratios_to_redocly():
    from corpus_report import write_tables

    site = corpus.SiteResult(
        "s", 300, 3, stats("cold", 2.0, 3.0, 100.0), stats("warm", 1.0, 1.0, 50.0), 200, 7
    )
    site.edited, site.specs, site.api_pages = "a.mdx", ["x.yaml", "y.yaml"], 40
    site.dev = [corpus.DevRun(4.0, 5.0, [0.05, 0.07, 0.06], 9.0, 150.0)]
    site.dev_warm = corpus.DevRun(3.0)
    site.api = [
        stats("redocly", 2.0, 4.0, 300.0),
        stats("each", 3.0, 2.0, 80.0),
        stats("all", 1.0, 1.0, 90.0),
    ]
    site.peer_note = "redocly build-docs fails on `z.yaml` (bad): left out of both sides"
    report = FakeReport()
    write_tables(report, [site], True, "1 / 2 / 3", "4 / 5 / 6")
    build = report.texts["Real sites (corpus): build"]
    assert (
        "| s | 200 | 7 | 3 | 2.00 s | 3.00 s | 100 MB | 10.0 ms, 512 KB | 1.00 s | 1.00 s | 50 MB | 5.0 ms, 256 KB |"
        in build
    )
    assert "at the start of the case 1 / 2 / 3, at its end 4 / 5 / 6" in build
    dev = report.texts["Real sites (corpus): docsgen dev"]
    assert (
        "| s | 200 | `a.mdx` | 4.00 s (5.00 s CPU) | 3.00 s | 60 ms (50-70, 3 edits) | 150 MB (768 KB/page) |"
        in dev
    )
    api = report.texts["Real sites (corpus): OpenAPI specs, docsgen vs redocly build-docs"]
    assert (
        "| s | 2 | 40 | 2.00 s / 4.00 s / 300 MB | 3.00 s / 2.00 s / 80 MB (x1.50 wall, x0.50 CPU) |" in api
    )
    assert "- s: redocly build-docs fails on `z.yaml` (bad)" in api
    targets = {t[0]: t for t in report.targets}
    assert targets["corpus: dev page edit to served page, slowest site (median)"][1:] == (
        "60 ms (s)",
        "< 200 ms",
        True,
    )
    assert targets["corpus: dev first page served after start, slowest site (empty cache)"][3] is True
