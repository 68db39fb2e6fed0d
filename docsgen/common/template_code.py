"""The theme's compiled templates kept on disk, as Python keeps a module's bytecode in __pycache__.

Compiling the built-in theme's templates (parsing them, generating their Python code, compiling that) took
~0.16 s of every `docsgen build` and `docsgen dev` start, the same work each time: its result depends on the
template source, Jinja's version and the environment's options, never on the site. So the compiled code is
written once to docsgen's own `__pycache__/templates-<key>/` (key: Jinja, Python and the options) and read back
by later processes; Jinja checks each file against a hash of the template's source (with its partials
inlined), so an edited template is compiled again. A folder that cannot be written (a read-only install)
leaves templates compiled in memory, as before; a damaged or half-written file is compiled again, never an
error. `DOCSGEN_TEMPLATE_CODE=0` turns the store off.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import threading
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

OFF_ENV = "DOCSGEN_TEMPLATE_CODE"


def store_folder(options: str, maker: bytes) -> Path | None:
    """Return the folder holding compiled templates made with these environment options by this code (the
    module making the environment), None when the store is off."""
    if os.environ.get(OFF_ENV, "").strip() == "0":
        return None
    key = hashlib.sha256(f"{jinja2.__version__}|{sys.version}|{options}|".encode() + maker).hexdigest()[:16]
    return Path(__file__).resolve().parents[1] / "__pycache__" / f"templates-{key}"


class TemplateCodeStore(jinja2.BytecodeCache):
    """Jinja's bytecode cache in one folder: files written whole (renamed into place), bad ones ignored."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _file(self, bucket: Bucket) -> Path:
        return self.folder / f"{bucket.key}.code"

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            data = self._file(bucket).read_bytes()
        except OSError:
            return
        try:
            bucket.bytecode_from_string(data)  # checks Jinja's magic and the source's hash
        except Exception:  # noqa: BLE001 - a damaged file: the template is compiled again
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        target = self._file(bucket)
        temp = target.with_name(
            f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp"
        )  # this writer's own
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            temp.write_bytes(bucket.bytecode_to_string())
            os.replace(temp, target)  # readers see the old file or the whole new one
        except OSError:
            with contextlib.suppress(OSError):
                temp.unlink()
