"""The command line: every command is listed and loads; feature modules are imported only when used."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from docsgen.cli import _FEATURE_COMMANDS, main
from tests.conftest import FIXTURES


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


def test_a_plain_build_does_not_load_modules_it_never_uses(make_site, tmp_path):
    """A build of a site without thumbnails imports none of these: the version (importlib.metadata, with zipfile,
    csv...), importlib.resources and concurrent.futures (thumbnails) are loaded where used, not at every start."""
    site = make_site(
        {
            "docs.json": '{"theme": "mint", "name": "X", "colors": {"primary": "#112233"},'
            ' "navigation": {"pages": ["index"]}}',
            "index.mdx": "---\ntitle: Home\n---\n## Hi\n\nHello.\n\n```python\nx = 1\n```\n\n| a |\n| - |\n| b |\n",
        }
    )
    unused = ("importlib.metadata", "importlib.resources", "concurrent.futures", "zipfile", "csv")
    code = (
        "import sys\nfrom docsgen.cli import main\n"
        f"main(['build', {str(site)!r}, '-o', {str(tmp_path / 'out')!r}], standalone_mode=False)\n"
        f"print([m for m in {unused!r} if m in sys.modules])\n"
    )
    env = {**os.environ, "DOCSGEN_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert (tmp_path / "out" / "index.html").is_file()
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_script_exit_codes_and_output_after_a_quick_exit(make_site, tmp_path):
    """`python -m docsgen` (the console script's entry) ends a build without interpreter teardown: output is
    complete and flushed, the exit code is 0; a failed build and other commands exit as click says."""
    site = make_site(
        {
            "docs.json": '{"theme": "mint", "name": "X", "colors": {"primary": "#112233"}, "navigation": {"pages": ["index"]}}',
            "index.mdx": "---\ntitle: Home\n---\nHello.\n",
        }
    )
    run = [sys.executable, "-m", "docsgen"]
    ok = subprocess.run(
        [*run, "build", str(site), "-o", str(tmp_path / "out")], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("Built 1 pages") and ok.stdout.endswith("\n")
    assert (tmp_path / "out" / "index.html").is_file() and (tmp_path / "out" / "index.md").is_file()

    (site / "docs.json").write_text('{"theme": "mint", "name": 3}', encoding="utf-8")
    bad = subprocess.run(
        [*run, "build", str(site), "-o", str(tmp_path / "out")], capture_output=True, text=True
    )
    assert bad.returncode == 1 and "docs.json:1:" in bad.stderr and "Traceback" not in bad.stderr
    assert (tmp_path / "out" / "index.html").is_file()  # the old site is untouched
    usage = subprocess.run([*run, "build", "--no-such-flag"], capture_output=True, text=True)
    assert usage.returncode == 2 and "No such option" in usage.stderr
    # stdout closed (`docsgen build >&-`): the build still succeeds, without a traceback
    (site / "docs.json").write_text(
        '{"theme": "mint", "name": "X", "colors": {"primary": "#112233"}, "navigation": {"pages": ["index"]}}',
        encoding="utf-8",
    )
    closed = subprocess.run(
        ["bash", "-c", '"$@" >&-', "-", *run, "build", str(site), "-o", str(tmp_path / "out2")],
        capture_output=True,
        text=True,
    )
    assert closed.returncode == 0 and "Traceback" not in closed.stderr, closed.stderr
    assert (tmp_path / "out2" / "index.html").is_file()
    version = subprocess.run([*run, "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and "docsgen" in version.stdout


@pytest.mark.parametrize(
    ("blocked", "args", "extra"),
    [
        ("httpx", ["broken-links", "{site}", "--check-external"], "links"),
        ("uvicorn", ["server", "run", "--db", "{tmp}/f.sqlite3"], "server"),
        ("sqlalchemy", ["server", "projects", "list", "--db", "{tmp}/f.sqlite3"], "server"),
    ],
)
def test_a_command_without_its_extra_says_what_to_install(tmp_path, blocked, args, extra):
    """An optional dependency missing (None in sys.modules makes its import fail as when not installed)."""
    site = FIXTURES / "example"
    argv = [a.format(site=site, tmp=tmp_path) for a in args]
    code = (
        f"import sys; sys.modules[{blocked!r}] = None; sys.argv = ['docsgen', *{argv!r}]\n"
        "from docsgen.cli import entry; entry()"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert f"pip install 'docsgen-sites[{extra}]'" in result.stderr


def test_an_internal_error_is_one_line_without_a_traceback(tmp_path):
    code = (
        "import sys; sys.argv = ['docsgen', 'build', sys.argv[1], '-o', sys.argv[2]]\n"
        "import docsgen.build as b\n"
        "def boom(*a, **k): raise ZeroDivisionError('simulated bug')\n"
        "b.read_site = boom\n"
        "from docsgen.cli import entry; entry()"
    )
    argv = [sys.executable, "-c", code, str(FIXTURES / "example"), str(tmp_path / "out")]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "internal error: ZeroDivisionError: simulated bug" in result.stderr
    debug = subprocess.run(
        argv, capture_output=True, text=True, timeout=120, env={**os.environ, "DOCSGEN_DEBUG": "1"}
    )
    assert "Traceback" in debug.stderr
