"""Site owners' customisation in pages: custom CSS/JS files, fonts, background, appearance, timestamps, 404 redirects."""

from __future__ import annotations

import json
import os
import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from docsgen.common.errors import Diagnostic, warning
from docsgen.common.google_fonts import PLACEHOLDER, FontError, LocalFont, google_font, is_local_family
from docsgen.common.theme import register_template_globals
from docsgen.common.urls import is_external
from docsgen.config import analytics
from docsgen.pages.page import Page
from docsgen.render.context import SiteContext
from docsgen.site.url_targets import rules

FONT_FORMATS = {".woff2": "woff2", ".woff": "woff", ".ttf": "truetype", ".otf": "opentype"}
_SKIPPED_SCRIPTS = re.compile(r"(^|/)(snippets|_snippets|node_modules|_site|_static)/|\.config\.js$|(^|/)\.")
_FALLBACK_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'
_DECORATIONS = {
    "gradient": (
        "body{background-image:radial-gradient(60rem 30rem at 85% -10%,"
        "color-mix(in srgb,var(--dg-primary) 22%,transparent),transparent 70%),"
        "radial-gradient(40rem 24rem at 0% 0%,color-mix(in srgb,var(--dg-primary-light) 14%,transparent),"
        "transparent 70%);background-repeat:no-repeat;background-attachment:fixed}"
    ),
    "grid": (
        "body{background-image:linear-gradient(to right,color-mix(in srgb,var(--dg-fg) 6%,transparent) 1px,"
        "transparent 1px),linear-gradient(to bottom,color-mix(in srgb,var(--dg-fg) 6%,transparent) 1px,"
        "transparent 1px);background-size:32px 32px;background-attachment:fixed}"
    ),
    "windows": (
        "body{background-image:linear-gradient(color-mix(in srgb,var(--dg-primary) 10%,transparent) 2px,"
        "transparent 2px),linear-gradient(90deg,color-mix(in srgb,var(--dg-primary) 10%,transparent) 2px,"
        "transparent 2px);background-size:120px 80px;background-position:-1px -1px;"
        "background-attachment:fixed}"
    ),
}


def custom_files(site: SiteContext) -> tuple[list[str], list[str]]:
    """Return (css, js) files of the docs folder that every page includes, sorted (Mintlify behaviour)."""
    cached = site.__dict__.get("_dg_custom_files")
    if cached is None:
        static = sorted(site.links.static) if site.links else []
        keep = [rel for rel in static if rel.endswith((".css", ".js")) and not _SKIPPED_SCRIPTS.search(rel)]
        docs_dir = site.links.docs_dir if site.links else None
        keep = [rel for rel in keep if not (rel.endswith(".js") and docs_dir and node_script(docs_dir / rel))]
        cached = [r for r in keep if r.endswith(".css")], [r for r in keep if r.endswith(".js")]
        site.__dict__["_dg_custom_files"] = cached
    return cached


# A shebang or a CommonJS require("...") call (throws in browsers); a guarded `module.exports` (UMD) is fine.
_NODE_SCRIPT = re.compile(rb"\A#!|(?<![.\w])require\(\s*['\"]")


def node_script(path: Path) -> bool:
    """Tell whether a .js file of the docs folder is a Node.js tool (shebang or require()):
    it would throw in every page, so it is not included (a `customize.node-script` warning says so)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(65536)
    except OSError:
        return False
    return bool(_NODE_SCRIPT.search(head))


def _font_entries(config_fonts: Any) -> list[tuple[str, dict]]:
    """Return [(role, font settings)] for docs.json fonts: one body+heading font, or heading/body apart."""
    if not isinstance(config_fonts, dict):
        return []
    if any(isinstance(config_fonts.get(k), dict) for k in ("heading", "body")):
        return [(k, config_fonts[k]) for k in ("body", "heading") if isinstance(config_fonts.get(k), dict)]
    return [("all", config_fonts)]


def google_fonts(site: SiteContext) -> dict[str, LocalFont | FontError]:
    """Return {role: the downloaded Google font, or why it could not be} for `fonts` entries naming a family
    without a source; downloaded once per build (the main process asks first, before pages render)."""
    found = site.__dict__.get("_dg_google_fonts")
    if found is None:
        found = {}
        for role, font in _font_entries(site.config.raw.get("fonts")):
            family, source = font.get("family"), font.get("source")
            if isinstance(family, str) and family.strip() and not source and not is_local_family(family):
                weight = font.get("weight")
                weights = (int(weight),) if isinstance(weight, int | float) and 1 <= weight <= 1000 else ()
                try:
                    found[role] = google_font(family.strip(), weights)
                except FontError as error:
                    found[role] = error
        site.__dict__["_dg_google_fonts"] = found
    return found


def font_diagnostics(site: SiteContext, files: set[str]) -> list[Diagnostic]:
    """Warn about Google fonts that could not be downloaded and font files that are missing."""
    out = []
    downloaded = google_fonts(site)
    for role, font in _font_entries(site.config.raw.get("fonts")):
        family, source = font.get("family"), font.get("source")
        where = "fonts" if role == "all" else f"fonts.{role}"
        located = analytics.where_in_config(site.config, tuple(where.split(".")))
        if not isinstance(family, str) or not family.strip():
            continue
        if isinstance(downloaded.get(role), FontError):
            out.append(
                warning(
                    "fonts.google",
                    f"Google font '{family}' could not be downloaded: {downloaded[role]}; pages use the "
                    "theme's font",
                    *located,
                    json_path=where,
                    hint="build with network access once (the font is then cached), or put the font files in "
                    "the docs folder and set fonts.source",
                )
            )
        elif (
            isinstance(source, str) and source and not is_external(source) and source.lstrip("/") not in files
        ):
            out.append(
                warning(
                    "fonts.missing",
                    f"font file '{source}' does not exist in the docs folder",
                    *analytics.where_in_config(site.config, (*where.split("."), "source")),
                    json_path=where + ".source",
                )
            )
    return out


def font_css(site: SiteContext, root: str) -> str:
    """Return @font-face rules and font-family settings for docs.json fonts with a source."""
    rules, families = [], {}
    for role, font in _font_entries(site.config.raw.get("fonts")):
        family, source = font.get("family"), font.get("source")
        if not isinstance(family, str) or not family.strip():
            continue
        name = _css_string(family.strip())
        local = google_fonts(site).get(role) if not source else None
        if isinstance(local, LocalFont):  # downloaded at build time into _fonts/
            rules.append(local.css.replace(PLACEHOLDER, root + "_fonts/"))
            families[role] = f"{name},{_FALLBACK_FONT}"
        elif not source and is_local_family(family):
            plain = family.strip()  # generic names (system-ui) must stay unquoted keywords
            families[role] = (
                f"{plain if re.fullmatch(r'-?[A-Za-z][A-Za-z-]*', plain) else name},{_FALLBACK_FONT}"
            )
        elif isinstance(source, str) and source:
            url = source if is_external(source) else root + source.lstrip("/")
            fmt = font.get("format") or FONT_FORMATS.get(os.path.splitext(source)[1].lower(), "")
            face = f"@font-face{{font-family:{name};src:url({_css_string(url)})"
            face += f" format({_css_string(str(fmt))})" if fmt else ""
            weight = font.get("weight")
            if isinstance(weight, int | float | str) and re.fullmatch(
                r"[0-9]{1,4}( [0-9]{1,4})?", str(weight)
            ):
                face += f";font-weight:{weight}"
            rules.append(face + ";font-display:swap}")
            families[role] = f"{name},{_FALLBACK_FONT}"
    if "all" in families:  # html:root, as the theme's own stacks (render/context.py theme_css)
        rules.append(f"html:root{{--dg-font:{families['all']}}}")
    if "body" in families:
        rules.append(f"html:root{{--dg-font:{families['body']}}}")
    heading = families.get("heading") or families.get("all")
    if heading:  # also for one font for everything: a theme's own heading font must not override the site's
        rules.append(
            f".dg-title,.dg-prose h1,.dg-prose h2,.dg-prose h3,.dg-prose h4{{font-family:{heading}}}"
        )
    return "".join(rules)


# The theme's own web font (site.css's @font-face for Inter, under _static/): preloaded where the page's text is set
# in it, so it arrives with the stylesheet instead of being asked for by the first layout. On the reader benchmark's
# guide page (bench/reader.py, 15 cold loads each in turns) first paint went 360 -> 316 ms (Starlight 320 ms): the
# text waited for the font, fetched only once the stylesheet was parsed and laid out.
THEME_FONT_FILE = "fonts/inter-latin-wght-normal.woff2"
_THEME_FONT_FAMILIES = ("inter", "inter variable")


def font_preload(site: SiteContext) -> str:
    """Return the theme's web font file (under _static/) when some text of a page is set in it, else "": the
    theme's body or heading stack starts with Inter and docs.json `fonts` does not replace that stack."""
    cached = site.__dict__.get("_dg_font_preload")
    if cached is None:
        css = font_css(site, "")
        replaced = {"body": "--dg-font:" in css, "heading": ".dg-title," in css}
        used = False
        for role in ("body", "heading"):
            stack = site.theme.fonts.get(role)
            first = stack.split(",")[0].strip().strip("'\"").lower() if isinstance(stack, str) else "inter"
            used = used or (not replaced[role] and first in _THEME_FONT_FAMILIES)
        cached = THEME_FONT_FILE if used and THEME_FONT_FILE in site.theme.static_files() else ""
        site.__dict__["_dg_font_preload"] = cached
    return cached


def background_css(site: SiteContext, root: str) -> str:
    """Return CSS for docs.json background: decoration, color (light/dark) and image (light/dark)."""
    bg = site.config.raw.get("background")
    if not isinstance(bg, dict):
        return ""
    out = []
    decoration = bg.get("decoration")
    if isinstance(decoration, str) and decoration in _DECORATIONS:
        out.append(_DECORATIONS[decoration])
    color = bg.get("color")
    if isinstance(color, dict):
        for mode, selector in (("light", ":root"), ("dark", 'html[data-theme="dark"]')):
            value = color.get(mode)
            if isinstance(value, str) and _safe_color(value):
                out.append(f"{selector}{{--dg-bg:{value}}}")
    image = bg.get("image")
    if (isinstance(decoration, str) and decoration in _DECORATIONS) or image:
        out.append("body{--dg-header-top-blur:blur(8px)}")  # site.css: the header blurs it at the top too
    images = image if isinstance(image, dict) else {"light": image, "dark": image}
    for mode, selector in (("light", "html body"), ("dark", 'html[data-theme="dark"] body')):
        src = images.get(mode)
        if isinstance(src, str) and src:
            url = src if is_external(src) else root + src.lstrip("/")
            out.append(
                f"{selector}{{background-image:url({_css_string(url)});background-size:cover;"
                "background-position:center top;background-attachment:fixed;background-repeat:no-repeat}"
            )
    return "".join(out)


def appearance_script(site: SiteContext) -> str:
    """Return a script enforcing the default mode when appearance.strict hides the toggle (ignores stored choice)."""
    appearance = site.config.appearance
    if not appearance.strict:
        return ""
    mode = appearance.default if appearance.default in ("light", "dark") else "system"
    return (
        "(function(){var d=document.documentElement,m=" + json.dumps(mode) + ";"
        'if(m==="system")m=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";'
        'd.dataset.theme=m;d.classList.toggle("dark",m==="dark");d.classList.toggle("light",m!=="dark");'
        'd.style.colorScheme=m;try{localStorage.removeItem("dg-theme")}catch(e){}})();'
    )


def custom_head(site: SiteContext, page: Page, root: str) -> Markup:
    """Return what site owners add to every page's <head>: fonts, background, custom CSS and JS, 404 redirects."""
    if page.key == "404":
        return _custom_head(site, root, not_found=True)
    # Every other page's is the same at one depth: it depends on the site's config and files (fixed for one
    # SiteContext, as custom_files and google_fonts already assume), the root prefix and the Tailwind stylesheet.
    memo: dict[tuple[str, str], Markup] = site.__dict__.setdefault("_dg_custom_head", {})
    key = (root, site.tailwind_href)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _custom_head(site, root, not_found=False)
    return found


def _custom_head(site: SiteContext, root: str, not_found: bool) -> Markup:
    parts: list[str] = []
    script = appearance_script(site)
    if script:
        parts.append(f"<script>{script}</script>")
    css = font_css(site, root) + background_css(site, root)
    if css:
        parts.append('<style id="dg-custom-style">' + css.replace("</", "<\\/") + "</style>")
    sheets, scripts = custom_files(site)
    if site.tailwind_href:  # before the site's own CSS, which Mintlify also loads after Tailwind's
        parts.append(f'<link rel="stylesheet" href="{escape(root + site.tailwind_href)}">')
    for rel in sheets:
        parts.append(f'<link rel="stylesheet" href="{escape(root + rel)}" data-dg-custom>')
    for rel in scripts:
        parts.append(f'<script src="{escape(root + rel)}" defer data-dg-custom></script>')
    if not_found:
        parts.append(str(analytics.not_found_beacon(site.config)))  # docsgen's own analytics, when configured
        parts.append(str(not_found_script(site)))
    return Markup("\n".join(parts))


def last_modified(docs_dir: Path, sources: list[str]) -> dict[str, datetime]:
    """Return {source: last commit date} from one `git log` call; SOURCE_DATE_EPOCH or mtime otherwise."""
    dates: dict[str, datetime] = {}
    wanted = set(sources)
    try:
        out = subprocess.run(
            ["git", "log", "--format=%x00%cI", "--name-only", "--no-renames", "--relative", "--", "."],
            cwd=docs_dir,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        lines = out.stdout.splitlines() if out.returncode == 0 else []
    except (OSError, subprocess.SubprocessError):
        lines = []
    current = None
    for line in lines:
        if line.startswith("\x00"):
            current = datetime.fromisoformat(line[1:].strip())
        elif line and current is not None and line in wanted and line not in dates:
            dates[line] = current
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    for source in sources:
        if source in dates:
            continue
        if epoch.isdigit():
            dates[source] = datetime.fromtimestamp(int(epoch), UTC)
        elif (docs_dir / source).is_file():
            dates[source] = datetime.fromtimestamp(int((docs_dir / source).stat().st_mtime), UTC)
    return dates


def timestamps(site: SiteContext) -> dict[str, datetime]:
    """Return the last-modified dates pages may show ({} when none shows one), computed once per build."""
    if site.timestamps is None:
        sources = sorted({p.source for p in site.pages.values() if p.source})
        site.timestamps = last_modified(site.site.docs_dir, sources) if _timestamp_wanted(site) else {}
    return site.timestamps


def _timestamp_wanted(site: SiteContext) -> bool:
    """Tell whether any page can show a timestamp (saves the git call otherwise)."""
    return bool(site.config.metadata.get("timestamp")) or any(
        p.meta.get("timestamp") is True or p.meta.get("lastUpdatedDate") for p in site.pages.values()
    )


def page_timestamp(site: SiteContext, page: Page) -> datetime | None:
    """Return the date a page shows as last updated, or None when it shows none."""
    shown = page.meta.get("timestamp")
    off = shown is False or (shown is None and not site.config.metadata.get("timestamp"))
    if off and not page.meta.get("lastUpdatedDate"):
        return None
    explicit = page.meta.get("lastUpdatedDate")
    if explicit:
        try:
            value = explicit if isinstance(explicit, datetime) else datetime.fromisoformat(str(explicit))
            return value if isinstance(value, datetime) else datetime(value.year, value.month, value.day)
        except ValueError:
            return None
    if not page.source:
        return None
    return timestamps(site).get(page.source)


def last_updated(site: SiteContext, page: Page, words: str = "Last updated") -> Markup:
    """Return the "Last updated" line for a page (empty when timestamps are off for it): `words` in the page's
    language; the date is written in English and site.js rewrites it in the page's language."""
    when = page_timestamp(site, page)
    if when is None:
        return Markup("")
    label = f"{when:%B} {when.day}, {when.year}"
    return Markup('<p class="dg-last-updated">{} <time datetime="{}">{}</time></p>').format(
        words, when.isoformat(), label
    )


def _css_string(text: str) -> str:
    """Quote text as a CSS string that cannot end the string, the rule or the <style> element."""
    return json.dumps(text).replace("</", "<\\/")


def _safe_color(value: str) -> bool:
    """Accept #hex, rgb()/hsl() and named colours only (docs.json text goes into a <style> element)."""
    return bool(
        re.fullmatch(r"#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]+\)|[a-zA-Z]+", value.strip())
    )


def site_destination(ctx: SiteContext, destination: str) -> str:
    """Return a destination as an absolute site path ("/new/page/#x"), or unchanged when external."""
    if is_external(destination):
        return destination
    path, sep, fragment = destination.partition("#")
    if any(c in path for c in "*:"):
        return "/" + path.lstrip("/") + sep + fragment
    return "/" + ctx.helpers["page_link"](path or "/") + sep + fragment


def not_found_script(ctx: SiteContext) -> Markup:
    """Return the 404 page's script: follow matching redirects, else go home when errors.404.redirect is on."""
    config = ctx.config
    data = []
    for rule in rules(config):
        regex, names = rule.pattern()
        data.append({"re": regex, "names": names, "to": site_destination(ctx, rule.destination)})
    home = config.not_found.redirect
    if not data and not home:
        return Markup("")
    payload = json.dumps({"rules": data, "home": home}, separators=(",", ":"))
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


TEMPLATE_GLOBALS = {
    "dg_custom_head": custom_head,
    "dg_font_preload": font_preload,
    "dg_last_updated": last_updated,
    "dg_analytics": analytics.snippets,
    "dg_assistant": analytics.assistant_endpoint,
}


# Callable from every theme's templates (partials/custom-head.html), also after the dev server reloads themes.
register_template_globals(TEMPLATE_GLOBALS)
