"""React components share a time budget per page (and per build process): 30 endless loops on one page stop after
the page's budget, render their children and give one warning (61 s before: 2 s for each)."""

from __future__ import annotations

import json

from docsgen.mdx.react.ssr import PAGE_BUDGET
from tests.bounded import run_cli

CONFIG = {"theme": "mint", "name": "R", "colors": {"primary": "#112233"}, "navigation": {"pages": ["index"]}}


def test_endless_components_stop_at_the_page_budget(make_site, tmp_path):
    body = (
        "export const Spin = ({children}) => { while (true) {} return <div>{children}</div>; };\n\n# Hi\n\n"
    )
    body += "".join(f"<Spin>child {i}</Spin>\n\n" for i in range(30))
    docs = make_site({"docs.json": json.dumps(CONFIG), "index.mdx": body})
    done = run_cli("build", docs, "-o", tmp_path / "out", deadline=45)  # was 61 s (2 s a component)
    assert done.stderr.count("[react.budget]") == 1
    assert f"this page's ({PAGE_BUDGET:g} s)" in done.stderr
    stopped = done.stderr.count("[react.limit]")  # each endless call is stopped at its own limit (an error)
    assert 1 <= stopped <= PAGE_BUDGET / 2 + 1, stopped
