"""Google Fonts named in docs.json `fonts`, downloaded once at build time so the site serves them itself.

The CSS2 API is asked for the family's stylesheet with a modern browser's user agent (so it names woff2 files),
then each file it names is fetched. The stylesheet is kept with its URLs replaced by local file names, and the
files, in docsgen's cache folder: a later build reads them from there without the network. Every fetch is
bounded (time, size, count); only https URLs or URLs of the configured base are followed; local file names are
made by docsgen (a hash), never taken from the server.

The base URL is https://fonts.googleapis.com, or $DOCSGEN_GOOGLE_FONTS_URL (a stand-in server in tests).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from docsgen.engine.cachedir import cache_root

DEFAULT_BASE = "https://fonts.googleapis.com"
USER_AGENT = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
)
PLACEHOLDER = "__DG_FONTS__/"  # stands for the site's font folder in the kept stylesheet
MAX_CSS = 512 * 1024
MAX_FILE = 5 * 1024 * 1024
MAX_TOTAL = 24 * 1024 * 1024
MAX_FILES = 64
TIMEOUT = 10.0  # one request
BUDGET = 45.0  # one family, all requests
# Names that are the reader's own fonts or CSS generic families: used as they are, nothing to download.
LOCAL_FAMILIES = {
    "system-ui", "sans-serif", "serif", "monospace", "cursive", "fantasy", "ui-sans-serif", "ui-serif",
    "ui-monospace", "ui-rounded", "-apple-system", "blinkmacsystemfont", "arial", "helvetica", "helvetica neue",
    "georgia", "times", "times new roman", "courier", "courier new", "verdana", "tahoma", "segoe ui",
}  # fmt: skip
_FAMILY = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ]{0,62}")
_URL = re.compile(r"url\(\s*(['\"]?)([^'\")\s]+)\1\s*\)")


@dataclass(frozen=True)
class LocalFont:
    """A downloaded family: its stylesheet (URLs as PLACEHOLDER + file name) and its files in the cache."""

    family: str
    css: str
    files: dict[str, Path]


class FontError(Exception):
    """Why a family could not be downloaded (shown in the build's warning)."""


def fonts_base() -> str:
    """Return the CSS2 API's base URL ($DOCSGEN_GOOGLE_FONTS_URL overrides Google's)."""
    return (os.environ.get("DOCSGEN_GOOGLE_FONTS_URL") or DEFAULT_BASE).rstrip("/")


def is_local_family(family: str) -> bool:
    """Tell whether a family is a generic or system font name (nothing to download)."""
    return family.strip().strip("'\"").lower() in LOCAL_FAMILIES


def google_font(family: str, weights: tuple[int, ...] = ()) -> LocalFont:
    """Return a Google font family from the cache, downloading it the first time; raise FontError."""
    if not _FAMILY.fullmatch(family):
        raise FontError("not a Google Fonts family name (letters, digits and spaces)")
    base = fonts_base()
    spec = family.replace(" ", "+") + (
        ":wght@" + ";".join(str(w) for w in sorted(set(weights))) if weights else ""
    )
    url = f"{base}/css2?family={spec}&display=swap"
    folder = cache_root() / "fonts" / hashlib.sha256(url.encode("utf-8")).hexdigest()[:24]
    kept = _from_cache(folder, family)
    if kept is not None:
        return kept
    deadline = time.monotonic() + BUDGET
    try:
        css = _get(url, MAX_CSS, deadline).decode("utf-8", "replace")
    except FontError as error:
        if not weights:
            raise
        try:  # a family without one of the weights asked: its default
            return google_font(family)
        except FontError:
            raise error from None
    return _save(folder, family, css, base, deadline)


def _save(folder: Path, family: str, css: str, base: str, deadline: float) -> LocalFont:
    """Fetch the files the stylesheet names, keep them and the rewritten stylesheet in `folder`."""
    css = font_faces(css)
    if not css:
        raise FontError("the Google Fonts answer holds no @font-face rule")
    names: dict[str, str] = {}
    total = 0
    contents: dict[str, bytes] = {}
    for _, found in _URL.findall(css):
        if found in names:
            continue
        if not _allowed(found, base):
            raise FontError(f"the stylesheet names a file outside https: {found[:80]}")
        if len(names) >= MAX_FILES:
            raise FontError(f"the stylesheet names more than {MAX_FILES} files")
        ext = ".woff2" if found.lower().split("?")[0].endswith(".woff2") else ".woff"
        name = hashlib.sha256(found.encode("utf-8")).hexdigest()[:20] + ext
        data = _get(found, MAX_FILE, deadline)
        total += len(data)
        if total > MAX_TOTAL:
            raise FontError(f"the family's files exceed {MAX_TOTAL // (1024 * 1024)} MB")
        names[found] = name
        contents[name] = data
    local = _URL.sub(lambda m: f'url("{PLACEHOLDER}{names[m[2]]}")' if m[2] in names else m[0], css)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in contents.items():
        _write(folder / name, data)
    _write(folder / "font.json", json.dumps({"family": family, "css": local}).encode("utf-8"))
    return LocalFont(family, local, {name: folder / name for name in contents})


_FACE = re.compile(r"@font-face\s*\{([^{}]*)\}")
_DESCRIPTORS = {
    "font-family",
    "font-style",
    "font-weight",
    "font-stretch",
    "font-display",
    "src",
    "unicode-range",
}
_SAFE_VALUE = re.compile(r"""[\w\s,.'"%+:/?=&()#-]{1,2000}""")


def font_faces(css: str) -> str:
    """Return only the @font-face rules of a stylesheet, with only font descriptors of plain values: whatever
    else a server sends (@import, other rules, comments) never reaches the site."""
    rules = []
    for body in _FACE.findall(css):
        decls = []
        for decl in body.split(";"):
            prop, _, value = decl.partition(":")
            prop, value = prop.strip().lower(), value.strip()
            if prop in _DESCRIPTORS and _SAFE_VALUE.fullmatch(value) and "\\" not in value:
                if prop == "src" and not re.fullmatch(
                    r"""(\s*url\([^()]+\)(\s*format\([^()]+\))?\s*,?)+""", value
                ):
                    continue
                decls.append(f"{prop}:{value}")
        if any(d.startswith("src:") for d in decls):
            rules.append("@font-face{" + ";".join(decls) + "}")
    return "\n".join(rules)


def _from_cache(folder: Path, family: str) -> LocalFont | None:
    try:
        meta = json.loads((folder / "font.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    css = meta.get("css") if isinstance(meta, dict) else None
    if not isinstance(css, str):
        return None
    names = re.findall(re.escape(PLACEHOLDER) + r"([0-9a-f]{20}\.woff2?)", css)
    files = {name: folder / name for name in names}
    if not all(path.is_file() for path in files.values()):
        return None
    return LocalFont(family, css, files)


def _allowed(url: str, base: str) -> bool:
    """An https URL, or one on the configured base's origin (a stand-in server)."""
    parsed = urllib.parse.urlsplit(url)
    origin = urllib.parse.urlsplit(base)
    if parsed.scheme == "https" and parsed.netloc:
        return True
    return (parsed.scheme, parsed.netloc) == (origin.scheme, origin.netloc) and bool(parsed.netloc)


def _get(url: str, limit: int, deadline: float) -> bytes:
    """GET a URL with the browser user agent; at most `limit` bytes, before `deadline`."""
    import urllib.error  # here: urllib.request (http.client, ssl, email) is 50 ms of every build's start-up
    import urllib.request

    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise FontError("the download took too long")
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "*/*"})
    try:
        with urllib.request.urlopen(request, timeout=min(TIMEOUT, remaining)) as response:
            data = response.read(limit + 1)
    except urllib.error.HTTPError as error:
        raise FontError(f"HTTP {error.code} from {urllib.parse.urlsplit(url).netloc}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise FontError(f"no connection to {urllib.parse.urlsplit(url).netloc} ({reason})") from None
    if len(data) > limit:
        raise FontError(f"a file is larger than {limit // 1024} KB")
    if time.monotonic() > deadline:
        raise FontError("the download took too long")
    return data


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
