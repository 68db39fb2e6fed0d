"""A build stopped by SIGTERM or SIGINT leaves no temporary folder; one killed outright is cleaned by the next build,
which removes only its own recognisably named folders of processes no longer running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bounded import run_cli

CONFIG = {"theme": "mint", "name": "T", "colors": {"primary": "#112233"}}


def big_site(root: Path, pages: int = 1500) -> Path:
    root.mkdir()
    names = [f"p{i}" for i in range(pages)]
    (root / "docs.json").write_text(json.dumps({**CONFIG, "navigation": {"pages": names}}))
    for name in names:
        (root / f"{name}.mdx").write_text(f"# {name}\n\n" + "Some text with `code` and **bold**.\n\n" * 20)
    return root


def temporaries(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if ".tmp-" in p.name or ".old-" in p.name)


def _inherited_ignored_sigint() -> None:  # as a script's background job (or a test runner) starts it
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("inherited", [None, _inherited_ignored_sigint], ids=["default", "sigint-ignored"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_build_removes_its_temporary_folder(tmp_path, signum, inherited):
    docs = big_site(tmp_path / "docs")
    env = {**os.environ, "DOCSGEN_CACHE": "0", "DOCSGEN_WORKERS": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "docsgen", "build", str(docs), "-o", str(tmp_path / "out")],
        preexec_fn=inherited,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not temporaries(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert temporaries(tmp_path), "the build never made its temporary folder"
        time.sleep(0.3)  # well inside the build: pages are being written
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode != 0
    assert "Traceback" not in stderr, stderr[-2000:]
    assert temporaries(tmp_path) == []
    assert not (tmp_path / "out").exists()


def test_the_next_build_removes_only_stale_temporaries_of_its_output(make_site, tmp_path):
    docs = make_site(
        {"docs.json": json.dumps({**CONFIG, "navigation": {"pages": ["index"]}}), "index.mdx": "# Hi\n"}
    )
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    pid = int(dead.stdout)  # a process that has ended
    stale = [f".out.tmp-{pid}-abc123", f".out.old-{pid}-12-345"]
    kept = [
        f".out.tmp-{os.getpid()}-live",  # a running process (this one): maybe another build in progress
        ".out.tmp-q7x9",  # no PID: not recognisably a killed build's
        f".other.tmp-{pid}-abc",  # another output's
        f".out.tmp-{pid}-file",  # a file, not a folder
        f".out.tmp-{pid}-link",  # a link to a folder elsewhere: never followed, never removed
    ]
    for name in [*stale, *kept[:3]]:
        (tmp_path / name).mkdir()
        (tmp_path / name / "index.html").write_text("old")
    (tmp_path / kept[3]).write_text("a file")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "keep.txt").write_text("keep")
    (tmp_path / kept[4]).symlink_to(tmp_path / "elsewhere")
    done = run_cli("build", docs, "-o", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert temporaries(tmp_path) == sorted(kept)
    assert (tmp_path / "elsewhere" / "keep.txt").read_text() == "keep"
