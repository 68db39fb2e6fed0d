"""Run one deployment build in a child process with a wall-clock and a memory limit.

A build reads author-controlled input (docs folder, specs fetched from URLs). Whatever it does (segfault in a C
parser, endless loop, unbounded allocation), only the child dies: the server records a failed deployment with a
readable reason and keeps serving. The child is started with `python -m docsgen.server.isolated_build`, sets its
own RLIMIT_AS before importing the build, runs in its own session (so a timeout kills it and anything it spawned)
and reports through a JSON file.
"""

from __future__ import annotations

import atexit
import contextlib
import faulthandler
import importlib
import json
import logging
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from docsgen.server.limits import DEFAULT_BUILD_MEMORY, DEFAULT_BUILD_TIMEOUT

DEFAULT_TARGET = "docsgen.server.isolated_build:default_build"
OUT_OF_MEMORY_EXIT = 86  # the child's exit status when the build hit the memory limit
LOG_TAIL = 2000  # characters of the child's stderr quoted when it fails without a report
log = logging.getLogger("docsgen.server")
_running: set[subprocess.Popen] = set()
_running_lock = threading.Lock()
_stopping = threading.Event()


@dataclass(frozen=True)
class BuildLimits:
    """Wall-clock seconds and address-space bytes one build may use (0 disables a limit)."""

    timeout: float = DEFAULT_BUILD_TIMEOUT
    memory: int = DEFAULT_BUILD_MEMORY


@dataclass
class Outcome:
    """What a build produced: success with its summary, or failure with diagnostics as JSON objects."""

    ok: bool
    summary: str
    errors: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)


def default_build(docs_dir: Path, out_dir: Path, strict: bool = False) -> object:
    """Build a docs folder with docsgen's pipeline (the target deployments run unless told otherwise)."""
    from docsgen.build import build  # imported late: the build pipeline is heavy

    return build(docs_dir, out_dir, strict=strict)


def summarize(result: object) -> tuple[str, list[dict]]:
    """Turn a BuildResult into a one-line summary and its warnings."""
    diagnostics = list(getattr(result, "diagnostics", None) or [])
    warnings = [d.to_json() for d in diagnostics if hasattr(d, "to_json") and not d.is_error]
    parts = ["build succeeded"]
    pages = getattr(result, "pages", None)
    if isinstance(pages, int):
        parts.append(f"{pages} page(s)")
    files = getattr(result, "files", None)
    if isinstance(files, int) and files:
        parts.append(f"{files} file(s)")
    parts.append(f"{len(warnings)} warning(s)")
    seconds = getattr(result, "seconds", None)
    summary = ", ".join(parts[:1]) + ": " + ", ".join(parts[1:])
    if isinstance(seconds, float):
        summary += f" in {seconds:.2f}s"
    return summary, warnings


def failure(code: str, summary: str, message: str) -> Outcome:
    """A failed build that produced no diagnostics of its own."""
    return Outcome(False, f"build failed: {summary}", [{"code": code, "message": message}], [])


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown signal"


def _kill_group(process: subprocess.Popen) -> None:
    """Kill the child and everything it started (it leads its own process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


@atexit.register
def stop_all() -> None:
    """Kill every running build (the server is exiting; the deployments are failed at its next start)."""
    with _running_lock:
        _stopping.set()
        for process in list(_running):
            _kill_group(process)


def _explain_exit(status: int, limits: BuildLimits, log_tail: str) -> Outcome:
    """Describe a child that ended without a report."""
    if status == OUT_OF_MEMORY_EXIT:
        mib = limits.memory // (1024 * 1024)
        return failure(
            "deploy.out-of-memory",
            f"out of memory (limit {mib} MiB)",
            f"the build needed more than {mib} MiB of memory and was stopped (server option --build-memory)",
        )
    if status == -signal.SIGKILL and _stopping.is_set():
        return failure("deploy.interrupted", "interrupted", "the server stopped during the build")
    if status < 0:
        name = signal_name(-status)
        reason = f"killed by signal {-status} ({name})"
        hints: dict[int, str] = {
            signal.SIGSEGV: "a crash, for example a parser overflowing its stack on deeply nested input",
            signal.SIGKILL: "possibly the system's out-of-memory killer",
        }
        hint = hints.get(-status, "")
        message = f"the build process was {reason}" + (f": {hint}" if hint else "")
        return failure("deploy.crashed", reason, message)
    return failure(
        "deploy.crashed",
        f"the build process exited with status {status}",
        f"the build process exited with status {status} without a result" + _quoted(log_tail),
    )


def _quoted(log_tail: str) -> str:
    return f"; its last output: {log_tail.strip()}" if log_tail.strip() else ""


def run_isolated(
    docs_dir: Path, out_dir: Path, strict: bool, limits: BuildLimits, target: str = DEFAULT_TARGET
) -> Outcome:
    """Run `target(docs_dir, out_dir, strict=...)` in a child process within `limits`; never raises for its faults."""
    with tempfile.TemporaryDirectory(prefix="docsgen-deploy-") as tmp:
        report = Path(tmp) / "result.json"
        log_path = Path(tmp) / "stderr.log"
        command = [
            sys.executable,
            "-m",
            "docsgen.server.isolated_build",
            target,
            str(docs_dir),
            str(out_dir),
            str(report),
            str(limits.memory),
            "strict" if strict else "lenient",
            str(os.getpid()),
        ]
        with open(log_path, "wb") as output:
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=output, stderr=output, start_new_session=True
            )
            with _running_lock:
                _running.add(process)
            try:
                status = process.wait(limits.timeout or None)
            except subprocess.TimeoutExpired:
                _kill_group(process)
                process.wait()
                return failure(
                    "deploy.timeout",
                    f"timed out after {limits.timeout:g} s",
                    f"the build did not finish within {limits.timeout:g} s and was stopped "
                    "(server option --build-timeout)",
                )
            finally:
                _kill_group(process)  # anything the build started and left running
                with _running_lock:
                    _running.discard(process)
        tail = log_path.read_bytes()[-LOG_TAIL:].decode("utf-8", "replace")
        if status == 0 and report.exists():
            data = json.loads(report.read_text(encoding="utf-8"))
            outcome = Outcome(data["ok"], data["summary"], data["errors"], data["warnings"])
        else:
            outcome = _explain_exit(status, limits, tail)
        if not outcome.ok and tail.strip():
            log.warning("build of %s failed (%s); its last output:\n%s", docs_dir, outcome.summary, tail)
        return outcome


# The child ---------------------------------------------------------------------------------------------------


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process if the server dies (best effort; other systems rely on stop_all)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the server died before prctl took effect
        os._exit(1)


def outcome_of(build_fn: Callable[..., object], docs_dir: Path, out_dir: Path, strict: bool) -> Outcome:
    """Call a build function here and describe its result; a DocsgenError is a failure with its diagnostics."""
    from docsgen.common.errors import DocsgenError

    try:
        result = build_fn(docs_dir, out_dir, strict=strict)
    except DocsgenError as exc:
        errors = [d.to_json() for d in exc.diagnostics if d.is_error]
        warnings = [d.to_json() for d in exc.diagnostics if not d.is_error]
        summary = f"build failed: {len(errors)} error(s), {len(warnings)} warning(s)"
        return Outcome(False, summary, errors, warnings)
    summary, warnings = summarize(result)
    return Outcome(True, summary, [], warnings)


def child_main(argv: list[str]) -> int:
    """Entry point of the child: limit memory, build, write the report; exit 86 when memory ran out."""
    target, docs_dir, out_dir, report, memory, mode, parent = argv
    _die_with_parent(int(parent))
    faulthandler.enable()  # a crash prints the Python stack to the log the server keeps
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash leaves no core file in the docs folder
    if int(memory) > 0:
        resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
    try:
        try:
            module_name, _, attr = target.partition(":")
            build_fn = getattr(importlib.import_module(module_name), attr)
            data = asdict(outcome_of(build_fn, Path(docs_dir), Path(out_dir), mode == "strict"))
        except MemoryError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bug or an I/O problem: reported, with the traceback in the server's log
            import traceback

            traceback.print_exc()
            message = f"{type(exc).__name__}: {exc}"
            error = {"code": "deploy.internal", "message": message}
            data = {"ok": False, "summary": "build failed: internal error", "errors": [error], "warnings": []}
        partial = Path(report + ".part")
        partial.write_text(json.dumps(data), encoding="utf-8")
        partial.replace(report)
    except MemoryError:
        os._exit(OUT_OF_MEMORY_EXIT)
    return 0


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1:]))
