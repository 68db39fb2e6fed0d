"""Component code as modules: a page's own `import`/`export` statements, and the .jsx/.tsx/.js files they import."""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsgen.mdx.files import resolved_folder, snippet_problem
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


class ModuleError(Exception):
    """A module could not be compiled or found: message, file and line."""

    def __init__(self, message: str, path: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


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


class Loader:
    """Compile and define a module graph in the engine; modules are cached by content."""

    def __init__(self, engine: Engine, docs_dir: Path):
        self.engine = engine
        self.realm = engine.realm_number  # the realm its modules are defined in
        self.docs_dir = docs_dir
        self.root = resolved_folder(docs_dir)
        self.modules: dict[str, Module] = {}
        # path of an .mdx snippet -> its top-level import/export statements (text, line, column)
        self.mdx_statements: Callable[[str], list[tuple[str, int, int]]] | None = None

    def _compile(
        self, source: str, path: str, module_id: str, mdx_names: dict[str, dict[str, str]]
    ) -> Module:
        lowered = path.lower()
        typescript = lowered.endswith((".ts", ".tsx"))
        result = self.engine.compile(
            source, digest(source), jsx=not lowered.endswith(".ts"), typescript=typescript
        )
        if "error" in result:
            raise ModuleError(
                str(result["error"]), path, int(result.get("line") or 0), int(result.get("column") or 0)
            )
        code = str(result["code"])
        module = Module(module_id, path, code)
        names = {m.group(1) for m in _IDENT_RE.finditer(code)}
        # free names the module may use unimported (the engine passes its own globals through unchanged)
        module.names = sorted(n for n in names if n != "React") + ["React"]
        module.exports = set(re.findall(r"(?:function|const|let|var)\s+([A-Za-z_$][\w$]*)", code))
        for m in _REQUIRE_RE.finditer(code):
            spec = m.group(2)
            if spec in PACKAGES:
                continue
            if spec.lower().endswith(MDX_SUFFIXES):
                imported = dict(mdx_names.get(spec, {}))
                snippet = self._mdx_module(spec, path) if set(imported) - {"default"} else None
                if snippet is not None:
                    imported["__module"] = snippet
                module.deps[spec] = imported
                continue
            target = self._resolve(spec, path)
            if target is not None:
                module.deps[spec] = target
            else:
                module.missing.append((spec, code.count("\n", 0, m.start()) + 1))
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
        if rel.startswith("../") or snippet_problem(self.docs_dir, rel):
            return None
        statements = self.mdx_statements(rel)
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
        module = self._compile(source, path, path, mdx_import_names(source))
        self.modules[path] = module
        self._define(module, depth)
        return module

    def load_page(self, path: str, statements: list[tuple[str, int, int]]) -> Module:
        """Compile and define a page's own ESM (its `export const` components and its imports)."""
        source = page_source(statements)
        module_id = f"page:{path}"
        module = self._compile(source, path, module_id, mdx_import_names(source))
        self.modules[module_id] = module
        self._define(module, 0)
        return module

    def _define(self, module: Module, depth: int) -> None:
        for dep in module.deps.values():
            if isinstance(dep, str):
                self.load_file(dep, depth + 1)
        try:
            self.engine.define(
                module.id, module.code, digest(module.code + repr(module.deps)), module.deps, module.names
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
