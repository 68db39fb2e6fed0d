"""Lexers for fence languages that Mintlify highlights and Pygments has no lexer for: MDX and Prisma schemas."""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, inherit, using
from pygments.lexers.html import HtmlLexer
from pygments.lexers.javascript import JavascriptLexer
from pygments.lexers.markup import MarkdownLexer
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

# An opening, closing or self-closing JSX/HTML tag; props may span lines and hold `{...}` without `<` or `>`.
_TAG = r"</?[A-Za-z][\w.:-]*(?:\s+(?:[^<>{}]|\{[^{}]*\})*?)?/?>"


class MdxLexer(MarkdownLexer):
    """Markdown plus JSX: component tags, `import`/`export` lines and `{expressions}`."""

    name = "MDX"
    aliases = ["mdx"]
    filenames = ["*.mdx"]

    tokens = {
        "root": [
            (r"^(import|export)(\b[^\n]*\n)", bygroups(Keyword.Namespace, using(JavascriptLexer))),
            (_TAG, using(HtmlLexer)),
            inherit,
        ],
        "inline": [
            (_TAG, using(HtmlLexer)),
            (r"\{[^{}\n]*\}", using(JavascriptLexer)),
            inherit,
        ],
    }


class PrismaLexer(RegexLexer):
    """Prisma schema files: blocks, field types, attributes, comments."""

    name = "Prisma"
    aliases = ["prisma"]
    filenames = ["*.prisma"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"///?.*?$", Comment.Single),
            (
                r"\b(model|enum|datasource|generator|type|view)(\s+)(\w+)",
                bygroups(Keyword, Whitespace, Name.Class),
            ),
            (r"@@?[\w.]+", Name.Decorator),
            (
                r"\b(String|Int|BigInt|Float|Decimal|Boolean|DateTime|Json|Bytes|Unsupported)\b(\[\])?\??",
                Keyword.Type,
            ),
            (r"\b(true|false|null)\b", Keyword.Constant),
            (r'"(\\\\|\\"|[^"])*"', String.Double),
            (r"-?\d+(\.\d+)?", Number),
            (r"[=?:,\[\]]", Operator),
            (r"[{}()]", Punctuation),
            (r"\w+", Name),
            (r".", Text),
        ],
    }
