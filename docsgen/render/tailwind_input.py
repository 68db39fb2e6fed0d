"""What Tailwind compiles for a site: the class names its sources use and Mintlify's configuration.

Tailwind finds class names by reading source text, as Mintlify's own build does. docsgen reads, from every page
and snippet, the values of `class` / `className` attributes (a `{...}` value: the strings in the expression) and
the strings of its `export`/`import` blocks, and from every `.jsx`/`.tsx`/`.js`/`.ts` file all its strings:
what a component writes as a class name is a string in its code. The result is a set of candidate names (words
that are not classes cost nothing: Tailwind makes no rule for them) and the key of the compiled stylesheet.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from docsgen.common import contrast
from docsgen.config.model import SiteConfig
from docsgen.mdx.files import read_source_bytes
from docsgen.site.read import Site

CODE_SUFFIXES = (".jsx", ".tsx", ".js", ".ts")
MAX_CANDIDATE = 160  # characters: longer words are not class names
MAX_EXPRESSION = 4000  # characters of a className={...} expression read
MAX_ESM_CHARS = 200_000  # characters of one export/import block read
STYLESHEET = "_static/tailwind.css"
DEFAULT_PRIMARY = "#0D9373"  # the theme's default accent (render.context.SiteContext.color_css)

# no leading \b: a pattern starting with a literal is searched for fast (attributes() checks the boundary)
_ATTR = re.compile(r"""class(?:Name)?\s*=\s*(?:"([^"]*)"|'([^']*)'|(\{))""")
# a string starts at an unescaped quote and its text is never given back: linear on '`\\' * n
_STRING = re.compile(
    r"""(?<!\\)(?:"((?:[^"\\\n]|\\.){0,2000}+)"|'((?:[^'\\\n]|\\.){0,2000}+)'|`((?:[^`\\]|\\.){0,8000}+)`)"""
)
_TEMPLATE_HOLE = re.compile(r"\$\{[^{}]*\}")
_BLANK = re.compile(r"\n[ \t]*\n")
_WORD = re.compile(r"[^\s\"'`{};<>\\]+")
_LETTER = re.compile(r"[a-z]", re.I)


@dataclass(frozen=True)
class TailwindInput:
    """The candidate class names of a site and the Tailwind configuration to compile them with."""

    candidates: tuple[str, ...]  # sorted, unique
    config_json: str  # Tailwind's configuration (JSON), docsgen's own options included
    key: str  # hash of both and of the bundle: the cache key and the stylesheet's version
    first_use: tuple[str, int, int] = ("", 0, 0)  # file, line, column of the first class found (for warnings)
    bundle: str = ""  # the compiler's digest (part of the key)

    @classmethod
    def make(
        cls, candidates: set[str], config_json: str, bundle: str, first_use: tuple[str, int, int] = ("", 0, 0)
    ) -> TailwindInput:
        """Return the input of these candidates, its key computed."""
        ordered = tuple(sorted(candidates))
        digest = hashlib.sha256()
        for part in (bundle, config_json, *ordered):
            data = part.encode("utf-8", "surrogatepass")
            digest.update(b"%d:%b" % (len(data), data))
        return cls(ordered, config_json, digest.hexdigest()[:20], first_use, bundle)

    def including(self, more: set[str]) -> TailwindInput:
        """Return this input with more candidates (the names React components wrote), or itself."""
        extra = more.difference(self.candidates)
        if not extra:
            return self
        return TailwindInput.make(extra.union(self.candidates), self.config_json, self.bundle, self.first_use)

    @property
    def content(self) -> str:
        """The text Tailwind scans: the candidates, one per line."""
        return "\n".join(self.candidates)

    def config(self) -> dict[str, Any]:
        return dict(json.loads(self.config_json))


def words(text: str, into: set[str]) -> None:
    """Add the words of a string value that could be class names."""
    for word in _WORD.findall(_TEMPLATE_HOLE.sub(" ", text)):
        if len(word) <= MAX_CANDIDATE and _LETTER.search(word) and word[0] not in "/." and "://" not in word:
            into.add(word)


def strings_in(code: str, into: set[str]) -> None:
    """Add the words of every string literal of JavaScript code ("...", '...', `...` without its ${...})."""
    for m in _STRING.finditer(code):
        words(m.group(1) or m.group(2) or m.group(3) or "", into)


def _braced(text: str, start: int) -> str:
    """Return the expression of a `{` at start up to its matching `}` (bounded), without the braces."""
    depth, end = 0, min(len(text), start + MAX_EXPRESSION)
    for i in range(start, end):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
    return text[start + 1 : end]


def _esm_starts(text: str) -> list[int]:
    """Return where lines starting with `import` or `export` start (str.find: much faster than a ^ regex)."""
    starts = []
    for word in ("import", "export"):
        at = text.find(word)
        while at >= 0:
            after = text[at + 6 : at + 7]
            if (at == 0 or text[at - 1] == "\n") and not (after.isalnum() or after == "_"):
                starts.append(at)
            at = text.find(word, at + 6)
    return sorted(starts)


def _esm_blocks(text: str) -> list[str]:
    """Return the export/import blocks of an MDX text: from such a line to the blank line that ends it."""
    blocks: list[str] = []
    end = 0
    for start in _esm_starts(text):
        if start < end:
            continue  # inside the block before
        limit = min(len(text), start + MAX_ESM_CHARS)
        stop = start
        while True:
            blank = _BLANK.search(text, stop + 1, limit)
            stop = blank.start() if blank else limit
            if blank is None or _balanced(text[start:stop]):
                break
        blocks.append(text[start:stop])
        end = stop
    return blocks


def _balanced(code: str) -> bool:
    """Tell whether a code block's brackets are closed (strings not told apart: an approximation)."""
    return sum(code.count(c) for c in "({[") <= sum(code.count(c) for c in ")}]")


def attributes(text: str) -> list[re.Match[str]]:
    """Return the class/className attributes of a text (not `subclass=`, `data-class=`)."""
    return [
        m
        for m in _ATTR.finditer(text)
        if not m.start() or not (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_-")
    ]


def mdx_candidates(text: str, into: set[str]) -> int:
    """Add the candidates of an MDX (or Markdown) text: class attributes and the strings of its ESM blocks.
    Return the offset of its first class attribute (-1: none)."""
    first = -1
    if "class" in text:
        for m in attributes(text):
            first = m.start() if first < 0 else first
            if m.group(3):
                strings_in(_braced(text, m.start(3)), into)
            else:
                words(m.group(1) or m.group(2) or "", into)
    if "export" in text or "import" in text:
        for block in _esm_blocks(text):
            strings_in(block, into)
    return first


def collect_candidates(site: Site) -> tuple[set[str], tuple[str, int, int]]:
    """Return the candidate class names of every page, snippet and component file of the site, and where the
    first class attribute is (file, line, column; empty when the site writes none: it then needs no CSS)."""
    found: set[str] = set()
    first: tuple[str, int, int] = ("", 0, 0)

    def note(rel: str, text: str, offset: int, line_base: int = 1) -> None:
        nonlocal first
        if offset >= 0 and not first[0]:
            line = text.count("\n", 0, offset)
            column = offset - (text.rfind("\n", 0, offset) + 1) + 1
            first = (rel, line_base + line, column)

    for page in site.pages.values():
        if page.source and page.body:
            note(page.source, page.body, mdx_candidates(page.body, found), page.body_line)
    for rel in sorted(site.sources.snippets):
        text = _read(site, rel)
        note(rel, text, mdx_candidates(text, found) if text else -1)
    for rel in site.sources.static:
        if rel.lower().endswith(CODE_SUFFIXES):
            text = _read(site, rel)
            if text:
                strings_in(text, found)
                note(rel, text, _first_attr(text))
    return found, first


def _first_attr(code: str) -> int:
    """Return the offset of a component file's first class attribute (-1: none)."""
    found = attributes(code)
    return found[0].start() if found else -1


def _read(site: Site, rel: str) -> str:
    data, _ = read_source_bytes(site.docs_dir / rel)
    return data.decode("utf-8", errors="replace") if data is not None else ""


def _color(value: Any) -> str | None:
    """Return a docs.json colour as #rrggbb when it parses (nothing else reaches the compiler), else None."""
    rgb = contrast.parse_color(value) if isinstance(value, str) else None
    return contrast.to_hex(rgb) if rgb is not None else None


def tailwind_config(config: SiteConfig) -> dict[str, Any]:
    """Return Mintlify's Tailwind configuration for a site: its colours, the dark variant by class (docsgen's
    theme toggle puts `dark` on <html>), the default breakpoints, typography, and no global preflight (the
    theme has its own base styles; preflight applies inside `not-prose` and to elements with site classes)."""
    primary = _color(config.colors.get("primary")) or DEFAULT_PRIMARY
    colors: dict[str, Any] = {
        "primary": {
            "DEFAULT": primary,
            "light": _color(config.colors.get("light")) or primary,
            "dark": _color(config.colors.get("dark")) or primary,
        }
    }
    background = config.raw.get("background")
    shades = background.get("color") if isinstance(background, dict) else None
    if isinstance(shades, dict):
        for mode in ("light", "dark"):
            value = _color(shades.get(mode))
            if value:
                colors.setdefault("background", {})[mode] = value
    return {
        "darkMode": "class",
        "important": ":root",  # utilities win over the theme's element rules, as in Mintlify's own pages
        "corePlugins": {"preflight": False},
        "theme": {"extend": {"colors": colors}},
        "typography": {},
        "preflight": [
            {"scope": ".not-prose, .not-prose *"},
            {"scope": '[class]:not([class*="dg-"])', "only": "*"},
        ],
    }


def tailwind_input(site: Site, bundle: str) -> TailwindInput | None:
    """Return what to compile for the site (`bundle`: the compiler's digest), or None when it uses no class."""
    candidates, first = collect_candidates(site)
    if not first[0]:  # no page, snippet or component writes a class attribute
        return None
    config_json = json.dumps(tailwind_config(site.config), sort_keys=True)
    return TailwindInput.make(candidates, config_json, bundle, first)
