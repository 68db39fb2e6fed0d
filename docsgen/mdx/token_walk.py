"""Token stream -> HTML: Markdown rules plus a tree walk that hands JSX elements to components."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from docsgen.mdx.code import parse_meta, render_code_block
from docsgen.mdx.expressions import Unevaluable
from docsgen.mdx.html_elements import VOID_ELEMENTS
from docsgen.mdx.inline_memo import remember
from docsgen.mdx.jsx_html import convert_jsx_markup, element_props, html_attrs
from docsgen.mdx.jsx_syntax import Attr
from docsgen.mdx.props import DROP, tag_props
from docsgen.mdx.state import Element, JsxValue, slugify
from docsgen.mdx.tag_pairs import pair_tags
from docsgen.mdx.text_rules import TextRules

if TYPE_CHECKING:
    from docsgen.mdx.jsx_syntax import Tag
    from docsgen.mdx.state import RenderState

esc = html.escape
_TAG_RE = re.compile(r"<[^>]*>")
_TOOLTIP_RE = re.compile(r'<span class="dg-tooltip-content".*?</span></span>', re.S)
_HEADING_ID_RE = re.compile(r"\s*\{#([\w-]+)\}\s*$")


def strip_tags(fragment: str) -> str:
    """Return the plain text of an HTML fragment."""
    return html.unescape(_TAG_RE.sub("", fragment)).strip()


class MdxRenderer(TextRules, RendererHTML):
    """markdown-it renderer that understands JSX tokens; state lives in env["mdx"]."""

    options: OptionsDict

    # ---- tree walk -------------------------------------------------------------------------------
    def render(self, tokens: Sequence[Token], options: OptionsDict, env: EnvType) -> str:
        state: RenderState = env["mdx"]
        self.options = options
        out: list[str] = []
        i = 0
        n = len(tokens)
        closes: dict[int, int] | None = None  # open tag token -> its close token (pair_tags)
        while i < n:
            token = tokens[i]
            kind = token.type
            if kind == "jsx_block_open":
                if closes is None:
                    closes = pair_tags(tokens, inline=False)
                j = closes.get(i, n)
                out.append(self.render_tag(token, list(tokens[i + 1 : j]), env, inline=False))
                i = j + 1
                continue
            if kind == "jsx_block_self":
                out.append(self.render_tag(token, [], env, inline=False))
            elif kind == "heading_open" and i + 2 < n:
                out.append(self.render_heading(tokens[i], tokens[i + 1], tokens[i + 2], options, env))
                i += 3
                continue
            elif kind == "inline":
                if token.children:
                    previous = state.inline_parent
                    state.inline_parent = token
                    inner = self.renderInline(token.children, options, env)
                    remember(token, inner)
                    out.append(inner)
                    state.inline_parent = previous
            elif kind in self.rules:
                out.append(self.rules[kind](tokens, i, options, env))
            else:
                out.append(self.renderToken(tokens, i, options, env))
            i += 1
        return "".join(out)

    def renderInline(self, tokens: Sequence[Token], options: OptionsDict, env: EnvType) -> str:
        out: list[str] = []
        i = 0
        n = len(tokens)
        closes: dict[int, int] | None = None  # open tag token -> its close token (pair_tags)
        while i < n:
            token = tokens[i]
            kind = token.type
            if kind == "jsx_inline_open":
                tag: Tag = token.meta["tag"]
                if "raw" in token.meta:
                    raw = token.meta["raw"]
                    if tag.name.lower() == "svg":
                        raw = convert_jsx_markup(raw, env["mdx"])
                    out.append(self.render_html_open(tag, env) + raw)
                    i += 1
                    continue
                if closes is None:
                    closes = pair_tags(tokens, inline=True)
                j = closes.get(i, n)
                if j >= n:
                    if tag.name[:1].islower():
                        # Raw HTML split over paragraphs: pass the open tag through like markdown-it does;
                        # inside an element's children, the element closes first: the tags cross.
                        state = env["mdx"]
                        if state.inline_scope and tag.name.lower() not in VOID_ELEMENTS:
                            line, col = state.token_location(None, token.meta["offset"])
                            state.warn(
                                "mdx.html-nesting",
                                f"<{tag.name}> is not closed before </{state.inline_scope[-1]}>: "
                                "tags must close in the reverse order they open",
                                line,
                                col,
                            )
                        state.open_html[tag.name] = state.open_html.get(tag.name, 0) + 1
                        out.append(self.render_html_open(tag, env))
                        i += 1
                        continue
                    line, col = env["mdx"].token_location(None, token.meta["offset"])
                    env["mdx"].error(
                        "mdx.unclosed-tag", f"<{tag.name}> is never closed: expected </{tag.name}>", line, col
                    )
                out.append(self.render_tag(token, list(tokens[i + 1 : j]), env, inline=True))
                i = j + 1
                continue
            if kind == "jsx_inline_self":
                out.append(self.render_tag(token, [], env, inline=True))
            elif kind == "jsx_inline_close":
                tag = token.meta["tag"]
                if tag.name[:1].islower():
                    state = env["mdx"]
                    if state.open_html.get(tag.name):
                        state.open_html[tag.name] -= 1
                    elif tag.name.lower() not in VOID_ELEMENTS:
                        line, col = state.token_location(None, token.meta["offset"])
                        state.warn(
                            "mdx.html-nesting",
                            f"closing tag </{tag.name}> has no matching opening tag: dropped",
                            line,
                            col,
                        )
                        i += 1
                        continue
                    if tag.name.lower() not in VOID_ELEMENTS:  # `<br></br>`: one break, not two
                        out.append(f"</{tag.name}>")
                else:
                    line, col = env["mdx"].token_location(None, token.meta["offset"])
                    env["mdx"].error(
                        "mdx.unexpected-close",
                        f"closing tag </{tag.name}> has no matching opening tag",
                        line,
                        col,
                    )
            elif kind in self.rules:
                out.append(self.rules[kind](tokens, i, options, env))
            else:
                out.append(self.renderToken(tokens, i, options, env))
            i += 1
        return "".join(out)

    def render_children(self, element: Element) -> str:
        env = element.state.frame.env
        if element.inline:
            scope = element.state.inline_scope
            scope.append(element.name)
            try:
                return self.renderInline(element.children, self.options, env)
            finally:
                scope.pop()
        return self.render(element.children, self.options, env)

    def child_elements(self, element: Element) -> list[Element]:
        """Split an element's children into direct child elements (ignoring whitespace between them)."""
        tokens = element.children
        env = {"mdx": element.state}
        result: list[Element] = []
        i = 0
        n = len(tokens)
        open_kind = "jsx_inline_open" if element.inline else "jsx_block_open"
        self_kind = "jsx_inline_self" if element.inline else "jsx_block_self"
        closes = pair_tags(tokens, element.inline)
        while i < n:
            token = tokens[i]
            if token.type == open_kind:
                j = closes.get(i, n)
                result.append(self.make_element(token, list(tokens[i + 1 : j]), env, element.inline))
                i = j + 1
                continue
            if token.type == self_kind:
                result.append(self.make_element(token, [], env, element.inline))
            elif token.type == "inline" and token.children and not element.inline:
                # Children written on one line (`<Tabs><Tab ...>..</Tab></Tabs>`) arrive as one inline token.
                sub = Element(
                    element.name,
                    element.props,
                    token.children,
                    True,
                    element.line,
                    element.column,
                    self,
                    element.state,
                )
                result.extend(self.child_elements(sub))
            i += 1
        return result

    # ---- elements --------------------------------------------------------------------------------
    def make_element(self, token: Token, children: list[Token], env: EnvType, inline: bool) -> Element:
        state: RenderState = env["mdx"]
        tag: Tag = token.meta["tag"]
        if inline:
            line, col = state.token_location(None, token.meta.get("offset", 0))
        else:
            line, col = state.frame.locate(tag.start)
        seen: set[str] = set()
        for attr in tag.attrs:
            if attr.kind != "spread":
                if attr.name in seen:
                    state.warn(
                        "mdx.duplicate-prop",
                        f"<{tag.name}> has two {attr.name!r} props: the last wins",
                        line,
                        col,
                    )
                seen.add(attr.name)

        def unevaluable(attr: Attr, exc: Unevaluable) -> Any:
            if attr.kind == "spread":
                state.warn("mdx.expression", f"spread props of <{tag.name}>: {exc}; ignored", line, col)
                return DROP
            if attr.value.strip() in state.frame.react:
                return None  # a React component passed along: reported where it is used
            if not attr.name.startswith("on"):
                state.warn(
                    "mdx.expression", f"prop {attr.name!r} of <{tag.name}>: {exc}; kept as text", line, col
                )
            return attr.value.strip()

        props = tag_props(tag, state.frame.scope, unevaluable=unevaluable, jsx=JsxValue)
        element = Element(tag.name, props, children, inline, line, col, self, state, tag, state.inline_parent)
        if token.meta.get("inner"):
            start, end = token.meta["inner"]
            element.inner_source = state.frame.src[start:end]
        return element

    def render_tag(self, token: Token, children: list[Token], env: EnvType, inline: bool) -> str:
        element = self.make_element(token, children, env, inline)
        return self.render_element(element)

    def render_element(self, element: Element) -> str:
        from docsgen.mdx.components import render_component

        return render_component(element)

    def render_html_open(self, tag: Tag, env: EnvType, props: dict[str, Any] | None = None) -> str:
        state: RenderState = env["mdx"]
        if props is None:
            props = element_props(tag, state)
        return f"<{tag.name}{html_attrs(tag.name, props, state)}>"

    # ---- markdown rules --------------------------------------------------------------------------
    def render_heading(
        self, open_token: Token, inline: Token, close_token: Token, options: OptionsDict, env: EnvType
    ) -> str:
        state: RenderState = env["mdx"]
        custom = None
        children = inline.children or []
        if (
            children
            and children[-1].type == "jsx_inline_expr"
            and children[-1].content.strip().startswith("#")
        ):
            custom = children[-1].content.strip()[1:]
            children = children[:-1]
        elif children and children[-1].type == "text":
            m = _HEADING_ID_RE.search(children[-1].content)
            if m:
                custom = m.group(1)
                children = [*children[:-1], _text_token(children[-1].content[: m.start()])]
        previous = state.inline_parent
        state.inline_parent = inline
        inner = self.renderInline(children, options, env)
        if children is inline.children:
            remember(inline, inner)
        state.inline_parent = previous
        title = strip_tags(_TOOLTIP_RE.sub("", inner) if "dg-tooltip-content" in inner else inner)
        level = int(open_token.tag[1])
        prefix = "-".join(state.heading_prefix)
        base = custom or slugify(title)
        anchor = state.unique_id(f"{prefix}-{base}" if prefix and not custom else base)
        if 2 <= level <= 4 and not state.in_toc_block:
            from docsgen.mdx.types import TocItem

            state.toc.append(TocItem(level, anchor, title))
        tag = open_token.tag
        return (
            f'<{tag} id="{esc(anchor)}">{inner}<a class="anchor" href="#{esc(anchor)}" '
            f'aria-label="Link to this section">#</a></{tag}>\n'
        )

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        from docsgen.mdx.components.code import render_fence

        return render_fence(tokens[idx], env["mdx"])

    def code_block(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        state: RenderState = env["mdx"]
        return render_code_block(tokens[idx].content, parse_meta(""), state.next_code_index())

    def link_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        href = str(token.attrGet("href") or "")
        token.attrSet("href", env["mdx"].ctx.resolve_link(href))
        if href.startswith(("http://", "https://")):
            token.attrSet("target", "_blank")
            token.attrSet("rel", "noopener noreferrer")
        token.attrSet("class", "link")  # Mintlify's `link` hook on a Markdown link
        return self.renderToken(tokens, idx, options, env)

    def image(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        src = str(token.attrGet("src") or "")
        alt = self.renderInlineAsText(token.children or [], options, env)
        title = token.attrGet("title")
        title_attr = f' title="{esc(str(title))}"' if title else ""
        url = env["mdx"].ctx.resolve_asset(src)
        return f'<img src="{esc(url)}" alt="{esc(alt)}"{title_attr} loading="lazy">'


def _text_token(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token
