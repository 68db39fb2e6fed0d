"""The package's layers import only downward: every import of every module is checked (function-level and
TYPE_CHECKING ones included). Modules of one layer may import each other (MDX components rendering MDX)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "docsgen"

# Top to bottom: a module may import its own layer and the layers above it. A prefix names a module or a
# package (every module under it). The order is the pipeline's; see README "How a build runs".
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "leaf helpers",
        (
            "docsgen",  # the package itself: __version__
            "docsgen.errors",
            "docsgen.urls",
            "docsgen.cachedir",
            "docsgen.google_fonts",
            "docsgen.timings",
            "docsgen.jsonpos",
            "docsgen.safeload",
            "docsgen.resources",
            "docsgen.contrast",
            "docsgen.theme",
            "docsgen.write",
            "docsgen.output_update",
            "docsgen.output_temp",
            "docsgen.newfile",
            "docsgen.themes",
        ),
    ),
    ("config", ("docsgen.config", "docsgen.analytics", "docsgen.providers")),
    ("sources", ("docsgen.sources",)),
    ("mdx", ("docsgen.mdx", "docsgen.react")),
    ("pages", ("docsgen.pages", "docsgen.page_meta", "docsgen.markdown_export")),
    ("openapi", ("docsgen.openapi",)),
    ("nav", ("docsgen.nav",)),
    ("site", ("docsgen.site", "docsgen.policies", "docsgen.routes", "docsgen.links")),
    ("render", ("docsgen.render",)),
    ("outputs", ("docsgen.outputs",)),
    ("engine", ("docsgen.engine",)),
    ("build", ("docsgen.build", "docsgen.check")),
    (
        "entry points",
        (
            "docsgen.cli",
            "docsgen.dev.negotiate",
            "docsgen.__main__",
            "docsgen.dev",
            "docsgen.linkcheck",
            "docsgen.linkcheck_external",
            "docsgen.a11y",
            "docsgen.scaffold",
            "docsgen.ci_recipes",
            "docsgen.mcp",
            "docsgen.server",
        ),
    ),
]


def layer_of(module: str) -> int | None:
    """Return the index of the layer a module belongs to (the longest matching prefix), or None."""
    best: tuple[int, int] | None = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            matches = module == prefix or (prefix != "docsgen" and module.startswith(prefix + "."))
            if matches and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    return best[0] if best else None


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> list[tuple[str, int]]:
    """Return (imported docsgen module, line) for every import statement of a file, wherever it is."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names if alias.name.startswith("docsgen")]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.startswith("docsgen"):
                # `from docsgen.render import head` names a submodule: check that one when it exists
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    is_module = (PACKAGE.parent / (sub.replace(".", "/") + ".py")).is_file() or (
                        PACKAGE.parent / sub.replace(".", "/") / "__init__.py"
                    ).is_file()
                    found.append((sub if is_module else target, node.lineno))
    return found


FILES = sorted(PACKAGE.rglob("*.py"))


def _exists(module: str) -> bool:
    """Tell whether a docsgen module exists (a file or a package), or is the vendored themes data package."""
    base = PACKAGE.parent / module.replace(".", "/")
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file() or module == "docsgen.themes"


def test_every_module_has_a_layer():
    assert [module_name(f) for f in FILES if layer_of(module_name(f)) is None] == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: module_name(p))
def test_imports_go_only_downward(path):
    source = layer_of(module_name(path))
    assert source is not None
    unknown = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {t}, no such module"
        for t, line in imports_of(path)
        if not _exists(t)
    ]
    assert unknown == []
    upward = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {target} ({LAYERS[layer][0]}, below {LAYERS[source][0]})"
        for target, line in imports_of(path)
        if (layer := layer_of(target)) is not None and layer > source
    ]
    assert upward == []


def test_the_checker_sees_function_level_and_type_checking_imports(tmp_path):
    probe = PACKAGE / "pages.py"
    lines = imports_of(probe)
    assert all(layer_of(m) is not None for m, _ in lines)
    code = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from docsgen.build import Site\ndef f():\n    import docsgen.render\n"
    fake = PACKAGE / "_layer_probe.py"
    fake.write_text(code, encoding="utf-8")
    try:
        assert {m for m, _ in imports_of(fake)} == {"docsgen.build", "docsgen.render"}
    finally:
        fake.unlink()
