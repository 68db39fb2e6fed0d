"""Render rules for text-level tokens: text, raw HTML, `{expressions}`, import/export, math.

Mixed into MdxRenderer; each method is a markdown-it render rule (tokens, idx, options, env) -> HTML.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from docsgen.mdx.expressions import Unevaluable, evaluate, is_comment, to_text
from docsgen.mdx.html_elements import VOID_ELEMENTS
from docsgen.mdx.jsx_html import convert_jsx_markup
from docsgen.mdx.jsx_syntax import is_known_name
from docsgen.mdx.user_branches import render_user_condition
from docsgen.mdx.user_conditions import mentions_user

if TYPE_CHECKING:
    from docsgen.mdx.state import RenderState

esc = html.escape


_USER_FIELD = re.compile(r"user\??\.((?:[A-Za-z_$][\w$]*\??\.)*[A-Za-z_$][\w$]*)")


class TextRules:
    """Render rules for text, HTML, expressions and math (no element tree walking here)."""

    def text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return esc(tokens[idx].content, quote=False)

    def dg_inline_html(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return tokens[idx].content  # a plain text's HTML, kept from an earlier page (docsgen.mdx.inline_memo)

    def html_block(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        content = tokens[idx].content
        if content.lstrip().startswith("<!--"):
            return ""
        crossing = crossed_tags(content)
        if crossing is not None:
            state: RenderState = env["mdx"]
            offset, message = crossing
            token = tokens[idx]
            first = token.map[0] if token.map else 0
            line = first + content.count("\n", 0, offset) + 1 + state.frame.line_offset
            column = offset - (content.rfind("\n", 0, offset) + 1) + 1
            state.warn("mdx.html-nesting", message, line, column)
        return content

    def html_inline(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        content = tokens[idx].content
        if content.startswith("<!--"):
            return ""
        m = re.match(r"</?([A-Za-z][\w-]*)", content)
        if m and not is_known_name(m.group(1)):
            return esc(content)  # `<your-api-key>` is a placeholder, not an element
        return content

    def mdx_esm(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return ""

    def jsx_block_text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        content = tokens[idx].content
        return f"<p>{esc(content)}</p>\n" if content else ""

    def jsx_raw(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        if token.meta and token.meta.get("name") == "svg":
            return convert_jsx_markup(token.content, env["mdx"])
        return token.content

    def jsx_block_expr(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        state: RenderState = env["mdx"]
        line, col = state.frame.locate(token.meta["pos"])
        return self.expression(token.content, state, line, col, block=True)

    def jsx_inline_expr(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        state: RenderState = env["mdx"]
        line, col = state.token_location(None, token.meta["offset"])
        return self.expression(token.content, state, line, col, block=False)

    def jsx_text_warning(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        state: RenderState = env["mdx"]
        line, col = state.token_location(None, token.meta["offset"])
        state.warn(token.meta["code"], token.meta["message"], line, col)
        return esc(token.content, quote=False)

    def jsx_lone_brace(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        state: RenderState = env["mdx"]
        line, col = state.token_location(None, tokens[idx].meta["offset"])
        state.warn(
            "mdx.expression",
            "'{' starts an expression that never ends: write \\{ for a literal brace",
            line,
            col,
        )
        return "{"

    def expression(self, expr: str, state: RenderState, line: int, col: int, block: bool) -> str:
        """Render `{expr}`: comments vanish, values print, the rest stays literal with a warning."""
        if is_comment(expr):
            return ""
        stripped = expr.strip()
        if stripped == "children" or stripped == "props.children":
            return state.frame.children_html or ""
        if "user" not in state.frame.scope and mentions_user(stripped):
            personal = render_user_condition(state, stripped, line, col, block, self.expression)
            if personal is not None:  # `{user.plan === "pro" ? <A/> : <B/>}`: both branches, one shown
                return personal
        user = _USER_FIELD.fullmatch(stripped)
        if user and "user" not in state.frame.scope:
            # Mintlify's personalised `{user.firstName}`: empty for readers nobody signed in (as there); filled
            # in the browser from the signed-in reader's data (docsgen server's gate: window.docsgenUser.content).
            span = f'<span data-dg-user="{esc(user.group(1).replace("?", ""))}"></span>'
            return f"<p>{span}</p>\n" if block else span
        m = re.fullmatch(r"\{\s*([\w.-]+)\s*\}", stripped)
        if m and m.group(1) in state.ctx.variables:
            value = state.ctx.variables[m.group(1)]
        else:
            try:
                value = evaluate(expr, state.frame.scope)
            except Unevaluable as exc:
                # A block of code (`{items.map(...)}` over data docsgen cannot see) would print its whole
                # source into the page: it renders nothing; a short one in prose stays as the reader wrote it.
                shown = " ".join(stripped.split())
                shown = shown if len(shown) <= 60 else shown[:57] + "..."
                what = "not rendered" if block else "rendered as text"
                state.warn("mdx.expression", f"cannot evaluate {{{shown}}}: {exc}; {what}", line, col)
                return "" if block else esc("{" + expr + "}")
        text = esc(to_text(value))
        return f"<p>{text}</p>\n" if block and text else text

    def math_inline(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return render_math_html(tokens[idx].content, False, env["mdx"], None)

    def math_inline_double(
        self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        markup = render_math_html(tokens[idx].content, True, env["mdx"], None)
        if markup.startswith("<div") and markup.endswith("</div>"):
            markup = "<span" + markup[4:-6] + "</span>"  # no block element inside a paragraph
        return markup

    def math_block(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return render_math_html(tokens[idx].content, True, env["mdx"], tokens[idx]) + "\n"


# No `<` outside quotes: a tag ends before the next one starts (else `<a<a<a...` scanned to the end from each).
_HTML_TAG_RE = re.compile(r"<(/?)([A-Za-z][\w-]*)\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*?(/?)>")


def crossed_tags(fragment: str) -> tuple[int, str] | None:
    """Find the first closing tag that skips over a tag still open (`<div><span></div>`): (offset, message)."""
    stack: list[str] = []
    for m in _HTML_TAG_RE.finditer(fragment):
        closing, name, self_closing = m.group(1), m.group(2).lower(), m.group(3)
        if self_closing or name in VOID_ELEMENTS:
            continue
        if not closing:
            stack.append(name)
        elif stack and stack[-1] == name:
            stack.pop()
        elif name in stack:
            return m.start(), (
                f"</{m.group(2)}> closes <{m.group(2)}> while <{stack[-1]}> inside it is still open: "
                "tags must close in the reverse order they open"
            )
    return None


def render_math_html(tex: str, display: bool, state: RenderState, token: Token | None) -> str:
    """Render TeX as MathML (docsgen.mdx.math); bad TeX shows its source and warns where it is."""
    from docsgen.mdx.math import latex_enabled, math_as_text, math_error, render_math

    if not latex_enabled(state.ctx.config):
        return math_as_text(tex, display)
    problem = math_error(tex, display)
    if problem:
        if token is not None and token.map:
            line, column = token.map[0] + 1 + state.frame.line_offset, 1
        else:
            line, column = state.token_location(state.inline_parent)
        state.warn("mdx.math", f"cannot render math ${tex.strip()[:40]}$: {problem}", line, column)
    return render_math(tex, display)
