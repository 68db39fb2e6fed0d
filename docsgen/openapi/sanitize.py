"""Allow-list sanitiser for HTML rendered from spec text (`x-mint.content`), which a spec URL can change at will.

The MDX renderer turns spec content into HTML with components and formatting; this keeps exactly that and drops
what could run code on the docs domain: elements outside the allow-list (script, iframe, object, form, style,
base, meta, ...: script-like ones with their content, others keeping their text), attributes outside the
allow-list (every `on*` handler), URLs with schemes other than http(s), mailto and tel (and data:image in img),
and inline styles that could load anything.
"""

from __future__ import annotations

import re
from html import escape
from html.parser import HTMLParser


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_TAGS = _words(
    """
    a abbr article aside b bdi bdo blockquote br button caption cite code col colgroup dd del details
    dfn div dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 header hr i img input ins kbd label li
    mark nav ol p picture pre q s samp section small source span strong sub summary sup table tbody td
    tfoot th thead time tr u ul var video audio track wbr svg g path circle rect line polyline polygon
    ellipse defs symbol use title desc clippath lineargradient radialgradient stop mask text tspan math
    semantics annotation mrow mi mo mn ms msup msub msubsup mfrac msqrt mroot mtext mspace mover munder
    munderover mtable mtr mtd mstyle mpadded mphantom menclose
    """
)
# Dropped with everything inside them.
_DROP_CONTENT = _words(
    """
    script style iframe frame frameset object embed applet template noscript noembed textarea select xmp
    plaintext
    """
)
_VOID = _words(
    """
    area base br col embed hr img input link meta source track wbr
    """
)
_ATTRS = _words(
    """
    class id title alt href src width height hidden align colspan rowspan scope lang dir role target rel name
    open start reversed type value disabled checked readonly loading decoding datetime cite tabindex for
    display encoding controls muted loop playsinline poster srcset sizes media kind label srclang span
    headers abbr viewbox d fill stroke stroke-width stroke-linecap stroke-linejoin stroke-dasharray
    stroke-dashoffset stroke-miterlimit cx cy r rx ry x y x1 x2 y1 y2 dx dy points transform xmlns
    xmlns:xlink fill-rule clip-rule clip-path opacity fill-opacity stroke-opacity preserveaspectratio
    focusable offset stop-color stop-opacity gradientunits gradienttransform version text-anchor
    font-size font-weight font-family mathvariant mathsize stretchy fence separator lspace rspace accent
    accentunder columnalign rowalign xlink:href style data-icon
    """
)
# html.parser lower-cases names; SVG's camelCase ones are written back as SVG spells them.
_SVG_CASE = {
    name.lower(): name
    for name in [
        "viewBox",
        "preserveAspectRatio",
        "gradientUnits",
        "gradientTransform",
        "clipPath",
        "linearGradient",
        "radialGradient",
    ]
}
_URL_ATTRS = frozenset({"href", "src", "cite", "poster", "xlink:href", "action", "formaction", "background"})
_SAFE_SCHEMES = frozenset({"http", "https", "mailto", "tel"})
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):", re.I)
_INVISIBLE = re.compile(r"[\x00-\x20\x7f-\xa0\u1680\u180e\u2000-\u200f\u2028\u2029\u205f\u3000\ufeff]+")
_BAD_STYLE = re.compile(r"url\s*\(|expression\s*\(|javascript:|@import|behavior\s*:|-moz-binding|\\", re.I)


def safe_url(value: str, *, tag: str = "", attr: str = "href") -> bool:
    """Tell whether a URL may appear in an attribute: relative, #fragment, http(s), mailto, tel (data:image in img)."""
    compact = _INVISIBLE.sub("", value).lower()
    match = _SCHEME.match(compact)
    if not match:
        return True
    scheme = match.group(1)
    if scheme in _SAFE_SCHEMES:
        return True
    return scheme == "data" and tag == "img" and attr == "src" and compact.startswith("data:image/")


def is_script_url(value: str) -> bool:
    """Tell whether a value is a URL that runs code or carries a document: javascript:, vbscript:, data:."""
    return _INVISIBLE.sub("", value).lower().startswith(("javascript:", "vbscript:", "data:"))


def _safe_attr(tag: str, name: str, value: str | None) -> bool:
    if name.startswith("on") or not (name in _ATTRS or name.startswith(("data-", "aria-"))):
        return False
    if value is None:
        return True
    if name in _URL_ATTRS:
        return safe_url(value, tag=tag, attr=name)
    if name == "srcset":
        return all(safe_url(part.strip().split(" ")[0], tag=tag, attr="src") for part in value.split(","))
    if name == "style":
        return not _BAD_STYLE.search(value)
    return True


class _Sanitizer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._dropping: list[str] = []  # open elements whose content is dropped

    def _open(self, tag: str, attrs: list[tuple[str, str | None]], closed: bool) -> None:
        if self._dropping:
            if tag == self._dropping[-1] and not closed and tag not in _VOID:
                self._dropping.append(tag)
            return
        if tag in _DROP_CONTENT:
            if not closed and tag not in _VOID:
                self._dropping.append(tag)
            return
        if tag not in _TAGS:
            return
        kept = []
        for name, value in attrs:
            if _safe_attr(tag, name, value):
                name = _SVG_CASE.get(name, name)
                kept.append(f" {name}" if value is None else f' {name}="{escape(value, quote=True)}"')
        self.out.append(f"<{_SVG_CASE.get(tag, tag)}{''.join(kept)}{' /' if closed else ''}>")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open(tag, attrs, False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open(tag, attrs, True)

    def handle_endtag(self, tag: str) -> None:
        if self._dropping:
            if tag == self._dropping[-1]:
                self._dropping.pop()
            return
        if tag in _TAGS and tag not in _VOID:
            self.out.append(f"</{_SVG_CASE.get(tag, tag)}>")

    def handle_data(self, data: str) -> None:
        if not self._dropping:
            self.out.append(escape(data, quote=False))


def sanitize_html(html: str) -> str:
    """Return `html` with only allow-listed elements, attributes and URLs (see the module docstring)."""
    if not html or "<" not in html and "&" not in html:
        return html
    parser = _Sanitizer()
    parser.feed(html)
    parser.close()
    return "".join(parser.out)
