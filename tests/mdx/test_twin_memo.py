"""The Markdown twin's per-process memo of converted components (docsgen/pages/markdown_memo.py): a component
written the same way on another page (a versioned site's copies) is not converted again, and anything the
conversion reads (its page's scope, snippet names, nesting, block position, snippet files) keeps it apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsgen.pages import markdown_export
from docsgen.pages.markdown_export import ExportContext, mdx_to_markdown, page_markdown_of
from docsgen.pages.markdown_memo import COMPONENTS, ComponentMemo
from tests.mdx_helpers import FIXTURES, read_fixtures

TABS = (
    '<Tabs>\n  <Tab title="Python">\n    ```python\n    client.get(7)\n    ```\n  </Tab>\n'
    '  <Tab title="cURL">\n    Call `GET /items/7`.\n  </Tab>\n</Tabs>\n'
)


def _version(prefix: str) -> str:
    """One page of a versioned site: the same text in every version but for its version-prefixed links."""
    return (
        f"# Items\n\nSee [the guide]({prefix}/guide).\n\n{TABS}\n"
        f'<CardGroup>\n  <Card title="Guide" href="{prefix}/guide">Read it.</Card>\n</CardGroup>\n'
    )


@pytest.fixture
def converted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every component converted (not answered from the memo); the memo starts empty."""
    names: list[str] = []
    real = markdown_export._component

    def counting(tag, inner, ctx, *, block):  # type: ignore[no-untyped-def]
        names.append(tag.name)
        return real(tag, inner, ctx, block=block)

    monkeypatch.setattr(markdown_export, "_component", counting)
    COMPONENTS.clear()
    yield names
    COMPONENTS.clear()


def test_a_component_repeated_on_another_page_is_converted_once(tmp_path: Path, converted: list[str]) -> None:
    outs = [page_markdown_of(_version(f"/v{n}"), tmp_path, {}, f"v{n}/items.mdx") for n in range(3)]
    assert converted.count("Tabs") == 1 and converted.count("Tab") == 2
    # a component holding a version-prefixed link differs on each page: converted on each
    assert converted.count("CardGroup") == 3 and converted.count("Card") == 3
    for n, out in enumerate(outs):
        assert "#### Python\n\n```python\nclient.get(7)\n```" in out
        assert f"- [**Guide**](/v{n}/guide): Read it." in out
    assert outs[1] == outs[0].replace("/v0/", "/v1/")


def test_what_the_conversion_reads_keeps_answers_apart(tmp_path: Path, converted: list[str]) -> None:
    note = "<Note>\n  {product} allows {limits.requests} requests.\n</Note>\n"
    a = page_markdown_of(
        f'export const product = "A";\nexport const limits = {{ requests: 5 }};\n\n{note}',
        tmp_path,
        {},
        "a.mdx",
    )
    b = page_markdown_of(
        f'export const product = "B";\nexport const limits = {{ requests: 6 }};\n\n{note}',
        tmp_path,
        {},
        "b.mdx",
    )
    assert "A allows 5 requests." in a and "B allows 6 requests." in b  # the page's scope is part of the key
    inline = page_markdown_of("Text <Tooltip tip='t'>word</Tooltip> more.\n", tmp_path, {}, "c.mdx")
    alone = page_markdown_of("<Tooltip tip='t'>word</Tooltip>\n", tmp_path, {}, "d.mdx")
    assert inline == "Text word (t) more.\n" and alone == "word (t)\n"
    # <Hint> is an unknown component on one page and an imported snippet on another
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "hint.mdx").write_text("From the snippet.\n", encoding="utf-8")
    wrapped = "<Note>\n  <Hint />\n</Note>\n"
    plain = page_markdown_of(wrapped, tmp_path, {}, "e.mdx")
    imported = page_markdown_of(f'import Hint from "/snippets/hint.mdx";\n\n{wrapped}', tmp_path, {}, "f.mdx")
    assert "From the snippet." not in plain and "From the snippet." in imported
    assert converted.count("Note") == 4  # no answer crossed over


def test_a_component_that_inlined_a_snippet_is_not_remembered(tmp_path: Path, converted: list[str]) -> None:
    (tmp_path / "snippets").mkdir()
    snippet = tmp_path / "snippets" / "step.mdx"
    page = 'import Step from "/snippets/step.mdx";\n\n<Note>\n  <Step />\n</Note>\n'
    snippet.write_text("Run it once.\n", encoding="utf-8")
    assert "Run it once." in page_markdown_of(page, tmp_path, {}, "p.mdx")
    snippet.write_text("Run it twice, then again.\n", encoding="utf-8")  # an edit in `docsgen dev`
    assert "Run it twice, then again." in page_markdown_of(page, tmp_path, {}, "p.mdx")
    assert converted.count("Note") == 2


def _fixture_sources() -> list[str]:
    """Every MDX case of tests/mdx_fixtures, and all of them as one page (components next to each other)."""
    sources = [src for path in sorted(FIXTURES.glob("*.txt")) for _, _, src, _ in read_fixtures(path)]
    return [*sources, "\n\n".join(sources)]


def test_the_twin_with_the_memo_is_the_twin_without_it() -> None:
    sources = _fixture_sources()
    assert len(sources) > 30
    memo = ComponentMemo()
    for _ in range(2):  # the second round is answered from the memo
        for src in sources:
            plain = mdx_to_markdown(src, ExportContext())
            assert mdx_to_markdown(src, ExportContext(memo=memo)) == plain, src
    assert memo.entries


def test_the_memo_stays_within_its_bounds() -> None:
    memo = ComponentMemo(max_entries=3, max_chars=100)
    for n in range(10):
        memo.put(("k", n), 10, "x" * 5)
        assert len(memo.entries) <= 3 and memo.chars <= 100
    assert memo.get(("k", 9)) == "xxxxx" and memo.get(("k", 0)) is None
    memo.get(("k", 7))  # used: kept over the older ones
    memo.put(("k", 10), 10, "y")
    assert memo.get(("k", 7)) == "xxxxx" and memo.get(("k", 8)) is None
    memo.put(("big", 0), 60, "z" * 30)
    assert memo.chars <= 100 and memo.get(("big", 0)) == "z" * 30
    memo.put(("huge", 0), 70_000, "w")  # longer than any component remembered
    assert memo.get(("huge", 0)) is None


def test_a_large_scope_counts_towards_the_bounds(tmp_path: Path, converted: list[str]) -> None:
    big = "x" * 70_000  # the page's exported value is part of the key of every component reading it
    page = f'export const big = "{big}";\n\n<Note>\n  {{big}}\n</Note>\n\n<Tip>\n  Plain.\n</Tip>\n'
    for n in range(2):
        out = page_markdown_of(page, tmp_path, {}, f"p{n}.mdx")
        assert f"> **Note:** {big}" in out and "> **Tip:** Plain." in out
    assert converted.count("Note") == 2 and converted.count("Tip") == 1  # too large to keep / kept
    assert COMPONENTS.chars < 70_000
