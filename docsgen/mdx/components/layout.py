"""Disclosure and sequence components: Accordion(Group), Expandable, Steps/Step, Frame."""

from __future__ import annotations

import html
from typing import Any

from docsgen.mdx.components import component
from docsgen.mdx.components.base import class_names, markdown_inline
from docsgen.mdx.components.icons import icon_html
from docsgen.mdx.state import Element, slugify
from docsgen.mdx.types import TocItem

esc = html.escape
CHEVRON = '<svg class="dg-chevron" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="m9 18 6-6-6-6"/></svg>'


@component("Accordion")
def accordion(el: Element) -> str:
    state = el.state
    state.assets.add("accordion")
    title = el.prop("title") or "Details"
    title_html = markdown_inline(title, state)
    anchor = state.unique_id(el.text_prop("id") or slugify(str(title)))
    icon = icon_html(el.prop("icon"), state, el.text_prop("iconType") or None) if el.prop("icon") else ""
    description = el.prop("description")
    desc_html = (
        f'<span class="dg-accordion-description">{markdown_inline(description, state)}</span>'
        if description
        else ""
    )
    is_open = " open" if el.bool_prop("defaultOpen") else ""
    return (
        f'<details class="dg-accordion" id="{esc(anchor)}"{is_open}><summary>{CHEVRON}'
        f"{f'<span class=dg-accordion-icon>{icon}</span>' if icon else ''}"
        f'<span class="dg-accordion-heading"><span class="dg-accordion-title">{title_html}</span>{desc_html}</span>'
        f'</summary><div class="dg-accordion-body">{el.render_children()}</div></details>\n'
    )


@component("AccordionGroup")
def accordion_group(el: Element) -> str:
    return f'<div class="dg-accordion-group">{el.render_children()}</div>\n'


@component("Expandable")
def expandable(el: Element) -> str:
    el.state.assets.add("accordion")  # opens the <details> a URL hash points into (nested field anchors)
    title = el.text_prop("title") or "properties"
    is_open = " open" if el.bool_prop("defaultOpen") else ""
    return (
        f'<details class="dg-expandable"{is_open}><summary>{CHEVRON}<span class="dg-expandable-show">Show {esc(title)}</span>'
        f'<span class="dg-expandable-hide">Hide {esc(title)}</span></summary>'
        f'<div class="dg-expandable-body">{el.render_children()}</div></details>\n'
    )


@component("Steps")
def steps(el: Element) -> str:
    state = el.state
    state.steps.append({"count": 0, "titleSize": el.text_prop("titleSize", "p")})
    try:
        body = el.render_children()
    finally:
        count = state.steps.pop()["count"]
    role = ' role="list"' if count else ""  # <Steps> around a plain Markdown list: no empty ARIA list
    return f'<div class="dg-steps"{role}>{body}</div>\n'


@component("Step")
def step(el: Element) -> str:
    state = el.state
    context: dict[str, Any] = state.steps[-1] if state.steps else {"count": 0, "titleSize": "p"}
    context["count"] += 1
    number = el.prop("stepNumber", context["count"])
    if isinstance(number, (int, float)) and not isinstance(number, bool):
        context["count"] = int(number)
    title = el.prop("title")
    size = el.text_prop("titleSize") or context["titleSize"]
    tag = size if size in ("h2", "h3") else "p"
    title_html = markdown_inline(title, state) if title else ""
    anchor_attr = link = ""
    if title and not el.bool_prop("noAnchor"):
        anchor = state.unique_id(el.text_prop("id") or slugify(str(title)))
        anchor_attr = f' id="{esc(anchor)}"'
        link = f'<a class="anchor" href="#{esc(anchor)}" aria-label="Link to this step">#</a>'
        if tag != "p" and not state.in_toc_block:
            state.toc.append(TocItem(int(tag[1]), anchor, str(title)))
    icon = icon_html(el.prop("icon"), state, el.text_prop("iconType") or None) if el.prop("icon") else ""
    marker = icon or esc(str(number))
    title_block = f'<{tag} class="dg-step-title">{title_html}{link}</{tag}>' if title_html else ""
    return (
        f'<div class="dg-step" role="listitem"{anchor_attr}><div class="{class_names("dg-step-marker", icon and "dg-step-icon")}" '
        f'aria-hidden="true">{marker}</div><div class="dg-step-main">{title_block}'
        f'<div class="dg-step-body">{el.render_children()}</div></div></div>\n'
    )


@component("Frame")
def frame(el: Element) -> str:
    state = el.state
    hint = el.prop("hint")
    caption = el.prop("caption")
    hint_html = f'<p class="dg-frame-hint">{markdown_inline(hint, state)}</p>' if hint else ""
    caption_html = f"<figcaption>{markdown_inline(caption, state)}</figcaption>" if caption else ""
    return (
        f'<figure class="dg-frame">{hint_html}<div class="dg-frame-inner">{el.render_children()}</div>'
        f"{caption_html}</figure>\n"
    )
