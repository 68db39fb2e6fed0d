"""Component code as modules: a page's own `import`/`export` statements, and the .jsx/.tsx/.js files they import."""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsgen.mdx.files import resolved_folder
from docsgen.mdx.jsx_syntax import IMPORT_CLAUSE
from docsgen.mdx.react.js_engine import Engine, JsError

CODE_SUFFIXES = (".jsx", ".tsx", ".js", ".ts", ".mjs", ".cjs")
MDX_SUFFIXES = (".mdx", ".md")
PACKAGES = frozenset({"react", "preact", "preact/hooks", "react/jsx-runtime"})
MAX_MODULES = 200  # per page: an import graph larger than this is an error
MAX_FILE_BYTES = 1_000_000

_REQUIRE_RE = re.compile(r"""\brequire\((['"])([^'"\n]+)\1\)""")
_IDENT_RE = re.compile(r"(?<![\w$.])([A-Z][\w$]*|use[A-Z][\w$]*)\b")
_IMPORT_RE = re.compile(rf"import\s+({IMPORT_CLAUSE})\s*from\s*['\"]([^'\"]+)['\"]")


@dataclass
class Module:
    """One module loaded in the engine: its id, the file it came from and the code the browser needs."""

    id: str
    path: str  # file relative to the docs folder
    code: str  # compiled body (line numbers are the source's)
    deps: dict[str, str | dict[str, str] | None] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    exports: set[str] = field(default_factory=set)  # names of functions defined in it (error attribution)
    missing: list[tuple[str, int]] = field(
        default_factory=list
    )  # imports that found nothing: (specifier, line)
    code_digest: str = ""  # digest(code) ("" until compiled): the code in the answer memo's keys


class ModuleError(Exception):
    """A module could not be compiled or found: message, file and line."""

    def __init__(self, message: str, path: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column


def digest(text: str) -> str:
    """A text's whole SHA-256 (hex): it stands for a module's code in the answer memo's keys (memo.py)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def page_source(statements: list[tuple[str, int, int]]) -> str:
    """Lay the page's ESM statements out on their own file lines, so engine line numbers are file lines."""
    out: list[str] = []
    line = 1
    for text, at, _column in statements:
        if at > line:
            out.append("\n" * (at - line))
            line = at
        out.append(text if text.endswith("\n") else text + "\n")
        line += text.count("\n") + (0 if text.endswith("\n") else 1)
    return "".join(out)


def mdx_import_names(source: str) -> dict[str, dict[str, str]]:
    """Map each .mdx import specifier to {imported name: local name} (so placeholders use page names)."""
    result: dict[str, dict[str, str]] = {}
    for m in _IMPORT_RE.finditer(source):
        clause, spec = m.group(1), m.group(2)
        if not spec.lower().endswith(MDX_SUFFIXES):
            continue
        names = result.setdefault(spec, {})
        named = re.search(r"\{(.*?)\}", clause, re.S)
        if named:
            for item in named.group(1).split(","):
                original, _, alias = item.strip().partition(" as ")
                if original.strip():
                    names[original.strip()] = (alias or original).strip()
            clause = clause[: named.start()] + clause[named.end() :]
        for item in clause.split(","):
            item = item.strip()
            if item and not item.startswith("*"):
                names["default"] = item
    return result


@dataclass(frozen=True)
class Compiled:
    """What compiling a module's text gives, whatever file it is in: the code, its free names, the functions it
    defines and the imports it requires (specifier, line), in order, React's packages left out."""

    code: str
    code_digest: str
    names: tuple[str, ...]
    exports: frozenset[str]
    requires: tuple[tuple[str, int], ...]
    mdx_names: dict[str, dict[str, str]]  # read only: mdx_import_names of the text


MAX_COMPILED = 2048  # distinct module texts kept per process (the oldest go first)
_compiled: OrderedDict[tuple[str, bool, bool], Compiled | ModuleError] = OrderedDict()


def compiled_source(engine: Engine, source: str, path: str) -> Compiled | ModuleError:
    """Compile module text once per process, however many files hold the same text (a page's ESM copied into
    every version and language of the docs): the result depends only on the text and on the kind of file
    (JSX, TypeScript). An error's file and line are the caller's to put on (the error's line is the text's)."""
    lowered = path.lower()
    jsx, typescript = not lowered.endswith(".ts"), lowered.endswith((".ts", ".tsx"))
    key = (source, jsx, typescript)
    found = _compiled.get(key)
    if found is not None:
        _compiled.move_to_end(key)
        return found
    result = engine.compile(source, digest(source), jsx=jsx, typescript=typescript)
    made: Compiled | ModuleError
    if "error" in result:
        made = ModuleError(
            str(result["error"]), path, int(result.get("line") or 0), int(result.get("column") or 0)
        )
    else:
        code = str(result["code"])
        names = {m.group(1) for m in _IDENT_RE.finditer(code)}
        requires = tuple(
            (m.group(2), code.count("\n", 0, m.start()) + 1)
            for m in _REQUIRE_RE.finditer(code)
            if m.group(2) not in PACKAGES
        )
        made = Compiled(
            code,
            digest(code),
            # free names the module may use unimported (the engine passes its own globals through unchanged)
            tuple(sorted(n for n in names if n != "React")) + ("React",),
            frozenset(re.findall(r"(?:function|const|let|var)\s+([A-Za-z_$][\w$]*)", code)),
            requires,
            mdx_import_names(source),
        )
    _compiled[key] = made
    while len(_compiled) > MAX_COMPILED:
        _compiled.popitem(last=False)
    return made


class Loader:
    """Compile and define a module graph in the engine; modules are cached by content."""

    def __init__(self, engine: Engine, docs_dir: Path):
        self.engine = engine
        self.realm = engine.realm_number  # the realm its modules are defined in
        self.docs_dir = docs_dir
        self.root = resolved_folder(docs_dir)
        self.modules: dict[str, Module] = {}
        # path of an .mdx snippet -> its top-level import/export statements (text, line, column); [] unreadable
        self.mdx_statements: Callable[[str], list[tuple[str, int, int]]] | None = None

    def _compile(self, source: str, path: str, module_id: str) -> Module:
        compiled = compiled_source(self.engine, source, path)
        if isinstance(
            compiled, ModuleError
        ):  # located in this file (the same text fails the same way anywhere)
            raise ModuleError(compiled.message, path, compiled.line, compiled.column)
        module = Module(
            module_id, path, compiled.code, names=list(compiled.names), exports=set(compiled.exports)
        )
        module.code_digest = compiled.code_digest
        for (
            spec,
            line,
        ) in compiled.requires:  # resolved from this file: relative imports differ from file to file
            if spec.lower().endswith(MDX_SUFFIXES):
                imported = dict(compiled.mdx_names.get(spec, {}))
                snippet = self._mdx_module(spec, path) if set(imported) - {"default"} else None
                if snippet is not None:
                    imported["__module"] = snippet
                module.deps[spec] = imported
                continue
            target = self._resolve(spec, path)
            if target is not None:
                module.deps[spec] = target
            else:
                module.missing.append((spec, line))
        return module

    def _mdx_module(self, spec: str, current: str) -> str | None:
        """Load the components an .mdx snippet exports (its own ESM) as a module; return its id."""
        base = spec.lstrip("/") if spec.startswith("/") else posixpath.join(posixpath.dirname(current), spec)
        rel = posixpath.normpath(base)
        module_id = f"page:{rel}"
        if module_id in self.modules:
            return module_id
        if self.mdx_statements is None or len(self.modules) >= MAX_MODULES:
            return None
        if rel.startswith("../"):
            return None
        statements = self.mdx_statements(rel)  # [] when it must not be read (read_snippet)
        if not statements:
            return None
        self.modules[module_id] = Module(module_id, rel, "")  # a cycle stops here
        self.load_page(rel, statements)
        return module_id

    def _resolve(self, spec: str, current: str) -> str | None:
        """Resolve an import to a code file inside the docs folder (extension optional), or None."""
        if not spec.startswith(("/", "./", "../")):
            return None  # a package: only React's are available
        base = spec.lstrip("/") if spec.startswith("/") else posixpath.join(posixpath.dirname(current), spec)
        base = posixpath.normpath(base)
        if base.startswith("../") or base == "..":
            return None
        candidates = [base] if base.lower().endswith(CODE_SUFFIXES) else []
        candidates += [base + s for s in CODE_SUFFIXES] + [f"{base}/index{s}" for s in CODE_SUFFIXES]
        for rel in candidates:
            target = (self.docs_dir / rel).resolve()
            if target.is_file() and target.is_relative_to(self.root):
                return rel
        return None

    def load_file(self, path: str, depth: int = 0) -> Module:
        """Compile and define a code file and everything it imports."""
        if path in self.modules:
            return self.modules[path]
        if len(self.modules) >= MAX_MODULES or depth > 50:
            raise ModuleError(f"more than {MAX_MODULES} modules imported", path)
        target = self.docs_dir / path
        try:
            if target.stat().st_size > MAX_FILE_BYTES:
                raise ModuleError(f"{path} is larger than {MAX_FILE_BYTES} bytes", path)
            source = target.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise ModuleError(f"cannot read {path} ({exc})", path) from exc
        module = self._compile(source, path, path)
        self.modules[path] = module
        self._define(module, depth)
        return module

    def load_page(self, path: str, statements: list[tuple[str, int, int]]) -> Module:
        """Compile and define a page's own ESM (its `export const` components and its imports)."""
        source = page_source(statements)
        module_id = f"page:{path}"
        module = self._compile(source, path, module_id)
        self.modules[module_id] = module
        self._define(module, 0)
        return module

    def _define(self, module: Module, depth: int) -> None:
        for dep in module.deps.values():
            if isinstance(dep, str):
                self.load_file(dep, depth + 1)
        try:
            self.engine.define(
                module.id,
                module.code,
                module.code_digest + repr(module.deps),
                module.deps,
                module.names,
            )
        except JsError as exc:
            raise ModuleError(exc.message, module.path, exc.line) from exc

    def locate(self, frames: list[list[Any]], fallback: Module) -> tuple[str, int]:
        """Return (file, line) for an engine error's stack: the innermost frame in a function a module defines."""
        for name, line in frames:
            for module in self.modules.values():
                if name in module.exports:
                    return module.path, int(line)
        for name, line in frames[:1]:
            if name == "<anonymous>":  # a callback (`.map((x) => ...)`) in the component's own code
                return fallback.path, int(line)
        return fallback.path, 0
