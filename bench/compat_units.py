"""What a reader must find of a source page: its text units, read from markdown-it tokens (bench/compat.py).

The source is tokenized by the same markdown-it configuration docsgen uses (docsgen/mdx/parser.py), after the
frontmatter and agent-only blocks are removed; MDX comments, imports and exports are tokens of their own and count
for nothing. A unit is what a reader sees of one source line: link text (not its URL), code spans and code blocks
by content, reference links resolved, emphasis markers gone. Visible props of components (a card's title, a
tooltip's tip) are units of their own; snippets a page uses are inlined where they are used. Text is never left
out because the build loses it: every text token counts, whatever renders it.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import yaml
from markdown_it.token import Token

from docsgen.mdx.jsx_syntax import is_known_name
from docsgen.mdx.parser import MD

PAGE_SUFFIXES = (".mdx", ".md")
FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n.*?\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
AGENTS_ONLY = re.compile(r"^\s*<Visibility\s+for=[\"']agents[\"']\s*>.*?^\s*</Visibility>", re.S | re.M)
IMPORT = re.compile(r"""^[ \t]*import\s+(?:(\w+)|\{([^}]*)\})\s+from\s+['"]([^'"]+)['"];?[ \t]*$""", re.M)
REACT_EXPORT = re.compile(r"^export\s+(?:const|function)\s+([A-Z]\w*)", re.M)
CODE_NOTATION = re.compile(r"\s*(?://|#|<!--|/\*|--)?\s*\[!code[^\]]*\]\s*(?:-->|\*/)?")
HEADING_ID = re.compile(r"\s*\{#[\w-]+\}\s*$")
STRING_LITERAL = re.compile(r"""\s*(?:"([^"\\]*)"|'([^'\\]*)'|`([^`$\\]*)`)\s*""")
WORD = re.compile(r"[^\W_]")
SNIPPET_FOLDERS = ("snippets", "_snippets")
# Props whose text a component shows to the reader (Mintlify's documented props); for components not listed, the
# usual text props. Callouts show no prop (a `title` on <Note> is not shown by Mintlify either).
SHOWN_PROPS: dict[str, set[str]] = {
    "Card": {"title", "cta"},
    "Tab": {"title"},
    "Accordion": {"title", "description"},
    "Expandable": {"title"},
    "Step": {"title"},
    "Frame": {"caption"},
    "Tooltip": {"tip", "headline", "cta"},
    "Tree.Folder": {"name"},
    "Tree.File": {"name"},
    "Color.Row": {"title"},
    "Color.Item": {"name"},
    "Update": {"label", "description"},
    "View": {"title"},
    "Prompt": {"description"},
    "Tile": {"title", "description"},
    "ParamField": {"query", "path", "body", "header", "type", "default", "placeholder"},
    "ResponseField": {"name", "type", "default"},
    "CodeBlock": {"filename"},
}
SHOWN_PROPS.update(dict.fromkeys(("Note", "Info", "Tip", "Warning", "Check", "Danger", "Callout"), set()))
VISIBLE_PROPS = {"title", "label", "description", "tip", "headline", "cta", "placeholder", "caption"}
ALTERNATIVE = "\x02"  # a unit found in either form: a prop shown as written or read as Markdown
# Inline HTML elements whose text stays in the flow of the sentence around them.
IN_FLOW = {
    "a",
    "b",
    "strong",
    "i",
    "em",
    "code",
    "span",
    "u",
    "s",
    "del",
    "ins",
    "mark",
    "small",
    "sub",
    "sup",
}
IN_FLOW |= {"kbd", "abbr", "cite", "q", "var", "samp", "font", "Link", "Badge"}
MAX_DEPTH = 4


class _HtmlText(HTMLParser):
    """The text of raw HTML, one string per source line (scripts, styles and comments left out)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in ("br", "p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "img"):
            self.text.append("\n")
        for name, value in attrs:
            if name in ("alt", "title") and value:
                self.text.append(f"\n{value}\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif tag in ("p", "div", "li", "td", "th", "tr"):
            self.text.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)


def html_lines(fragment: str) -> list[str]:
    parser = _HtmlText()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.text).split("\n")


def literal(expression: str) -> str | None:
    """The text of an expression that is a plain string literal (`{"text"}`), else None."""
    m = STRING_LITERAL.fullmatch(expression)
    return next((g for g in m.groups() if g is not None), None) if m else None


class Units:
    """Collect the units of one page (and the snippets it uses)."""

    def __init__(self, docs_dir: Path) -> None:
        self.docs_dir = docs_dir
        self.units: list[str] = []

    def add(self, text: str) -> None:
        text = " ".join(html.unescape(text).split())
        if len(WORD.findall(text)) >= 3:
            self.units.append(text)

    # ---- a source file ----------------------------------------------------------------------------
    def source(self, text: str, path: Path, depth: int = 0) -> None:
        text = text.replace("\r\n", "\n")
        front = FRONTMATTER.match(text)
        if front:
            text = text[front.end() :]
            if depth == 0:  # a page's title and description are shown at its top
                for value in _front_text(front.group(0)):
                    self.prop(value, set(), {}, MAX_DEPTH)
        text = AGENTS_ONLY.sub("", text)  # shown to AI agents (the Markdown twin), not in the HTML page
        react = set(REACT_EXPORT.findall(text))
        snippets: dict[str, Path] = {}
        imported: set[str] = set()
        for m in IMPORT.finditer(text):
            names = (
                [m.group(1)] if m.group(1) else [n.split(" as ")[-1].strip() for n in m.group(2).split(",")]
            )
            names = [n for n in names if n]
            imported.update(names)
            target = self._resolve(m.group(3), path)
            exported = _read(target) if target else ""
            for name in names:
                if m.group(3).endswith((".jsx", ".tsx", ".js", ".ts")) or re.search(
                    rf"^export\s+(?:const|function)\s+{re.escape(name)}\b", exported, re.M
                ):
                    react.add(name)
                elif target and target.suffix in PAGE_SUFFIXES and m.group(1):
                    snippets[name] = target
        tokens = MD.parse(text, {"mdx_imported": imported})
        self.tokens(tokens, react, snippets, depth)

    def _resolve(self, spec: str, source: Path) -> Path | None:
        base = self.docs_dir if spec.startswith("/") else source.parent
        target = (base / spec.lstrip("/")).resolve()
        inside = target.is_relative_to(self.docs_dir.resolve())
        return target if inside and target.is_file() else None

    def snippet(self, target: Path | None, depth: int) -> None:
        if target is not None and depth < MAX_DEPTH:
            self.source(_read(target), target, depth + 1)

    # ---- tokens ---------------------------------------------------------------------------------
    def tokens(self, tokens: list[Token], react: set[str], snippets: dict[str, Path], depth: int) -> None:
        heading = False
        for token in tokens:
            kind = token.type
            if kind == "inline":
                self.inline(token.children or [], react, snippets, depth, heading)
            elif kind == "heading_open":
                heading = True
            elif kind == "heading_close":
                heading = False
            elif kind in ("fence", "code_block"):
                for line in token.content.splitlines():
                    line = CODE_NOTATION.sub("", line).strip()
                    if WORD.search(line):  # a code line, less its `// [!code ++]` notation (never shown)
                        self.units.append(" ".join(line.split()))
            elif kind == "html_block":
                for line in html_lines(token.content):
                    self.add(line)
            elif kind == "jsx_raw":
                if (token.meta or {}).get("name") in ("pre", "textarea"):
                    for line in html_lines(token.content):
                        self.add(line)
            elif kind in ("jsx_block_open", "jsx_block_self"):
                self.tag(token, react, snippets, depth)
            elif kind == "jsx_block_text":
                for line in html_lines(re.sub(r"</?[A-Za-z][^>]*>", " ", token.content)):
                    self.add(line)
            elif kind == "jsx_block_expr":
                value = literal(token.content)
                if value:
                    self.add(value)

    def tag(self, token: Token, react: set[str], snippets: dict[str, Path], depth: int) -> None:
        tag = (token.meta or {}).get("tag")
        if tag is None or tag.closing:
            return
        if tag.name in snippets:
            self.snippet(snippets[tag.name], depth)
            return
        if tag.name == "Snippet":
            file = next((a.value for a in tag.attrs if a.name == "file" and a.kind == "string"), "")
            folders = ("",) if file.startswith("/") else SNIPPET_FOLDERS
            found = (self._resolve(f"/{folder}/{file.lstrip('/')}", self.docs_dir) for folder in folders)
            self.snippet(next((t for t in found if t), None), depth)
            return
        if tag.name in react:
            return  # the site's own component decides what its props show
        shown = SHOWN_PROPS.get(tag.name, VISIBLE_PROPS)
        for attr in tag.attrs:
            if attr.name not in shown:
                continue
            value = (
                attr.value if attr.kind == "string" else literal(attr.value) if attr.kind == "expr" else None
            )
            if value is None and attr.kind == "expr" and attr.value.strip().startswith("<"):
                self.inline_markup(attr.value, react, snippets, depth)  # label={<>v2 <b>new</b></>}
            elif value:
                self.prop(value, react, snippets, depth)

    def prop(self, value: str, react: set[str], snippets: dict[str, Path], depth: int) -> None:
        """A prop's text, as written or read as Markdown (`**bold**` shown bold): either form counts."""
        read = Units(self.docs_dir)
        read.inline_markup(value, react, snippets, depth)
        written = " ".join(html.unescape(value).split())
        if len(read.units) == 1 and read.units[0] != written and len(WORD.findall(written)) >= 3:
            self.units.append(f"{written}{ALTERNATIVE}{read.units[0]}")
        elif read.units:
            self.units += read.units
        else:
            self.add(value)

    def inline_markup(self, source: str, react: set[str], snippets: dict[str, Path], depth: int) -> None:
        for token in MD.parseInline(source.strip(), {"mdx_imported": set()}):
            self.inline(token.children or [], react, snippets, depth, False)

    def inline(
        self, children: list[Token], react: set[str], snippets: dict, depth: int, heading: bool
    ) -> None:
        pieces: list[str] = []
        current: list[str] = []

        def flush() -> None:
            if current:
                pieces.append("".join(current))
                current.clear()

        for child in children:
            kind = child.type
            if kind in ("text", "code_inline", "jsx_text_warning", "jsx_lone_brace"):
                current.append(child.content)
            elif kind in ("softbreak", "hardbreak", "footnote_ref") or kind.startswith("math_inline"):
                flush()
            elif kind == "image":
                flush()
                pieces.append("".join(c.content for c in child.children or []) or child.content)
            elif kind == "jsx_inline_expr":
                value = literal(child.content)
                if value is not None:
                    current.append(value)
                else:
                    flush()  # a value filled in at build time (a snippet prop): the line splits there
            elif kind == "html_inline":
                name = re.match(r"</?([A-Za-z][\w-]*)", child.content)
                if name and not is_known_name(name.group(1)):
                    current.append(child.content)  # `<your-api-key>` is a placeholder, shown as text
                elif not name or name.group(1).lower() not in IN_FLOW:
                    flush()
            elif kind.startswith("jsx_inline_"):
                tag = (child.meta or {}).get("tag")
                name = tag.name if tag else ""
                if name not in IN_FLOW and name.lower() not in IN_FLOW:
                    flush()  # a component may place its text elsewhere (a tooltip): split
                if tag is not None and kind != "jsx_inline_close":
                    self.tag(child, react, snippets, depth)
                raw = (child.meta or {}).get("raw")
                if raw and name.lower() in ("pre", "textarea"):
                    for line in html_lines(raw):
                        self.add(line)
        flush()
        if heading and pieces:
            pieces[-1] = HEADING_ID.sub("", pieces[-1])
        for piece in pieces:
            self.add(piece)


def _front_text(block: str) -> list[str]:
    """The title and description of a page's frontmatter (nothing when its YAML cannot be read)."""
    try:
        data = yaml.safe_load(block.strip().strip("-").strip("\ufeff"))
    except yaml.YAMLError:
        return []
    if not isinstance(data, dict) or data.get("mode") in ("custom", "frame"):
        return []  # custom and frame pages show no header (Mintlify's organize/pages.mdx): the page is a canvas
    return [value for key in ("title", "description") if isinstance(value := data.get(key), str)]


def _read(path: Path | None) -> str:
    if path is None:
        return ""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def source_units(text: str, *, docs_dir: Path, source: Path) -> list[str]:
    """Return the text units of an MDX/Markdown source that a reader must find in the built page."""
    units = Units(docs_dir)
    units.source(text, source)
    return units.units
