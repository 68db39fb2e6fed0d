"""The README's top: two set-up commands that keep apart, and a command table naming every command."""

from __future__ import annotations

import re

from docsgen.cli import main
from tests.conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def test_readme_keeps_the_user_install_and_the_test_venv_apart():
    """Step 1 (a user's install of docsgen) and step 2 (.ci/test.sh, editable, for the tests) use two venvs, so
    either order works and neither replaces the other's docsgen under a running `docsgen dev`."""
    block = README.split("```bash", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert len(commands) == 2 and commands[1] == "bash .ci/test.sh", commands
    step1 = re.search(r"python3 -m venv (\S+)", commands[0]).group(1)
    test_sh = (REPO / ".ci" / "test.sh").read_text(encoding="utf-8")
    step2 = re.search(r"python3 -m venv (\S+)", test_sh).group(1)
    assert step1 != step2 and f"{step1}/bin/pip install -q ." in commands[0]
    assert f"{step2}/bin/pip install" in test_sh


def test_the_command_table_lists_every_command_of_docsgen_help():
    import click

    ctx = click.Context(main)
    commands = set(main.list_commands(ctx))
    assert {"a11y", "mcp", "build", "server"} <= commands
    table = README.split("## Commands", 1)[1].split("\n\n", 2)[1]
    listed = set(re.findall(r"^\| `docsgen ([a-z0-9-]+)", table, re.M))
    assert listed == commands
