"""What a reader may fetch from a built site: the build's `_access.json` (docsgen.outputs.access) read once per
change, a rule for every file, and the site-wide lists (llms*.txt, sitemaps, search listings) cut to the reader.

Without a manifest (a site that marks nothing) every file but the theme's assets needs a signed-in reader.
"""

from __future__ import annotations

import html
import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from docsgen.mdx.expressions import Unevaluable
from docsgen.mdx.user_conditions import condition_user, evaluate_condition
from docsgen.server.reader_sessions import Reader
from docsgen.server.site_assets import asset_labels

MANIFEST = "_access.json"
SEARCH_LISTING = "pagefind/access.json"
SEARCH_INDEXES = "pagefind/indexes.json"
NEVER_SERVED = frozenset({MANIFEST, "_headers"})
LLMS_FILES = frozenset({"llms.txt", ".well-known/llms.txt"})
_SITEMAP = re.compile(r"^sitemap(?:-\d+)?\.xml$")
_SITEMAP_ENTRY = re.compile(r"\s*<url><loc>([^<]*)</loc></url>")
_LLMS_LINK = re.compile(r"^- \[[^\]]*\]\(([^)\s]+)\)")
# The theme's own files: what the sign-in page and public pages need to look right; they hold no content.
ASSET_PREFIXES = ("_static/",)


@dataclass
class SiteAccess:
    """The rules of one published build (reloaded when `_access.json` changes)."""

    root: Path
    files: dict[str, list[str]] = field(default_factory=dict)  # path -> labels, all of which must pass
    pages: dict[str, str] = field(default_factory=dict)  # URL path (/a/b/) -> label
    bundles: dict[str, dict[str, str]] = field(default_factory=dict)  # folder -> {access, base}
    llms_pages: list[tuple[str, str]] = field(default_factory=list)  # (URL path, twin file), llms-full order
    base_url: str | None = None
    assets: dict[str, str] = field(
        default_factory=dict
    )  # docs folder file -> label (docsgen.server.site_assets)
    has_public: bool = False
    marked: bool = False

    @classmethod
    def load(cls, root: Path) -> SiteAccess:
        """Read the manifest of the build in `root` (a site without one marks nothing)."""
        access = cls(root)
        try:
            data = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return access
        access.marked = True
        for url, entry in data.get("pages", {}).items():
            label = entry["access"]
            access.pages[url] = label
            access.has_public |= label == "public"
            for path in entry.get("files", []):
                access.files[path] = [label]
        for path, labels in data.get("specs", {}).items():
            access.files[path] = list(labels)
        for folder, entry in data.get("search", {}).items():
            access.bundles[folder] = entry
        access.llms_pages = [(url, twin) for url, twin in data.get("llms", {}).get("pages", [])]
        access.base_url = data.get("llms", {}).get("base")
        if isinstance(data.get("assets"), list):
            access.assets = asset_labels(root, data.get("pages", {}), data["assets"], access.base_url)
        return access

    def labels(self, path: str) -> list[str]:
        """Return the labels guarding a file (all must pass); [] for a file anyone may fetch."""
        if path in self.files:
            return self.files[path]
        folder = self.bundle_of(path)
        if folder is not None:
            return [self.bundles[folder]["access"]]
        if path.startswith(ASSET_PREFIXES) or path in ("favicon.ico", "favicon.svg", "404.html"):
            return []
        if path in self.assets:  # the docs folder's own files: the readers of the pages showing them
            return [] if self.assets[path] == "public" else [self.assets[path]]
        # Sidebars (cut per reader), redirect pages: open where some page is public, else members'.
        return [] if self.has_public else ["members"]

    def bundle_of(self, path: str) -> str | None:
        """Return the search bundle folder a file belongs to (the deepest one), or None."""
        best = None
        for folder in self.bundles:
            if path.startswith(folder + "/") and (best is None or len(folder) > len(best)):
                best = folder
        return best

    def page_label(self, url_path: str) -> str | None:
        """Return the label of the page at a URL path (with or without its trailing slash), or None."""
        path = url_path if url_path.endswith("/") else url_path + "/"
        return self.pages.get(path) or self.pages.get(url_path)

    def may_link(self, reader: Reader, link: str) -> bool:
        """Tell whether a reader may read the page a link (absolute, root-relative or a twin path) names."""
        path = urlsplit(link).path if "://" in link else "/" + link.lstrip("/")
        if path.endswith(".md"):
            path = path[: -len(".md")] + "/"
            if path == "/index/":
                path = "/"
        label = self.page_label(path)
        return label is None or reader.may(label)


class AccessCache:
    """The SiteAccess of a folder, loaded again when its manifest's modification time or target changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[Path, tuple[tuple[int, int], SiteAccess]] = {}

    def get(self, root: Path) -> SiteAccess:
        real = root.resolve()
        try:
            stat = (real / MANIFEST).stat()
            stamp = (stat.st_mtime_ns, stat.st_ino)
        except OSError:
            stamp = (0, 0)
        with self._lock:
            hit = self._known.get(real)
            if hit is None or hit[0] != stamp:
                hit = self._known[real] = (stamp, SiteAccess.load(real))
            return hit[1]


def filtered_text(access: SiteAccess, reader: Reader, path: str, data: bytes) -> bytes | None:
    """Return a site-wide list cut to what the reader may read, or None when the file is not such a list (or the
    site marks nothing: then every page needs the same sign-in and the lists are served whole)."""
    if not access.marked:
        return None
    if path in LLMS_FILES:
        lines = data.decode("utf-8").split("\n")
        kept = [
            line for line in lines if not (m := _LLMS_LINK.match(line)) or access.may_link(reader, m.group(1))
        ]
        return "\n".join(kept).encode("utf-8")
    if _SITEMAP.match(path):
        text = data.decode("utf-8")
        return _SITEMAP_ENTRY.sub(
            lambda m: m.group(0) if access.may_link(reader, _unescape(m.group(1))) else "", text
        ).encode("utf-8")
    if path == "llms-full.txt":
        return llms_full(access, reader)
    if path == SEARCH_LISTING:
        return json.dumps(search_listing(access, reader), sort_keys=True).encode("utf-8")
    if path == SEARCH_INDEXES:
        names = json.loads(data)
        allowed = [
            n for n in names if reader.may(access.bundles.get(f"pagefind/{n}", {}).get("access", "public"))
        ]
        return json.dumps(allowed).encode("utf-8")
    return None


_MARKED = re.compile(rb'<([a-z][a-z0-9]*)\b[^<>]*?\sdata-access="([^"<>]{1,2000})"[^<>]*>')
MARK = b' data-access="'


def cut_marked(data: bytes, reader: Reader) -> bytes:
    """Drop from a built HTML file the elements marked `data-access` (sidebar entries and groups, pagination
    links naming restricted pages: docsgen.render.context access_mark) that the reader may read none of."""
    if MARK not in data:
        return data
    out, pos = bytearray(), 0
    while (m := _MARKED.search(data, pos)) is not None:
        try:
            labels = json.loads(html.unescape(m.group(2).decode("utf-8")))
        except (UnicodeDecodeError, ValueError):
            labels = []
        if isinstance(labels, list) and any(isinstance(x, str) and reader.may(x) for x in labels):
            out += data[pos : m.end()]
            pos = m.end()
            continue
        out += data[pos : m.start()]
        pos = _element_end(data, m.group(1), m.end())
    return bytes(out + data[pos:])


_USER_IF = re.compile(
    rb'<(div|span) class="dg-user-if" data-dg-user-if="([^"<>]{0,4000})" data-dg-user-branch="(then|else)"( hidden)?>'
)
USER_IF = b"data-dg-user-if="


def choose_user_branches(data: bytes, reader: Reader) -> bytes:
    """Keep, of each personalised condition in a page (docsgen.mdx.user_branches), only the branch this reader
    gets (their user data `content` with their `groups`; a reader nobody signed in: an empty object), shown."""
    if USER_IF not in data:
        return data
    out, pos = bytearray(), 0
    user = condition_user(reader.signed_in, reader.content, reader.groups)
    while (m := _USER_IF.search(data, pos)) is not None:
        condition = html.unescape(m.group(2).decode("utf-8", "replace"))
        try:
            holds = evaluate_condition(condition, user)
        except Unevaluable:
            out += data[pos : m.end()]  # the build's choice stays
            pos = m.end()
            continue
        if holds == (m.group(3) == b"then"):
            out += data[pos : m.start()] + m.group(0).replace(b" hidden>", b">")
            pos = m.end()
        else:
            out += data[pos : m.start()]
            pos = _element_end(data, m.group(1), m.end())
    return bytes(out + data[pos:])


def _element_end(data: bytes, tag: bytes, start: int) -> int:
    """Return where the element whose start tag ends at `start` ends (after its end tag); the end of the file
    when it has none, so a broken file loses its tail rather than showing what it guards."""
    pattern = re.compile(rb"<(/?)" + re.escape(tag) + rb"\b[^>]*>")
    depth = 1
    for m in pattern.finditer(data, start):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return m.end()
    return len(data)


def _unescape(text: str) -> str:
    return text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")


def llms_full(access: SiteAccess, reader: Reader) -> bytes:
    """Join the Markdown twins of the pages the reader may read, as the build's llms-full.txt does."""
    parts: list[str] = []
    for url, twin in access.llms_pages:
        label = access.page_label(url)
        if label is not None and not reader.may(label):
            continue
        try:
            body = (access.root / twin).read_text(encoding="utf-8")
        except OSError:
            continue
        first, _, rest = body.partition("\n")
        source = f"{access.base_url}{url}" if access.base_url else (url.lstrip("/") or "./")
        parts.append(f"{chr(10) if parts else ''}{first}\nSource: {source}\n{rest.rstrip()}\n")
    return "".join(parts).encode("utf-8")


def search_listing(access: SiteAccess, reader: Reader) -> dict[str, list[str]]:
    """Return pagefind/access.json for this reader: per base bundle, the restricted bundles they may search."""
    listing: dict[str, list[str]] = {}
    for folder, entry in sorted(access.bundles.items()):
        if entry["access"] != "public" and reader.may(entry["access"]):
            listing.setdefault(entry["base"], []).append(folder)
    return listing


def user_script(reader: Reader) -> bytes:
    """Return the script a page served to a signed-in reader gets: their data for personalised content and the
    API playground (window.docsgenUser, and a `docsgen:user` event), and the `user` object the page's conditions
    were evaluated with (their `content` with `groups`) as Mintlify's window.mintlify.user, with a `mintlify:user`
    event on window; `{user.firstName}` placeholders are filled from that same object."""
    data = json.dumps(reader.public_json(), sort_keys=True).replace("<", "\\u003c")
    user = json.dumps(
        condition_user(reader.signed_in, reader.content, reader.groups), sort_keys=True
    ).replace("<", "\\u003c")
    fill = (  # {user.firstName} in pages (docsgen.mdx.text_rules): the object the conditions read
        "document.addEventListener('DOMContentLoaded',function(){var c=window.mintlify.user||{};"
        "document.querySelectorAll('[data-dg-user]').forEach(function(n){var v=c;"
        "n.getAttribute('data-dg-user').split('.').forEach(function(k){"
        "v=v!=null&&typeof v==='object'?v[k]:undefined});"
        "if(Array.isArray(v))v=v.join(', ');"
        "if(v!=null&&typeof v!=='object')n.textContent=String(v)})});"
    )
    return (
        f"<script>window.docsgenUser={data};"
        f"window.mintlify=window.mintlify||{{}};window.mintlify.user={user};"
        "document.dispatchEvent(new CustomEvent('docsgen:user',{detail:window.docsgenUser}));"
        "window.dispatchEvent(new CustomEvent('mintlify:user',{detail:window.mintlify.user}));"
        f"{fill}</script>"
    ).encode()


def personalise(html: bytes, reader: Reader) -> bytes:
    """Put the reader's data into a page: before </head>, so page scripts find it when they run."""
    marker = b"</head>"
    at = html.find(marker)
    if at < 0 or not reader.signed_in:
        return html
    return html[:at] + user_script(reader) + html[at:]
