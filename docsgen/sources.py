"""Walk the docs folder: pages, snippets, static files and specs, each with its output path and URL."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path

from docsgen.errors import Diagnostic, warning

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
        "build",
        "dist",
        "_site",
        "__pycache__",
        ".docsgen-cache",
        ".venv",
    }
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
    """Read .mintignore / .docsgenignore patterns (gitignore syntax, without negation)."""
    patterns: list[str] = []
    for name in (".mintignore", ".docsgenignore"):
        path = docs_dir / name
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                line = line.strip()
                if line and not line.startswith(("#", "!")):
                    patterns.append(line)
    return patterns


def _ignored(rel: str, patterns: list[str]) -> bool:
    for pat in patterns:
        anchored = pat.startswith("/")
        pat = pat.strip("/")
        if anchored or "/" in pat:
            if fnmatch.fnmatch(rel, pat) or rel.startswith(pat + "/"):
                return True
        else:
            parts = rel.split("/")
            if any(fnmatch.fnmatch(p, pat) for p in parts):
                return True
    return False


def scan(docs_dir: Path, *, exclude: tuple[Path, ...] = ()) -> Sources:
    """List the docs folder in sorted order so builds are deterministic."""
    docs_dir = docs_dir.resolve()
    found = Sources(docs_dir)
    patterns = read_ignore_file(docs_dir)
    excluded = {p.resolve() for p in exclude}
    for dirpath, dirnames, filenames in os.walk(docs_dir):
        here = Path(dirpath)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in IGNORED_DIRS and not d.startswith(".") and (here / d).resolve() not in excluded
        )
        for name in sorted(filenames):
            rel = (here / name).relative_to(docs_dir).as_posix()
            if name in IGNORED_FILES and "/" not in rel:
                continue
            if name.startswith(".") or _ignored(rel, patterns):
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
