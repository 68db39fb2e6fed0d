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
    stopped = done.stderr.count("[react.limit]")  # each endless call is stopped at its own limit
    assert 1 <= stopped <= PAGE_BUDGET / 2 + 1, stopped
    # the problem is this page's: a warning, the site built; --strict makes each an error
    assert done.returncode == 0 and "warning: <Spin> was stopped" in done.stderr, done.stderr[-2000:]
    strict = run_cli("build", docs, "-o", tmp_path / "strict", "--strict", deadline=45)
    assert strict.returncode == 1 and "error: <Spin> was stopped" in strict.stderr


def test_the_budget_counts_processor_time_not_a_busy_machines_waiting(tmp_path, monkeypatch):
    """On a loaded machine a realm's answers come late; which components fall back must not depend on that
    (it did: the budget counted wall time, and a 25k-page build under load gave 4,703 react.budget warnings)."""
    import time

    from docsgen.mdx import render_mdx
    from docsgen.mdx.react import ssr
    from docsgen.mdx.react.sandbox import Realm
    from tests.htmldom import parse
    from tests.mdx_helpers import make_ctx

    slow_eval = Realm.eval

    def late(self, codes, limit):  # the answer waits 50 ms for a core, as on a machine with load 20
        time.sleep(0.05)
        return slow_eval(self, codes, limit)

    monkeypatch.setattr(Realm, "eval", late)
    monkeypatch.setattr(ssr, "PAGE_BUDGET", 0.2)  # 10 calls wait 0.5 s in all: over it in wall time
    body = 'export const Fine = ({n}) => <p className="fine">{n * 2}</p>;\n\n# Hi\n\n'
    body += "".join(f"<Fine n={{{i}}} />\n\n" for i in range(10))
    docs = tmp_path / "docs"
    docs.mkdir()
    result = render_mdx(body, make_ctx(docs, source="page.mdx"))
    assert [d.code for d in result.diagnostics] == []
    assert [p.text for p in parse(result.html).find_all("p", cls="fine")] == [str(i * 2) for i in range(10)]
