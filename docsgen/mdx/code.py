"""Code blocks: fence meta options, Pygments highlighting per line, diff/highlight/focus markers."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from pygments import lex
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

from docsgen.mdx.fastlex import accelerate
from docsgen.mdx.grammars import custom_lines

if TYPE_CHECKING:
    from docsgen.mdx.state import RenderState

LANG_ALIASES = {
    "md": "markdown",
    "sh": "bash",
    "shell": "bash",
    "zsh": "bash",
    "curl": "bash",
    "console": "bash",
    "terminal": "bash",
    "js": "javascript",
    "ts": "typescript",
    "yml": "yaml",
    "py": "python",
    "rb": "ruby",
    "golang": "go",
    "rs": "rust",
    "kt": "kotlin",
    "c#": "csharp",
    "cs": "csharp",
    "dotnet": "csharp",
    "c++": "cpp",
    "jsonc": "json",
    "json5": "json",
    "txt": "text",
    "plaintext": "text",
    "plain": "text",
    "env": "bash",
    "dockerfile": "docker",
    "vue": "html",
    "svelte": "html",
    "astro": "html",
    "jsonl": "json",
    "ndjson": "json",
    "sol": "solidity",
    "cmd": "batch",
    "ps": "powershell",
    "log": "text",
}
OWN_LEXERS = ("mdx", "prisma")  # docsgen.mdx.lexers (loaded with the first block in one: it imports Pygments'
# Markdown, HTML and JavaScript lexer modules, 30 ms of every build's start-up otherwise)
_FORMATTER = HtmlFormatter(nowrap=True, classprefix="")
# From the marker to the end of the line; the comment opener before it is found in Python (`\s*(?://|...)?\s*`
# in front of the marker made a search cubic on a line of spaces).
_MARKER_RE = re.compile(
    r"\[!code\s+(\+\+|--|highlight|hl|focus|error|warning)(?::(\d+))?\]\s*(?:(?:-->|\*/)\s*)?$"
)
_MARKER_OPENERS = ("<!--", "//", "/*", "--", "#", ";", "'")
_META_TOKEN_RE = re.compile(
    r'(\w[\w-]*)=(?:"([^"]*)"|\'([^\']*)\'|\{([^}]*)\}|(\S+))|\{([\d,\s-]*)\}|"([^"]*)"|(\S+)'
)
EXPANDABLE_LINES = 12  # longer expandable blocks start collapsed
FLAG_OPTIONS = {"lines", "wrap", "expandable", "nocopy", "twoslash", "copy"}


@dataclass
class CodeMeta:
    """The options written after a fence's language."""

    lang: str = ""
    title: str = ""
    icon: str = ""
    lines: bool = False
    wrap: bool = False
    expandable: bool = False
    nocopy: bool = False
    highlight: set[int] = field(default_factory=set)
    focus: set[int] = field(default_factory=set)
    extra: dict[str, str] = field(default_factory=dict)


def parse_line_ranges(text: str) -> set[int]:
    """Parse `1,3-5` (braces optional) into line numbers."""
    lines: set[int] = set()
    for part in text.strip().strip("{}[]").split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            a, _, b = part.partition("-")
            if a.strip().isdigit() and b.strip().isdigit():
                lines.update(range(int(a), int(b) + 1))
        elif part.isdigit():
            lines.add(int(part))
    return lines


def parse_meta(info: str) -> CodeMeta:
    """Split a fence info string into language, title and options."""
    info = info.strip()
    lang, _, rest = info.partition(" ")
    meta = CodeMeta(lang=lang.strip().lower())
    if lang.startswith("{"):
        meta.lang, rest = "", info
    title_words: list[str] = []
    for m in _META_TOKEN_RE.finditer(rest):
        key, dq, sq, braced, bare, ranges, quoted, word = m.groups()
        if key:
            value = (
                dq
                if dq is not None
                else sq
                if sq is not None
                else braced
                if braced is not None
                else bare or ""
            )
            if key == "title" or key == "filename":
                meta.title = value
            elif key == "icon":
                meta.icon = value
            elif key in ("highlight", "hl"):
                meta.highlight |= parse_line_ranges(value)
            elif key == "focus":
                meta.focus |= parse_line_ranges(value)
            elif key in FLAG_OPTIONS:
                setattr(meta, key, value not in ("false", "{false}")) if key != "copy" else None
            else:
                meta.extra[key] = value
        elif ranges is not None:
            meta.highlight |= parse_line_ranges(ranges)
        elif quoted is not None:
            title_words.append(quoted)
        elif word in FLAG_OPTIONS:
            if word != "copy" and word != "twoslash":
                setattr(meta, word, True)
        elif word:
            title_words.append(word)
    if not meta.title:
        meta.title = " ".join(title_words)
    return meta


@lru_cache(maxsize=256)
def get_lexer(lang: str) -> Lexer:
    """Return a Pygments lexer for a fence language, any case (plain text when unknown)."""
    lang = lang.lower()
    name = LANG_ALIASES.get(lang, lang)
    if not name or name == "text":
        return TextLexer(stripnl=False, ensurenl=False)
    if name in OWN_LEXERS:
        from docsgen.mdx.lexers import MdxLexer, PrismaLexer

        own: type[Lexer] = MdxLexer if name == "mdx" else PrismaLexer
        return accelerate(own(stripnl=False, ensurenl=False))
    try:
        return accelerate(get_lexer_by_name(name, stripnl=False, ensurenl=False))
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


@lru_cache(maxsize=4096)
def _highlight_cached(code: str, lang: str) -> tuple[str, ...]:
    return tuple(_highlight(code, lang))


def highlight_lines(code: str, lang: str) -> list[str]:
    """Highlight code and return one balanced HTML string per source line (cached: translations repeat code)."""
    return list(_highlight_cached(code, lang))


def _highlight(code: str, lang: str) -> list[str]:
    lexer = get_lexer(lang)
    if isinstance(lexer, TextLexer):
        return [html.escape(line, quote=False) for line in code.split("\n")]
    out: list[str] = []
    # per-line spans: the private step of HtmlFormatter.format, absent from the stubs
    for _ttype, line in _FORMATTER._format_lines(lex(code, lexer)):  # type: ignore[attr-defined]
        out.append(line.rstrip("\n"))
    lines = code.split("\n")
    while len(out) < len(lines):
        out.append("")
    return out[: len(lines)]


def strip_markers(code: str) -> tuple[str, dict[int, str]]:
    """Remove `[!code ++]`-style markers; return the code and {line number: kind}."""
    kinds: dict[int, str] = {}
    if "[!code" not in code:
        return code, kinds
    lines = code.split("\n")
    for index, line in enumerate(lines):
        m = _MARKER_RE.search(line) if "[!code" in line else None
        if not m:
            continue
        kind = {"++": "add", "--": "remove", "hl": "highlight"}.get(m.group(1), m.group(1))
        count = int(m.group(2) or 1)
        before = line[: m.start()].rstrip()
        opener = next((o for o in _MARKER_OPENERS if before.endswith(o)), "")
        lines[index] = before[: len(before) - len(opener)].rstrip()
        for n in range(index + 1, index + 1 + count):
            kinds[n] = kind
    return "\n".join(lines), kinds


def render_code_block(
    code: str,
    meta: CodeMeta,
    index: int,
    title_html: str = "",
    icon_html: str = "",
    show_header: bool = True,
    *,
    state: RenderState | None = None,
    line: int = 0,
) -> str:
    """Render one code block: header (title, copy button), highlighted lines, options as classes.

    With the page's state, a language from docs.json `styling.codeblocks.languages.custom` is highlighted with
    its TextMate grammar (docsgen.mdx.grammars; `line`: the fence's line, which locates a block's warning).
    """
    if code.endswith("\n"):
        code = code[:-1]
    code, markers = strip_markers(code)
    lines = None
    if state is not None and meta.lang:
        lines = custom_lines(code, meta.lang, state, line)
    if lines is None:
        lines = highlight_lines(code, meta.lang)
    rows = []
    for number, line_html in enumerate(lines, start=1):
        classes = ["line"]
        kind = markers.get(number)
        if number in meta.highlight or kind == "highlight":
            classes.append("highlighted")
        if number in meta.focus or kind == "focus":
            classes.append("focused")
        if kind == "add":
            classes.append("diff-add")
        elif kind == "remove":
            classes.append("diff-remove")
        elif kind in ("error", "warning"):
            classes.append(kind)
        rows.append(f'<span class="{" ".join(classes)}">{line_html}</span>')
    classes = ["dg-code"]
    if meta.wrap:
        classes.append("dg-code-wrap")
    if meta.lines:
        classes.append("dg-code-lines")
    if meta.focus or "focus" in markers.values():
        classes.append("has-focus")
    if markers and any(k in ("add", "remove") for k in markers.values()):
        classes.append("has-diff")
    attrs = [
        f'class="{" ".join(classes)}"',
        f'data-lang="{html.escape(meta.lang or "text")}"',
        f'data-code-index="{index}"',
    ]
    if meta.title:
        attrs.append(f'data-title="{html.escape(meta.title)}"')
    if meta.expandable:
        attrs.append("data-expandable")
        if len(lines) > EXPANDABLE_LINES:
            classes.append("dg-overflows")
            attrs[0] = f'class="{" ".join(classes)}"'
    title = title_html or html.escape(meta.title)
    header = ""
    if (title or icon_html) and show_header:
        header = f'<div class="dg-code-header">{icon_html}<span class="dg-code-title">{title}</span></div>'
    copy = "" if meta.nocopy else copy_button()
    expand = fade = ""
    if meta.expandable:
        expand = '<button type="button" class="dg-code-expand" aria-expanded="false">Show more</button>'
        if len(lines) > EXPANDABLE_LINES:  # the fade over a collapsed block's last lines
            fade = '<div class="dg-code-fade" aria-hidden="true"></div>'
    lang_class = f' class="language-{html.escape(meta.lang)}"' if meta.lang else ""
    body = "\n".join(rows)
    return (
        f'<div {" ".join(attrs)}>{header}<div class="dg-code-body">{copy}'
        f'<pre class="highlight" tabindex="0"><code{lang_class}>{body}</code></pre>{fade}</div>{expand}</div>\n'
    )


def copy_button() -> str:
    """Return the copy button markup (wired by js/copy.js)."""
    return (
        '<button type="button" class="dg-copy" aria-label="Copy code" title="Copy">'
        '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" '
        'stroke-width="2"><rect x="9" y="9" width="13" height="13" rx="2"/>'
        '<path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1"/></svg></button>'
    )


LIGHT_STYLE = "default"
DARK_STYLE = "github-dark"


def code_scope(dark: bool, target: str = ".dg-code") -> str:
    """Return the selector of `target` (code) drawn in one colour scheme. The API pages' example column
    (.dg-api-aside: request and response samples) is dark in both schemes, as on Mintlify."""
    if dark:
        return f':is(html[data-theme="dark"], .dg-api-aside) {target}'
    return f'html:not([data-theme="dark"]) {target}:not(.dg-api-aside *)'


def highlight_css() -> str:
    """Return themes/base/static/highlight.css: Pygments token colours for light and dark mode."""
    out = ["/* Generated by docsgen.mdx.code.highlight_css(): Pygments token colours for code blocks. */"]
    for style, scope in ((LIGHT_STYLE, code_scope(False)), (DARK_STYLE, code_scope(True))):
        formatter = HtmlFormatter(style=style, classprefix="")
        for line in formatter.get_style_defs(scope).splitlines():
            # Keep token rules only: backgrounds and line-number rules come from components.css.
            if (
                not line.startswith(scope + " .")
                or " .hll " in line
                or " .err " in line
                or "linenos" in line
                or "pre " in line
            ):
                continue
            out.append(line)
    return "\n".join(out) + "\n"
