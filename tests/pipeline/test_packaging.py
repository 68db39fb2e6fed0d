"""A non-editable install ships the themes and the schema, and builds a site on its own."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.conftest import FIXTURES, REPO


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "docsgen").rglob("__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


def test_wheel_install_builds_a_site(tmp_path):
    target = tmp_path / "installed"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(REPO),
        ],
        check=True,
        cwd=tmp_path,
    )
    assert (target / "docsgen/themes/base/templates/page.html").is_file()
    assert (target / "docsgen/schemas/docs.schema.json").is_file()
    assert (target / "docsgen/py.typed").is_file()  # PEP 561: the package's type hints are used by checkers
    env = {**os.environ, "PYTHONPATH": str(target)}
    code = (
        "import sys, docsgen.resources as r, docsgen.cli as c;"
        f"assert r.themes_dir().is_relative_to({str(target)!r}), r.themes_dir();"
        "sys.argv=['docsgen','build',sys.argv[1],'-o',sys.argv[2]]; c.main()"
    )
    out = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-c", code, str(FIXTURES / "nav-tabs"), str(out)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "Built 6 pages" in result.stdout
    assert (out / "_static/site.css").is_file() and (out / "reference/errors/index.html").is_file()
    assert Path(out / "_nav").is_dir()
