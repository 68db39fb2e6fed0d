"""Every expansion and scan over a page's text is bounded: hostile pages build in time, with located warnings."""

from __future__ import annotations

import json

from tests.bounded import run_cli

CONFIG = json.dumps(
    {"theme": "mint", "name": "B", "colors": {"primary": "#112233"}, "navigation": {"pages": ["index"]}}
)


def test_markdown_twin_shares_the_pages_snippet_limit(make_site, tmp_path):
    # six levels of snippets, each used ten times: a million leaves (killed at 120 s, 2.96 GB before)
    files = {
        f"snippets/s{i}.mdx": f"import S from '/snippets/s{i + 1}.mdx';\n\n" + "<S />\n\n" * 10
        for i in range(6)
    }
    files["snippets/s6.mdx"] = "leaf text of the snippet\n"
    docs = make_site(
        {**files, "docs.json": CONFIG, "index.mdx": "import S from '/snippets/s0.mdx';\n\n<S />\n"}
    )
    done = run_cli("build", docs, "-o", tmp_path / "out", deadline=90, memory=1536 * 1024**2)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr.count("[mdx.too-many-snippets]") == 1
    twin = (tmp_path / "out" / "index.md").read_text()
    assert 100 < twin.count("leaf text of the snippet") <= 2_000
