"""Cards and layout grids: Card, CardGroup, Columns, Column, Tile, GitHub."""

from __future__ import annotations

import html
import re

from docsgen.mdx.components import component
from docsgen.mdx.components.base import class_names, markdown_inline
from docsgen.mdx.components.callouts import CALLOUT_ICONS, LABELS
from docsgen.mdx.components.icons import icon_html
from docsgen.mdx.state import Element

esc = html.escape
ARROW = '<svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M5 12h14M13 6l6 6-6 6"/></svg>'


def _is_external(href: str) -> bool:
    return bool(re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I)) and not href.startswith("#")


def _link(el: Element, href: str, css: str, inner: str) -> str:
    url = el.state.ctx.resolve_link(href)
    extra = ' target="_blank" rel="noopener noreferrer"' if _is_external(href) else ""
    return f'<a class="{css}" href="{esc(url)}"{extra}>{inner}</a>'


@component("Card")
def card(el: Element) -> str:
    state = el.state
    title = el.prop("title")
    href = el.text_prop("href")
    kind = el.text_prop("type")
    color = el.text_prop("color")
    horizontal = el.bool_prop("horizontal")
    icon = (
        icon_html(el.prop("icon"), state, el.text_prop("iconType") or None, color=color or None)
        if el.prop("icon")
        else ""
    )
    if kind not in LABELS:
        kind = ""  # Mintlify's types are the callout kinds; another value styles nothing
    elif not icon:
        icon = CALLOUT_ICONS[kind]  # a typed card shows its kind's icon unless it names its own
    img = el.text_prop("img")
    body = el.render_children()
    title_html = markdown_inline(title, state) if title else ""
    if title_html and href:
        title_html = _link(el, href, "dg-card-link", title_html)
    elif href:
        title_html = _link(
            el, href, "dg-card-link dg-card-link-empty", '<span class="dg-sr-only">Open</span>'
        )
    parts = []
    if img:
        parts.append(
            f'<img class="dg-card-img" src="{esc(state.ctx.resolve_asset(img))}" alt="" loading="lazy">'
        )
    inner = []
    if icon:
        inner.append(f'<div class="dg-card-icon">{icon}</div>')
    text = []
    if title_html:
        text.append(f'<div class="dg-card-title">{title_html}</div>')
    if body.strip():
        text.append(f'<div class="dg-card-content">{body}</div>')
    cta = el.text_prop("cta")
    arrow = el.prop("arrow")
    show_arrow = arrow is True or (arrow is None and href and _is_external(href)) or arrow == "true"
    if cta:
        text.append(f'<div class="dg-card-cta">{esc(cta)} {ARROW}</div>')
    inner.append(f'<div class="dg-card-text">{"".join(text)}</div>')
    if show_arrow and not cta:
        inner.append(f'<span class="dg-card-arrow">{ARROW}</span>')
    parts.append(f'<div class="dg-card-body">{"".join(inner)}</div>')
    classes = class_names(
        "dg-card",
        horizontal and "dg-card-horizontal",
        href and "dg-card-linked",
        kind and f"dg-card-{kind}",
        img and "dg-card-has-img",
    )
    style = f' style="--dg-card-color: {esc(color)}"' if color else ""
    return f'<div class="{classes}"{style}>{"".join(parts)}</div>\n'


def _cols(el: Element, default: int = 2) -> int:
    try:
        cols = int(float(el.prop("cols", default)))
    except (TypeError, ValueError):
        el.warn("mdx.bad-prop", f"<{el.name} cols> should be a number from 1 to 4")
        cols = default
    return max(1, min(cols, 6))


@component("CardGroup", "Columns")
def columns(el: Element) -> str:
    cols = _cols(el)
    group = " dg-cardgroup" if el.name == "CardGroup" else ""
    return f'<div class="dg-columns{group}" style="--dg-cols: {cols}">{el.render_children()}</div>\n'


@component("Column")
def column(el: Element) -> str:
    return f'<div class="dg-column">{el.render_children()}</div>\n'


@component("Tile")
def tile(el: Element) -> str:
    state = el.state
    title = markdown_inline(el.prop("title"), state) if el.prop("title") else ""
    description = markdown_inline(el.prop("description"), state) if el.prop("description") else ""
    inner = (
        f'<div class="dg-tile-preview">{el.render_children()}</div>'
        f'<div class="dg-tile-title">{title}</div>'
        + (f'<div class="dg-tile-description">{description}</div>' if description else "")
    )
    href = el.text_prop("href")
    if href:
        return _link(el, href, "dg-tile", inner) + "\n"
    return f'<div class="dg-tile">{inner}</div>\n'


GITHUB_ICON = (
    '<svg viewBox="0 0 16 16" width="20" height="20" fill="currentColor" aria-hidden="true"><path d="M8 0C3.58 0 0 3.58 0 8c0 '
    "3.54 2.29 6.53 5.47 7.59.4.07.55-.17.55-.38 0-.19-.01-.82-.01-1.49-2.01.37-2.53-.49-2.69-.94-.09-.23-.48-.94-.82-1.13-.28-.15"
    "-.68-.52-.01-.53.63-.01 1.08.58 1.23.82.72 1.21 1.87.87 2.33.66.07-.52.28-.87.51-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59"
    ".82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82.64-.18 1.32-.27 2-.27.68 0 1.36.09 2 .27 1.53-1.04 2.2-.82 2.2-.82.44 1.1"
    ".16 1.92.08 2.12.51.56.82 1.27.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48 0 1.07-.01 1.93-.01 2.2 0 .21.15.46.55.38A8"
    '.013 8.013 0 0016 8c0-4.42-3.58-8-8-8z"/></svg>'
)


@component("GitHub", "GitHub.Repo")
def github(el: Element) -> str:
    repo = el.text_prop("repo").strip().strip("/")
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
        el.warn("mdx.bad-prop", f'<{el.name} repo="{repo}"> should name a repository as "owner/name"')
    variant = el.text_prop("variant", "inset")
    url = f"https://github.com/{repo}"
    inner = (
        f'{GITHUB_ICON}<span class="dg-github-text"><span class="dg-github-repo">{esc(repo)}</span>'
        f'<span class="dg-github-url">github.com/{esc(repo)}</span></span>'
    )
    extra = el.text_prop("className")
    return (
        f'<a class="{class_names("dg-github", f"dg-github-{variant}", extra)}" href="{esc(url)}" '
        f'target="_blank" rel="noopener noreferrer">{inner}</a>\n'
    )
