"""Tabbed components: Tabs/Tab, CodeGroup, RequestExample/ResponseExample and View."""

from __future__ import annotations

import html
import re

from markdown_it.token import Token

from docsgen.mdx import twoslash
from docsgen.mdx.code import parse_meta, render_code_block
from docsgen.mdx.components import component
from docsgen.mdx.components.base import class_names
from docsgen.mdx.components.icons import icon_html
from docsgen.mdx.state import Element

esc = html.escape
VIEW_SELECT_MARKER = "<!--dg:view-select-->"


TAB_ICON = "dg-icon dg-tab-icon"  # a tab label's icon (Mintlify's `tab-icon` hook)


def tab_set(
    el: Element, labels: list[tuple[str, str]], panels: list[str], extra_class: str = "", **options
) -> str:
    """Render accessible tabs: labels are (title, icon html); buttons or a dropdown select the panels."""
    state = el.state
    state.assets.add("tabs")
    gid = state.next_id("tabs")
    default = options.get("default", 0)
    if not 0 <= default < len(panels):
        default = 0
    sync = options.get("sync", True)
    dropdown = options.get("dropdown", False)
    panel_ids = options.get("panel_ids") or [""] * len(panels)
    if dropdown:
        opts = "".join(
            f'<option value="{i}"{" selected" if i == default else ""}>{esc(title)}</option>'
            for i, (title, _) in enumerate(labels)
        )
        selector = f'<select class="dg-tab-select" aria-label="Choose an example">{opts}</select>'
    else:
        buttons = []
        for i, (title, icon) in enumerate(labels):
            selected = i == default
            buttons.append(
                f'<button type="button" role="tab" class="dg-tab" id="{gid}-tab-{i}" aria-selected="{"true" if selected else "false"}" '
                f'aria-controls="{esc(panel_ids[i] or f"{gid}-panel-{i}")}" tabindex="{0 if selected else -1}" data-title="{esc(title)}">'
                f"{icon}<span>{esc(title)}</span></button>"
            )
        selector = f'<div class="dg-tablist" role="tablist">{"".join(buttons)}</div>'
    body = []
    for i, panel in enumerate(panels):
        pid = panel_ids[i] or f"{gid}-panel-{i}"
        hidden = "" if i == default else " hidden"
        labelled = "" if dropdown else f' aria-labelledby="{gid}-tab-{i}"'
        body.append(
            f'<div class="dg-tabpanel" role="tabpanel" id="{esc(pid)}"{labelled} data-title="{esc(labels[i][0])}" tabindex="0"{hidden}>'
            f"{panel}</div>"
        )
    classes = class_names(
        "dg-tabset",
        extra_class,
        dropdown and "dg-tabset-dropdown",
        options.get("border") and "dg-tabset-border",
    )
    sync_attr = ' data-sync="true"' if sync else ""
    header = options.get("header", "")
    return f'<div class="{classes}"{sync_attr}><div class="dg-tabset-bar">{selector}{header}</div>{"".join(body)}</div>\n'


@component("Tabs")
def tabs(el: Element) -> str:
    children = el.child_elements()
    tabs_ = [c for c in children if c.name == "Tab"]
    for other in children:
        if other.name != "Tab":
            other.warn("mdx.bad-child", f"<Tabs> holds <Tab> elements; <{other.name}> is ignored")
    if not tabs_:
        el.warn("mdx.bad-child", "<Tabs> has no <Tab> children")
        return el.render_children()
    labels, panels, ids = [], [], []
    for i, tab in enumerate(tabs_):
        title = tab.text_prop("title") or f"Tab {i + 1}"
        icon = (
            icon_html(tab.prop("icon"), el.state, tab.text_prop("iconType") or None, css_class=TAB_ICON)
            if tab.prop("icon")
            else ""
        )
        labels.append((title, icon))
        panels.append(tab.render_children())
        ids.append(el.state.unique_id(tab.text_prop("id")) if tab.text_prop("id") else "")
    try:
        default = int(el.prop("defaultTabIndex", 0) or 0)
    except (TypeError, ValueError):
        default = 0
    return tab_set(
        el,
        labels,
        panels,
        sync=el.bool_prop("sync", True),
        default=default,
        border=el.bool_prop("borderBottom"),
        panel_ids=ids,
    )


@component("Tab")
def lone_tab(el: Element) -> str:
    el.warn("mdx.bad-parent", "<Tab> belongs inside <Tabs>: rendering its children")
    return el.render_children()


def code_children(el: Element) -> list[tuple[str, str]]:
    """Return (label, html) for each code block child of a CodeGroup-like element."""
    from docsgen.mdx.components.code import render_fence

    state = el.state
    result: list[tuple[str, str]] = []
    tokens = el.children
    level = min((t.level for t in tokens), default=0)
    leading = ""  # prose before the first sample
    i = 0
    while i < len(tokens):
        token: Token = tokens[i]
        if token.level != level or token.nesting == -1:
            i += 1
            continue
        if token.type not in ("fence", "jsx_block_open", "jsx_block_self"):
            # Prose between the samples (a note on the one above it) stays with that sample's panel.
            j = i
            if token.nesting == 1:
                j = i + 1
                while j < len(tokens) and not (tokens[j].nesting == -1 and tokens[j].level == level):
                    j += 1
            prose = el.renderer.render(tokens[i : j + 1], el.renderer.options, state.frame.env)
            if result:
                result[-1] = (result[-1][0], result[-1][1] + prose)
            else:
                leading += prose
            i = j + 1
            continue
        if token.type == "fence":
            meta = parse_meta(token.info)
            label = meta.title or meta.lang or f"Example {len(result) + 1}"
            if meta.lang == "mermaid":
                result.append((label, render_fence(token, state, meta)))
            else:
                state.assets.add("copy")
                source = twoslash.fence_code(token, state, meta.lang)
                line = token.map[0] + 1 + state.frame.line_offset if token.map else 0
                code = render_code_block(
                    source, meta, state.next_code_index(), show_header=False, state=state, line=line
                )
                result.append((label, code))
        elif token.type in ("jsx_block_open", "jsx_block_self"):
            j = i
            if token.type == "jsx_block_open":
                j = i + 1
                while j < len(tokens) and not (
                    tokens[j].type == "jsx_block_close" and tokens[j].level == token.level
                ):
                    j += 1
            child = el.renderer.make_element(token, list(tokens[i + 1 : j]), state.frame.env, False)
            result.extend(_element_samples(el, child))
            i = j + 1
            continue
        i += 1
    if result and leading:
        result[0] = (result[0][0], leading + result[0][1])
    return result


def _element_samples(el: Element, child: Element) -> list[tuple[str, str]]:
    """Return the tabs one component child of a CodeGroup makes: a snippet's code blocks keep their titles."""
    rendered = el.renderer.render_element(child)
    label = child.text_prop("title") or child.text_prop("filename") or child.text_prop("language")
    blocks = split_code_blocks(rendered)
    if blocks and (len(blocks) > 1 or not label):
        return [(title, _HEADER_RE.sub("", block, 1)) for title, block in blocks]
    if blocks:
        return [(label, _HEADER_RE.sub("", blocks[0][1], 1))]
    return [(label or child.name, rendered)]


_CODE_OPEN = re.compile(r'<div class="dg-code\b[^"]*"[^>]*>')
_DIV_RE = re.compile(r"<(/?)div\b[^>]*>")
_HEADER_RE = re.compile(r'<div class="dg-code-header">.*?</span></div>', re.S)
_ATTR_RE = re.compile(r'\bdata-(title|lang)="([^"]*)"')


def split_code_blocks(fragment: str) -> list[tuple[str, str]]:
    """Split HTML made only of code blocks into (title, block html); [] when it holds anything else."""
    blocks: list[tuple[str, str]] = []
    pos = 0
    text = fragment.strip()
    while pos < len(text):
        m = _CODE_OPEN.match(text, pos)
        if not m:
            return []
        depth = 0
        end = -1
        for d in _DIV_RE.finditer(text, pos):
            depth += -1 if d.group(1) else 1
            if depth == 0:
                end = d.end()
                break
        if end < 0:
            return []
        attrs = dict(_ATTR_RE.findall(m.group(0)))
        title = html.unescape(attrs.get("title") or attrs.get("lang") or "")
        blocks.append((title or f"Example {len(blocks) + 1}", text[pos:end]))
        pos = end
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return blocks


def _code_group(el: Element, extra_class: str) -> str:
    items = code_children(el)
    if not items:
        el.warn("mdx.bad-child", f"<{el.name}> holds fenced code blocks; found none")
        return el.render_children()
    labels = [(label, "") for label, _ in items]
    return tab_set(el, labels, [code for _, code in items], extra_class, dropdown=el.bool_prop("dropdown"))


@component("CodeGroup")
def code_group(el: Element) -> str:
    return _code_group(el, "dg-codegroup")


@component("RequestExample", "ResponseExample")
def api_example(el: Element) -> str:
    kind = "dg-request-example" if el.name == "RequestExample" else "dg-response-example"
    el.state.aside_html.append(_code_group(el, f"dg-codegroup {kind}"))
    return ""


@component("View")
def view(el: Element) -> str:
    state = el.state
    state.assets.add("view")
    title = el.text_prop("title") or f"View {len(state.views) + 1}"
    icon = icon_html(el.prop("icon"), state, el.text_prop("iconType") or None) if el.prop("icon") else ""
    first = not state.views
    state.views.append((title, icon))
    marker = VIEW_SELECT_MARKER if first else ""
    hidden = "" if first else " hidden"
    return f'{marker}<div class="dg-view" data-view="{esc(title)}"{hidden}>{el.render_children()}</div>\n'


def view_selector(views: list[tuple[str, str]]) -> str:
    """Return the dropdown that switches between the page's <View> blocks."""
    options = "".join(
        f'<option class="dg-view-option" value="{esc(title)}">{esc(title)}</option>' for title, _ in views
    )
    return (
        '<div class="dg-view-select"><label>View <select class="dg-view-trigger" aria-label="Choose a view">'
        f"{options}</select></label></div>"
    )
