"""MDX source -> clean Markdown for agents: components become the Markdown a reader would have written."""

from __future__ import annotations

import contextlib
import functools
import itertools
import posixpath
import re
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsgen.mdx.esm import parse_exports
from docsgen.mdx.expressions import Unevaluable, evaluate, is_comment, to_text
from docsgen.mdx.jsx_syntax import (
    JsxSyntaxError,
    Tag,
    fence_end,
    find_closing_tag,
    find_expression_end,
    is_known_name,
    is_tag_start,
    scan_tag,
)
from docsgen.mdx.limits import MAX_EXPANDED_CHARS, MAX_JSX_NESTING, MAX_SNIPPET_EXPANSIONS
from docsgen.mdx.page_body import substitute_variables
from docsgen.mdx.props import tag_props
from docsgen.pages.markdown_fields import code_group, field_item, indent_lines
from docsgen.pages.markdown_links import rewrite_links
from docsgen.pages.markdown_memo import COMPONENTS, ComponentMemo
from docsgen.pages.snippet_files import file_reader

__all__ = ["ExportContext", "mdx_to_markdown", "page_markdown_of", "rewrite_links"]

CALLOUTS = {
    "Note": "Note",
    "Warning": "Warning",
    "Info": "Info",
    "Tip": "Tip",
    "Check": "Check",
    "Danger": "Danger",
    "Callout": "Note",
}
_DROP = {"Icon", "Color", "Color.Item", "Color.Row", "Snippet", "script", "style", "svg"}
_TRANSPARENT = {"CardGroup", "Columns", "AccordionGroup", "Tabs", "Steps", "Panel", "Tree"}
_ESM_RE = re.compile(r"^(import|export)\b[^\n]*(?:\n(?!\s*\n)[^\n]*)*", re.M)
_IMPORT_RE = re.compile(r"""^import\s+(?:\{([^}]*)\}|([A-Za-z_$][\w$]*))\s+from\s+["']([^"']+)["']""", re.M)
_STATEMENT_LINE_RE = re.compile(r"\n(?=import|export)")  # before each line where those two can match
_NEWLINES_RE = re.compile(r"\n+")
_INDENT_RE = re.compile(r"[ \t]*")
_FENCE_START_RE = re.compile(r"^[ \t]*((`{3,}|~{3,}))", re.M)
_TICKS_RE = re.compile(r"`+")
# Where the walk must look: code, expressions, tags, and a line break before a fence (other lines copy as they are).
_SPECIAL_RE = re.compile(r"[`{<]|\n(?=[ \t]*(?:```|~~~))")
_MAX_DEPTH = 8


@dataclass
class ExpansionBudget:
    """Snippets one page's Markdown may still inline, shared by every snippet of the page (as the HTML render's)."""

    expansions: int = MAX_SNIPPET_EXPANSIONS
    chars: int = MAX_EXPANDED_CHARS


@dataclass
class ExportContext:
    """What the converter knows about the site: variables and how to read snippet files."""

    docs_dir: Path | None = None
    variables: dict[str, Any] = field(default_factory=dict)
    scope: dict[str, Any] = field(default_factory=dict)  # exported values and snippet props
    snippets: dict[str, str] = field(default_factory=dict)  # component name -> docs-relative file
    depth: int = 0
    read: Callable[[str], str | None] | None = None
    nesting: int = 0  # components being converted inside each other (bounded by MAX_JSX_NESTING)
    budget: ExpansionBudget = field(default_factory=ExpansionBudget)
    memo: ComponentMemo | None = None  # a page's own components (not a snippet's: those read files)
    snippet_uses: int = 0  # snippets inlined so far (a conversion that inlined one is not remembered)
    memo_scope: tuple[tuple[str, ...], str] | None = None  # the snippet names and scope, as a memo key

    def child(self, scope: dict[str, Any]) -> ExportContext:
        """Return a context for a snippet (its own scope, one level deeper, the page's budget)."""
        return ExportContext(
            self.docs_dir, self.variables, scope, {}, self.depth + 1, self.read, budget=self.budget
        )


def page_markdown_of(body: str, docs_dir: Path, variables: dict[str, Any], source: str) -> str:
    """Return a page's MDX body as Markdown, snippets read from the docs folder (links left as written)."""
    ctx = ExportContext(docs_dir, dict(variables), read=file_reader(docs_dir), memo=COMPONENTS)
    return mdx_to_markdown(body, ctx, source)


def mdx_to_markdown(body: str, ctx: ExportContext | None = None, source: str = "") -> str:
    """Convert an MDX page body (frontmatter removed) into clean Markdown."""
    ctx = ctx or ExportContext()
    src = substitute_variables(body, ctx.variables)
    src = _strip_esm(src, ctx, source)
    ctx.memo_scope = None  # the statements may have added names and values
    out = _convert(src, ctx)
    return _one_blank_line(out).strip() + "\n"


def _one_blank_line(text: str) -> str:
    """Return `re.sub(r"\n{3,}", "\n\n", text)`, found with str.find (the regex tries every newline of the page)."""
    if "\n\n\n" not in text:
        return text
    out: list[str] = []
    pos, find, newlines = 0, text.find, _NEWLINES_RE.match
    while (start := find("\n\n\n", pos)) >= 0:
        out += (text[pos:start], "\n\n")
        pos = newlines(text, start).end()  # type: ignore[union-attr]  # text[start] is a newline
    out.append(text[pos:])
    return "".join(out)


def _strip_esm(src: str, ctx: ExportContext, source: str) -> str:
    """Remove import/export statements, remembering snippet imports and simple exported values."""
    if "import" not in src and "export" not in src:  # no statement to remove (most pages)
        return src
    values, _ = parse_exports(src)
    for name, value in values.items():
        ctx.scope.setdefault(name, value)
    for m in _statements(_IMPORT_RE, src):
        path = m.group(3)
        if not path.endswith((".mdx", ".md")):
            continue
        target = (
            path.lstrip("/")
            if path.startswith("/")
            else posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
        )
        if m.group(2):
            ctx.snippets[m.group(2)] = target
    out, pos = [], 0
    fences = _fences(src)
    fence = next(fences, None)
    for m in _statements(_ESM_RE, src):
        while fence is not None and fence[1] <= m.start():  # fences ending before it cannot hold it
            fence = next(fences, None)
        if fence is not None and fence[0] <= m.start():
            continue
        out.append(src[pos : m.start()])
        pos = m.end()
    out.append(src[pos:])
    return "".join(out)


def _statements(pattern: re.Pattern[str], src: str) -> Iterator[re.Match[str]]:
    """Yield what `pattern.finditer(src)` yields for a pattern matching only at a line starting with `import` or
    `export`, trying it only there (finditer tries, and fails at, every offset of the page)."""
    pos = 0
    for start in itertools.chain((0,), (m.end() for m in _STATEMENT_LINE_RE.finditer(src))):
        m = pattern.match(src, start) if start >= pos else None
        if m is not None:
            yield m
            pos = m.end()


def _fences(src: str) -> Iterator[tuple[int, int]]:
    """Yield the (start, end) offsets of the fenced code blocks in order, found the way MDX finds them (lazily:
    the statements are at the top of a page, so the fences below the last one are never scanned)."""
    pos = 0
    for m in _FENCE_START_RE.finditer(src):
        if m.start() < pos:
            continue
        end = fence_end(src, m.end(1) - len(m.group(2)), len(src))
        if end > 0:
            yield m.start(), end
            pos = end


def _convert(src: str, ctx: ExportContext) -> str:
    """Walk the source, copying Markdown and code as is and converting tags and expressions."""
    out: list[str] = []
    i, n = 0, len(src)
    while i < n:
        ch = src[i]
        at_line_start = i == 0 or src[i - 1] == "\n"
        if at_line_start:
            start = _INDENT_RE.match(src, i).end()  # type: ignore[union-attr]  # matches the empty string
            end = fence_end(src, start, n) if src.startswith(("```", "~~~"), start) else -1
            if end > 0:
                out.append(src[i:end])
                i = end
                continue
        if ch == "`":
            run = _TICKS_RE.match(src, i).end() - i  # type: ignore[union-attr]  # src[i] is a backtick
            close = src.find("`" * run, i + run)
            if close > 0 and src.find("\n\n", i, close) < 0:
                out.append(src[i : close + run])
                i = close + run
                continue
            out.append("`" * run)
            i += run
            continue
        if ch == "{":
            close = find_expression_end(src, i)
            if close > 0:
                out.append(_expression(src[i + 1 : close - 1], ctx))
                i = close
                continue
        if ch == "<" and src.startswith("<!--", i):
            close = src.find("-->", i)
            i = close + 3 if close > 0 else n
            continue
        if ch == "<" and is_tag_start(src, i):
            try:
                tag = scan_tag(src, i)
            except JsxSyntaxError:
                out.append(ch)
                i += 1
                continue
            if tag.name and not is_known_name(tag.name) and tag.name not in ctx.snippets:
                out.append(src[i : tag.end])  # a placeholder like <your-key>: text, as on the page
                i = tag.end
                continue
            if tag.closing:
                i = tag.end
                continue
            inner, after = "", tag.end
            if not tag.self_closing:
                found = find_closing_tag(src, tag.name, tag.end, n)
                if found is None:
                    after = tag.end
                else:
                    inner, after = src[tag.end : found[0]], found[1]
            block = at_line_start or not src[src.rfind("\n", 0, i) + 1 : i].strip()  # no copy of src[:i]
            out.append(_remembered(src[i:after], tag, inner, ctx, block=block))
            i = after
            continue
        if ch in "{<\n":
            out.append(ch)
            i += 1
            continue
        m = _SPECIAL_RE.search(src, i + 1)
        j = m.start() if m else n
        out.append(src[i:j])
        i = j
    return "".join(out)


def _remembered(text: str, tag: Tag, inner: str, ctx: ExportContext, *, block: bool) -> str:
    """Convert a component (`text`: its whole source) through the page's memo when it has one."""
    memo = ctx.memo
    if memo is None:
        return _component(tag, inner, ctx, block=block)
    if ctx.memo_scope is None:
        ctx.memo_scope = (tuple(sorted(ctx.snippets)), repr(ctx.scope))
    names, scope = ctx.memo_scope
    read = scope if "{" in text else None  # no `{`: nothing in the component reads the page's scope
    key = (text, tag.end - tag.start, block, ctx.nesting, names, read)
    found = memo.get(key)
    if found is not None:
        return found
    uses = ctx.snippet_uses
    markdown = _component(tag, inner, ctx, block=block)
    if ctx.snippet_uses == uses:
        size = len(text) + len(read or "") + sum(map(len, names))  # every character the key holds
        memo.put(key, size, markdown)
    return markdown


def _expression(expr: str, ctx: ExportContext) -> str:
    """Render `{expr}`: comments vanish, known values become text, anything else stays visible as code."""
    if is_comment(expr):
        return ""
    try:
        return to_text(evaluate(expr, ctx.scope))
    except Unevaluable:
        return "{" + expr + "}"


def _props(tag: Tag, ctx: ExportContext) -> dict[str, Any]:
    """Return a tag's props as values (strings as written, expressions evaluated when possible, else None)."""
    return tag_props(tag, ctx.scope, unevaluable=lambda attr, exc: None)


def _inner(inner: str, ctx: ExportContext) -> str:
    """Convert a component's children: dedented, converted, trimmed (as plain text past MAX_JSX_NESTING)."""
    if ctx.nesting >= MAX_JSX_NESTING:
        return re.sub(r"<[^<>]*>", "", inner).strip()  # the page itself reports mdx.too-deep
    lines = inner.split("\n")
    first, rest = lines[0], "\n".join(lines[1:])
    body = (first.strip() + "\n" if first.strip() else "") + textwrap.dedent(rest)
    ctx.nesting += 1
    try:
        return _convert(body, ctx).strip()
    finally:
        ctx.nesting -= 1


def _quote(text: str) -> str:
    """Prefix every line with '> ' (a blockquote)."""
    return "\n".join(("> " + line).rstrip() for line in text.split("\n"))


def _block(text: str) -> str:
    return "\n\n" + text.strip("\n") + "\n\n"


def _link(label: str, href: Any) -> str:
    return f"[{label}]({href})" if isinstance(href, str) and href else label


def _component(tag: Tag, inner: str, ctx: ExportContext, *, block: bool) -> str:
    """Convert one tag with its children to Markdown."""
    name = tag.name
    props = _props(tag, ctx)
    title = str(props.get("title") or "").strip()
    if name in _DROP:
        return ""
    if name == "Visibility":
        return "" if str(props.get("for", "")).lower() == "humans" else _block(_inner(inner, ctx))
    if name in ctx.snippets:
        return _snippet(ctx.snippets[name], props, ctx)
    body = _inner(inner, ctx) if inner else ""
    if name in CALLOUTS:
        label = title or CALLOUTS[name]
        return _block(_quote(f"**{label}:** {body}" if body else f"**{label}**"))
    if name in ("Card", "Tile"):
        head = _link(f"**{title}**" if title else "Link", props.get("href"))
        return _block(f"- {head}" + (f": {indent_lines(body, '  ').strip()}" if body else ""))
    if name in ("Tab", "Accordion", "Expandable", "Step", "Update"):
        label = title or str(props.get("label") or "")
        if name == "Step":
            return _block(
                f"1. **{label}**\n\n{indent_lines(body, '   ')}"
                if label
                else f"1. {indent_lines(body, '   ')}"
            )
        if name == "Update":
            desc = str(props.get("description") or "")
            return _block(f"## {label}\n\n{desc}\n\n{body}".strip())
        return _block((f"#### {label}\n\n" if label else "") + body)
    if name == "CodeGroup" or name in ("RequestExample", "ResponseExample"):
        heading = {"RequestExample": "Request example", "ResponseExample": "Response example"}.get(name)
        return _block((f"#### {heading}\n\n" if heading else "") + code_group(body))
    if name in ("ParamField", "ResponseField", "Field"):
        return _block(field_item(props, body))
    if name in _TRANSPARENT or name in ("Tree.Folder", "Tree.File"):
        if name.startswith("Tree."):
            return _block(f"- {props.get('name', '')}" + ("\n" + indent_lines(body, "  ") if body else ""))
        return _block(body) if block else body
    if name == "Prompt":
        desc = str(props.get("description") or "")
        return _block((f"{desc}\n\n" if desc else "") + "```text\n" + body + "\n```")
    if name == "Tooltip":
        tip = props.get("tip")
        return f"{body} ({tip})" if tip else body
    if name == "Badge":
        return f"`{body}`"
    if name == "Frame":
        caption = str(props.get("caption") or "").strip()
        return _block(body + (f"\n\n*{caption}*" if caption else ""))
    if name in ("iframe", "video", "audio", "source"):
        src = props.get("src")
        return (
            _block(_link(str(props.get("title") or name.capitalize()), src))
            if src
            else (_block(body) if body else "")
        )
    if name in ("img", "Image"):
        return f"![{props.get('alt', '')}]({props.get('src', '')})"
    if name == "a":
        return _link(body, props.get("href"))
    if name == "br":
        return "\n"
    if name in ("strong", "b"):
        return f"**{body}**"
    if name in ("em", "i"):
        return f"*{body}*"
    if name == "code":
        return f"`{body}`"
    if re.fullmatch(r"h[1-6]", name):
        return _block("#" * int(name[1]) + " " + body)
    if name in ("p", "div", "section", "span", "figure", "figcaption", "center") or not body:
        return (_block(body) if block else body) if body else ""
    return _block(body) if block else body


def _snippet(path: str, props: dict[str, Any], ctx: ExportContext) -> str:
    """Inline an imported snippet file, converted with its props as scope."""
    ctx.snippet_uses += 1
    if ctx.depth >= _MAX_DEPTH or ctx.read is None:
        return ""
    text = ctx.read(path)
    if text is None:
        return ""
    from docsgen.pages.page import split_frontmatter

    _, body, _, _ = split_frontmatter(text, path)
    budget = ctx.budget
    if budget.expansions <= 0 or len(body) > budget.chars:
        budget.expansions = 0  # the page's HTML reports the limit (mdx.too-large); its twin stops inlining
        return ""
    budget.expansions -= 1
    budget.chars -= len(body)
    with contextlib.suppress(RecursionError):
        if (
            len(body) <= _SCOPELESS_CHARS
            and "{" not in body
            and "import" not in body
            and "export" not in body
        ):
            return _block(_scopeless_markdown(body))
        return _block(mdx_to_markdown(body, ctx.child({**ctx.scope, **props, "props": props}), path))
    return ""


_SCOPELESS_CHARS = 64 * 1024  # snippets remembered are at most this long (128 of them: ~16 MB at worst)


@functools.lru_cache(maxsize=128)
def _scopeless_markdown(body: str) -> str:
    """A snippet without expressions, imports or exports: nothing in it reads the page's scope, variables
    (`{{name}}`) or other snippets, so its Markdown is the same on every page that uses it (made once)."""
    return mdx_to_markdown(body)
