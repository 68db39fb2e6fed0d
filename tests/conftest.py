"""Shared test fixtures: tiny sites written from dicts, and Debian's chromium for Playwright."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("DOCSGEN_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
# Mintlify's own docs (MIT, vendored as they are: fixtures/mintlify-docs/LICENSE); the README's test command needs
# nothing outside the repository. Tests of the other real sites need ../shared and carry the `shared` marker.
CORPUS = FIXTURES / "mintlify-docs"
# DOCSGEN_SHARED_DIR: for tests/pipeline/test_shared_skip.py, which runs a shared test without the corpus
SHARED = Path(os.environ.get("DOCSGEN_SHARED_DIR") or REPO.parent / "shared")
REAL_SITES = SHARED / "corpus" / "real-sites"
# Google fonts named by test sites are never fetched from the internet: the CSS2 API base points at a closed port
# (builds warn fonts.google at once); tests/render/test_google_fonts.py starts its own stand-in server.
os.environ.setdefault("DOCSGEN_GOOGLE_FONTS_URL", "http://127.0.0.1:9")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's chromium: Playwright's own browser download cannot work here."""
    if not Path(CHROMIUM).exists():
        message = f"chromium not found at {CHROMIUM}: install Debian's chromium (see .ci/run)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--disable-gpu", "--disable-quic"],
    }


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write {relative path: content} under root and return root."""
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def make_site(tmp_path):
    """Return a function writing a docs folder from a dict: make_site({"docs.json": ..., "index.mdx": ...})."""

    def make(files: dict[str, str | bytes], name: str = "docs") -> Path:
        return write_tree(tmp_path / name, files)

    return make


# Markers kept true without anyone remembering them: a test that drives chromium is `browser`; a test that builds
# a real site, fetches real specs or runs generated hostile inputs is `slow` (`pytest -m "not browser and not
# slow"` is the quick loop while editing).
_BROWSER_FIXTURES = {"page", "browser", "context", "browser_context_args", "chromium"}
_SLOW_FILES = {
    "test_hostile_inputs.py",
    "test_regex_fuzz.py",
    "test_real_sites.py",
    "test_corpus.py",
    "test_bench_smoke.py",
    "test_openapi_real_build.py",
    "test_openapi_render_real.py",
    "test_openapi_corpus_urls.py",
    "test_mdx_corpus.py",
    "test_react_corpus.py",
    "test_server_isolation.py",
    "test_docs_site.py",
}


def pytest_collection_modifyitems(items):
    for item in items:
        name = item.path.name
        if "_browser" in name or _BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        if name in _SLOW_FILES:
            item.add_marker(pytest.mark.slow)


def shared_corpus_missing() -> str | None:
    """Return why the `shared` tests cannot run here (../shared/corpus absent), or None when they can."""
    if REAL_SITES.is_dir() and (SHARED / "corpus" / "mintlify-docs").is_dir():
        return None
    return (
        f"needs the real-site corpus at {SHARED / 'corpus'} (../shared beside the repository), which is absent; "
        "CI (env CI set) requires it"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """A `shared` test skips, with the reason, in a clone without ../shared; under CI (env CI set) it fails."""
    if item.get_closest_marker("shared") is None:
        return
    reason = shared_corpus_missing()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)
