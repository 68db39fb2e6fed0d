"""Where generated API pages live: Mintlify's page paths, so a site's own links and redirects keep working.

Rules (the same as Mintlify's page generator, checked against the links, redirects and navigation of
published sites):

- An operation's page is `{directory}/{first tag}/{summary}`; without a summary `{method}-{path}`; without a tag
  there is no tag folder. `directory` defaults to `api-reference`.
- A webhook's page is `{directory}/{first tag}/{summary}`, else `{directory}/{first tag}/{webhook name}`.
- Each part is made a file name the way Mintlify does it: spaces become hyphens, `{parameters}` become a hyphen,
  one leading and one trailing hyphen go, the characters `{}(),.'/` and newlines are removed, double hyphens are
  halved, and the result is lower case. Underscores and other characters are kept (`customer_portal`).
- A page path already taken gets `-1`, `-2`, ... appended.
- `x-mint.href` / `x-svc.href` (a site path) replaces all of that, its extension dropped; it must stay inside the
  site: `..` segments that leave it are refused.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Container

DEFAULT_DIRECTORY = "api-reference"

_PARAM = re.compile(r"\{[^{}]*\}")  # no `{` inside: `.*?` made `{{{{...` quadratic
_REMOVED = re.compile(r"[{}(),.'\n/]")
# Characters that cannot be part of a site path we write to disk and serve (query, fragment, escapes, controls).
_UNSAFE = re.compile(r"[?#%\\\x00-\x1f\x7f\"<>]")


def filename_part(text: str | None) -> str:
    """Return Mintlify's file name for a summary, tag or path ("" when there is nothing to name)."""
    if not text:
        return ""
    out = _PARAM.sub("-", text.replace(" ", "-"))
    out = out.removeprefix("-").removesuffix("-")
    out = _REMOVED.sub("", out).replace("--", "-").lower()
    return _UNSAFE.sub("", out)


def operation_path(
    directory: str | None, method: str, path: str, summary: str, tag: str, *, webhook: bool = False
) -> str:
    """Return the page key of a generated operation or webhook page (no leading slash)."""
    name = filename_part(summary)
    if not name:
        name = filename_part(path) if webhook else f"{method.lower()}-{filename_part(path)}"
    base = (directory if directory is not None else DEFAULT_DIRECTORY).strip("/")
    # Mintlify lower-cases the whole page path, the directory included.
    return "/".join(p for p in (base, filename_part(tag), name) if p).lower() or "index"


class HrefError(ValueError):
    """An `x-mint.href` that does not name a page of this site."""


def href_path(href: str) -> str:
    """Return the page key an `x-mint.href` names: normalised, extension dropped, never outside the site.

    Raises HrefError for hrefs whose `..` segments climb above the site root, and for characters that
    cannot be part of a page path.
    """
    raw = href.strip().replace("\\", "/")
    parts: list[str] = []
    for part in raw.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise HrefError(
                    f"href {href[:100]!r} leaves the site: its '..' segments climb above the root"
                )
            parts.pop()
            continue
        parts.append(part)
    if any(_UNSAFE.search(p) for p in parts):
        raise HrefError(f"href {href[:100]!r} has characters a page path cannot hold (?, #, %, \\, controls)")
    if not parts:
        return "index"
    stem = posixpath.splitext(parts[-1])[0] or parts[-1]
    return "/".join([*parts[:-1], stem]).lower()


def directory_key(directory: str | None) -> str:
    """Return the folder generated pages go to (None: the default), as page paths spell it."""
    return (directory if directory is not None else DEFAULT_DIRECTORY).strip("/").lower()


def unique_path(base: str, taken: Container[str]) -> str:
    """Return `base`, or `base-1`, `base-2`, ... the first that is not in `taken` (Mintlify's numbering)."""
    if base not in taken:
        return base
    n = 1
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def slugify(text: str) -> str:
    """Return a URL slug: lower case words joined by hyphens (file names of `docsgen openapi scaffold`)."""
    slug = re.sub(r"[^\w\s-]", "", text.lower(), flags=re.UNICODE)
    slug = re.sub(r"[\s_-]+", "-", slug).strip("-")
    return slug or "endpoint"
