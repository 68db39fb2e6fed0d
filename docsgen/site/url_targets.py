"""Where the site's URLs lead: docs.json redirect rules, the pages they reach, and what author links may mean."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docsgen.common.urls import is_external
from docsgen.config import SiteConfig

if TYPE_CHECKING:
    from docsgen.site.read import Site

# `:name*` (zero or more segments), `:name` (one segment), `*` (anything): path-to-regexp as Mintlify uses it.
_TOKEN = re.compile(r"/:([A-Za-z_][A-Za-z0-9_]*)\*|:([A-Za-z_][A-Za-z0-9_]*)\*?|\*")


@dataclass(frozen=True)
class Rule:
    """One docs.json redirect: a source pattern, its destination and its HTTP status."""

    source: str  # "/old/:slug*", always starting with "/"
    destination: str
    status: int  # 308 permanent, 307 temporary

    @property
    def wildcard(self) -> bool:
        """Tell whether the source has `:param` or `*` parts (no static page can stand for it)."""
        return any(c in self.source for c in "*:")

    def pattern(self) -> tuple[str, list[str]]:
        """Return (regular expression usable in Python and JavaScript, capture names) for the source."""
        out, names, pos = ["^"], [], 0
        for m in _TOKEN.finditer(self.source):
            out.append(re.escape(self.source[pos : m.start()]).replace("\\/", "/"))
            if m.group(1):
                out.append("(?:/(.*))?")
                names.append(m.group(1))
            elif m.group(2):
                out.append("(.*)" if m.group(0).endswith("*") else "([^/]+)")
                names.append(m.group(2))
            else:
                out.append("(.*)")
                names.append("splat")
            pos = m.end()
        out.append(re.escape(self.source[pos:].rstrip("/")).replace("\\/", "/"))
        out.append("/?$")
        return "".join(out), names

    def match(self, path: str) -> str | None:
        """Return the destination for a request path when this rule matches it, else None."""
        regex, names = self.pattern()
        m = re.match(regex, _normal_path(path))
        if not m:
            return None
        values = {name: m.group(i + 1) or "" for i, name in enumerate(names)}
        return substitute(self.destination, values)


def substitute(destination: str, values: dict[str, str]) -> str:
    """Fill `:name`, `:name*` and `*` in a destination with the values captured from the source."""

    def fill(m: re.Match) -> str:
        if m.group(0) == "*":
            return values.get("splat", "")
        name = m.group(1) or m.group(2)
        value = values.get(name, "")
        return ("/" + value if value else "") if m.group(1) else value

    filled = _TOKEN.sub(fill, destination)
    return re.sub(r"(?<!:)//+", "/", filled) if not is_external(filled) else filled


def _normal_path(path: str) -> str:
    """Return a request path without index.html or a trailing slash ("/" stays "/")."""
    path = "/" + path.lstrip("/")
    if path.endswith("/index.html"):
        path = path[: -len("index.html")]
    return path.rstrip("/") or "/"


def rules(config: SiteConfig) -> list[Rule]:
    """Return docs.json redirects as rules, in the order written (the first match wins, as on hosts)."""
    out = []
    for r in config.redirects:
        source, destination = r.get("source"), r.get("destination")
        if not isinstance(source, str) or not isinstance(destination, str) or not source.strip():
            continue
        status = 307 if r.get("permanent") is False else 308
        out.append(Rule("/" + source.strip().lstrip("/"), destination.strip(), status))
    return out


def match_redirect(config: SiteConfig, path: str) -> tuple[str, int] | None:
    """Return (destination, status) of the first redirect matching a request path (for servers)."""
    for rule in rules(config):
        target = rule.match(path)
        if target is not None:
            return target, rule.status
    return None


def redirect_sources(config: SiteConfig) -> dict[str, str]:
    """Return {source key: destination} for docs.json redirects without wildcards (static redirect pages)."""
    out = {}
    for rule in rules(config):
        if not rule.wildcard:
            out[rule.source.strip("/")] = rule.destination
    return dict(sorted(out.items()))


def folder_indexes(site: Site) -> dict[str, str]:
    """Return {folder: "/first page"} for folders of navigation pages that have no index page of their own.

    Links such as /api-reference or /guides/ then open the first page of that folder, as readers expect.
    """
    out: dict[str, str] = {}
    for key in site.nav.order:
        parts = key.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder not in out and folder not in site.pages and f"{folder}/index" not in site.pages:
                out[folder] = "/" + key
    return dict(sorted(out.items()))


class LinkTargets(dict[str, str]):
    """{path served by a redirect page: destination}, with what else an author's link may mean on this site.

    wildcards: the docs.json redirects with `:param`/`*` parts, in order (a link matching one goes to its
    destination); version_folders: the leading folder of each version's pages (`v2` for `v2/en/x`), so a link
    written without it, on a page of that version, reaches that version's page as on Mintlify.
    """

    def __init__(
        self,
        exact: dict[str, str],
        wildcards: list[Rule] | None = None,
        version_folders: set[str] | None = None,
    ):
        super().__init__(exact)
        self.wildcards = list(wildcards or ())
        self.version_folders = set(version_folders or ())
        self.expanded: set[str] = set()  # paths above that come from a wildcard redirect

    def wildcard_destination(self, key: str) -> str | None:
        """Return the destination of the first wildcard redirect matching a site path ("old/x"), else None."""
        for rule in self.wildcards:
            target = rule.match("/" + key)
            if target is not None:
                return target
        return None


def link_targets(site: Site) -> LinkTargets:
    """Return every URL served by a redirect page (docs.json redirects, wildcard ones expanded to the site's
    pages, folder indexes), with the wildcard rules and the version folders."""
    site_rules = rules(site.config)
    expanded = wildcard_pages(site_rules, site.pages)
    exact = {**folder_indexes(site), **expanded, **redirect_sources(site.config)}
    targets = LinkTargets(exact, [r for r in site_rules if r.wildcard], version_folders(site))
    targets.expanded = {k for k in expanded if exact[k] == expanded[k]}
    return targets


# At most this many redirect pages are written for one wildcard redirect (the rest is left to _redirects and to
# the 404 page's script, which follow every rule).
MAX_WILDCARD_PAGES = 5000


def wildcard_pages(site_rules: list[Rule], pages: Mapping[str, object]) -> dict[str, str]:
    """Return {old path: destination} for every page reachable through a wildcard redirect run backwards.

    `/old/:slug*` -> `/new/:slug*` yields `old/x` -> `/new/x` for each page `new/x`: the old URLs of the pages
    that exist, which is what links and bookmarks use. Rules whose destination is external or does not reuse
    the source's parameters cannot be run backwards; they work through `_redirects` and the 404 page's script.
    """
    out: dict[str, str] = {}
    for rule in site_rules:
        if not rule.wildcard or is_external(rule.destination):
            continue
        backwards = Rule("/" + rule.destination.partition("#")[0].lstrip("/"), rule.source, rule.status)
        regex, names = backwards.pattern()
        source_names = set(rule.pattern()[1])
        if not names or set(names) != source_names:
            continue
        compiled, count = re.compile(regex), 0
        for key, page in pages.items():
            url = getattr(
                page, "url", key
            )  # where the page is served: "" for the home page, "a/" for a/index
            path = url.strip("/") if isinstance(url, str) else key
            old = backwards.match("/" + path) if compiled.match("/" + path) else None
            if old is None or any(c in old for c in "*:") or "/../" in old + "/":
                continue
            old_key, destination = old.strip("/"), rule.match(old)
            if old_key and old_key not in pages and old_key not in out and destination is not None:
                out[old_key] = destination
                count += 1
            if count >= MAX_WILDCARD_PAGES:
                break
    return out


def version_folders(site: Site) -> set[str]:
    """Return the leading folder of each version's pages that no other version uses ("v2" for v2/en/x)."""
    by_version: dict[str, list[str]] = {}
    for key, place in site.nav.placements.items():
        version = next((s for s in place.section.chain() if s.kind == "version"), None)
        if version is not None:
            by_version.setdefault(version.id, []).append(key)
    if len(by_version) < 2:
        return set()
    firsts = {vid: {k.split("/", 1)[0] for k in keys if "/" in k} for vid, keys in by_version.items()}
    holders: dict[
        str, set[str]
    ] = {}  # a page key, or a key without its first folder -> the versions holding it
    for vid, keys in by_version.items():
        for key in keys:
            holders.setdefault(key, set()).add(vid)
            holders.setdefault(key.partition("/")[2], set()).add(vid)
    out = set()
    for vid, keys in by_version.items():
        others = {f for other, fs in firsts.items() if other != vid for f in fs}
        # A version folder is one whose pages, without it, are pages of another version (v2/en/x and en/x).
        counts: dict[str, int] = {}
        for key in keys:
            first, _, rest = key.partition("/")
            if rest and first not in others and len(holders.get(rest, set()) - {vid}) > 0:
                counts[first] = counts.get(first, 0) + 1
        if counts:
            out.add(max(counts, key=lambda f: counts[f]))
    return out
