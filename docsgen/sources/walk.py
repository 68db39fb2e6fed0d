"""Walk the docs folder: pages, snippets, static files and specs, each with its output path and URL."""

from __future__ import annotations

import fnmatch
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from docsgen.common.errors import Diagnostic, warning

PAGE_SUFFIXES = (".mdx", ".md")
# Never part of a site: version control, editors, dependencies, build output.
IGNORED_DIRS = frozenset(
    {
        ".git",
        ".github",
        ".gitlab",
        ".claude",
        ".agents",
        ".idea",
        ".vscode",
        "node_modules",
        "_site",
        "__pycache__",
        ".docsgen-cache",
        ".venv",
    }
)
# Files that are secrets or local state: never published unless a `!pattern` line of .docsgenignore/.mintignore
# names them (a private key, a database such as the feedback server's own SQLite file, a dump, a backup).
SECRET_NAMES = frozenset({"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "credentials", "secrets.json"})
SECRET_SUFFIXES = (
    ".pem",
    ".key",
    ".p12",
    ".pfx",
    ".sql",
    ".sqlite",
    ".sqlite3",
    ".db",
    ".bak",
    ".env",
    ".kdbx",
)
IGNORED_FILES = frozenset({"docs.json", "mint.json", ".mintignore", ".DS_Store", "Thumbs.db"})
# Repository housekeeping files that are not pages unless the navigation names them.
NOT_PAGES = frozenset(
    {"readme", "contributing", "code_of_conduct", "license", "security", "agents", "claude", "changelog.old"}
)


@dataclass(frozen=True)
class PageFile:
    """A page source on disk."""

    key: str  # navigation path: "guides/setup" ("index" for the home page)
    source: str  # relative posix path with suffix
    url: str  # site-relative URL without leading slash: "guides/setup/" ("" for the home page)
    output: str  # output file: "guides/setup/index.html"


@dataclass
class Sources:
    """Everything found in the docs folder."""

    docs_dir: Path
    pages: dict[str, PageFile] = field(default_factory=dict)  # by key
    housekeeping: dict[str, PageFile] = field(default_factory=dict)  # README.md & co, pages only if in nav
    snippets: set[str] = field(default_factory=set)
    static: list[str] = field(default_factory=list)  # copied as they are
    diagnostics: list[Diagnostic] = field(default_factory=list)


def page_url(key: str) -> str:
    """Return the pretty URL of a page key: 'index' -> '', 'a/index' -> 'a/', 'a/b' -> 'a/b/'."""
    if key == "index":
        return ""
    if key.endswith("/index"):
        return key[: -len("index")]
    return key + "/"


def url_output(url: str) -> str:
    """Return the file that serves a pretty URL."""
    return url + "index.html"


def read_ignore_file(docs_dir: Path) -> list[str]:
    """Read .mintignore / .docsgenignore patterns (gitignore syntax; `!pattern` lines publish what would be left out)."""
    patterns: list[str] = []
    for name in (".mintignore", ".docsgenignore"):
        path = docs_dir / name
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                line = line.strip()
                if line and not line.startswith("#"):
                    patterns.append(line)
    return patterns


def _matches(rel: str, pat: str) -> bool:
    anchored = pat.startswith("/")
    pat = pat.strip("/")
    if anchored or "/" in pat:
        return fnmatch.fnmatch(rel, pat) or rel.startswith(pat + "/")
    return any(fnmatch.fnmatch(p, pat) for p in rel.split("/"))


def is_ignored(rel: str, patterns: list[str]) -> bool:
    """Tell whether the ignore patterns leave `rel` out (the last matching line decides, as in gitignore)."""
    ignored = False
    for pat in patterns:
        negated = pat.startswith("!")
        if _matches(rel, pat[1:] if negated else pat):
            ignored = not negated
    return ignored


def is_secret(rel: str) -> bool:
    """Tell whether a file looks like a secret or local state (private keys, databases, dumps, backups)."""
    name = rel.rsplit("/", 1)[-1].lower()
    return name in SECRET_NAMES or name.endswith(SECRET_SUFFIXES)


def _listed(rel: str, patterns: list[str]) -> bool:
    """Tell whether a `!pattern` line names `rel` explicitly (how a secret-looking file is published)."""
    return any(p.startswith("!") and _matches(rel, p[1:]) for p in patterns)


def scan(docs_dir: Path, *, exclude: tuple[Path, ...] = ()) -> Sources:
    """List the docs folder in sorted order so builds are deterministic.

    Only regular files inside the docs folder are sources: a symbolic link is followed when it resolves inside
    the folder; a broken link, a link loop, a link leading outside, a FIFO or a device is a warning and is never
    read. Secret-looking files (is_secret) are left out with a warning unless a `!pattern` line lists them.
    """
    docs_dir = docs_dir.resolve()
    found = Sources(docs_dir)
    patterns = read_ignore_file(docs_dir)
    excluded = {p.resolve() for p in exclude}
    chains: dict[str, frozenset[Path]] = {
        str(docs_dir): frozenset({docs_dir})
    }  # walked folder -> real ancestors
    root = str(docs_dir)
    for dirpath, dirnames, filenames in os.walk(docs_dir, followlinks=True):
        here = Path(dirpath)
        chain = chains.pop(dirpath)
        base = dirpath[len(root) + 1 :] + "/" if dirpath != root else ""  # paths as text: thousands of files
        kept = []
        for d in sorted(dirnames):
            if d in IGNORED_DIRS or d.startswith(".") or _undecodable(found, base + d, "folder"):
                continue
            if _inside(found, os.path.join(dirpath, d), base + d, docs_dir, "folder") is None:
                continue
            real = Path(os.path.realpath(here / d))
            if real in excluded:
                continue
            if real in chain:  # a link back to a folder it is in: following it would never end
                rel = (here / d).relative_to(docs_dir).as_posix()
                found.diagnostics.append(
                    warning(
                        "sources.link-loop", f"folder {rel} links back to a folder it is in: skipped", rel
                    )
                )
                continue
            chains[str(here / d)] = chain | {real}
            kept.append(d)
        dirnames[:] = kept
        for name in sorted(filenames):
            rel = base + name
            if name in IGNORED_FILES and "/" not in rel:
                continue
            if name.startswith(".") or _undecodable(found, rel, "file") or is_ignored(rel, patterns):
                continue
            if _inside(found, os.path.join(dirpath, name), rel, docs_dir, "file") is None:
                continue
            if is_secret(rel) and not _listed(rel, patterns):
                found.diagnostics.append(
                    warning(
                        "sources.secret",
                        f"{rel} looks like a secret or local state (key, database, dump, backup): not published",
                        rel,
                        hint=f"add the line '!{rel}' to .docsgenignore to publish it",
                    )
                )
                continue
            stem, suffix = os.path.splitext(rel)
            if suffix.lower() in PAGE_SUFFIXES:
                if rel.startswith("snippets/") or "/snippets/" in rel or rel.startswith("_snippets/"):
                    found.snippets.add(rel)
                    continue
                _add_page(found, stem, rel)
            else:
                found.static.append(rel)
    return found


def _undecodable(found: Sources, rel: str, kind: str) -> bool:
    """Report and skip a file or folder whose name is not UTF-8 (it has no URL, and no message can print it)."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        found.diagnostics.append(
            warning("sources.unreadable", f"{kind} {shown} has a name that is not UTF-8: skipped", shown)
        )
        return True
    return False


def _inside(found: Sources, path: str, rel: str, docs_dir: Path, kind: str) -> Path | None:
    """Return the real path of a folder or regular file (`path`, `rel` in the docs folder) that lies inside
    docs_dir; else warn and return None.

    `path` is in a folder already proven inside docs_dir, so only a symbolic link needs resolving.
    """
    try:
        mode = os.lstat(path).st_mode
        real, linked = Path(path), stat.S_ISLNK(mode)
        if linked:
            real = real.resolve(strict=True)
            mode = os.stat(real).st_mode
    except RuntimeError:  # Python < 3.13 reports a link loop this way
        found.diagnostics.append(
            warning("sources.unreadable", f"{rel} is a symbolic link loop: skipped", rel)
        )
        return None
    except OSError as exc:
        reason = (
            "a broken symbolic link (or a link loop)"
            if os.path.islink(path)
            else f"unreadable ({exc.strerror})"
        )
        found.diagnostics.append(warning("sources.unreadable", f"{rel} is {reason}: skipped", rel))
        return None
    if linked and not real.is_relative_to(docs_dir):
        found.diagnostics.append(
            warning(
                "sources.outside",
                f"{rel} links to {real}, outside the docs folder: not read",
                rel,
                hint="copy the file into the docs folder instead of linking to it",
            )
        )
        return None
    if not (stat.S_ISDIR(mode) if kind == "folder" else stat.S_ISREG(mode)):
        found.diagnostics.append(
            warning(
                "sources.not-regular", f"{rel} is not a regular {kind} (FIFO, device or socket): skipped", rel
            )
        )
        return None
    return real


def _add_page(found: Sources, key: str, rel: str) -> None:
    url = page_url(key)
    page = PageFile(key, rel, url, url_output(url))
    target = found.housekeeping if key.rsplit("/", 1)[-1].lower() in NOT_PAGES else found.pages
    existing = target.get(key)
    if existing is not None:
        keep, drop = (existing, page) if existing.source.endswith(".mdx") else (page, existing)
        found.diagnostics.append(
            warning(
                "sources.duplicate-page",
                f"both {keep.source} and {drop.source} exist; using {keep.source}",
                drop.source,
            )
        )
        page = keep
    target[key] = page
