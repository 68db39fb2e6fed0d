"""Time `docsgen openapi-check` on GitHub's REST spec against `redocly lint`, in the same run.

Usage: .venv/bin/python bench/openapi_check.py [--runs N] [--spec PATH] [--skip-reference]

Downloads the spec from npm (@octokit/openapi, cached like the tests) and installs @redocly/cli into
bench/.work on first use. openapi-spec-validator (the reference validator) is timed once for reference.
Prints a table and the ratios; writes bench/results/openapi_check.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / "bench" / ".work"
RESULTS = REPO / "bench" / "results"
REDOCLY_VERSION = "2.77.0"
sys.path.insert(0, str(REPO))

from tests.openapi_real import github_spec  # noqa: E402 - needs the repository on sys.path


def redocly() -> Path:
    """Install @redocly/cli into bench/.work (once) and return its executable."""
    exe = WORK / "node_modules" / ".bin" / "redocly"
    if not exe.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("npm is needed for the redocly comparison (apt-get install npm)")
        WORK.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                npm,
                "install",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                "--prefix",
                str(WORK),
                f"@redocly/cli@{REDOCLY_VERSION}",
            ],
            check=True,
        )
    return exe


def docsgen_command(spec: Path) -> list[str]:
    """Return the command line of `docsgen openapi-check` (the module directly if cli.py lacks it)."""
    docsgen = Path(sys.executable).parent / "docsgen"
    if docsgen.exists():
        probe = subprocess.run([str(docsgen), "openapi-check", "--help"], capture_output=True, check=False)
        if probe.returncode == 0:
            return [str(docsgen), "openapi-check", str(spec)]
    code = "import sys; from docsgen.openapi.check import openapi_check; openapi_check(sys.argv[1:])"
    return [sys.executable, "-c", code, str(spec)]


def timed(command: list[str], runs: int, env: dict | None = None) -> tuple[float, list[float], int, str]:
    """Run a command `runs` times; return (median seconds, all times, last exit code, last output tail)."""
    times = []
    result = None
    for _ in range(runs):
        started = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True, env=env, check=False, cwd=REPO)
        times.append(time.perf_counter() - started)
    assert result is not None
    tail = (result.stdout + result.stderr).strip().splitlines()[-1:] or [""]
    return statistics.median(times), times, result.returncode, tail[0][:160]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per tool (median is reported)")
    parser.add_argument("--spec", type=Path, help="spec to check (default: GitHub's api.github.com.json)")
    parser.add_argument("--skip-reference", action="store_true", help="do not time openapi-spec-validator")
    args = parser.parse_args()

    spec = args.spec or github_spec()
    env = {
        **os.environ,
        "REDOCLY_TELEMETRY": "off",
        "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true",
        "NO_COLOR": "1",
    }
    rows = {}
    rows["docsgen openapi-check"] = timed(docsgen_command(spec), args.runs)
    rows["redocly lint"] = timed([str(redocly()), "lint", str(spec), "--format=summary"], args.runs, env)
    if not args.skip_reference:
        rows["openapi-spec-validator"] = timed([sys.executable, "-m", "openapi_spec_validator", str(spec)], 1)

    size = spec.stat().st_size
    print(f"spec: {spec} ({size / 1e6:.1f} MB), {args.runs} run(s) each, median wall time")
    print(f"{'tool':26} {'seconds':>8}  {'exit':>4}  last line of output")
    for name, (median, _, code, tail) in rows.items():
        print(f"{name:26} {median:8.2f}  {code:>4}  {tail}")
    ours = rows["docsgen openapi-check"][0]
    for name, (median, *_rest) in rows.items():
        if name != "docsgen openapi-check":
            print(f"ratio {name} / docsgen openapi-check: {median / ours:.1f}x")

    RESULTS.mkdir(parents=True, exist_ok=True)
    report = {
        "spec": str(spec),
        "bytes": size,
        "runs": args.runs,
        "tools": {name: {"median": m, "times": t, "exit": c} for name, (m, t, c, _) in rows.items()},
    }
    (RESULTS / "openapi_check.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
