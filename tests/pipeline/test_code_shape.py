"""The package's shape limits (CONTRIBUTING.md): no module over 450 lines, no function over 100 lines.

A module split only to stay under the limit is not the point: split where the module holds two jobs."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "docsgen"
MODULE_LINES = 450
FUNCTION_LINES = 100


def too_long(root: Path) -> tuple[list[str], list[str]]:
    """Return (modules over MODULE_LINES lines, functions over FUNCTION_LINES lines) under root, located."""
    modules, functions = [], []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        name = path.relative_to(root.parent).as_posix()
        if (lines := source.count("\n")) > MODULE_LINES:
            modules.append(f"{name}: {lines} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    functions.append(f"{name}:{node.lineno} {node.name}: {length} lines")
    return modules, functions


def test_no_module_or_function_is_over_the_limits():
    assert too_long(PACKAGE) == ([], [])


def test_the_measure_finds_a_long_module_and_a_long_function(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES))
    (pkg / "long_function.py").write_text(f"def f():\n{body}\n", encoding="utf-8")
    (pkg / "long_module.py").write_text("x = 1\n" * (MODULE_LINES + 1), encoding="utf-8")
    (pkg / "fine.py").write_text("def g():\n    return 1\n", encoding="utf-8")
    modules, functions = too_long(pkg)
    assert modules == [f"pkg/long_module.py: {MODULE_LINES + 1} lines"]
    assert functions == [f"pkg/long_function.py:1 f: {FUNCTION_LINES + 1} lines"]
