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
SHARED = REPO.parent / "shared"
REAL_SITES = SHARED / "corpus" / "real-sites"


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
