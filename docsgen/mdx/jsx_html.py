"""JSX markup as HTML: React prop names, style objects, SVG attributes, links and assets resolved."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from docsgen.mdx.expressions import Unevaluable, evaluate, is_comment, to_text
from docsgen.mdx.props import tag_props

if TYPE_CHECKING:
    from docsgen.mdx.jsx_syntax import Tag
    from docsgen.mdx.state import RenderState

esc = html.escape
REACT_ATTRS = {
    "className": "class",
    "htmlFor": "for",
    "autoPlay": "autoplay",
    "playsInline": "playsinline",
    "allowFullScreen": "allowfullscreen",
    "frameBorder": "frameborder",
    "tabIndex": "tabindex",
    "srcSet": "srcset",
    "crossOrigin": "crossorigin",
    "referrerPolicy": "referrerpolicy",
    "readOnly": "readonly",
    "maxLength": "maxlength",
    "colSpan": "colspan",
    "rowSpan": "rowspan",
    "autoComplete": "autocomplete",
    "autoFocus": "autofocus",
    "spellCheck": "spellcheck",
    "xlinkHref": "xlink:href",
    "xmlnsXlink": "xmlns:xlink",
    "dangerouslySetInnerHTML": "",
}
_SVG_KEBAB = re.compile(
    r"^(stroke|fill|clip|stop|font|text|flood|lighting|marker|shape|word|letter|dominant|alignment|baseline|"
    r"pointer|vector|image|color)([A-Z].*)$"
)
_UNITLESS = {
    "opacity",
    "zIndex",
    "fontWeight",
    "lineHeight",
    "flex",
    "flexGrow",
    "flexShrink",
    "order",
    "zoom",
}
ASSET_ATTRS = {
    ("img", "src"),
    ("video", "src"),
    ("source", "src"),
    ("audio", "src"),
    ("video", "poster"),
    ("img", "srcset"),
}


def style_to_css(style: Any) -> str:
    """Turn a React style object into a CSS declaration string."""
    if not isinstance(style, dict):
        return str(style or "")
    parts = []
    for key, value in style.items():
        if value is None or value is False:
            continue
        prop = key if key.startswith("--") else re.sub(r"([A-Z])", lambda m: "-" + m.group(1).lower(), key)
        if (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and key not in _UNITLESS
            and value != 0
        ):
            value = f"{to_text(value)}px"
        parts.append(f"{prop}: {to_text(value)}")
    return "; ".join(parts)


_IMG_TAG = re.compile(r"<img\b(?:[^>\"']|\"[^\"]*\"|'[^']*')*>", re.I)
_TEXT_ALTERNATIVE = re.compile(r"\s(?:alt|aria-label|aria-labelledby|title)\s*=", re.I)


def mark_decorative_images(markup: str) -> str:
    """Give `<img>` tags with no text alternative `alt=""`, as Markdown's `![](x)` (`docsgen a11y` reports them)."""
    return _IMG_TAG.sub(
        lambda m: m[0] if _TEXT_ALTERNATIVE.search(m[0]) else '<img alt=""' + m[0][4:], markup
    )


def html_attrs(name: str, props: dict[str, Any], state: RenderState) -> str:
    """Render JSX props of an HTML element as HTML attributes (className, style objects, links, assets)."""
    if name.lower() == "img":  # Mintlify's image actions (copy/download buttons)
        from docsgen.mdx.image_actions import adapt

        props = adapt(props, state)
    out = []
    for key, value in props.items():
        if key.startswith("on") and key[2:3].isupper() or key in ("key", "ref"):
            continue
        attr = REACT_ATTRS.get(key, key)
        if not attr:
            continue
        m = _SVG_KEBAB.match(attr)
        if m:
            attr = m.group(1) + re.sub(r"([A-Z])", lambda x: "-" + x.group(1).lower(), m.group(2))
        if value is None or value is False:
            continue
        if attr == "style":
            value = style_to_css(value)
        if value is True:
            out.append(f" {attr}")
            continue
        text = to_text(value) if not isinstance(value, (dict, list)) else str(value)
        lowered = name.lower()
        if attr == "href" and lowered == "a":
            text = state.ctx.resolve_link(text)
        elif (lowered, attr) in ASSET_ATTRS and attr != "srcset":
            text = state.ctx.resolve_asset(text)
        out.append(f' {attr}="{esc(text)}"')
    named = any(key in props for key in ("aria-label", "aria-labelledby", "title"))
    if name == "img" and not named and "alt" not in props:
        out.append(' alt=""')  # as Markdown's ![](x): not read out as a file name (`docsgen a11y` reports it)
    elif name == "iframe" and not named:
        try:
            host = urlsplit(to_text(props.get("src") or "")).hostname
        except ValueError:  # "http://[bad": no host to name
            host = None
        out.append(f' title="{esc(f"Embedded content from {host}" if host else "Embedded content")}"')
    return "".join(out)


def convert_jsx_markup(src: str, state: RenderState) -> str:
    """Rewrite JSX markup (an inline SVG) as HTML: props converted, `{expressions}` evaluated, text kept."""
    from docsgen.mdx.jsx_syntax import JsxSyntaxError, find_expression_end, is_tag_start, scan_tag

    out: list[str] = []
    i = 0
    n = len(src)
    while i < n:
        ch = src[i]
        if ch == "<" and is_tag_start(src, i):
            try:
                tag = scan_tag(src, i)
            except JsxSyntaxError:
                out.append("&lt;")
                i += 1
                continue
            if tag.closing:
                out.append(f"</{tag.name}>" if tag.name else "")
            elif tag.name:
                props = element_props(tag, state)
                attrs = html_attrs(tag.name, props, state)
                out.append(f"<{tag.name}{attrs}{' /' if tag.self_closing else ''}>")
            i = tag.end
            continue
        if ch == "{":
            close = find_expression_end(src, i)
            if close > 0:
                expr = src[i + 1 : close - 1]
                if not is_comment(expr):
                    try:
                        out.append(esc(to_text(evaluate(expr, state.frame.scope))))
                    except Unevaluable:
                        out.append(esc(src[i:close]))
                i = close
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def element_props(tag: Tag, state: RenderState) -> dict[str, Any]:
    """Evaluate a tag's props quietly (unknown expressions dropped)."""
    return tag_props(tag, state.frame.scope)
