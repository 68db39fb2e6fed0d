"""Who may fetch the docs folder's own files (images, downloads, stylesheets) behind the site gate: whoever may read
a page that shows or links them. The gate reads the built pages once per published build and finds each file's
readers from the pages' references (src, href, srcset, poster, meta content; url() in the stylesheets they load):

- referenced by a public page (or by the 404 page everyone sees): public;
- referenced only by pages that need sign-in: the widest access among those pages (members, else the union of
  their groups);
- referenced by no page: signed-in readers only (a file nobody links is not published to the world).
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from docsgen.outputs.access import site_path as _site_path
from docsgen.outputs.access import widest

PAGE_BYTES_LIMIT = 8_000_000  # a built page larger than this is not scanned (its files stay signed-in only)
_REFERENCE = re.compile(rb'\s(?:src|href|poster|content|data-src|srcset)="([^"<>]{1,4000})"')
_CSS_URL = re.compile(rb"url\(\s*['\"]?([^'\")\s]{1,2000})")
UNREFERENCED = "members"


def asset_labels(root: Path, pages: dict, assets: list[str], base_url: str | None) -> dict[str, str]:
    """Return the access label of each of the docs folder's files (see the module docstring)."""
    wanted = set(assets)
    readers: dict[str, set[str]] = {}
    scanned = [((entry.get("files") or [""])[0], entry.get("access", "members")) for entry in pages.values()]
    scanned.append(("404.html", "public"))
    for html_path, label in scanned:
        for ref in _references(root, html_path, base_url):
            if ref in wanted:
                readers.setdefault(ref, set()).add(label)
    # stylesheets of the docs folder pass their readers on to the files they name (fonts, backgrounds)
    for sheet in [a for a in sorted(readers) if a.endswith(".css")]:
        for ref in _css_references(root, sheet):
            if ref in wanted:
                readers.setdefault(ref, set()).update(readers[sheet])
    return {path: widest(readers[path]) if path in readers else UNREFERENCED for path in assets}


def _read(root: Path, rel: str) -> bytes:
    path = root / rel
    try:
        if not rel or path.stat().st_size > PAGE_BYTES_LIMIT:
            return b""
        return path.read_bytes()
    except OSError:
        return b""


def _references(root: Path, html_path: str, base_url: str | None) -> set[str]:
    """Return the site paths a built page references."""
    folder = posixpath.dirname(html_path)
    found: set[str] = set()
    for m in _REFERENCE.finditer(_read(root, html_path)):
        value = m.group(1).decode("utf-8", "replace").replace("&amp;", "&")
        for part in value.split(","):  # srcset: "a.png 1x, b.png 2x"
            words = part.split()
            if words:
                found.add(_site_path(words[0], folder, base_url))
    found.discard("")
    return found


def _css_references(root: Path, sheet: str) -> set[str]:
    folder = posixpath.dirname(sheet)
    return {
        _site_path(m.group(1).decode("utf-8", "replace"), folder, None)
        for m in _CSS_URL.finditer(_read(root, sheet))
    }
