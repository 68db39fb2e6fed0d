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
            "docsgen.common",
            # the engine's leaf helpers, which every stage may use: the writer, cache folders, stage timings
            "docsgen.engine.cachedir",
            "docsgen.engine.timings",
            "docsgen.engine.write",
            "docsgen.engine.output_update",
            "docsgen.engine.output_temp",
            "docsgen.themes",
        ),
    ),
    ("config", ("docsgen.config",)),
    ("sources", ("docsgen.sources",)),
    ("mdx", ("docsgen.mdx",)),
    ("pages", ("docsgen.pages",)),
    ("openapi", ("docsgen.openapi",)),
    ("nav", ("docsgen.nav",)),
    ("site", ("docsgen.site",)),
    ("render", ("docsgen.render",)),
    ("outputs", ("docsgen.outputs",)),
    ("engine", ("docsgen.engine",)),
    ("build", ("docsgen.build", "docsgen.commands.validate_site")),
    (
        "entry points",
        (
            "docsgen.cli",
            "docsgen.__main__",
            "docsgen.commands",
            "docsgen.dev",
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
    probe = PACKAGE / "pages" / "page.py"
    lines = imports_of(probe)
    assert all(layer_of(m) is not None for m, _ in lines)
    code = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from docsgen.build import Site\ndef f():\n    import docsgen.render\n"
    fake = PACKAGE / "_layer_probe.py"
    fake.write_text(code, encoding="utf-8")
    try:
        assert {m for m, _ in imports_of(fake)} == {"docsgen.build", "docsgen.render"}
    finally:
        fake.unlink()


# The top level holds the entry points and one folder per stage (the engine's leaf helpers live in engine/).
TOP_LEVEL = {"__init__", "__main__", "cli", "build"}
# One name per role: a module name may repeat across folders only for the same role in each stage (each stage's
# limits, command line, app, server, loader, render context, frontmatter, model, rules, URL rules, code blocks,
# icons, legacy forms, changelog, Tailwind).
SHARED_ROLES = {
    "__init__",
    "app",
    "changelog",
    "cli",
    "code",
    "context",
    "frontmatter",
    "icons",
    "legacy",
    "limits",
    "load",
    "model",
    "rules",
    "server",
    "tailwind",
    "urls",
}


def folder_of(module: str) -> str:
    """The first-level folder a module lives in ("docsgen" for a top-level module)."""
    parts = module.split(".")
    is_package = (PACKAGE.parent / module.replace(".", "/") / "__init__.py").is_file()
    return ".".join(parts[:2]) if len(parts) > 2 or is_package else "docsgen"


def import_graph() -> dict[str, set[str]]:
    """Every docsgen module -> the docsgen modules it imports (a name inside a module counts as the module)."""
    modules = {module_name(f): f for f in FILES}

    def owner(target: str) -> str:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        return target

    return {m: {owner(t) for t, _ in imports_of(f)} - {"", m} for m, f in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """The graph's strongly connected components (iterative Tarjan), each a set of modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                found.append(component)
    return found


def cross_folder_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    return [sorted(c) for c in strongly_connected(graph) if len(c) > 1 and len({folder_of(m) for m in c}) > 1]


def test_no_import_cycle_spans_two_folders():
    assert cross_folder_cycles(import_graph()) == []


def test_the_cycle_finder_sees_a_cycle_across_folders():
    graph = {
        "docsgen.mdx.parser": {"docsgen.mdx.react.ssr"},
        "docsgen.mdx.react.ssr": {"docsgen.mdx.parser"},  # one folder: allowed
        "docsgen.config.analytics": {"docsgen.config.model"},
        "docsgen.config.model": {"docsgen.render.context"},
        "docsgen.render.context": {"docsgen.config.analytics", "docsgen.common.urls"},
        "docsgen.common.urls": set(),
    }
    assert cross_folder_cycles(graph) == [
        ["docsgen.config.analytics", "docsgen.config.model", "docsgen.render.context"]
    ]


def test_the_top_level_holds_only_entry_points_and_stage_folders():
    top = {p.stem for p in PACKAGE.glob("*.py")}
    assert top - TOP_LEVEL == set()
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    stages = {prefix.split(".")[1] for _, prefixes in LAYERS for prefix in prefixes if prefix.count(".") >= 1}
    assert folders <= stages | {"themes", "schemas"}


def test_a_module_name_repeats_across_folders_only_for_one_role():
    by_name: dict[str, list[str]] = {}
    for path in FILES:
        by_name.setdefault(path.stem, []).append(module_name(path))
    assert {n: m for n, m in by_name.items() if len(m) > 1 and n not in SHARED_ROLES} == {}
