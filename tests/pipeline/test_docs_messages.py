"""docs/reference/warnings.mdx lists every diagnostic code docsgen reports, and only codes it reports."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "docsgen"
PAGE = REPO / "docs" / "reference" / "warnings.mdx"

# Code prefixes found anywhere in a string; other codes are found where a diagnostic is made (CODE_CALLS).
PREFIXES = [
    "config",
    "nav",
    "mdx",
    "page",
    "openapi",
    "sources",
    "write",
    "link",
    "asset",
    "seo",
    "fonts",
    "legacy",
    "integrations",
    "search",
    "agents",
    "redirect",
    "deploy",
    "react",
    "dev",
    "theme",
    "links",
    "schema",
    "playground",
    "init",
    "scaffold",
]
CODE_RE = re.compile(r"^(?:" + "|".join(PREFIXES) + r")\.[a-z0-9-]*[a-z0-9]$")
ANY_CODE_RE = re.compile(r"^[a-z]+\.[a-z][a-z0-9-]*$")
PARTIAL_RE = re.compile(r"^(?:" + "|".join(PREFIXES) + r")\.[a-z0-9-]*$")
# Functions that take a code among their arguments.
CODE_CALLS = {
    "error",
    "warning",
    "info",
    "warn",
    "diag",
    "diagnostic",
    "Diagnostic",
    "LoadProblem",
    "failure",
}
# `prefix.name` strings that are file names, not codes (page.html, theme.json...).
FILE_SUFFIXES = {
    "html",
    "json",
    "js",
    "css",
    "txt",
    "xml",
    "md",
    "mdx",
    "pid",
    "log",
    "yaml",
    "yml",
    "svg",
    "png",
}
# Codes built at run time: the prefix and every value its variable part takes.
PARTIAL_CODES = {"openapi.unknown-": ("operation", "webhook")}


def _call_name(node: ast.Call) -> str:
    return getattr(node.func, "id", None) or getattr(node.func, "attr", None) or ""


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr | ast.BinOp) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _partial_prefix(node: ast.expr) -> str | None:
    """Return the literal prefix of `f"prefix{x}"` or `"prefix" + x`, when it looks like the start of a code."""
    if isinstance(node, ast.JoinedStr) and len(node.values) == 2:
        head, tail = node.values
        if isinstance(head, ast.Constant) and isinstance(tail, ast.FormattedValue):
            text = head.value
        else:
            return None
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Constant):
        text = node.left.value
    else:
        return None
    return text if isinstance(text, str) and PARTIAL_RE.match(text) else None


def codes_in_package(package: Path = PACKAGE) -> tuple[set[str], set[str]]:
    """Return (codes, unresolved partial prefixes) used in the package's Python files."""
    codes: set[str] = set()
    partial: set[str] = set()

    def is_file_name(text: str) -> bool:
        return text.rsplit(".", 1)[1] in FILE_SUFFIXES

    for file in sorted(package.rglob("*.py")):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if CODE_RE.match(node.value) and not is_file_name(node.value):
                    codes.add(node.value)
            elif isinstance(node, ast.Call) and _call_name(node) in CODE_CALLS:
                # The code is the first text argument (after `Diagnostic`'s path, line and column), or code=.
                texts = [a for a in node.args if _is_text(a)]
                texts += [k.value for k in node.keywords if k.arg == "code"]
                arg = texts[0] if texts else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    if ANY_CODE_RE.match(arg.value):
                        codes.add(arg.value)
                elif arg is not None and (prefix := _partial_prefix(arg)) is not None:
                    if prefix in PARTIAL_CODES:
                        codes.update(prefix + rest for rest in PARTIAL_CODES[prefix])
                    else:
                        partial.add(f"{prefix}... ({file.relative_to(package.parent)}:{arg.lineno})")
    return codes, partial


def documented_codes() -> set[str]:
    """Return the codes named in the first column of the page's tables."""
    return set(re.findall(r"^\| `([a-z]+\.[a-z0-9-]+)` \|", PAGE.read_text(encoding="utf-8"), re.MULTILINE))


def test_the_scan_finds_codes_of_every_kind():
    """Guard against a scan that finds nothing (and so passes vacuously)."""
    codes, _ = codes_in_package()
    assert len(codes) > 140
    for expected in (
        "mdx.missing-snippet",  # warning("mdx.missing-snippet", ...)
        "legacy.font",  # c.warn("legacy.font", ...)
        "docsgen.error",  # error("docsgen.error", ...): a prefix outside PREFIXES
        "openapi.unknown-webhook",  # f"openapi.unknown-{kind}"
        "deploy.timeout",  # failure("deploy.timeout", ...)
    ):
        assert expected in codes
    for not_a_code in ("page.html", "theme.json", "redirect.html", "docsgen.server", "mint.json"):
        assert not_a_code not in codes


def test_scan_sees_codes_built_at_run_time(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "m.py").write_text(
        'def f(kind, name):\n    warning(f"openapi.unknown-{kind}", f"colors.{name} is bad")\n'
        '    error("nav.wrong-" + kind, "text")\n',
        encoding="utf-8",
    )
    codes, partial = codes_in_package(package)
    assert {"openapi.unknown-operation", "openapi.unknown-webhook"} <= codes
    assert [p.split(" ")[0] for p in partial] == ["nav.wrong-..."]


def test_every_code_is_documented():
    codes, partial = codes_in_package()
    assert not partial, f"codes built at run time: add their values to PARTIAL_CODES: {sorted(partial)}"
    missing = sorted(codes - documented_codes())
    assert not missing, f"add these codes to docs/reference/warnings.mdx: {missing}"


def test_every_documented_code_is_used():
    codes, _ = codes_in_package()
    stale = sorted(documented_codes() - codes)
    assert not stale, f"docs/reference/warnings.mdx lists codes docsgen no longer reports: {stale}"
