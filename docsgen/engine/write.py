"""Write the site into a temporary folder, refuse clashing outputs, and swap it into place only on success."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from docsgen.common.errors import Diagnostic, error, warning
from docsgen.engine.output_temp import interrupted_cleanly, remove_stale, temp_prefix
from docsgen.engine.output_update import swap_into_place, update_in_place

# What SiteFiles.add does when a path is taken: refuse the build ("error"), keep the first with a warning
# ("keep"), or keep the first silently ("yield": a generated file the docs folder may replace with its own,
# such as robots.txt or llms.txt).
Clash = Literal["error", "keep", "yield"]


class UnsafeOutputPath(ValueError):
    """An output path that would land outside the output folder (`..`, absolute, NUL, backslash)."""


def safe_output_path(path: str) -> str:
    """Return `path` when it names a file inside the output folder; raise UnsafeOutputPath otherwise.

    The one check every output goes through (SiteFiles.add and OutputFolder both call it): a path from a spec's
    x-mint.href or a redirect source can never climb out with `..`, start at `/`, or smuggle a NUL or `\\`.
    """
    if not path or "\x00" in path or "\\" in path or path.startswith("/"):
        raise UnsafeOutputPath(path)
    parts = path.split("/")
    if "" in parts or "." in parts or ".." in parts:
        raise UnsafeOutputPath(path)
    return path


@dataclass(frozen=True)
class Made:
    """Content made by the build in memory (a sitemap, a stylesheet, a page rendered without a PageWriter)."""

    data: bytes

    def read(self) -> bytes:
        return self.data


@dataclass(frozen=True)
class Copied:
    """A file copied as it is: a static file of the docs folder, a theme asset, a downloaded font."""

    source: Path

    def read(self) -> bytes:
        return self.source.read_bytes()


@dataclass(frozen=True)
class Claimed:
    """Content of a path taken before its text exists: a page's HTML or twin, written where it is rendered."""

    by: str  # the key of the page that claimed it


@dataclass(frozen=True)
class Streamed:
    """Content made in pieces while it is written (llms-full.txt of a large site): never held whole in memory."""

    chunks: Callable[[], Iterable[str]]  # called once, when the file is written

    def read(self) -> bytes:
        """Return the whole content (for readers that keep files in memory, such as the dev server)."""
        return "".join(self.chunks()).encode("utf-8")


@dataclass(frozen=True)
class Linked:
    """Content that is a file of the previous build's output folder, unchanged: hard-linked into the new folder
    (copied where links cannot be made); `fallback` gives the bytes when the file is gone meanwhile."""

    source: Path
    size: int  # its bytes, as the previous build wrote them
    fallback: Callable[[], bytes]

    def read(self) -> bytes:
        """Return the content (for readers that keep files in memory)."""
        try:
            return self.source.read_bytes()
        except OSError:
            return self.fallback()


@dataclass(frozen=True)
class Written:
    """Content written to the output folder as soon as it was made (a search bundle finished while pages were
    still rendering): its bytes are not held."""

    size: int


# What SiteFiles holds for a path: the six kinds of output content.
Content = Made | Copied | Claimed | Streamed | Linked | Written


def content_of(value: str | bytes | Path | Content) -> Content:
    """Return text and bytes as Made content, a file path as Copied content, typed content as it is."""
    if isinstance(value, str):
        return Made(value.encode("utf-8"))
    if isinstance(value, bytes):
        return Made(value)
    if isinstance(value, Path):
        return Copied(value)
    return value


@dataclass
class SiteFiles:
    """Every output file of a build, keyed by its path in the site; a second writer of a path is an error."""

    files: dict[str, Content] = field(default_factory=dict)  # each path's content, of one of the six kinds
    owners: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    folders: set[str] = field(default_factory=set)  # every folder some output lives in ("a", "a/b" for a/b/c)

    def add(
        self,
        path: str,
        content: str | bytes | Path | Content,
        owner: str,
        *,
        on_clash: Clash = "error",
    ) -> bool:
        """Add an output file and return True; `owner` names what produced it, for messages.

        A path already taken (or a file where another output needs a folder, `x.md` against `x.md/index.html`)
        is refused: an error with on_clash="error", a warning keeping the first writer with on_clash="keep".
        A path that would leave the output folder is always an error and never added.
        """
        try:
            safe_output_path(path)
        except UnsafeOutputPath:
            self.diagnostics.append(
                error(
                    "write.outside-output",
                    f"{owner} would write {path!r}, outside the output folder",
                    owner,
                    hint="output paths are relative and may not contain '..' segments",
                )
            )
            return False
        other = self._clash(path)
        if other is not None:
            first = self.owners.get(other, "another output")
            if other == path:
                why = f"{first} already writes {path}"
            elif path.startswith(other + "/"):
                why = f"{path} needs a folder {other}, which is a file written by {first}"
            else:
                why = f"{path} is a folder of other outputs ({first} writes {other})"
            if on_clash == "yield":
                return False
            if on_clash == "keep":
                self.diagnostics.append(
                    warning(
                        "write.path-taken", f"{owner} is not written: {why}", owner, hint="rename one of them"
                    )
                )
            else:
                self.diagnostics.append(
                    error(
                        "write.duplicate-output",
                        f"{owner} clashes with another output: {why}",
                        owner,
                        hint="rename one of them, or change its URL (x-svc.href, directory)",
                    )
                )
            return False
        self.files[path] = content_of(content)
        self.owners[path] = owner
        parent = path.rpartition("/")[0]
        while parent and parent not in self.folders:
            self.folders.add(parent)
            parent = parent.rpartition("/")[0]
        return True

    def _clash(self, path: str) -> str | None:
        """Return the output that stands in the way of `path` (the same path, a file named like one of its
        folders, or the files inside a folder named `path`), or None."""
        if path in self.files:
            return path
        if path in self.folders:
            return next((p for p in self.files if p.startswith(path + "/")), path)
        parent = path.rpartition("/")[0]
        while parent:
            if parent in self.files:
                return parent
            parent = parent.rpartition("/")[0]
        return None

    def has(self, path: str) -> bool:
        """Tell whether a path is already taken."""
        return path in self.files

    def fill(self, path: str, content: str | bytes, by: str) -> bool:
        """Give a path claimed by page `by` its content (pages rendered without a PageWriter); False when the
        path is not that page's."""
        if not self.claimed(path, by):
            return False
        self.files[path] = content_of(content)
        return True

    def replace(self, path: str, content: str | bytes, owner: str) -> bool:
        """Give a file `owner` added before new content (completed once pages rendered); False when the path
        is not that owner's."""
        if self.owners.get(path) != owner or isinstance(self.files.get(path), Claimed):
            return False
        self.files[path] = content_of(content)
        return True

    def claimed(self, path: str, by: str) -> bool:
        """Tell whether page `by` claimed a path (added Claimed(by)) for text written later (see PageWriter)."""
        return self.files.get(path) == Claimed(by)


_CREATE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)


def _write_bytes(path: str, data: bytes) -> None:
    """Write a file in three system calls (open, write, close): open() also asks for the file's status and whether
    it is a terminal, and wraps it in a buffer the write goes around (tens of thousands of files a build)."""
    fd = os.open(path, _CREATE, 0o666)
    try:
        done = os.write(fd, data)
        while done < len(data):  # a short write (a signal, a full disk: the next call raises)
            done += os.write(fd, memoryview(data)[done:])
    finally:
        os.close(fd)


class OutputFolder:
    """A temporary sibling of out_dir that is filled in steps and becomes out_dir only on commit().

    Used as a context manager: leaving the block without commit() (an error, a refused build) deletes the
    temporary folder, so out_dir stays the old site until commit() puts the complete new one in place.

    in_place (a rebuild that keeps the previous build's files where nothing changed, docsgen.engine.reuse): the
    files of out_dir kept as they are stay there instead of being linked into the temporary folder, and commit()
    moves the new files into out_dir and deletes the ones the build no longer has (docsgen.engine.output_update; only
    a crash during that commit can leave old and new files mixed).
    """

    def __init__(self, out_dir: Path, *, in_place: bool = False) -> None:
        self.out_dir = out_dir.resolve()
        self.out_dir.parent.mkdir(parents=True, exist_ok=True)
        self.in_place = in_place and self.out_dir.is_dir() and not out_dir.is_symlink()
        self._out = str(self.out_dir)
        remove_stale(
            self.out_dir
        )  # what builds of this output killed earlier left (docsgen.engine.output_temp)
        self.tmp = Path(tempfile.mkdtemp(prefix=temp_prefix(self.out_dir), dir=self.out_dir.parent))
        self._root = str(self.tmp)  # paths as strings: tens of thousands of files, pathlib's cost shows
        self.written: set[str] = set()
        self._made: set[str] = set()
        self._done = False

    def write(self, site: SiteFiles) -> None:
        """Write the files of `site` not written yet."""
        for rel in sorted(site.files.keys() - self.written):
            match site.files[rel]:
                case Made(data):
                    _write_bytes(self._target(rel), data)
                case Copied(source):
                    shutil.copyfile(source, self._target(rel))
                case Streamed(chunks):
                    with open(self._target(rel), "w", encoding="utf-8", newline="") as stream:
                        for chunk in chunks():
                            stream.write(chunk)
                case Linked(source, _, fallback):
                    if self.in_place and str(source) == os.path.join(self._out, rel):
                        pass  # the previous build's file, where it is
                    elif not self._link(str(source), self._target(rel)):
                        _write_bytes(self._target(rel), fallback())
                case Claimed() | Written():
                    pass  # written where the page rendered / when it was made
            self.written.add(rel)

    def write_text(self, rel: str, text: str) -> None:
        """Write one file now (render workers write their pages while others render)."""
        _write_bytes(self._target(rel), text.encode("utf-8"))

    def write_now(self, files: SiteFiles, rel: str, data: bytes, owner: str) -> bool:
        """Add a file to `files` as Written and write it now (False: the path is taken, nothing written)."""
        if not files.add(rel, Written(len(data)), owner):
            return False
        _write_bytes(self._target(rel), data)
        self.written.add(rel)
        return True

    def link_from(self, previous: str | Path, rel: str) -> bool:
        """Put the file `rel` of a previous output folder here unchanged (a hard link, else a copy); False when it
        cannot be (the file is gone): the caller writes it anew. In place, out_dir's own file stays where it is."""
        if self.in_place and os.path.normpath(previous) == self._out:
            return True
        return self._link(os.path.join(previous, safe_output_path(rel)), self._target(rel))

    @staticmethod
    def _link(source: str, target: str) -> bool:
        try:
            os.link(source, target)
        except FileExistsError:
            return False
        except OSError:
            try:
                shutil.copyfile(source, target)
            except OSError:
                return False
        return True

    def read_text(self, rel: str) -> str:
        """Read back a file this build wrote or, in place, kept (a page's Markdown twin, for llms-full.txt)."""
        try:
            return (self.tmp / safe_output_path(rel)).read_text(encoding="utf-8")
        except FileNotFoundError:
            if not self.in_place:
                raise
            return (self.out_dir / rel).read_text(encoding="utf-8")

    def _target(self, rel: str) -> str:
        target = os.path.join(self._root, safe_output_path(rel))
        parent = os.path.dirname(target)
        if parent not in self._made:
            try:  # a page's own folder, its parent made already: one call (makedirs would look first)
                os.mkdir(parent)
            except OSError:
                os.makedirs(parent, exist_ok=True)
            self._made.add(parent)
        return target

    def commit(self, outputs: Collection[str] = ()) -> None:
        """Put the folder in place of out_dir; in place, move its files into out_dir, then delete out_dir's files
        not in `outputs` (every path of the build)."""
        if self.in_place:
            update_in_place(self._root, self._out, outputs)
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            os.chmod(self.tmp, 0o755)
            swap_into_place(self.tmp, self.out_dir)
        self._done = True

    def abort(self) -> None:
        """Delete the temporary folder (out_dir is left as it was)."""
        if not self._done:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self._done = True

    def __enter__(self) -> OutputFolder:
        self._signals = interrupted_cleanly()  # SIGTERM, like Ctrl-C, removes the temporary folder
        self._signals.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.abort()
        finally:
            self._signals.__exit__(None, None, None)


@dataclass
class PageWriter:
    """Writes pages into the output folder as they are rendered (in any render process), only at paths the
    build claimed for them in SiteFiles: a path taken by anything else is never written around."""

    folder: OutputFolder
    files: SiteFiles

    def __call__(self, path: str, text: str, by: str) -> bool:
        """Write the text of a path page `by` claimed now; return False (nothing written) for any other path."""
        if not self.files.claimed(path, by):
            return False
        self.folder.write_text(path, text)
        return True

    def link(self, previous: str | Path, path: str, by: str) -> bool:
        """Keep the previous build's file of a path page `by` claimed (see OutputFolder.link_from)."""
        return self.files.claimed(path, by) and self.folder.link_from(previous, path)


class WrittenTexts(Mapping[str, str]):
    """Texts by key, each held in memory or, when it was written to the output folder, read back on demand.

    A large site's Markdown twins are not kept after they are written: llms-full.txt reads them back one at a time.
    """

    def __init__(self, kept: dict[str, str], written: dict[str, str], folder: OutputFolder | None) -> None:
        self._kept, self._written, self._folder = kept, written, folder

    def __getitem__(self, key: str) -> str:
        if key in self._kept:
            return self._kept[key]
        if self._folder is None:
            raise KeyError(key)
        return self._folder.read_text(self._written[key])

    def __iter__(self) -> Iterator[str]:
        yield from self._kept
        yield from self._written

    def __len__(self) -> int:
        return len(self._kept) + len(self._written)


def write_site(site: SiteFiles, out_dir: Path) -> None:
    """Write every file to a temporary sibling folder, then replace out_dir with it in two renames."""
    with OutputFolder(out_dir) as folder:
        folder.write(site)
        folder.commit()
