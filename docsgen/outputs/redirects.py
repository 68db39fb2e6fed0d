"""docs.json redirects as files: static redirect pages and a host-readable `_redirects` file."""

from __future__ import annotations

import functools
import re

from docsgen.common.theme import environment
from docsgen.common.urls import is_external, relative_url
from docsgen.config.model import bcp47
from docsgen.engine.write import SiteFiles
from docsgen.outputs.assets import default_language_words
from docsgen.render import SiteContext
from docsgen.render.custom import site_destination
from docsgen.site.read import Site
from docsgen.site.url_targets import _TOKEN, Rule, link_targets, rules


def add_redirects(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write the redirect pages and the `_redirects` file (nothing when the site has no redirects)."""
    add_redirect_pages(ctx, site, files)
    text = redirects_file(ctx, rules(ctx.config))
    if text:  # a `_redirects` file of the docs folder wins
        files.add("_redirects", text, "docs.json redirects", on_clash="yield")


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


def add_redirect_pages(ctx: SiteContext, site: Site, files: SiteFiles) -> None:
    """Write an HTML redirect page at each exact redirect source and page-less folder that no page occupies."""
    template = environment(ctx.theme.name).get_template("redirect.html")
    lang, words = default_language_words(ctx)
    speech = {"t": words, "lang": bcp47(lang) if lang else "en"}
    for source, destination in link_targets(site).items():
        output = (source + "/index.html") if source else "index.html"
        if source in site.pages:
            continue
        path, sep, fragment = destination.partition("#")
        target = (
            destination
            if is_external(destination)
            else relative_url(output, ctx.helpers["page_link"](path or "/")) + sep + fragment
        )
        # a page or file at that path wins, with a warning: the redirect then works through _redirects only
        files.add(output, template.render(target=target, **speech), f"redirect {source}", on_clash="keep")
