"""Per-page rendering state: diagnostics, ids, TOC, assets, and the file (page or snippet) being rendered."""

from __future__ import annotations

import bisect
import html
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docsgen.common.errors import Diagnostic, Severity, error, warning
from docsgen.mdx.limits import MAX_PAGE_DIAGNOSTICS
from docsgen.mdx.types import MdxContext, TocItem

if TYPE_CHECKING:
    from markdown_it.token import Token

    from docsgen.mdx.changelog import ChangelogEntry
    from docsgen.mdx.jsx_syntax import Tag
    from docsgen.mdx.token_walk import MdxRenderer


@dataclass
class FileFrame:
    """One source being rendered: the page itself or a snippet it imports."""

    path: str  # relative posix path under docs_dir
    src: str
    line_offset: int = 0
    scope: dict[str, Any] = field(default_factory=dict)
    imports: dict[str, str] = field(default_factory=dict)  # component name -> snippet path ("" = unsupported)
    react: set[str] = field(default_factory=set)  # names of `export const X = () => ...` components
    react_sources: dict[str, str] = field(default_factory=dict)  # name -> where it comes from (messages)
    children_html: str | None = None  # what `{children}` renders to inside a snippet
    env: dict[str, Any] = field(default_factory=dict)  # the markdown-it env (footnotes, state)
    line_starts: list[int] = field(default_factory=list)
    props: set[str] = field(
        default_factory=set
    )  # names passed in by the caller: exports do not override them

    def __post_init__(self) -> None:
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.src)]

    def locate(self, pos: int) -> tuple[int, int]:
        """Return the 1-based (line, column) in the file for an offset in src."""
        index = bisect.bisect_right(self.line_starts, pos) - 1
        return index + 1 + self.line_offset, pos - self.line_starts[index] + 1


_COMPONENT_TAG_RE = re.compile(r"<[A-Z]")


@dataclass(frozen=True)
class JsxValue:
    """A prop whose value is JSX markup (`icon={<svg>...</svg>}`), rendered on demand."""

    source: str

    def render(self, state: RenderState) -> str:
        from docsgen.mdx.jsx_html import convert_jsx_markup

        if _COMPONENT_TAG_RE.search(self.source):
            # Components inside the markup (`label={<>v2 <Badge>new</Badge></>}`) render as they would inline.
            from docsgen.mdx.parser import MD

            tokens = MD.parseInline(self.source, state.frame.env)
            return MD.renderer.render(tokens, MD.options, state.frame.env)
        return convert_jsx_markup(self.source, state)

    def __str__(self) -> str:
        return self.source


@dataclass
class Element:
    """A JSX element with its evaluated props and child tokens, handed to a component."""

    name: str
    props: dict[str, Any]
    children: list[Token]
    inline: bool
    line: int
    column: int
    renderer: MdxRenderer
    state: RenderState
    tag: Tag | None = None
    parent_inline: Token | None = None
    inner_source: str | None = None  # the source between the tags (block elements)

    def render_children(self) -> str:
        """Render the element's children (Markdown, nested components) to HTML."""
        return self.renderer.render_children(self)

    def child_elements(self) -> list[Element]:
        """Return the direct child elements (for Tabs, Steps, CodeGroup...)."""
        return self.renderer.child_elements(self)

    def prop(self, name: str, default: Any = None) -> Any:
        return self.props.get(name, default)

    def text_prop(self, name: str, default: str = "") -> str:
        value = self.props.get(name, default)
        if value is None or value is False:
            return default
        if value is True:
            return ""
        if isinstance(value, JsxValue):
            return _plain_text(value.render(self.state))
        return str(value)

    def bool_prop(self, name: str, default: bool = False) -> bool:
        value = self.props.get(name, default)
        if isinstance(value, str):
            return value.lower() not in ("false", "0", "")
        return bool(value)

    def warn(self, code: str, message: str) -> None:
        self.state.add(warning(code, message, self.state.frame.path, self.line, self.column))


_TAGS_RE = re.compile(r"<[^>]*>")


def _plain_text(fragment: str) -> str:
    """Return the text of an HTML fragment (a JSX prop rendered), whitespace collapsed."""
    return " ".join(html.unescape(_TAGS_RE.sub("", fragment)).split())


_SLUG_DROP = re.compile(r"[^\w\- ]", re.U)


def slugify(text: str) -> str:
    """Make a GitHub-style anchor slug (lowercase, punctuation dropped, spaces to hyphens)."""
    text = unicodedata.normalize("NFKC", html.unescape(text)).strip().lower()
    text = _SLUG_DROP.sub("", text)
    return re.sub(r"\s", "-", text)


@dataclass
class Expansion:
    """How far one page has expanded: snippets and elements inside elements, each bounded (docsgen.mdx.limits)."""

    snippet_cache: dict[str, tuple[str, int] | None] = field(default_factory=dict)
    identities: dict[tuple[str, str], tuple[int, ...]] = field(default_factory=dict)  # docsgen.mdx.files.kept
    snippets: int = 0  # snippets rendered so far (MAX_SNIPPET_EXPANSIONS)
    chars: int = 0  # snippet source characters rendered so far (MAX_EXPANDED_CHARS)
    snippets_reported: bool = False
    element_depth: int = 0  # elements being rendered inside each other (MAX_JSX_NESTING)
    too_deep_reported: bool = False


@dataclass
class ReactRun:
    """The React components of one page (docsgen/mdx/react/ssr.py): nesting, module loader, modules emitted."""

    depth: int = 0
    loader: Any = None  # a react.modules.Loader, made on first use
    emitted: set[str] = field(default_factory=set)


class RenderState:
    """Everything collected while one page renders."""

    def __init__(self, ctx: MdxContext):
        self.ctx = ctx
        self.diagnostics: list[Diagnostic] = []
        self.frames: list[FileFrame] = []
        self.ids: dict[str, int] = {}
        self.toc: list[TocItem] = []
        self.assets: set[str] = set()
        self.icons: set[str] = set()
        self.classes: set[str] = set()  # what React components wrote in class attributes
        self.dependencies: set[str] = set()
        self.code_index = 0
        self.counter = 0
        self.panel_html: list[str] = []
        self.aside_html: list[str] = []
        self.updates: list[ChangelogEntry] = []
        self.heading_prefix: list[str] = []  # nested anchors (ParamField parents)
        self.in_toc_block = 0  # >0 while rendering content whose headings stay out of the TOC
        self.inline_parent: Token | None = None
        self.current_element: Element | None = None  # the component being rendered (locates icon warnings)
        self.views: list[tuple[str, str]] = []
        self.steps: list[dict[str, Any]] = []
        self.expansion = Expansion()  # snippets and nested elements, each bounded
        self.error_past_cap = False
        self.cap_reported = False
        self.inline_scope: list[str] = []  # names of the inline elements whose children are rendering
        # Lowercase HTML tags opened in one paragraph and closed in another, counted by name.
        self.open_html: dict[str, int] = {}
        self.react = ReactRun()

    @property
    def frame(self) -> FileFrame:
        return self.frames[-1]

    def add(self, diagnostic: Diagnostic) -> None:
        if len(self.diagnostics) < MAX_PAGE_DIAGNOSTICS:
            self.diagnostics.append(diagnostic)
            return
        if diagnostic.is_error and not self.error_past_cap:
            self.error_past_cap = True  # one error past the cap still fails the build as it should
            self.diagnostics.append(diagnostic)
        if not self.cap_reported:
            self.cap_reported = True
            self.diagnostics.append(
                Diagnostic(
                    diagnostic.path,
                    diagnostic.line,
                    diagnostic.column,
                    "mdx.too-many-problems",
                    f"more than {MAX_PAGE_DIAGNOSTICS} problems in this page: the rest are not reported",
                    Severity.WARNING,
                )
            )

    def warn(self, code: str, message: str, line: int = 0, column: int = 0) -> None:
        self.add(warning(code, message, self.frame.path, line, column))

    def error(self, code: str, message: str, line: int = 0, column: int = 0) -> None:
        self.add(error(code, message, self.frame.path, line, column))

    def unique_id(self, base: str) -> str:
        """Return base (or base-1, base-2...) unique within the page."""
        base = base or "section"
        if base not in self.ids:
            self.ids[base] = 0
            return base
        while True:
            self.ids[base] += 1
            candidate = f"{base}-{self.ids[base]}"
            if candidate not in self.ids:
                self.ids[candidate] = 0
                return candidate

    def next_id(self, prefix: str) -> str:
        """Return a fresh id for component wiring (tabs, panels)."""
        self.counter += 1
        return f"{prefix}-{self.counter}"

    def next_code_index(self) -> int:
        index = self.code_index
        self.code_index += 1
        return index

    def token_location(self, token: Token | None, offset: int | None = None) -> tuple[int, int]:
        """Locate a token (and an offset in its inline content) as a file (line, column)."""
        frame = self.frame
        if token is not None and token.meta and "pos" in token.meta:
            return frame.locate(token.meta["pos"])
        if (
            token is not None
            and token.meta
            and token.meta.get("tag") is not None
            and token.type.startswith("jsx_block")
        ):
            return frame.locate(token.meta["tag"].start)
        parent = self.inline_parent
        if offset is not None and parent is not None and parent.map:
            content = parent.content
            line_index = parent.map[0] + content.count("\n", 0, offset)
            line_start = content.rfind("\n", 0, offset) + 1
            column = offset - line_start + 1
            if line_index < len(frame.line_starts):
                src_line_start = frame.line_starts[line_index]
                src_line = frame.src[
                    src_line_start : frame.src.find("\n", src_line_start) % (len(frame.src) + 1)
                ]
                column += len(src_line) - len(src_line.lstrip())
            return line_index + 1 + frame.line_offset, column
        if token is not None and token.map:
            return token.map[0] + 1 + frame.line_offset, 1
        return 0, 0
