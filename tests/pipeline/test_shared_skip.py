"""Tests that need ../shared skip, naming why, in a clone without it; under CI (env CI set) they fail instead."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO

ONE_SHARED_TEST = "tests/pipeline/test_real_sites.py::test_the_vendored_corpus_is_the_shared_one"


def run_without_corpus(tmp_path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", ONE_SHARED_TEST],
        cwd=REPO,
        env={**base, "DOCSGEN_SHARED_DIR": str(tmp_path / "no-shared"), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_shared_test_skips_with_its_reason_when_the_corpus_is_absent(tmp_path):
    done = run_without_corpus(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout
    assert f"needs the real-site corpus at {tmp_path / 'no-shared' / 'corpus'}" in done.stdout


def test_under_ci_a_shared_test_fails_when_the_corpus_is_absent(tmp_path):
    done = run_without_corpus(tmp_path, CI="true")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 error" in done.stdout and "needs the real-site corpus" in done.stdout
