"""Where a preview's docs come from: a tar archive posted with an admin key, or a branch / pull request of the
project's local git repository (exported with `git archive`). Both are hostile input: every member is checked
before it is written (regular files and folders only, no absolute path, no `..`, no link), and the number of
files and the bytes unpacked are bounded.
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
from pathlib import Path, PurePosixPath

MAX_FILES = 20_000
MAX_UNPACKED = 256 * 2**20  # bytes written from one archive
GIT_TIMEOUT = 120.0
_REF = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/+-]{0,199}$")
DOCS_MARKERS = ("docs.json", "mint.json")


class SourceError(ValueError):
    """A preview source that cannot be used: the message is shown to the caller."""


def _member_path(name: str) -> PurePosixPath | None:
    """Return the relative path of an archive member, None for the root itself; raise for an unsafe one."""
    if "\x00" in name or "\\" in name or name.startswith("/"):
        raise SourceError(f"the archive holds an unsafe path: {name[:80]!r}")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise SourceError(f"the archive holds a path leaving its folder: {name[:80]!r}")
    return PurePosixPath(*parts) if parts else None


def unpack(data: bytes | io.BufferedIOBase, into: Path) -> None:
    """Unpack a tar archive (plain, gzip, bzip2 or xz) into the empty folder `into`, refusing unsafe members."""
    fileobj = io.BytesIO(data) if isinstance(data, bytes) else data
    try:
        archive = tarfile.open(fileobj=fileobj, mode="r:*")  # noqa: SIM115 - closed below
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise SourceError(f"the body is not a tar archive: {exc}") from None
    files = written = 0
    try:
        for member in archive:
            rel = _member_path(member.name)
            if rel is None:
                continue
            if member.isdir():
                (into / rel).mkdir(parents=True, exist_ok=True)
                continue
            if not member.isfile():
                kind = "link" if member.issym() or member.islnk() else "special file"
                raise SourceError(
                    f"the archive holds a {kind}: {member.name[:80]!r} (only files and folders)"
                )
            files += 1
            written += member.size
            if files > MAX_FILES:
                raise SourceError(f"the archive holds more than {MAX_FILES} files")
            if written > MAX_UNPACKED:
                raise SourceError(f"the archive unpacks to more than {MAX_UNPACKED // 2**20} MiB")
            target = into / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            source = archive.extractfile(member)
            assert source is not None  # a regular file
            with open(target, "xb") as out:  # "x": a member named twice is refused, never written over
                out.write(source.read(member.size))
    except FileExistsError as exc:
        raise SourceError(f"the archive names one file twice: {Path(exc.filename).name!r}") from None
    except (tarfile.TarError, EOFError, OSError, NotADirectoryError) as exc:
        raise SourceError(f"the archive cannot be read: {exc}") from None
    finally:
        archive.close()


def docs_root(folder: Path) -> Path:
    """Return the docs folder of an unpacked tree: the root, or its only folder, holding docs.json / mint.json."""
    if any((folder / m).is_file() for m in DOCS_MARKERS):
        return folder
    entries = [p for p in folder.iterdir() if not p.name.startswith(".")]
    if len(entries) == 1 and entries[0].is_dir() and any((entries[0] / m).is_file() for m in DOCS_MARKERS):
        return entries[0]
    raise SourceError("the archive has no docs.json (or mint.json) at its root or in its only folder")


def _git(repo: Path, *args: str, timeout: float = GIT_TIMEOUT) -> bytes:
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args], capture_output=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SourceError(f"git failed: {exc}") from None
    if done.returncode != 0:
        raise SourceError(f"git {args[0]} failed: {done.stderr.decode('utf-8', 'replace').strip()[:300]}")
    return done.stdout


def export_ref(docs_dir: Path, ref: str, into: Path) -> tuple[Path, str]:
    """Export the docs folder as of `ref` (a branch, tag, commit or refs/pull/N/head) of the repository holding
    `docs_dir` into `into`; return the exported docs folder and the commit."""
    if not _REF.match(ref) or ".." in ref or ref.endswith((".lock", "/")):
        raise SourceError(f"not a git reference: {ref[:80]!r}")
    top = Path(_git(docs_dir, "rev-parse", "--show-toplevel").decode().strip())
    prefix = _git(docs_dir, "rev-parse", "--show-prefix").decode().strip()
    commit = (
        _git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
        .decode()
        .strip()
    )
    data = _git(top, "archive", "--format=tar", commit, "--", prefix or ".")
    unpack(data, into)
    folder = into / prefix if prefix else into
    if not folder.is_dir():
        raise SourceError(f"{ref} has no folder {prefix!r}")
    return folder, commit
