"""Run hostile inputs with a deadline and a memory ceiling, so a regression fails a test instead of hanging it.

`run_cli` runs `python -m docsgen ...` and `run_python` a snippet, each in a child process limited by
`resource.setrlimit` (address space) and a wall-clock timeout; going over either fails the test with the time
it took. Deadlines are generous (the fixed code finishes in a small fraction of them, the old code took minutes).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

MEMORY = 2 * 1024**3  # bytes of address space for one child


def _limit(memory: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def _run(cmd: list[str], deadline: float, memory: int, **kwargs) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, "DOCSGEN_CACHE": "0", "DOCSGEN_WORKERS": "1", **kwargs.pop("env", {})}
    start = time.monotonic()
    try:
        done = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=deadline,
            preexec_fn=lambda: _limit(memory),
            env=env,
            **kwargs,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(cmd[:4])}... did not finish within {deadline} s")
    return done, time.monotonic() - start


def run_cli(
    *args: str | Path, deadline: float = 60, memory: int = MEMORY, **kwargs
) -> subprocess.CompletedProcess:
    """Run the docsgen CLI bounded; fail on a timeout, a signal or a traceback."""
    done, _ = _run([sys.executable, "-m", "docsgen", *map(str, args)], deadline, memory, **kwargs)
    assert done.returncode in (0, 1), (done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr[-3000:]
    return done


def run_python(code: str, deadline: float = 60, memory: int = MEMORY) -> tuple[str, float]:
    """Run a Python snippet bounded; return its stdout and the seconds it took (fails on any error)."""
    done, took = _run([sys.executable, "-c", code], deadline, memory)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout, took
