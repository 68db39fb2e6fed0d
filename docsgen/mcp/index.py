"""Search over a built site's Markdown twins: the pages `docsgen build` wrote as `page.md`, ranked by BM25.

Pagefind's index (pagefind/) is compressed and meant for its WebAssembly client in a browser, so it cannot be
queried from Python. The server therefore reads, once at start, the Markdown twins the build writes beside every
page (the same text as /llms-full.txt) and keeps a small inverted index of them: term counts per page, nothing
re-rendered. Memory is bounded by MAX_PAGES pages of at most MAX_TWIN_BYTES each.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

MAX_PAGES = 20_000
MAX_TWIN_BYTES = 2_000_000  # a larger twin is indexed and served truncated to this many bytes
MAX_QUERY_TERMS = 32
TITLE_WEIGHT = 3  # a title term counts as this many body terms
TITLE_BONUS = 2.0  # and adds this many times its idf, however long the page (BM25 alone favours short pages)
EXCERPT_CHARS = 240
K1, B = 1.2, 0.75
WORD = re.compile(r"\w+", re.UNICODE)
LANG = re.compile(rb"<html[^>]*\slang=[\"']([A-Za-z0-9-]{1,35})[\"']", re.IGNORECASE)
NOINDEX = re.compile(rb"<meta[^>]+name=[\"']robots[\"'][^>]+noindex", re.IGNORECASE)


class PageNotFound(ValueError):
    """A fetch for something that is not a page of the site (or lies outside it)."""


def _stem(word: str) -> str:
    """Fold a plain English plural onto its singular (tokens -> token), the same way for pages and queries."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def terms(text: str) -> list[str]:
    """Split text into lower-case word terms, plurals folded."""
    return [_stem(t.lower()) for t in WORD.findall(text)]


@dataclass
class Page:
    """One page of the site: its URL path (no leading slash, '' for home), title, description and Markdown."""

    url: str
    title: str
    description: str
    markdown: str
    counts: Counter
    length: int
    title_terms: frozenset[str]
    language: str


def _html_of(site: Path, url: str) -> Path | None:
    """Return the HTML file of a page URL if the build wrote one (`x/index.html` or `x.html`)."""
    candidates = [site / "index.html"] if not url else [site / url / "index.html", site / f"{url}.html"]
    return next((c for c in candidates if c.is_file() and not c.is_symlink()), None)


def _describe(markdown: str) -> tuple[str, str]:
    """Return (title, description): the twin's first `# ` heading and its `> ` summary line."""
    title = description = ""
    for line in markdown.splitlines()[:12]:
        if not title and line.startswith("# "):
            title = line[2:].strip()
        elif title and line.startswith("> "):
            description = line[2:].strip()
            break
    return title, description


class SiteIndex:
    """The indexed pages of one built site, searchable by BM25 and fetchable by URL."""

    def __init__(self, site: Path, site_url: str | None = None):
        self.site = site.resolve()
        self.site_url = (site_url or "").rstrip("/")
        self.pages: dict[str, Page] = {}
        self.skipped: list[str] = []
        self._load()
        self.document_frequency: Counter = Counter()
        for page in self.pages.values():
            self.document_frequency.update(page.counts.keys())
        lengths = [p.length for p in self.pages.values()]
        self.average_length = (sum(lengths) / len(lengths)) if lengths else 1.0

    def _load(self) -> None:
        twins = sorted(p for p in self.site.rglob("*.md") if p.is_file() and not p.is_symlink())
        for twin in twins:
            if len(self.pages) >= MAX_PAGES:
                self.skipped.append(f"more than {MAX_PAGES} pages: the rest are not served")
                break
            relative = twin.relative_to(self.site).as_posix()
            url = relative[: -len(".md")]
            url = "" if url == "index" else url
            if not twin.resolve().is_relative_to(self.site):
                continue  # reached through a symbolic link to a folder outside the site
            html = _html_of(self.site, url)
            if html is None or not html.resolve().is_relative_to(self.site):
                continue  # a Markdown file of the docs folder copied as is, not a page's twin
            with html.open("rb") as handle:
                head = handle.read(32_768)
            if NOINDEX.search(head):
                continue  # the site asks search engines (and agents) not to index it
            found = LANG.search(head)
            language = found.group(1).decode("ascii").lower() if found else ""
            with twin.open("rb") as handle:
                raw = handle.read(MAX_TWIN_BYTES)
            markdown = raw.decode("utf-8", errors="replace")
            title, description = _describe(markdown)
            body = terms(markdown)
            counts = Counter(body)
            for term in terms(title):
                counts[term] += TITLE_WEIGHT
            title = title or url or "Home"
            title_terms = frozenset(terms(title))
            self.pages[url] = Page(
                url, title, description, markdown, counts, len(body), title_terms, language
            )

    def link(self, page: Page) -> str:
        """Return the page's URL: absolute when the site URL is known, else its path from the site root."""
        return f"{self.site_url}/{page.url}" if self.site_url else f"/{page.url}"

    def search(self, query: str, limit: int = 10, language: str | None = None) -> list[dict]:
        """Return up to `limit` pages ranked by BM25 for the query, each with title, URL and an excerpt; with
        `language` (e.g. `fr`), only pages in that language (their `<html lang>`, `fr-CA` counts as `fr`)."""
        wanted_language = (language or "").strip().lower()
        wanted = list(dict.fromkeys(terms(query)))[:MAX_QUERY_TERMS]
        total = len(self.pages)
        scored = []
        for page in self.pages.values():
            if wanted_language and page.language.split("-")[0] != wanted_language.split("-")[0]:
                continue
            score = 0.0
            for term in wanted:
                frequency = page.counts.get(term, 0)
                if not frequency:
                    continue
                df = self.document_frequency[term]
                idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
                norm = frequency + K1 * (1 - B + B * page.length / self.average_length)
                score += idf * frequency * (K1 + 1) / norm
                if term in page.title_terms:
                    score += TITLE_BONUS * idf
            if score > 0:
                scored.append((score, page.url, page))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [
            {
                "title": page.title,
                "url": self.link(page),
                "language": page.language,
                "excerpt": excerpt(page, wanted),
                "score": round(score, 4),
            }
            for score, _, page in scored[: max(1, min(limit, 50))]
        ]

    def resolve(self, url_or_path: str) -> Page:
        """Return the page a URL, a site path or a twin path names; PageNotFound for anything else."""
        text = url_or_path.strip()
        parts = urlsplit(text)
        path = unquote(parts.path)
        if parts.scheme or parts.netloc:
            if parts.scheme not in ("http", "https"):
                raise PageNotFound(f"{url_or_path!r} is not a page URL of this site")
            prefix = urlsplit(self.site_url).path.rstrip("/") if self.site_url else ""
            if prefix and (path == prefix or path.startswith(prefix + "/")):
                path = path[len(prefix) :]
        segments = [s for s in path.replace("\\", "/").split("/") if s not in ("", ".")]
        if any(s == ".." for s in segments) or "\x00" in path:
            raise PageNotFound(f"{url_or_path!r} points outside the site: only its pages can be fetched")
        key = "/".join(segments)
        if key not in self.pages:
            for suffix in ("index.html", ".html", ".md"):
                if key.endswith(suffix):
                    key = key[: -len(suffix)].rstrip("/")
                    break
            key = "" if key == "index" else key
        page = self.pages.get(key)
        if page is None:
            raise PageNotFound(
                f"no page at {url_or_path!r}; search first, or read llms.txt for the page list"
            )
        return page

    def llms_txt(self) -> str:
        """Return the site's llms.txt (the build writes it), or a page list made from the index."""
        built = self.site / "llms.txt"
        if built.is_file() and not built.is_symlink():
            with built.open("rb") as handle:
                return handle.read(MAX_TWIN_BYTES).decode("utf-8", errors="replace")
        lines = ["# Pages", ""]
        lines += [f"- [{p.title}]({self.link(p)})" for p in self.pages.values()]
        return "\n".join(lines) + "\n"


def excerpt(page: Page, wanted: list[str]) -> str:
    """Return about EXCERPT_CHARS characters of the page around the first line that holds a query term."""
    lines = [line.strip().removeprefix("> ") for line in page.markdown.splitlines() if line.strip()]
    body = [line for line in lines[1:] if not line.startswith("#")] or lines
    chosen = next((line for line in body if set(terms(line)) & set(wanted)), body[0] if body else "")
    if len(chosen) <= EXCERPT_CHARS:
        return chosen
    lowered = chosen.lower()
    first = min((lowered.find(t) for t in wanted if t in lowered), default=0)
    start = max(0, first - EXCERPT_CHARS // 3)
    return ("…" if start else "") + chosen[start : start + EXCERPT_CHARS].strip() + "…"
