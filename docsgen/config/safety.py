"""docs.json values that would be dangerous in the built site: script URLs in links, paths leaving the output.

Links (navbar, footer, socials, anchors and other navigation elements, logo, redirect destinations...) whose URL
runs code when followed (`javascript:`, `vbscript:`, `data:`) are refused with a located warning and removed, so
no page emits them. A redirect source with `..` segments would make the build write its redirect page outside
the output folder: a located error.
"""

from __future__ import annotations

import re

from docsgen.common.errors import Diagnostic
from docsgen.common.jsonpos import JsonPath
from docsgen.config.load import RawConfig

MAX_REDIRECT_SEGMENTS = 64  # path segments of a redirect source (each becomes a folder of the output)
MAX_STRING_CHARS = 100_000  # one docs.json text: a 20 MB `name` would be written into every page
# Keys whose string value is a link target.
_URL_KEYS = frozenset({"href", "url", "destination"})
# Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
_IGNORED_IN_SCHEME = re.compile(r"[\x00-\x20\x7f]+")
_SCRIPT_SCHEME = re.compile(r"(?:javascript|vbscript|data):", re.I)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# Image sources (logo.light, logo.dark, favicon and its light/dark): a path on the site or an http(s) URL only.
_IMAGE_KEYS: dict[JsonPath, set[str]] = {
    ("logo",): {"light", "dark"},
    (): {"favicon"},
    ("favicon",): {"light", "dark"},
}


def is_unsafe_image(value: object) -> bool:
    """Tell whether an image source has a scheme other than http(s) (javascript:, data:, file:, ...)."""
    if not isinstance(value, str):
        return False
    found = _SCHEME.match(_IGNORED_IN_SCHEME.sub("", value))
    return found is not None and found.group(0).lower() not in ("http:", "https:")


def is_unsafe_url(value: object) -> bool:
    """Tell whether a link target runs code or embeds a document when followed (javascript:, vbscript:, data:)."""
    if not isinstance(value, str):
        return False
    return bool(_SCRIPT_SCHEME.match(_IGNORED_IN_SCHEME.sub("", value)))


def remove_unsafe_urls(raw: RawConfig) -> list[Diagnostic]:
    """Delete every script URL from the configuration (in place), with one located warning each; a text longer
    than MAX_STRING_CHARS is a located error."""
    diags: list[Diagnostic] = []

    def refuse(path: JsonPath, value: str, image: bool = False) -> None:
        shown = value if len(value) <= 60 else value[:57] + "..."
        message = (
            f"image source {shown!r} is not a path on this site or an http(s) URL; it is left out"
            if image
            else f"link target {shown!r} runs code in the reader's browser; the link is left out"
        )
        diags.append(
            raw.diagnostic(
                "config.unsafe-url",
                message,
                path,
                severity="warning",
                hint="use an https:// URL or a path on this site",
            )
        )

    def walk(value: object, path: JsonPath, depth: int) -> None:
        if depth > 200:
            return
        if isinstance(value, str) and len(value) > MAX_STRING_CHARS:  # repeated on every page: bounded here
            diags.append(
                raw.diagnostic(
                    "config.too-long",
                    f"a text of {len(value):,} characters; expected at most {MAX_STRING_CHARS:,}",
                    path,
                    hint="docs.json texts (names, labels, banner) are repeated on every page",
                )
            )
            return
        if isinstance(value, dict):
            for key in list(value):
                item = value[key]
                target = item.get("base") if key == "href" and isinstance(item, dict) else item
                if (key in _URL_KEYS or path[-1:] == ("socials",)) and is_unsafe_url(target):
                    refuse((*path, key), str(target))
                    del value[key]
                elif key in _IMAGE_KEYS.get(path, ()) and is_unsafe_image(item):
                    refuse((*path, key), str(item), image=True)
                    del value[key]
                else:
                    walk(item, (*path, key), depth + 1)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, (*path, i), depth + 1)

    walk(raw.data, (), 0)
    return diags


def check_redirect_sources(raw: RawConfig) -> list[Diagnostic]:
    """Return an error for each redirect source that could not stay inside the output folder."""
    redirects = raw.data.get("redirects")
    if not isinstance(redirects, list):
        return []
    diags = []
    for i, rule in enumerate(redirects):
        source = rule.get("source") if isinstance(rule, dict) else None
        if not isinstance(source, str):
            continue
        segments = source.replace("\\", "/").split("/")
        if len(segments) > MAX_REDIRECT_SEGMENTS:
            diags.append(
                raw.diagnostic(
                    "config.redirect-source",
                    f"redirect source has {len(segments):,} path segments; expected at most "
                    f"{MAX_REDIRECT_SEGMENTS}",
                    ("redirects", i, "source"),
                )
            )
        elif any(s in (".", "..") for s in segments) or "\x00" in source or "\\" in source:
            diags.append(
                raw.diagnostic(
                    "config.redirect-source",
                    f"redirect source {source!r} has '.', '..' or '\\' path segments; expected a site path "
                    "such as /old/page",
                    ("redirects", i, "source"),
                )
            )
    return diags
