"""Rendered HTML -> Markdown, for pages without MDX source (generated API, webhook and schema pages)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area", "base", "embed", "track"}
_DROP = {"script", "style", "button", "svg", "form", "input", "select", "textarea", "template", "noscript"}
_BLANKS_RE = re.compile(r"\n{3,}")


@dataclass
class Node:
    """One element of the parsed fragment (text children are plain strings)."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    """Parse an HTML fragment into a small tree."""
    tree = _Tree()
    tree.feed(html)
    tree.close()
    return tree.root


def html_to_markdown(html: str) -> str:
    """Convert a rendered page body to Markdown (API fields become nested lists, code stays fenced)."""
    text = _blocks(parse(html))
    return _BLANKS_RE.sub("\n\n", text).strip() + "\n"


def text_of(node: Node | str) -> str:
    """Return the plain text of a node, whitespace collapsed."""
    if isinstance(node, str):
        return node
    return "".join(text_of(c) for c in node.children)


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _inline(node: Node | str) -> str:
    """Render inline content: links, code, emphasis; block children fall back to their text."""
    if isinstance(node, str):
        return re.sub(r"\s+", " ", node).replace("<", "\\<")
    tag = node.tag
    if tag in _DROP:
        return ""
    inner = "".join(_inline(c) for c in node.children)
    if tag == "code":
        body = text_of(node)
        return f"`{body}`" if "`" not in body else f"`` {body} ``"
    if tag in ("strong", "b"):
        return f"**{inner.strip()}**" if inner.strip() else ""
    if tag in ("em", "i"):
        return f"*{inner.strip()}*" if inner.strip() else ""
    if tag == "a":
        href = node.attrs.get("href", "")
        if not href or href.startswith("#"):
            return inner
        return f"[{inner.strip()}]({href})"
    if tag == "br":
        return "\n"
    if tag == "img":
        return f"![{node.attrs.get('alt', '')}]({node.attrs.get('src', '')})"
    return inner


def _blocks(node: Node, indent: str = "") -> str:
    """Render a node's children as Markdown blocks."""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        text = _squash("".join(run))
        if text:
            out.append(text)
        run.clear()

    for child in node.children:
        if isinstance(child, str) or child.tag in (
            "a",
            "code",
            "strong",
            "b",
            "em",
            "i",
            "span",
            "img",
            "br",
        ):
            if isinstance(child, Node) and "dg-api-method" in child.classes:
                run.append(f"**{text_of(child).strip()}** ")
                continue
            run.append(_inline(child))
            continue
        flush()
        block = _block(child)
        if block.strip():
            out.append(block.strip("\n"))
    flush()
    text = ""
    for block in out:
        tight = text.split("\n")[-1].startswith("- `") and block.startswith("- `") and "\n" not in block
        text += ("\n" if tight else "\n\n") + block if text else block
    return text


def _block(node: Node) -> str:
    """Render one block element."""
    tag, classes = node.tag, node.classes
    if tag in _DROP or "dg-api-playground" in classes:
        return ""
    if "dg-api-endpoint" in classes:
        method = next(
            (text_of(c) for c in node.children if isinstance(c, Node) and "dg-api-method" in c.classes), ""
        )
        url = "".join(
            text_of(c) for c in node.children if isinstance(c, Node) and "dg-api-method" not in c.classes
        )
        return f"**{_squash(method)}** `{_squash(url)}`"
    if "dg-api-field" in classes:
        return _field(node)
    if "dg-api-card-title" in classes:
        return f"#### {_squash(text_of(node))}"
    if "dg-api-panel-label" in classes:
        return f"##### {_squash(text_of(node))}"
    if tag == "summary":
        return ""
    if re.fullmatch(r"h[1-6]", tag):
        return "#" * int(tag[1]) + " " + _squash("".join(_inline(c) for c in node.children))
    if tag == "p":
        return _squash("".join(_inline(c) for c in node.children))
    if tag == "pre":
        code = next((c for c in node.children if isinstance(c, Node) and c.tag == "code"), node)
        lang = next((c[9:] for c in code.classes if c.startswith("language-")), "")
        body = text_of(code).rstrip("\n")
        fence = "````" if "```" in body else "```"
        return f"{fence}{lang}\n{body}\n{fence}"
    if tag in ("ul", "ol"):
        items = [c for c in node.children if isinstance(c, Node) and c.tag == "li"]
        lines = []
        for n, item in enumerate(items, 1):
            marker = f"{n}. " if tag == "ol" else "- "
            body = _blocks(item)
            lines.append(marker + body.replace("\n", "\n" + " " * len(marker)))
        return "\n".join(lines)
    if tag == "table":
        return _table(node)
    if tag == "blockquote":
        return "\n".join("> " + line for line in _blocks(node).split("\n"))
    if tag == "hr":
        return "---"
    return _blocks(node)


def _field(node: Node) -> str:
    """Render an API field as a list item: `name` (type, pills): description, then nested fields indented."""
    head = next((c for c in node.children if isinstance(c, Node) and "dg-api-field-head" in c.classes), None)
    name, bits = "", []
    if head is not None:
        for child in head.children:
            if isinstance(child, Node):
                text = _squash(text_of(child))
                if "dg-api-name" in child.classes:
                    name = text
                elif text and "dg-api-type" in child.classes:
                    bits.append(f"`{text}`")
                elif text:
                    bits.append(text.replace("<", "\\<"))
    rest = Node("div", {}, [c for c in node.children if c is not head])
    body = _blocks(rest)
    line = f"- `{name}`" + (f" ({', '.join(bits)})" if bits else "")
    if body:
        first, _, more = body.partition("\n\n")
        if first.startswith(("- ", "#", "```", "|")):
            more, first = body, ""
        line += f": {first}" if first else ""
        if more:
            line += "\n\n" + "\n".join(("  " + x) if x.strip() else "" for x in more.split("\n"))
    return line


def _table(node: Node) -> str:
    """Render a table as a GFM table."""
    rows: list[list[str]] = []

    def collect(n: Node) -> None:
        for c in n.children:
            if isinstance(c, Node):
                if c.tag == "tr":
                    cells = [x for x in c.children if isinstance(x, Node) and x.tag in ("td", "th")]
                    rows.append(
                        [
                            _squash("".join(_inline(x) for x in cell.children)).replace("|", "\\|")
                            for cell in cells
                        ]
                    )
                else:
                    collect(c)

    collect(node)
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return "\n".join(lines)
