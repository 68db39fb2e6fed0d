"""docs.json redirects: static redirect pages, a host-readable `_redirects` file and the 404 page's fallback."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from docsgen.config import SiteConfig
from docsgen.render import SiteContext, is_external, relative_url
from docsgen.theme import environment
from docsgen.write import SiteFiles

if TYPE_CHECKING:
    from docsgen.build import Site

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


def add_redirects(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write the redirect pages and the `_redirects` file (nothing when the site has no redirects)."""
    add_redirect_pages(ctx, site, files)
    text = redirects_file(ctx, rules(ctx.config))
    if text and not files.has("_redirects"):
        files.add("_redirects", text, "docs.json redirects")


def site_destination(ctx: SiteContext, destination: str) -> str:
    """Return a destination as an absolute site path ("/new/page/#x"), or unchanged when external."""
    if is_external(destination):
        return destination
    path, sep, fragment = destination.partition("#")
    if any(c in path for c in "*:"):
        return "/" + path.lstrip("/") + sep + fragment
    return "/" + ctx.helpers["page_link"](path or "/") + sep + fragment


def redirects_file(ctx: SiteContext, site_rules: list[Rule]) -> str:
    """Return the Netlify / Cloudflare Pages `_redirects` text: `source destination status`, wildcards as :splat."""
    lines = []
    for rule in site_rules:
        stars = {m.group(1) or m.group(2) for m in _TOKEN.finditer(rule.source) if m.group(0).endswith("*")}
        source = _TOKEN.sub(functools.partial(_host_token, stars=stars, splat="*"), rule.source)
        destination = site_destination(ctx, rule.destination)
        if not is_external(destination) or stars:
            destination = _TOKEN.sub(functools.partial(_host_token, stars=stars, splat=":splat"), destination)
        lines.append(f"{source} {destination} {rule.status}")
    return "\n".join(lines) + "\n" if lines else ""


def _host_token(m: re.Match, stars: set[str], splat: str) -> str:
    """Rewrite one pattern token for hosts: many-segment captures become the splat, `:name` stays."""
    name = m.group(1) or m.group(2)
    slash = "/" if m.group(1) else ""
    if m.group(0) == "*" or name in stars:
        return slash + splat
    return m.group(0)


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
    out = set()
    for vid, keys in by_version.items():
        others = {f for other, fs in firsts.items() if other != vid for f in fs}
        elsewhere = {
            p
            for other, ks in by_version.items()
            if other != vid
            for k in ks
            for p in (k, k.partition("/")[2])
        }
        # A version folder is one whose pages, without it, are pages of another version (v2/en/x and en/x).
        counts: dict[str, int] = {}
        for key in keys:
            first, _, rest = key.partition("/")
            if rest and first not in others and rest in elsewhere:
                counts[first] = counts.get(first, 0) + 1
        if counts:
            out.add(max(counts, key=lambda f: counts[f]))
    return out


def add_redirect_pages(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write an HTML redirect page at each exact redirect source and page-less folder that no page occupies."""
    template = environment(ctx.theme.name).get_template("redirect.html")
    for source, destination in link_targets(site).items():
        output = (source + "/index.html") if source else "index.html"
        if source in site.pages or files.has(output):
            continue
        path, sep, fragment = destination.partition("#")
        target = (
            destination
            if is_external(destination)
            else relative_url(output, ctx.helpers["page_link"](path or "/")) + sep + fragment
        )
        files.add(output, template.render(target=target), f"redirect {source}", on_clash="keep")


def not_found_settings(config: SiteConfig) -> dict[str, Any]:
    """Return docs.json errors.404 with its defaults: redirect home (true), title, description."""
    raw = config.errors.get("404") if isinstance(config.errors.get("404"), dict) else {}
    return {
        "redirect": raw.get("redirect") is not False,
        "title": raw.get("title") or "Page not found",
        "description": raw.get("description") or "",
    }


def not_found_script(ctx: SiteContext) -> Markup:
    """Return the 404 page's script: follow matching redirects, else go home when errors.404.redirect is on."""
    config = ctx.config
    data = []
    for rule in rules(config):
        regex, names = rule.pattern()
        data.append({"re": regex, "names": names, "to": site_destination(ctx, rule.destination)})
    settings = not_found_settings(config)
    if not data and not settings["redirect"]:
        return Markup("")
    payload = json.dumps({"rules": data, "home": settings["redirect"]}, separators=(",", ":"))
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup("<script>") + Markup(_SCRIPT.replace("__RULES__", payload)) + Markup("</script>")


# The same matching as Rule.match, in the browser: static hosts without _redirects support still redirect.
_SCRIPT = """(function(){var c=__RULES__,p="/"+location.pathname.replace(/^\\/+/,"");
p=p.replace(/\\/index\\.html$/,"/").replace(/\\/+$/,"")||"/";
for(var i=0;i<c.rules.length;i++){var r=c.rules[i],m=new RegExp(r.re).exec(p);if(!m)continue;var v={};
r.names.forEach(function(n,j){v[n]=m[j+1]||""});
var to=r.to.replace(/\\/:([A-Za-z_]\\w*)\\*|:([A-Za-z_]\\w*)\\*?|\\*/g,function(t,a,b){if(t==="*")return v.splat||"";
return a?(v[a]?"/"+v[a]:""):(v[b]||"")});if(!/^[a-z][a-z0-9+.-]*:/i.test(to))to=to.replace(/\\/\\/+/g,"/");
if(to!==p){location.replace(to+location.search+location.hash);return}}
if(c.home&&p!=="/")location.replace("/");})();"""
