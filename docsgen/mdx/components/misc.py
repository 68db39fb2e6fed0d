"""Small inline and content components: Icon, Tooltip, Badge, Tree, Color, Prompt, Panel, Visibility, CodeBlock."""

from __future__ import annotations

import html
import textwrap
from urllib.parse import quote

from docsgen.mdx.code import CodeMeta, parse_line_ranges, render_code_block
from docsgen.mdx.components import component
from docsgen.mdx.components.base import class_names, markdown_inline
from docsgen.mdx.components.icons import icon_html
from docsgen.mdx.state import Element
from docsgen.mdx.text import AGENTS_CLOSE, AGENTS_OPEN, HUMANS_CLOSE, HUMANS_OPEN, html_to_text

esc = html.escape
BADGE_COLORS = {
    "gray",
    "blue",
    "green",
    "yellow",
    "orange",
    "red",
    "purple",
    "white",
    "surface",
    "white-destructive",
    "surface-destructive",
}
FOLDER = '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"/></svg>'
FILE = '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z"/><path d="M14 3v6h6"/></svg>'


@component("Icon")
def icon(el: Element) -> str:
    name = el.prop("icon") or el.prop("name")
    if not name:
        el.warn("mdx.missing-prop", "<Icon> needs an `icon` prop")
        return ""
    css = class_names("dg-icon", "dg-icon-inline", el.text_prop("className"))
    return icon_html(
        name, el.state, el.text_prop("iconType") or None, el.prop("size"), el.text_prop("color") or None, css
    )


@component("Tooltip")
def tooltip(el: Element) -> str:
    state = el.state
    tid = state.next_id("tip")
    headline = el.text_prop("headline")
    parts = []
    if headline:
        parts.append(f'<strong class="dg-tooltip-headline">{esc(headline)}</strong>')
    parts.append(f"<span>{markdown_inline(el.prop('tip', ''), state)}</span>")
    cta, href = el.text_prop("cta"), el.text_prop("href")
    if href:
        parts.append(
            f'<a class="dg-tooltip-cta" href="{esc(state.ctx.resolve_link(href))}">{esc(cta or "Learn more")}</a>'
        )
    return (
        f'<span class="dg-tooltip"><span class="dg-tooltip-trigger" tabindex="0" aria-describedby="{tid}">'
        f'{el.render_children()}</span><span class="dg-tooltip-content" role="tooltip" id="{tid}">{"".join(parts)}</span></span>'
    )


@component("Badge")
def badge(el: Element) -> str:
    color = el.text_prop("color", "gray")
    if color not in BADGE_COLORS:
        el.warn("mdx.bad-prop", f"<Badge color={color!r}>: expected one of {', '.join(sorted(BADGE_COLORS))}")
        color = "gray"
    size = el.text_prop("size", "md")
    classes = class_names(
        "dg-badge",
        f"dg-badge-{color}",
        f"dg-badge-{size}",
        el.text_prop("shape") == "pill" and "dg-badge-pill",
        el.bool_prop("stroke") and "dg-badge-stroke",
        el.bool_prop("disabled") and "dg-badge-disabled",
        el.text_prop("className"),
    )
    icon_part = (
        icon_html(el.prop("icon"), el.state, el.text_prop("iconType") or None) if el.prop("icon") else ""
    )
    return f'<span class="{classes}">{icon_part}{el.render_children()}</span>'


@component("Tree", "FileTree")
def tree(el: Element) -> str:
    if any(t.type == "bullet_list_open" for t in el.children) and not any(
        t.type.startswith("jsx_") and t.meta.get("tag") is not None and t.meta["tag"].name.startswith("Tree.")
        for t in el.children
    ):
        return f'<div class="dg-tree"><ul class="dg-tree-list">{_list_tree(el.children, 0)[0]}</ul></div>\n'
    return f'<div class="dg-tree"><ul class="dg-tree-list">{el.render_children()}</ul></div>\n'


def _list_tree(tokens: list, i: int) -> tuple[str, int]:
    """Turn a Markdown bullet list (folders end with "/" or have children) into tree items."""
    out = []
    while i < len(tokens) and tokens[i].type != "bullet_list_open":
        i += 1
    i += 1
    while i < len(tokens) and tokens[i].type != "bullet_list_close":
        if tokens[i].type != "list_item_open":
            i += 1
            continue
        i += 1
        name = ""
        nested = ""
        while tokens[i].type != "list_item_close":
            if tokens[i].type == "inline" and not name:
                name = tokens[i].content.strip()
                i += 1
            elif tokens[i].type == "bullet_list_open":
                nested, i = _list_tree(tokens, i)
            else:
                i += 1
        i += 1
        if nested or name.endswith("/"):
            label = f'{FOLDER}<span class="dg-tree-name">{esc(name.rstrip("/"))}</span>'
            out.append(
                f'<li class="dg-tree-folder"><details{" open" if nested else ""}><summary class="dg-tree-label">{label}'
                f"</summary><ul>{nested}</ul></details></li>"
            )
        else:
            out.append(
                f'<li class="dg-tree-file"><span class="dg-tree-label">{FILE}<span class="dg-tree-name">{esc(name)}</span></span></li>'
            )
    return "".join(out), i + 1


@component("Tree.Folder")
def tree_folder(el: Element) -> str:
    name = esc(el.text_prop("name"))
    classes = class_names("dg-tree-folder", el.bool_prop("highlight") and "dg-tree-highlight")
    label = f'{FOLDER}<span class="dg-tree-name">{name}</span>'
    children = el.render_children()
    if el.prop("openable") is False:
        return f'<li class="{classes}"><span class="dg-tree-label">{label}</span><ul>{children}</ul></li>'
    is_open = " open" if el.bool_prop("defaultOpen") else ""
    return f'<li class="{classes}"><details{is_open}><summary class="dg-tree-label">{label}</summary><ul>{children}</ul></details></li>'


@component("Tree.File")
def tree_file(el: Element) -> str:
    classes = class_names("dg-tree-file", el.bool_prop("highlight") and "dg-tree-highlight")
    return f'<li class="{classes}"><span class="dg-tree-label">{FILE}<span class="dg-tree-name">{esc(el.text_prop("name"))}</span></span></li>'


@component("Color")
def color(el: Element) -> str:
    el.state.assets.add("copy")
    variant = el.text_prop("variant", "compact")
    return f'<div class="dg-color dg-color-{esc(variant)}">{el.render_children()}</div>\n'


@component("Color.Row")
def color_row(el: Element) -> str:
    title = el.text_prop("title")
    head = f'<div class="dg-color-row-title">{esc(title)}</div>' if title else ""
    return f'<div class="dg-color-row">{head}<div class="dg-color-items">{el.render_children()}</div></div>'


@component("Color.Item")
def color_item(el: Element) -> str:
    el.state.assets.add("copy")
    name = el.text_prop("name")
    value = el.prop("value", "")
    if isinstance(value, dict):
        light, dark = str(value.get("light", "")), str(value.get("dark", value.get("light", "")))
        shown = f"{light} / {dark}"
    else:
        light = dark = shown = str(value)
    return (
        f'<button type="button" class="dg-color-item" data-copy="{esc(light)}" aria-label="Copy {esc(name)} {esc(shown)}">'
        f'<span class="dg-swatch" style="--swatch-light: {esc(light)}; --swatch-dark: {esc(dark)}"></span>'
        f'<span class="dg-color-name">{esc(name)}</span><code class="dg-color-value">{esc(shown)}</code></button>'
    )


@component("Prompt")
def prompt(el: Element) -> str:
    state = el.state
    state.assets.add("copy")
    pid = state.next_id("prompt")
    body = el.render_children()
    text = html_to_text(body)
    actions = el.prop("actions", ["copy"])
    if isinstance(actions, str):
        actions = [actions]
    buttons = []
    if "copy" in actions or not actions:
        buttons.append(
            f'<button type="button" class="dg-copy dg-prompt-copy" data-copy-target="#{pid}" aria-label="Copy prompt">Copy prompt</button>'
        )
    if "cursor" in actions:
        url = "cursor://anysphere.cursor-deeplink/prompt?text=" + quote(text)
        buttons.append(f'<a class="dg-prompt-action" href="{esc(url)}">Open in Cursor</a>')
    icon_part = icon_html(el.prop("icon"), state, el.text_prop("iconType") or None) if el.prop("icon") else ""
    description = markdown_inline(el.prop("description"), state) if el.prop("description") else ""
    # The header stays on one line (the description ends in an ellipsis): the whole description as its title.
    title = html_to_text(description).strip()
    title_attr = f' title="{esc(title)}"' if title else ""
    return (
        f'<div class="dg-prompt"><div class="dg-prompt-header"><span class="dg-prompt-description"{title_attr}>{icon_part}{description}</span>'
        f'<span class="dg-prompt-actions">{"".join(buttons)}</span></div><div class="dg-prompt-body" id="{pid}">{body}</div></div>\n'
    )


@component("Panel")
def panel(el: Element) -> str:
    state = el.state
    state.in_toc_block += 1
    try:
        body = el.render_children()
    finally:
        state.in_toc_block -= 1
    state.panel_html.append(f'<div class="dg-panel">{body}</div>')
    return ""


@component("Visibility")
def visibility(el: Element) -> str:
    audience = el.text_prop("for", "humans").lower()
    body = el.render_children()
    if audience == "agents":
        return f"{AGENTS_OPEN}{body}{AGENTS_CLOSE}"
    if audience != "humans":
        el.warn("mdx.bad-prop", f'<Visibility for="{audience}">: expected "humans" or "agents"')
    return f"{HUMANS_OPEN}{body}{HUMANS_CLOSE}"


@component("CodeBlock")
def code_block(el: Element) -> str:
    state = el.state
    state.assets.add("copy")
    source = el.inner_source
    if source is None:
        source = html_to_text(el.render_children())
    code = textwrap.dedent(source.strip("\n"))
    if el.prop("children") and isinstance(el.prop("children"), str):
        code = el.prop("children")
    meta = CodeMeta(
        lang=el.text_prop("language") or el.text_prop("lang"),
        title=el.text_prop("filename") or el.text_prop("title"),
        lines=el.bool_prop("lines"),
        wrap=el.bool_prop("wrap"),
        expandable=el.bool_prop("expandable"),
        nocopy=el.bool_prop("nocopy"),
    )
    for key in ("highlight", "focus"):
        value = el.prop(key)
        if value:
            lines = (
                set(int(v) for v in value if isinstance(v, (int, float)))
                if isinstance(value, list)
                else parse_line_ranges(str(value))
            )
            setattr(meta, key, lines)
    if meta.expandable:
        state.assets.add("code")
    icon_part = (
        icon_html(el.prop("icon"), state, css_class="dg-icon dg-code-header-icon") if el.prop("icon") else ""
    )
    return render_code_block(
        code + "\n", meta, state.next_code_index(), icon_html=icon_part, state=state, line=el.line
    )
