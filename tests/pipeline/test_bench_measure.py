"""The benchmark's CPU time counts every process a command started, also those that outlive their parent
(docsgen's JavaScript sandboxes outlive the render workers that started them; their seconds were not counted)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO

# a child that burns 0.6 s of CPU after its parent (the command) has ended without waiting for it
ORPHAN = """
import os, time
if os.fork() == 0:
    start = time.process_time()
    while time.process_time() - start < 0.6:
        pass
    os._exit(0)
os._exit(0)
"""


def test_the_cpu_of_a_commands_orphans_is_counted():
    probe = (
        f"import sys; sys.path.insert(0, {str(REPO / 'bench')!r}); import measure\n"
        f"sample = measure.run([sys.executable, '-c', {ORPHAN!r}])\n"
        "print(sample.cpu, sample.returncode)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    cpu, code = done.stdout.split()
    assert code == "0"
    assert float(cpu) >= 0.5, done.stdout  # the parent alone used a few hundredths of a second
