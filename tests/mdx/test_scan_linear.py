"""Regexes and scans over page text are linear: the inputs of issue #36 (findings 4 and 5) at n and 4n.

Each case runs in a child process with a deadline (the old code took minutes on these), timing its function on
an input of size n and 4n (CPU time, best of three); a linear scan takes about 4 times as long, a quadratic one
16 times, a cubic one 64 times.
"""

from __future__ import annotations

import json

import pytest

from tests.bounded import run_python

# name -> (import line, call on `s`, input built from `n`, n)
CASES = {
    "export value followed by spaces (mdx/esm.py)": (
        "from docsgen.mdx.esm import parse_exports as f",
        "f(s)",
        "'export const a = 1' + ' ' * n + 'x'",
        4000,
    ),
    "import and spaces inside a component (mdx/jsx_rules.py)": (
        "from tests.mdx_helpers import render as f",
        "f(s)",
        "'<Note>\\nimport' + ' ' * n + 'x\\n</Note>\\n'",
        4000,
    ),
    "frontmatter value, spaces and ! (mdx/frontmatter.py)": (
        "from docsgen.mdx.frontmatter import load_frontmatter as f",
        "f(s, 'page.mdx', 2)",
        "'title: hello' + ' ' * n + '!'",
        50_000,
    ),
    "import a, repeated (react/modules.py)": (
        "from docsgen.mdx.react.modules import mdx_import_names as f",
        "f(s)",
        "'import a ' * n",
        8000,
    ),
    "code marker after spaces (mdx/code.py)": (
        "from docsgen.mdx.code import strip_markers as f",
        "f(s)",
        "'x //' + ' ' * n + '[!code hl]' + ' ' * n + 'x'",
        4000,
    ),
    "<svg> repeated (inline rendering)": (
        "from tests.mdx_helpers import render as f",
        "f(s)",
        "'<svg>' * n + '\\n'",
        2000,
    ),
    "<Card> on every line (Markdown export)": (
        "from docsgen.pages.markdown_export import mdx_to_markdown as f",
        "f(s)",
        "'<Card>\\n' * n",
        2000,
    ),
    "{ repeated (expression end)": (
        "from tests.mdx_helpers import render as f",
        "f(s)",
        "'{' * n + '\\n'",
        4000,
    ),
    "unclosed fences in a code group (Markdown export)": (
        "from docsgen.pages.markdown_export import mdx_to_markdown as f",
        "f(s)",
        "'<CodeGroup>\\n' + '```\\n' * n + '</CodeGroup>\\n'",
        3000,
    ),
    "[ repeated (twin link rewriting)": (
        "from docsgen.pages.markdown_export import rewrite_links as f",
        "f(s, str)",
        "'[' * n + '](x)'",
        8000,
    ),
    "tildes and backticks after blanks on one line (twin code spans)": (
        "from docsgen.pages.markdown_export import rewrite_links as f",
        "f(s, lambda href: '/v1' + href)",
        "'[a](/x)\\n' + ' ~' * n + '\\n' + ' `' * n + '[b](/y)'",
        8000,
    ),
    "<a repeated (crossed tags)": (
        "from docsgen.mdx.text_rules import crossed_tags as f",
        "f(s)",
        "'<a' * n",
        8000,
    ),
    "backticks in a spec description (summary)": (
        "from docsgen.openapi.render.mdtext import summary_text as f",
        "f(s)",
        "'`' * n + '!'",
        8000,
    ),
}

TIMER = """
import json, time
{imports}
def best(s):
    times = []
    for _ in range(3):
        start = time.process_time()
        {call}
        times.append(time.process_time() - start)
    return min(times)
n = {n}
small = best(({make}))
n = 4 * {n}
large = best(({make}))
print(json.dumps([small, large]))
"""


@pytest.mark.parametrize("name", list(CASES))
def test_scan_is_linear(name):
    imports, call, make, n = CASES[name]
    out, _ = run_python(TIMER.format(imports=imports, call=call, make=make, n=n), deadline=60)
    small, large = json.loads(out)
    # 4x the input: about 4x the time when linear; allow 10x, and any time under 0.25 s (too small to judge)
    assert large <= max(10 * small, 0.25), f"{name}: {small:.3f} s at n={n}, {large:.3f} s at 4n"
