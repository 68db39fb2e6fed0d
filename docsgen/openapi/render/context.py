"""Per-spec render context: cycle-safe `$ref` lookup, markdown memo and caches shared by every page of a spec."""

from __future__ import annotations

import html
import re
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from docsgen.openapi.limits import MAX_REF_HOPS as _MAX_HOPS
from docsgen.openapi.limits import MAX_TREE_WORK as _MAX_TREE_WORK
from docsgen.openapi.render.mdtext import spec_markdown
from docsgen.openapi.render.simple_md import simple_markdown

_TAG = re.compile(r"<[^>]*>")
# One-line descriptions without any Markdown syntax render the same with every CommonMark renderer:
# skip the renderer for them (most descriptions in large specs are like this).
_PLAIN_LINE = re.compile(r"[^\\`*_\[\]<>&!|~\n\r\t#=+\-0-9 ][^\\`*_\[\]<>&!|~\n\r\t]*")


def ref_name(ref: str) -> str:
    """Return the last segment of a JSON pointer reference ("#/components/schemas/Pet" -> "Pet")."""
    return unquote(ref.rsplit("/", 1)[-1]).replace("~1", "/").replace("~0", "~")


def plain_text(fragment: str) -> str:
    """Turn an HTML fragment into one line of plain text (for search and meta descriptions)."""
    return " ".join(html.unescape(_TAG.sub(" ", fragment)).split())


class TreeBudget:
    """The schema-tree work a page may still do (see schema_tree.TreeRenderer.children); `cut` once it ran out."""

    def __init__(self, work: int = _MAX_TREE_WORK) -> None:
        self.left = work
        self.cut = False


class RenderContext:
    """Everything cached while rendering the pages of one spec with one settings object and markdown renderer."""

    def __init__(
        self, data: dict, settings: Any, markdown: Callable[[str], str], shared: RenderContext | None = None
    ) -> None:
        self.data = data if isinstance(data, dict) else {}
        self.settings = settings
        self.markdown_fn = markdown
        self.fragments: dict[tuple, Any] = {}  # schema tree fragments, see schema_tree.py
        self.budget = TreeBudget()  # replaced at the start of each page (new_page)
        # same spec, other settings: `shared` gives what does not depend on them
        self._pointers: dict[str, Any] = {} if shared is None else shared._pointers
        self._md: dict[str, str] = shared._md if shared is not None and shared.markdown_fn is markdown else {}
        self._mdt: dict[str, str] = {} if shared is None else shared._mdt  # twin Markdown, see mdtext.py
        # example values shown as JSON, see aside.pretty
        self.texts: dict[int, tuple[Any, str]] = {} if shared is None else shared.texts
        # playground schema summaries, see playground.py
        self.summaries: dict[tuple, tuple[Any, dict]] = {} if shared is None else shared.summaries
        # flattened schemas by id() (or id and depth), see schema_model.py
        self.flat: dict[Any, Any] = {} if shared is None else shared.flat
        self.examples: dict[tuple, Any] = {} if shared is None else shared.examples  # see examples.py
        # objects whose id() is used as a cache key stay alive here
        self.keep: list[Any] = [] if shared is None else shared.keep
        version = str(self.data.get("openapi", ""))
        self.is_31 = version.startswith("3.1") or version.startswith("3.2")

    def word(self, key: str, english: str) -> str:
        """Return an interface word in the page's language (docs.json `strings` included), else `english`."""
        words = getattr(self.settings, "words", None)
        return words.get(key, english) if words else english

    def filled(self, key: str, english: str, **values: object) -> str:
        """Return a word with its {placeholders} filled in (plain text, not escaped)."""
        text = self.word(key, english)
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        return text

    def new_page(self) -> TreeBudget:
        """Start a page: a fresh schema-tree budget (returned, so the caller can tell whether it was cut)."""
        self.budget = TreeBudget()
        return self.budget

    # -- references -------------------------------------------------------------------------------------
    def lookup(self, ref: str) -> Any:
        """Return the value a local "#/..." reference points at, or None when it does not resolve."""
        if ref in self._pointers:
            return self._pointers[ref]
        value: Any = None
        if ref.startswith("#"):
            value = self.data
            pointer = unquote(ref[1:])
            for part in pointer.split("/")[1:] if pointer else []:
                part = part.replace("~1", "/").replace("~0", "~")
                if isinstance(value, dict):
                    value = value.get(part)
                elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                    value = value[int(part)]
                else:
                    value = None
                if value is None:
                    break
        self._pointers[ref] = value
        return value

    def deref(self, obj: Any) -> tuple[Any, str | None]:
        """Follow `$ref` chains (cycle-safe); return the target and the last reference followed."""
        last: str | None = None
        hops = 0
        while isinstance(obj, dict) and isinstance(obj.get("$ref"), str):
            ref = obj["$ref"]
            target = self.lookup(ref)
            hops += 1
            if target is None or hops > _MAX_HOPS:
                return {}, ref
            if len(obj) > 1 and isinstance(target, dict):
                # Siblings of $ref (3.1, and common in 3.0 specs): description/summary/title override.
                merged = dict(target)
                for key, val in obj.items():
                    if key != "$ref":
                        merged[key] = val
                self.keep.append(merged)
                target = merged
            obj, last = target, ref
        return obj, last

    def resolve(self, obj: Any) -> Any:
        """Return `obj` with its `$ref` chain followed (a dict, or {} for anything unusable)."""
        target, _ = self.deref(obj)
        return target if isinstance(target, dict) else {}

    # -- markdown ---------------------------------------------------------------------------------------
    def md(self, text: Any) -> str:
        """Render an untrusted Markdown description to safe HTML (memoised)."""
        if not isinstance(text, str) or not text.strip():
            return ""
        cached = self._md.get(text)
        if cached is None:
            stripped = text.strip(" ")
            if _PLAIN_LINE.fullmatch(stripped) and "  " not in stripped:
                cached = "<p>" + stripped.replace('"', "&quot;") + "</p>\n"
            else:
                # sentences with `code`, links and strong text: same html, no parser (links and strong text
                # only for the renderer the fast path copies: another one may render them differently)
                cached = simple_markdown(text, getattr(self.markdown_fn, "simple_md_exact", False))
                if cached is None:
                    cached = self.markdown_fn(text)
            self._md[text] = cached
        return cached

    def mdt(self, text: Any) -> str:
        """Return an untrusted Markdown description as Markdown for the page's twin (memoised)."""
        if not isinstance(text, str) or not text.strip():
            return ""
        cached = self._mdt.get(text)
        if cached is None:
            cached = self._mdt[text] = spec_markdown(text)
        return cached


_SPECS: OrderedDict[int, dict[tuple, RenderContext]] = OrderedDict()
_MAX_SPECS = 3  # specs are large: keep only the few a build is rendering


def get_context(data: dict, settings: Any, markdown: Callable[[str], str]) -> RenderContext:
    """Return the cached context for this spec dict, settings and markdown renderer (one per build, usually)."""
    contexts = _SPECS.get(id(data))
    if contexts is not None and next(iter(contexts.values())).data is not data:
        contexts = None  # an old spec's id was reused
    if contexts is None:
        contexts = {}
        _SPECS[id(data)] = contexts
        while len(_SPECS) > _MAX_SPECS:
            _SPECS.popitem(last=False)
    _SPECS.move_to_end(id(data))
    key = (settings, id(markdown))
    ctx = contexts.get(key)
    if ctx is None or ctx.markdown_fn is not markdown:
        shared = next(iter(contexts.values()), None)
        ctx = RenderContext(data, settings, markdown, shared)
        contexts[key] = ctx
    return ctx
