"""Finding the Pagefind executable: the same file pagefind's own lookup finds, without importing asyncio."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from docsgen.outputs.pagefind import pagefind_binary

_PROBE = """
import sys
from docsgen.outputs.pagefind import pagefind_binary
found = pagefind_binary()
print(found)
print("asyncio" in sys.modules)
"""


def _probe(**env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PAGEFIND_BINARY")}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], env={**clean, **env}, capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def test_the_wheels_binary_is_found_without_importing_asyncio() -> None:
    """The lookup imports neither pagefind.service nor asyncio (0.04-0.06 s of CPU in every build) and finds
    the binary pagefind.service.get_executable finds."""
    from pagefind.service import get_executable

    found, imported_asyncio = _probe()
    assert found == str(get_executable())
    assert Path(found).is_file() and os.access(found, os.X_OK)
    assert imported_asyncio == "False"


def test_the_environment_names_the_binary(tmp_path: Path) -> None:
    """$PAGEFIND_BINARY (docsgen's) wins, then $PAGEFIND_BINARY_PATH (pagefind's own)."""
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    assert _probe(PAGEFIND_BINARY=str(ours), PAGEFIND_BINARY_PATH=str(theirs))[0] == str(ours)
    assert _probe(PAGEFIND_BINARY_PATH=str(theirs))[0] == str(theirs)


def test_a_wheel_without_its_binary_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A binary wheel whose file is missing is reported (as pagefind's lookup does), not passed over."""
    package = tmp_path / "pagefind_bin_extended"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("PAGEFIND_BINARY", "PAGEFIND_BINARY_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delitem(sys.modules, "pagefind_bin_extended", raising=False)
    with pytest.raises(FileNotFoundError, match="Could not find any of"):
        pagefind_binary()
