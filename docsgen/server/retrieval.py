"""The assistant's retrieval: the built site's Markdown twins cut into chunks per heading, ranked by SQLite FTS5.

The index lives in memory, one per published build: it is made again when the project's output folder points at
another build (a deployment) or its files changed. A build with an access manifest (`_access.json`, private
docs) contributes only its public pages: the assistant answers anonymous readers.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

MAX_FILE = 2 * 1024 * 1024  # a twin larger than this is skipped
MAX_FILES = 50_000
CHUNK_CHARS = 1600
HEADING = re.compile(r"^(#{2,3})\s+(.+?)\s*#*\s*$", re.M)
WORD = re.compile(r"[^\W_]{2,}", re.UNICODE)
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "so",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "this",
        "to",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
    ]
)


@dataclass(frozen=True)
class Passage:
    """One ranked chunk: its page's title and site path (`/guides/setup`), the section heading and the text."""

    title: str
    url: str
    heading: str
    text: str
    score: float


def twin_url(rel: str) -> str:
    """Return the site path of a Markdown twin: `guides/setup.md` -> `/guides/setup`, `index.md` -> `/`."""
    stem = rel[: -len(".md")]
    if stem == "index":
        return "/"
    return "/" + stem.removesuffix("/index")


def chunks_of(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Return (page title, [(heading, text)]) of a twin, cut at ## and ### headings and every CHUNK_CHARS."""
    title = ""
    first = text.lstrip().split("\n", 1)
    if first and first[0].startswith("# "):
        title = first[0][2:].strip()
        text = first[1] if len(first) > 1 else ""
    parts: list[tuple[str, str]] = []
    heading, start = "", 0
    for match in HEADING.finditer(text):
        parts.append((heading, text[start : match.start()]))
        heading, start = match.group(2).strip(), match.end()
    parts.append((heading, text[start:]))
    out = []
    for head, body in parts:
        body = body.strip()
        for i in range(0, len(body), CHUNK_CHARS):
            piece = body[i : i + CHUNK_CHARS].strip()
            if piece or (head and i == 0):
                out.append((head, piece))
    return title, out


def public_twins(root: Path) -> set[str] | None:
    """Return the twins of public pages when the build has an access manifest, else None (everything is public)."""
    try:
        data = json.loads((root / "_access.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    allowed: set[str] = set()
    for entry in (data.get("pages") or {}).values():
        if isinstance(entry, dict) and entry.get("access") == "public":
            allowed.update(f for f in entry.get("files", []) if isinstance(f, str) and f.endswith(".md"))
    return allowed


def twins(root: Path) -> list[str]:
    """List the Markdown twins of a built site (relative paths), skipping theme and tool folders."""
    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")) and d != "pagefind")
        for name in sorted(files):
            if name.endswith(".md"):
                found.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
                if len(found) >= MAX_FILES:
                    return found
    return found


LANGUAGE = re.compile(r"^[a-z]{2}(?:-[a-z]{2,4})?$")


def translation_prefixes(urls: set[str]) -> set[str]:
    """Return the first folders holding translations: a language code whose pages mostly exist unprefixed too."""
    by_first: dict[str, list[str]] = {}
    for url in urls:
        first, _, rest = url.strip("/").partition("/")
        if rest and LANGUAGE.match(first):
            by_first.setdefault(first, []).append("/" + rest)
    return {
        first
        for first, rests in by_first.items()
        if len(rests) >= 3 and sum(rest in urls for rest in rests) * 2 >= len(rests)
    }


def fts_query(question: str) -> str:
    """Turn a question into an FTS5 query: its words (without stop words), each quoted, any of them."""
    words = [w.lower() for w in WORD.findall(question)]
    kept = [w for w in dict.fromkeys(words) if w not in STOPWORDS][:32]
    return " OR ".join(f'"{w}"' for w in kept)


class SiteIndex:
    """An FTS5 index of one built site's chunks (in memory)."""

    def __init__(self, root: Path):
        self.root = root
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute(
            "CREATE VIRTUAL TABLE chunks USING fts5(title, heading, body, url UNINDEXED, lang UNINDEXED, tokenize='porter unicode61')"
        )
        self.lock = threading.Lock()
        self.pages = 0
        allowed = public_twins(root)
        rows = []
        for rel in twins(root):
            if allowed is not None and rel not in allowed:
                continue
            path = root / rel
            try:
                if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_FILE:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            title, parts = chunks_of(text)
            url = twin_url(rel)
            self.pages += 1
            rows += [(title or url, head, body, url) for head, body in parts]
        self.languages = translation_prefixes({row[3] for row in rows})
        self.db.executemany(
            "INSERT INTO chunks VALUES (?, ?, ?, ?, ?)", [(*row, self.language_of(row[3])) for row in rows]
        )
        self.chunks = len(rows)

    def language_of(self, url: str) -> str:
        """Return the translation folder a page belongs to (`fr` for /fr/quickstart), or '' for the main language."""
        first = url.strip("/").split("/", 1)[0]
        return first if first in self.languages else ""

    def search(self, question: str, limit: int = 6, per_page: int = 2, page: str = "") -> list[Passage]:
        """Return the best chunks for a question, at most `per_page` of one page, best first, from the pages in
        the language of `page` (the site path the reader asked from; the main language by default)."""
        query = fts_query(question)
        if not query:
            return []
        with self.lock:
            rows = self.db.execute(
                "SELECT title, url, heading, body, bm25(chunks, 10.0, 2.0, 1.0) AS rank FROM chunks "
                "WHERE chunks MATCH ? AND lang = ? ORDER BY rank LIMIT ?",
                (query, self.language_of(page or "/"), limit * 8),
            ).fetchall()
        out: list[Passage] = []
        counts: dict[str, int] = {}
        for title, url, heading, body, rank in rows:
            if counts.get(url, 0) >= per_page:
                continue
            counts[url] = counts.get(url, 0) + 1
            out.append(Passage(title, url, heading, body, -float(rank)))
            if len(out) >= limit:
                break
        return out


class Retriever:
    """The current index of each project's published site, made again when the build changes."""

    def __init__(self) -> None:
        self._indexes: dict[str, tuple[tuple, SiteIndex]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def signature(out_dir: Path) -> tuple:
        real = out_dir.resolve()
        try:
            stamp = max(
                (real / name).stat().st_mtime_ns
                for name in ("index.md", "llms.txt")
                if (real / name).exists()
            )
        except ValueError:
            stamp = 0
        return (str(real), stamp)

    def index(self, project_id: str, out_dir: str | None) -> SiteIndex | None:
        """Return the project's index, or None when it has no published output folder."""
        if not out_dir or not Path(out_dir).exists():
            return None
        signature = self.signature(Path(out_dir))
        with self._lock:
            found = self._indexes.get(project_id)
            if found is None or found[0] != signature:
                found = (signature, SiteIndex(Path(out_dir).resolve()))
                self._indexes[project_id] = found
            return found[1]
