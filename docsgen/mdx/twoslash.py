"""`twoslash` code blocks: what docsgen does with them, and why not more.

Mintlify runs the TypeScript compiler over such blocks so readers hover names to see their types. docsgen
does not: a type pass needs the TypeScript compiler (and the lib .d.ts files) at build time, which docsgen
does not ship (Node.js is not a dependency; running tsc in the embedded QuickJS engine costs seconds per block).
Instead the block renders highlighted, as the reader would see it without hovering: twoslash's own markup is
processed (`// ---cut---` hides what is above it, `// ^?` query lines and `// @directive` lines are removed)
and the build notes, once per page, with the block's line, that type information is not shown.
"""

from __future__ import annotations

import re

from docsgen.common.errors import info
from docsgen.mdx.state import RenderState

_CUT_BEFORE = re.compile(r"^\s*//\s*-{3,}cut(?:-before)?-{3,}\s*$")
_CUT_AFTER = re.compile(r"^\s*//\s*-{3,}cut-after-{3,}\s*$")
_QUERY = re.compile(r"^\s*//\s*(\^\?|\^\||\^\^+)\s*$")
_DIRECTIVE = re.compile(r"^\s*//\s*@[A-Za-z][\w-]*(?::.*)?\s*$")


def is_twoslash(info_string: str) -> bool:
    """Tell whether a fence's info string asks for twoslash (a bare `twoslash` word after the language)."""
    return "twoslash" in info_string.split()[1:]


def visible_code(code: str) -> str:
    """Return the code a reader sees: twoslash cut markers applied, query and directive lines removed."""
    lines = code.split("\n")
    for index in range(len(lines) - 1, -1, -1):
        if _CUT_BEFORE.match(lines[index]):
            lines = lines[index + 1 :]
            break
    for index, line in enumerate(lines):
        if _CUT_AFTER.match(line):
            lines = lines[:index]
            break
    kept = [line for line in lines if not (_QUERY.match(line) or _DIRECTIVE.match(line))]
    text = "\n".join(kept)
    return text + ("\n" if code.endswith("\n") and not text.endswith("\n") else "")


def note(state: RenderState, line: int, lang: str) -> None:
    """Report, once per page, that twoslash blocks show no type information (a located info)."""
    if state.__dict__.get("_dg_twoslash_noted"):
        return
    state.__dict__["_dg_twoslash_noted"] = True
    where = f"`{lang}` " if lang else ""
    state.add(
        info(
            "mdx.twoslash",
            f"twoslash {where}code block: shown highlighted without hover type information (docsgen does not "
            "run the TypeScript compiler); twoslash markup (---cut---, ^?, @directives) is applied",
            state.frame.path,
            line,
            1,
        )
    )


def fence_code(token: object, state: RenderState, lang: str) -> str:
    """Return a fence token's code to render: twoslash blocks noted and their markup applied, others as is."""
    code = str(getattr(token, "content", ""))
    if not is_twoslash(str(getattr(token, "info", ""))):
        return code
    where = getattr(token, "map", None)
    note(state, (where[0] + 1 + state.frame.line_offset) if where else 0, lang)
    return visible_code(code)
