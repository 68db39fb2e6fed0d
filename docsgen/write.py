"""Write the site into a temporary folder, refuse clashing outputs, and swap it into place only on success."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from docsgen.errors import Diagnostic, error


class Written:
    """Content of a file already in the output folder (a render worker wrote it there)."""


WRITTEN = Written()


@dataclass
class SiteFiles:
    """Every output file of a build, keyed by its path in the site; a second writer of a path is an error."""

    files: dict[str, bytes | Path | Written] = field(default_factory=dict)  # content, a file to copy, WRITTEN
    owners: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, path: str, content: str | bytes | Path | Written, owner: str) -> None:
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


class OutputFolder:
    """A temporary sibling of out_dir that is filled in steps and becomes out_dir only on commit().

    Used as a context manager: leaving the block without commit() (an error, a refused build) deletes the
    temporary folder, so out_dir is either the old site or the complete new one, never half of either.
    """

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir.resolve()
        self.out_dir.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(prefix=f".{self.out_dir.name}.tmp-", dir=self.out_dir.parent))
        self.written: set[str] = set()
        self._made: set[Path] = set()
        self._done = False

    def write(self, site: SiteFiles) -> None:
        """Write the files of `site` not written yet."""
        for rel in sorted(site.files.keys() - self.written):
            content = site.files[rel]
            if isinstance(content, Path):
                shutil.copyfile(content, self._target(rel))
            elif not isinstance(content, Written):
                self._target(rel).write_bytes(content)
            self.written.add(rel)

    def write_text(self, rel: str, text: str) -> None:
        """Write one file now (render workers write their pages while others render); add it as WRITTEN."""
        self._target(rel).write_bytes(text.encode("utf-8"))

    def _target(self, rel: str) -> Path:
        target = self.tmp / rel
        parent = target.parent
        if parent not in self._made:
            parent.mkdir(parents=True, exist_ok=True)
            self._made.add(parent)
        return target

    def commit(self) -> None:
        """Put the folder in place of out_dir."""
        os.chmod(self.tmp, 0o755)
        swap_into_place(self.tmp, self.out_dir)
        self._done = True

    def abort(self) -> None:
        """Delete the temporary folder (out_dir is left as it was)."""
        if not self._done:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self._done = True

    def __enter__(self) -> OutputFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.abort()


def write_site(site: SiteFiles, out_dir: Path) -> None:
    """Write every file to a temporary sibling folder, then replace out_dir with it in two renames."""
    with OutputFolder(out_dir) as folder:
        folder.write(site)
        folder.commit()


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
