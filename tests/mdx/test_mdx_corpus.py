"""Every MDX page of the real Mintlify corpus renders: no exception, no error, only the allowed warnings."""

from __future__ import annotations

import collections
import re

import pytest

from docsgen.mdx import render_mdx
from tests.conftest import CORPUS
from tests.mdx_helpers import make_ctx

# The corpus README: .jsx snippets and React components were left out, so using them is a warning.
ALLOWED_WARNINGS = {
    "mdx.unknown-component",
    "react.missing-import",
    "react.component-error",
    "mdx.twoslash",  # an info: twoslash blocks are shown without hover types (docs/reference/warnings.mdx)
}
FRONTMATTER = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*(\n|\Z)", re.S)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not present")
def test_every_corpus_page_renders():
    from docsgen.mdx.components import COMPONENTS, render_component  # noqa: F401 - registry loaded on first use

    counts: collections.Counter[str] = collections.Counter()
    problems = []
    pages = sorted(CORPUS.rglob("*.mdx"))
    assert len(pages) > 1000
    for path in pages:
        rel = path.relative_to(CORPUS).as_posix()
        text = path.read_text(encoding="utf-8")
        offset = 0
        m = FRONTMATTER.match(text)
        if m:
            offset = m.group(0).count("\n")
            text = text[m.end() :]
        result = render_mdx(text, make_ctx(CORPUS, source=rel, line_offset=offset))
        for diag in result.diagnostics:
            counts[f"{diag.severity.value} {diag.code}"] += 1
            if diag.is_error or diag.code not in ALLOWED_WARNINGS:
                problems.append(diag.format())
            elif diag.code == "mdx.unknown-component":
                name = re.search(r"<([\w.]+)>", diag.message).group(1)
                assert name not in COMPONENTS, diag.format()
            assert diag.path and diag.line > 0, diag.format()
    assert problems == [], f"{len(pages)} pages; diagnostics per code: {dict(sorted(counts.items()))}"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not present")
def test_corpus_component_pages_use_real_components():
    text = (CORPUS / "components" / "tabs.mdx").read_text(encoding="utf-8").split("---", 2)[2]
    result = render_mdx(text, make_ctx(CORPUS, source="components/tabs.mdx"))
    assert result.html.count('role="tablist"') == 1 and result.diagnostics == []
    assert result.html.count('role="tab"') == 3 and "dg-tabset" in result.html
    assert {"tabs", "copy"} <= result.assets
