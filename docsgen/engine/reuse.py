"""Keep the previous build's files of a page when nothing it is made from changed (rebuilds of large sites).

A page's HTML and Markdown twin are a function of its body (the page cache key: its source, frontmatter, paths,
the snippets it imports, the link answers it got) and of the rest of the site: configuration, docsgen's code and
theme, every page's frontmatter and place (navigation, neighbours, breadcrumbs, switchers), static files, specs,
the public URL. The second part is one site fingerprint. A rebuild whose site fingerprint equals the previous
build's links the previous files of each page whose body key is also unchanged (a hard link: no copy, no render)
into the new output folder; a change anywhere else in the site renders every page's chrome again (from cached
bodies). The manifest (`outputs.json` in the site's cache folder, docsgen.engine.cachedir) records, per page, the key
its files were made from and their sizes; a file that is missing or was changed by hand is rendered again. It also
records each search bundle's key and files: a bundle whose pages are all kept is linked from the previous output
as well (docsgen.outputs.site_search), with its records file left by the last build (search_store).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from docsgen.common.urls import twin_path
from docsgen.engine.cachedir import cache_dir
from docsgen.engine.write import Linked, PageWriter, SiteFiles, Streamed, safe_output_path
from docsgen.outputs.search_store import records_file
from docsgen.pages.page import Page
from docsgen.site.policies import SITE_URL_ENV
from docsgen.site.read import Site

MANIFEST = "outputs.json"
SITE_WIDE = (
    "llms-full.txt",
)  # made of every page's text: when every page was kept, the previous build's file
FORMAT = 2  # 2: search bundles


def site_fingerprint(
    site: Site, page_cache_fingerprint: str, static_version: str, stamps: dict[str, Any] | None = None
) -> str:
    """Return the hash of everything a page's files read besides its own body (see the module docstring);
    `stamps`: the last-modified dates pages show (git or file times change without the text changing)."""
    digest = hashlib.sha256()

    def add(*parts: str) -> None:
        for part in parts:
            data = part.encode("utf-8", "surrogatepass")
            digest.update(b"%d:%b" % (len(data), data))

    add(
        str(FORMAT),
        page_cache_fingerprint,
        static_version,
        site.site_url or "",
        os.environ.get(SITE_URL_ENV, ""),
    )
    add(*(f"{source}={sha}" for source, sha in sorted(site.spec_hashes.items())))
    for rel in sorted(site.sources.static):
        try:
            stat = (site.docs_dir / rel).stat()
            add(rel, f"{stat.st_size}:{stat.st_mtime_ns}")
        except OSError:
            add(rel, "?")
    add(*sorted(site.sources.snippets))
    add(*(f"{source}={date}" for source, date in sorted((stamps or {}).items())))
    for key in sorted(site.pages):
        page = site.pages[key]
        meta = json.dumps(page.meta, sort_keys=True, default=repr, ensure_ascii=False)
        add(key, page.url, page.output, page.source or "", page.kind, page.method or "", page.spec or "")
        add(
            page.api_path or "",
            page.api_tag or "",
            "\x1f".join(page.api_tag_parents),
            page.summary,
            str(page.body_line),
            meta,
        )
    return digest.hexdigest()


def _final_key(fingerprint: str, body_key: str) -> str:
    return hashlib.sha256(f"{fingerprint}\0{body_key}".encode()).hexdigest()


class OutputReuse:
    """The previous build's files of unchanged pages, linked into this build's output folder where pages render."""

    def __init__(self, site: Site, out_dir: Path, fingerprint: str) -> None:
        self.site, self.out_dir, self.fingerprint = site, out_dir.resolve(), fingerprint
        self.writer: PageWriter | None = None  # set once the new output folder exists (attach)
        self._out = str(self.out_dir)
        self.path = cache_dir(site.docs_dir) / MANIFEST
        # the previous build's search bundles (folder -> [key, [[name, size]]]) and SITE_WIDE files (path -> size)
        self.search: dict[str, Any] = {}
        self.site_wide: dict[str, Any] = {}
        self.nav: dict[str, Any] = {}  # the previous build's sidebars: section id -> [hash, size]
        self._folders: dict[str, bool] = {}  # folders of the previous output: a real folder (not a link)?
        self.previous: dict[str, list[Any]] = self._read()

    def _read(self) -> dict[str, list[Any]]:
        """Return the previous build's entries when it built into the same folder with the same site fingerprint
        (and left the search records its bundles were made from)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return {}
        if data.get("out_dir") != str(self.out_dir) or data.get("site") != self.fingerprint:
            return {}
        pages, search = data.get("pages"), data.get("search")
        if not isinstance(pages, dict) or not isinstance(search, dict):
            return {}
        if not all(records_file(self.site.docs_dir, folder).is_file() for folder in search):
            return {}  # a kept page's search record would be missing
        self.search = search
        site_wide, nav = data.get("files"), data.get("nav")
        self.site_wide = site_wide if isinstance(site_wide, dict) else {}
        self.nav = nav if isinstance(nav, dict) else {}
        return pages

    def attach(self, writer: PageWriter) -> None:
        """Give the writer of the new output folder, which links kept pages' files into it."""
        self.writer = writer

    def sidebars(self) -> dict[str, tuple[Path, str, int]]:
        """Return the previous build's sidebar files that are as it wrote them: section id -> (file, hash, size)
        (the same site fingerprint: the same navigation, titles, theme and code, so the same sidebars)."""
        kept = {}
        for section, entry in self.nav.items():
            if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str):
                path = self._intact(f"_nav/{section}.html", entry[1])
                if path is not None:
                    kept[section] = (path, entry[0], entry[1])
        return kept

    def _intact(self, rel: str, size: object) -> Path | None:
        """Return the previous output's file `rel` when it has the size the manifest gives (as it was written)."""
        try:
            return Path(self._out, rel) if self._regular(safe_output_path(rel), size) else None
        except ValueError:
            return None

    def _regular(self, rel: str, size: object) -> bool:
        """Tell whether the previous output's `rel` is a file (not a link) of that size in real folders of it:
        kept files stay where they are (docsgen.engine.output_update), so none may be reached through a link."""
        try:
            found = os.lstat(os.path.join(self._out, rel))
        except OSError:
            return False
        return stat.S_ISREG(found.st_mode) and found.st_size == size and self._real(rel.rpartition("/")[0])

    def _real(self, folder: str) -> bool:
        """Tell whether the previous output's `folder` and each folder above it are folders, not links (cached)."""
        known = self._folders.get(folder)
        if known is None:
            try:
                mode = os.lstat(os.path.join(self._out, folder)).st_mode
                known = stat.S_ISDIR(mode) and (not folder or self._real(folder.rpartition("/")[0]))
            except OSError:
                known = False
            self._folders[folder] = known
        return known

    def can_update(self) -> bool:
        """Tell whether the previous build's files may be kept where they are (a manifest of the same site)."""
        return bool(self.previous)

    def keep_site_wide(self, files: SiteFiles) -> None:
        """Every page was kept: take the previous build's files made of every page's text (SITE_WIDE) instead of
        making them again, when they are as it wrote them."""
        for rel, size in self.site_wide.items():
            content = files.files.get(rel)
            if rel in SITE_WIDE and isinstance(content, Streamed):
                path = self._intact(rel, size)
                if path is not None:
                    files.files[rel] = Linked(path, size, content.read)

    def bundle(self, folder: str) -> tuple[str, dict[str, tuple[Path, int]]] | None:
        """Return the previous build's search bundle of a folder, (its key, {name: (file, size)}), when every
        file of it is in the previous output as it was written; else None."""
        entry = self.search.get(folder)
        if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str):
            return None
        files: dict[str, tuple[Path, int]] = {}
        if not isinstance(entry[1], list):
            return None
        for item in entry[1]:
            named = isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
            path = self._intact(f"{folder}/{item[0]}", item[1]) if named else None
            if path is None:
                return None
            files[item[0]] = (path, item[1])
        return entry[0], files

    def keep(self, page: Page, body_key: str) -> tuple[int, int] | None:
        """Link the page's previous HTML and twin into the new folder when its body key is the one they were made
        from and both are intact; return their sizes, or None (the page is rendered)."""
        entry = self.previous.get(page.key)
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or entry[0] != _final_key(self.fingerprint, body_key)
        ):
            return None
        html_size, twin_size = entry[1], entry[2]
        files = ((page.output, html_size), (twin_path(page.url), twin_size))
        if not all(self._regular(rel, size) for rel, size in files):
            return None
        writer = self.writer
        if writer is None or not all(writer.link(self._out, rel, page.key) for rel, _ in files):
            return None
        return html_size, twin_size

    def save(
        self, kept: dict[str, tuple[str, tuple[int, int]]], search: dict[str, list[Any]], nav: dict[str, str]
    ) -> None:
        """Record this build's pages (key -> (body key, sizes)), search bundles (SiteSearch.bundles) and sidebars
        (section id -> "_nav/<id>.html?v=<hash>") for the next build; never fail the build."""
        pages = {
            key: [_final_key(self.fingerprint, body), sizes[0], sizes[1]]
            for key, (body, sizes) in kept.items()
        }
        sizes = {}
        for rel in SITE_WIDE:
            with contextlib.suppress(OSError):
                sizes[rel] = (self.out_dir / rel).stat().st_size
        sidebars = {}
        for section, src in nav.items():
            rel, _, digest = src.partition("?v=")
            with contextlib.suppress(OSError, ValueError):
                sidebars[section] = [digest, (self.out_dir / safe_output_path(rel)).stat().st_size]
        data = {
            "format": FORMAT,
            "out_dir": str(self.out_dir),
            "site": self.fingerprint,
            "pages": pages,
            "search": search,
            "files": sizes,
            "nav": sidebars,
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
            temporary.replace(self.path)
        except OSError:
            pass

    def forget(self) -> None:
        """Drop the manifest (a build that will not commit its folder must not be reused from)."""
        with contextlib.suppress(OSError):  # no cache folder (or not writable): there is no manifest to trust
            self.path.unlink(missing_ok=True)
