"""Top-level `import` and `export` statements of MDX pages and snippets."""

from __future__ import annotations

import contextlib
import posixpath
import re
from typing import TYPE_CHECKING

from docsgen.mdx.expressions import Unevaluable, evaluate
from docsgen.mdx.jsx_syntax import IMPORT_CLAUSE

if TYPE_CHECKING:
    from markdown_it.token import Token

    from docsgen.mdx.state import RenderState

_STATEMENT_SPLIT = re.compile(r"^(?=(?:import|export)\s)", re.M)
_IMPORT_RE = re.compile(rf"import\s+({IMPORT_CLAUSE})\s*from\s*['\"]([^'\"]+)['\"]")
# The value runs to the end (a trailing `;` and spaces are cut in _value: `(.*?)\s*;?\s*$` was cubic on spaces).
_EXPORT_VALUE_RE = re.compile(r"export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(.*)", re.S)
_EXPORT_FUNC_RE = re.compile(r"export\s+(?:default\s+)?(?:async\s+)?function\s+([A-Za-z_$][\w$]*)")
_COMPONENT_RE = re.compile(
    r"^(?:(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>|async\b.*=>)|^function\b|^\(?\s*<|^React\.", re.S
)
SNIPPET_EXTENSIONS = (".mdx", ".md")
CODE_EXTENSIONS = (".jsx", ".js", ".tsx", ".ts", ".mjs")


_BACKTICK_RE = re.compile(r"\\.|`", re.S)


def split_statements(src: str) -> list[str]:
    """Split ESM text at lines starting with import/export, except inside a template literal."""
    parts: list[str] = []
    start = 0
    ticks = _BACKTICK_RE.finditer(src)
    inside = False
    tick = next(ticks, None)
    for m in _STATEMENT_SPLIT.finditer(src):
        while tick is not None and tick.start() < m.start():
            inside ^= tick.group(0) == "`"
            tick = next(ticks, None)
        if not inside and m.start() > start:
            parts.append(src[start : m.start()])
            start = m.start()
    parts.append(src[start:])
    return parts


def resolve_import_path(source: str, current: str) -> str:
    """Resolve an import path (absolute from the docs root, or relative to the current file) to a posix path."""
    if source.startswith("/"):
        path = source.lstrip("/")
    else:
        path = posixpath.join(posixpath.dirname(current), source)
    return posixpath.normpath(path)


def process_esm(tokens: list[Token], state: RenderState) -> None:
    """Record imports (snippets, unsupported code components) and exported values in the current frame."""
    frame = state.frame
    for token in tokens:
        if token.type != "mdx_esm":
            continue
        base = token.meta["pos"]
        for part in split_statements(token.content):
            if not part.strip():
                continue
            offset = token.content.find(part) + len(part) - len(part.lstrip())
            part = part.lstrip()
            line, column = frame.locate(base + max(offset, 0))
            frame.env.setdefault("esm", []).append((part, line, column))  # docsgen.mdx.react runs these
            if part.startswith("import"):
                _process_import(part, state, line, column)
            else:
                _process_export(part, state, line, column)


def _imported_names(clause: str) -> list[tuple[str, str]]:
    """Return (local name, imported name) pairs; the default import has imported name "default"."""
    names: list[tuple[str, str]] = []
    clause = clause.strip()
    named = re.search(r"\{(.*?)\}", clause, re.S)
    if named:
        for item in named.group(1).split(","):
            item = item.strip()
            if not item:
                continue
            original, _, alias = item.partition(" as ")
            names.append(((alias or original).strip(), original.strip()))
        clause = clause[: named.start()] + clause[named.end() :]
    for item in clause.split(","):
        item = item.strip()
        if item.startswith("* as "):
            names.append((item[5:].strip(), "*"))
        elif item:
            names.append((item, "default"))
    return names


def _process_import(statement: str, state: RenderState, line: int, column: int) -> None:
    frame = state.frame
    m = _IMPORT_RE.search(statement)
    if not m:
        return
    names = _imported_names(m.group(1))
    source = m.group(2)
    lowered = source.lower()
    if lowered.endswith(SNIPPET_EXTENSIONS):
        from docsgen.mdx.files import snippet_problem

        path = resolve_import_path(source, frame.path)
        problem = snippet_problem(state.ctx.docs_dir, path, state.expansion.identities)
        if problem:
            state.warn(
                "mdx.missing-snippet",
                f"snippet {source!r} not read (looked for {path}: {problem}); it renders as nothing",
                line,
                column,
            )
            for local, _ in names:
                frame.imports[local] = ""
            return
        state.dependencies.add(path)
        for local, imported in names:
            if imported == "default":
                frame.imports[local] = path
            else:
                _import_named(state, path, local, imported, line, column)
    elif lowered.endswith(CODE_EXTENSIONS) or source.startswith(("/snippets", "./", "../")):
        for local, _ in names:
            frame.react.add(local)
            frame.react_sources[local] = f"imported from {source}"
    # Package imports ('react', ...) have nothing to render.


def _import_named(state: RenderState, path: str, local: str, imported: str, line: int, column: int) -> None:
    """Import an exported value or component from an .mdx snippet."""
    from docsgen.mdx.snippets import snippet_exports

    values, components = snippet_exports(state, path)
    if imported in values:
        state.frame.scope[local] = values[imported]
    elif imported in components:
        state.frame.react.add(local)
        state.frame.react_sources[local] = f"exported by {path}"
    else:
        state.warn("mdx.missing-export", f"{path} does not export {imported!r}", line, column)


def _process_export(statement: str, state: RenderState, line: int, column: int) -> None:
    frame = state.frame
    m = _EXPORT_VALUE_RE.match(statement.strip())
    if m:
        name, expr = m.group(1), _value(m.group(2))
        if _COMPONENT_RE.match(expr.strip()):
            frame.react.add(name)
            return
        try:
            value = evaluate(expr, frame.scope)
            if name not in frame.props:
                frame.scope[name] = value
        except Unevaluable as exc:
            state.warn("mdx.expression", f"cannot evaluate export {name!r}: {exc}", line, column)
        return
    m = _EXPORT_FUNC_RE.match(statement.strip())
    if m:
        frame.react.add(m.group(1))


def _value(text: str) -> str:
    """An exported value's expression: without the trailing `;` and the spaces around it."""
    text = text.rstrip()
    return text[:-1].rstrip() if text.endswith(";") else text


def parse_exports(src: str) -> tuple[dict[str, object], set[str]]:
    """Return the simple exported values and the component names defined in a source (no rendering)."""
    values: dict[str, object] = {}
    components: set[str] = set()
    if "export" not in src:  # most pages: nothing to split
        return values, components
    for part in split_statements(src):
        if not part.startswith("export"):
            continue
        statement = part.strip()
        m = _EXPORT_VALUE_RE.match(statement.split("\n\n")[0].strip())
        if m:
            if _COMPONENT_RE.match(m.group(2).strip()):
                components.add(m.group(1))
            else:
                with contextlib.suppress(Unevaluable):
                    values[m.group(1)] = evaluate(_value(m.group(2)), values)
            continue
        m = _EXPORT_FUNC_RE.match(statement)
        if m:
            components.add(m.group(1))
    return values, components
