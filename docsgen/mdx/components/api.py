"""API field documentation: ParamField and ResponseField, with anchors that include the parent path."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from docsgen.mdx.components import component
from docsgen.mdx.state import Element

esc = html.escape
LOCATIONS = ("query", "path", "body", "header", "cookie")


def _anchor_part(name: str) -> str:
    return re.sub(r"[^\w.\-\[\]]+", "-", name).strip("-") or "field"


def _pills(value: object) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)] if value else []


def field_html(el: Element, name: str, location: str = "") -> str:
    """Render one documented field with type, flags, default and nested content."""
    state = el.state
    words = state.ctx.words or {}  # the page's interface words (English when it has none)
    anchor = state.unique_id("-".join([*state.heading_prefix, _anchor_part(name)]))
    pills = []
    type_ = el.text_prop("type")
    if type_:
        pills.append(f'<span class="dg-pill dg-pill-type">{esc(type_)}</span>')
    if location:
        pills.append(f'<span class="dg-pill dg-pill-location">{esc(location)}</span>')
    for text in _pills(el.prop("pre")):
        pills.append(f'<span class="dg-pill">{esc(text)}</span>')
    if el.bool_prop("required"):
        pills.append(
            f'<span class="dg-pill dg-pill-required">{esc(words.get("required", "required"))}</span>'
        )
    if el.bool_prop("deprecated"):
        text = words.get("deprecated_pill", "deprecated")
        pills.append(f'<span class="dg-pill dg-pill-deprecated">{esc(text)}</span>')
    for text in _pills(el.prop("post")):
        pills.append(f'<span class="dg-pill">{esc(text)}</span>')
    default = el.prop("default")
    default_html = ""
    if default is not None and default != "":
        shown = default if isinstance(default, str) else json.dumps(default)
        default_html = f'<div class="dg-field-default">{esc(words.get("default", "Default"))}: <code>{esc(shown)}</code></div>'
    placeholder = el.text_prop("placeholder")
    if placeholder:
        default_html += f'<div class="dg-field-default">{esc(words.get("example", "Example"))}: <code>{esc(placeholder)}</code></div>'
    state.heading_prefix.append(_anchor_part(name))
    try:
        body = el.render_children()
    finally:
        state.heading_prefix.pop()
    deprecated = " dg-field-deprecated" if el.bool_prop("deprecated") else ""
    return (
        f'<div class="dg-field{deprecated}" id="{esc(anchor)}"{_playground_attr(el, name, location, anchor)}>'
        '<div class="dg-field-head">'
        f'<a class="dg-field-name" href="#{esc(anchor)}"><code>{esc(name)}</code></a> {" ".join(pills)}</div>'
        f'{default_html}<div class="dg-field-body">{body}</div></div>\n'
    )


def _playground_attr(el: Element, name: str, location: str, anchor: str) -> str:
    """A ParamField's description for the playground of an `api:` page (docsgen.openapi.render.playground)."""
    if not location or not el.state.ctx.frontmatter.get("api"):
        return ""
    prefix = list(el.state.heading_prefix)  # the parents' parts (this field's own was popped again)
    data: dict[str, Any] = {
        "in": location,
        "name": name,
        "type": el.text_prop("type") or "",
        "anchor": anchor,
    }
    data["parent"] = ".".join(prefix)
    data["path"] = ".".join([*prefix, _anchor_part(name)])
    if el.bool_prop("required"):
        data["required"] = True
    for key in ("default", "placeholder"):
        value = el.prop(key)
        if value is not None and value != "" and isinstance(value, str | int | float | bool | list | dict):
            data[key] = value
    return f' data-pg="{esc(json.dumps(data))}"'


@component("ParamField")
def param_field(el: Element) -> str:
    for location in LOCATIONS:
        value = el.prop(location)
        if isinstance(value, str) and value:
            return field_html(el, value, location)
    name = el.text_prop("name")
    if not name:
        el.warn(
            "mdx.missing-prop", "<ParamField> needs one of query=, path=, body=, header= naming the parameter"
        )
    return field_html(el, name or "parameter")


@component("ResponseField")
def response_field(el: Element) -> str:
    name = el.text_prop("name")
    if not name:
        el.warn("mdx.missing-prop", "<ResponseField> needs a `name` prop")
    return field_html(el, name or "field")
