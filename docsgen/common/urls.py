"""URL and output-path rules shared by every stage: relative links, external links, twin paths, content hashes."""

from __future__ import annotations

import hashlib
import posixpath
import re

_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)


def relative_url(from_output: str, to_url: str) -> str:
    """Return the link from an output file to a site-relative URL ('' is the home page)."""
    base = posixpath.dirname(from_output)
    depth = len([p for p in base.split("/") if p])
    prefix = "../" * depth
    return (prefix + to_url) or "./"


def root_of(output: str) -> str:
    """Return the relative path from an output file to the site root ('./' at the top)."""
    return relative_url(output, "")


def is_external(href: str) -> bool:
    """Tell whether a link leaves the site (a scheme such as https: or mailto:, or //host)."""
    return bool(_EXTERNAL.match(href))


def twin_path(url: str) -> str:
    """Return the site path of a page's Markdown twin: 'guides/setup/' -> 'guides/setup.md', home -> 'index.md'."""
    return (url.rstrip("/") or "index") + ".md"


def content_hash(text: str) -> str:
    """Return a short stable hash for cache-busting query strings."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
