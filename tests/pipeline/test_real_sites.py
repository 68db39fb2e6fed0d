"""Real Mintlify repositories (../shared/corpus) build unchanged and keep their content (bench/compat.py measures).

These tests need ../shared beside the repository: they carry the `shared` marker and run as a separate step of
.ci/run. Each site is built once, through the CLI as a user runs it; the tests then read the measurements.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.conftest import CORPUS, REAL_SITES, REPO

pytestmark = pytest.mark.shared

_spec = importlib.util.spec_from_file_location("compat", REPO / "bench" / "compat.py")
assert _spec and _spec.loader
compat = importlib.util.module_from_spec(_spec)
sys.modules["compat"] = compat
_spec.loader.exec_module(compat)

SITES = sorted(p.name for p in REAL_SITES.iterdir() if p.is_dir()) if REAL_SITES.is_dir() else ["(missing)"]
MINTLIFY_DOCS = (
    REAL_SITES.parent / "mintlify-docs"
)  # its build and warnings are tested by tests/pipeline/test_corpus.py
ALL_SITES = ["mintlify-docs", *SITES]  # the content measures cover the whole corpus

# Warnings that stay on these sites, each a documented kind (docs/reference/warnings.mdx) that is either a defect of
# the site's own source or a thing the corpus left out: media files (asset.missing),
# remote specs with no copy on a machine without internet (openapi.network).
EXPECTED_KINDS = {
    "asset.missing",
    "mdx.jsx-import",
    "openapi.network",
    "openapi.unavailable",
    "link.broken",
    "mdx.unknown-component",
    "mdx.unknown-icon",
    "mdx.missing-prop",
    "mdx.expression",
    "nav.missing-page",
    "nav.several-patterns",
    "openapi.unknown-operation",
    "config.unknown-field",
    "fonts.google",
    "legacy.dropped",
    "seo.no-site-url",
    "integrations.unsupported",
    "openapi.path-parameter",
    "openapi.extension",
    "openapi.duplicate-parameter",
    "write.path-taken",
    "mdx.missing-snippet",  # agno: <Snippet file> naming files that are not in the repository
    "page.encoding",  # langchain: two pages with NUL bytes
    "openapi.unresolved-ref",  # spree: store.yaml's MeResponse names #/components/schemas/AdminUser, not defined
    "customize.node-script",  # traceloop: Node.js build scripts (require()) kept in the docs folder
    # agno, coinbase, continue, traceloop: feedback.suggestEdit/raiseIssue on; Mintlify knows the repository from
    # its GitHub app, docsgen from feedback.repository or the git remote, which the corpus copies left out (no .git)
    "feedback.no-repository",
}


class _Reports:
    """Each site built and measured once, the first time a test asks for it: one site's build counts against
    one test's time limit (pytest-timeout), where building the 13 sites up front in the fixture made a loaded
    machine's slow corpus fail every test of the module at once."""

    def __init__(self, work):
        self.work = work
        self.done: dict[str, object] = {}

    def __getitem__(self, name: str):
        if name not in self.done:
            site = MINTLIFY_DOCS if name == "mintlify-docs" else REAL_SITES / name
            report = compat.build_site(site, self.work / name, name)
            if (self.work / name).is_dir():
                compat.measure_pages(site, self.work / name, report, worst=20)
            self.done[name] = report
        return self.done[name]


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    if not REAL_SITES.is_dir():
        pytest.fail(
            f"the real-site corpus is missing at {REAL_SITES}: these tests need ../shared beside the repo"
        )
    return _Reports(tmp_path_factory.mktemp("real-sites"))


@pytest.mark.parametrize("name", SITES)
def test_site_builds_without_errors(reports, name):
    report = reports[name]
    assert not report.traceback, f"{name}: a traceback reached the user"
    assert report.exit_code == 0, f"{name}: exit {report.exit_code}, errors {report.errors}"
    assert report.pages > 0


# bench/compat.py reads each source page as a reader sees it (markdown-it tokens, snippets inlined): every page keeps
# at least 99 % of its text units. No page is exempt.
SITE_FIDELITY = 0.999  # share of all source text units of a site found in its built pages
PAGE_FIDELITY = 0.99  # every page


@pytest.mark.parametrize("name", ALL_SITES)
def test_every_page_keeps_its_text(reports, name):
    report = reports[name]
    assert report.fidelity is not None, f"{name} built nothing"
    assert report.not_built == [], f"{name}: pages with no HTML: {report.not_built[:10]}"
    assert report.fidelity >= SITE_FIDELITY, f"{name}: {report.fidelity:.4f} of the source text found"
    lost = [w for w in report.worst if w["fidelity"] < PAGE_FIDELITY]
    assert report.below_99 == 0 and not lost, f"{name}: pages under {PAGE_FIDELITY:.0%} of their text: {lost}"


@pytest.mark.parametrize("name", ALL_SITES)
def test_no_raw_mdx_reaches_a_reader(reports, name):
    report = reports[name]
    assert len(report.raw_mdx) == 0, f"{name}: {report.raw_mdx[:5]}"


@pytest.mark.parametrize("name", SITES)
def test_remaining_warnings_are_documented_kinds(reports, name):
    unexpected = {code: n for code, n in reports[name].warnings.items() if code not in EXPECTED_KINDS}
    assert not unexpected, f"{name}: {unexpected}"


def test_the_measure_itself_sees_lost_content(tmp_path):
    """The fidelity measure is not blind: a page whose build dropped a line scores below 99 %."""
    site = tmp_path / "site"
    (site / "snippets").mkdir(parents=True)
    (site / "page.mdx").write_text(
        "---\ntitle: T\n---\nimport Intro from '/snippets/intro.mdx';\n\n<Intro />\n\n"
        + "".join(f"Line number {n} of the page.\n\n" for n in range(45))
        + "| Column | Other |\n| --- | --- |\n| cell `a \\| b` | value |\n",
        encoding="utf-8",
    )
    (site / "snippets" / "intro.mdx").write_text("Snippet sentence here.\n", encoding="utf-8")
    out = tmp_path / "out" / "page"
    out.mkdir(parents=True)
    body = "".join(f"<p>Line number {n} of the page.</p>" for n in range(45))
    html = f"<html><body><p>Snippet <b>sentence</b> here.</p>{body}<th>Column</th><th>Other</th><td>cell <code>a | b</code></td><td>value</td>"
    (out / "index.html").write_text(html + "</body></html>", encoding="utf-8")
    report = compat.SiteReport("t", 0, 0.0, False)
    (page,) = compat.measure_pages(site, tmp_path / "out", report)
    assert page.units == 50 and page.found == 50, page.missing
    (out / "index.html").write_text(html.replace("<p>Line number 42 of the page.</p>", ""), encoding="utf-8")
    (page,) = compat.measure_pages(site, tmp_path / "out", report)
    assert page.missing == ["Line number 42 of the page."] and report.below_99 == 1


def test_the_vendored_corpus_is_the_shared_one():
    """fixtures/mintlify-docs is an unchanged copy of ../shared/corpus/mintlify-docs."""
    shared = REAL_SITES.parent / "mintlify-docs"
    ours = sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*") if p.is_file())
    theirs = sorted(p.relative_to(shared).as_posix() for p in shared.rglob("*") if p.is_file())
    assert ours == theirs
    assert all((CORPUS / rel).read_bytes() == (shared / rel).read_bytes() for rel in ours)
