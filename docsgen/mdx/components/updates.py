"""<Update>: changelog entries with a label, description, tags (filterable) and RSS data."""

from __future__ import annotations

import html
import json

from docsgen.mdx.changelog import ChangelogEntry, heading_sections, pure_markdown
from docsgen.mdx.components import component
from docsgen.mdx.components.base import markdown_inline
from docsgen.mdx.state import Element, JsxValue, slugify
from docsgen.mdx.text import finish_html, html_to_text
from docsgen.mdx.types import TocItem

esc = html.escape


@component("Update")
def update(el: Element) -> str:
    state = el.state
    label = el.text_prop("label")
    if not label:
        el.warn("mdx.missing-prop", "<Update> needs a `label` (usually the release date or version)")
    description = el.prop("description")
    tags = el.prop("tags") or []
    if isinstance(tags, str):
        tags = [tags]
    tags = [str(t) for t in tags]
    anchor = state.unique_id(el.text_prop("id") or slugify(label) or "update")
    if not state.in_toc_block:
        state.toc.append(TocItem(2, anchor, label or anchor))
    state.in_toc_block += 1  # the label is the entry's TOC line; its inner headings stay out
    try:
        body = el.render_children()
    finally:
        state.in_toc_block -= 1
    rss = el.prop("rss") if isinstance(el.prop("rss"), dict) else {}
    markdown = pure_markdown(el.inner_source or "")
    desc_text = str(description) if description and not isinstance(description, bool) else ""
    state.updates.append(
        ChangelogEntry(
            id=anchor,
            label=label,
            description=desc_text,
            tags=tuple(tags),
            rss_title=str(rss.get("title") or label),
            rss_description=str(rss.get("description") or desc_text),
            html=finish_html(body),
            text=html_to_text(body),
            line=el.line,
            markdown=markdown,
            sections=heading_sections(markdown, body),
            rss_set=bool(rss.get("title") or rss.get("description")),
        )
    )
    raw_label = el.prop("label")
    label_html = markdown_inline(raw_label, state) if isinstance(raw_label, JsxValue) else esc(label)
    tag_html = " ".join(f'<span class="dg-badge dg-badge-gray dg-badge-sm">{esc(t)}</span>' for t in tags)
    desc_html = (
        f'<div class="dg-update-description">{markdown_inline(description, state)}</div>' if desc_text else ""
    )
    tags_attr = f" data-tags='{esc(json.dumps(tags), quote=True)}'" if tags else ""
    return (
        f'<div class="dg-update" id="{esc(anchor)}"{tags_attr}><div class="dg-update-meta">'
        f'<a class="dg-update-label" href="#{esc(anchor)}">{label_html}</a>{desc_html}'
        f"{f'<div class=dg-update-tags>{tag_html}</div>' if tags else ''}</div>"
        f'<div class="dg-update-body">{body}</div></div>\n'
    )


def tag_filter(entries: list[ChangelogEntry]) -> str:
    """Return the tag filter bar shown above a changelog whose entries carry tags."""
    tags: list[str] = []
    for entry in entries:
        for tag in entry.tags:
            if tag not in tags:
                tags.append(tag)
    if not tags:
        return ""
    buttons = "".join(
        f'<button type="button" class="dg-update-filter" aria-pressed="false" data-tag="{esc(t)}">{esc(t)}</button>'
        for t in tags
    )
    return (
        '<div class="dg-update-filters" role="group" aria-label="Filter updates by tag">'
        f'<div class="dg-update-filters-content">{buttons}</div></div>\n'
    )
