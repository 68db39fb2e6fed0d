"""Write the site into a temporary folder, refuse clashing outputs, and swap it into place only on success."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from docsgen.errors import Diagnostic, error


@dataclass
class SiteFiles:
    """Every output file of a build, keyed by its path in the site; a second writer of a path is an error."""

    files: dict[str, bytes | Path] = field(default_factory=dict)  # content, or a file to copy
    owners: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, path: str, content: str | bytes | Path, owner: str) -> None:
        """Add an output file; `owner` names what produced it, for the clash message."""
        if path in self.files:
            self.diagnostics.append(
                error(
                    "write.duplicate-output",
                    f"{owner} and {self.owners[path]} both write {path}",
                    owner,
                    hint="rename one of them, or change its URL (x-svc.href, directory)",
                )
            )
            return
        self.files[path] = content.encode("utf-8") if isinstance(content, str) else content
        self.owners[path] = owner

    def has(self, path: str) -> bool:
        """Tell whether a path is already taken."""
        return path in self.files


def write_site(site: SiteFiles, out_dir: Path) -> None:
    """Write every file to a temporary sibling folder, then replace out_dir with it in two renames."""
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.tmp-", dir=out_dir.parent))
    try:
        made: set[Path] = set()
        for rel in sorted(site.files):
            target = tmp / rel
            parent = target.parent
            if parent not in made:
                parent.mkdir(parents=True, exist_ok=True)
                made.add(parent)
            content = site.files[rel]
            if isinstance(content, Path):
                shutil.copyfile(content, target)
            else:
                target.write_bytes(content)
        os.chmod(tmp, 0o755)
        swap_into_place(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def swap_into_place(new: Path, out_dir: Path) -> None:
    """Replace out_dir by new; the old folder disappears only after the new one is in place."""
    old = None
    if out_dir.exists():
        old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}")
        if old.exists():
            shutil.rmtree(old)
        out_dir.rename(old)
    try:
        new.rename(out_dir)
    except BaseException:
        if old is not None:
            old.rename(out_dir)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
