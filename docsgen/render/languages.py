"""The languages of a page: hreflang alternates (with x-default), the mirrored stylesheet of right-to-left pages,
and the optional redirect from the site root to the reader's browser language (docs.json `languageRedirect`),
which remembers a language the reader picked in the switcher."""

from __future__ import annotations

import json

from markupsafe import Markup, escape

from docsgen.config.model import RTL_LANGUAGES, bcp47
from docsgen.nav.tree import Section
from docsgen.pages.page import Page
from docsgen.render.context import SiteContext
from docsgen.render.switchers import Translations, translated_page

# Record a language picked in a switcher (links carry hreflang); on the root page only, go to the remembered
# language, else to the first of the browser's languages the site has (by tag, then by its first subtag).
_REDIRECT = """(function(){var V=__VERSIONS__,here=__HERE__,k="docsgen-language";
document.addEventListener("click",function(e){var a=e.target.closest&&e.target.closest("a[hreflang]");
if(a)try{localStorage.setItem(k,a.getAttribute("hreflang"))}catch(x){}});
if(!__ROOT__)return;var c=null;try{c=localStorage.getItem(k)}catch(x){}
if(!c||!V[c]){c=null;var w=navigator.languages||[navigator.language||""];
for(var i=0;i<w.length&&!c;i++){var b=String(w[i]);if(V[b]){c=b;break}
for(var t in V){if(t.split("-")[0].toLowerCase()===b.split("-")[0].toLowerCase()){c=t;break}}}}
if(c&&c!==here)location.replace(V[c])})();"""


def redirect_script(versions: dict[str, str], here: str, root: bool) -> str:
    """Return the inline script of `languageRedirect` for a page with these language versions."""
    data = json.dumps(versions, separators=(",", ":")).replace("<", "\\u003c")
    script = _REDIRECT.replace("__VERSIONS__", data).replace("__HERE__", json.dumps(here))
    return "<script>" + script.replace("__ROOT__", "true" if root else "false") + "</script>"


def alternate_links(
    site: SiteContext,
    section: Section | None,
    page: Page,
    root: str,
    lang: str | None,
    memo: Translations | None = None,
) -> Markup:
    """Return `<link rel="alternate" hreflang>` for each language the page exists in (itself included) and
    x-default (the default language's), absolute when the site URL is known; RTL pages add the mirrored CSS."""
    out: list[str] = []
    if lang in RTL_LANGUAGES:
        out.append(f'<link rel="stylesheet" href="{escape(root)}_static/rtl.css?v={site.static_version}">')
    current = next((s for s in (section.chain() if section else []) if s.kind == "language"), None)
    if current is None or current.parent is None:
        return Markup("\n" + "\n".join(out)) if out else Markup("")
    base = site.site_url
    default_url = None
    found: list[tuple[str, str]] = []  # (BCP 47 tag, URL) of each version of the page
    near: dict[str, str] = {}  # the same, relative: where the redirect goes on this host
    for sibling in current.parent.sections:
        if sibling.kind != "language" or (sibling.hidden and sibling is not current):
            continue
        url = page.url if sibling is current else translated_page(site, page.key, current, sibling, memo)
        if url is None:
            continue
        href = f"{base}/{url}" if base else (root + url if root != "./" else url or "./")
        found.append((bcp47(sibling.label), href))
        near[bcp47(sibling.label)] = root + url if root != "./" else url or "./"
        if sibling.is_default or default_url is None:  # x-default: the default language's, else the first
            default_url = href
    if len(found) > 1 and default_url:
        out += [f'<link rel="alternate" hreflang="{escape(t)}" href="{escape(h)}">' for t, h in found]
        out.append(f'<link rel="alternate" hreflang="x-default" href="{escape(default_url)}">')
    if site.config.raw.get("languageRedirect") is True:
        out.append(redirect_script(near, bcp47(current.label), page.url == ""))
    return Markup("\n" + "\n".join(out)) if out else Markup("")
