"""The command line: every command is listed and loads; feature modules are imported only when used."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from docsgen.cli import _FEATURE_COMMANDS, main


def test_help_lists_every_command():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    listed = {
        line.split()[0]
        for line in result.output.split("Commands:")[1].splitlines()
        if line.startswith("  ") and line.split()
    }
    assert {"build", "validate", "init", "migrate", *_FEATURE_COMMANDS} <= listed


@pytest.mark.parametrize("name", sorted(_FEATURE_COMMANDS))
def test_feature_commands_load_on_demand(name):
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert (
        f"Usage: main {name}" in result.output
        or f"Usage: docsgen {name}" in result.output
        or "Usage:" in result.output
    )


def test_importing_the_cli_does_not_load_feature_modules():
    code = (
        "import sys, docsgen.cli;"
        "heavy = [m for m in ('jsonschema', 'docsgen.build', 'docsgen.openapi.check', 'docsgen.server.cli',"
        " 'starlette', 'markdown_it', 'jinja2') if m in sys.modules];"
        "print(heavy)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
