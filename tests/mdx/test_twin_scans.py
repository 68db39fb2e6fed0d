"""The Markdown twin's pass over a page's MDX: code fences scanned once, each link target resolved once,
a snippet that reads nothing from its page converted once for all pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsgen.pages import markdown_export, markdown_links
from docsgen.pages.markdown_export import mdx_to_markdown, page_markdown_of, rewrite_links

FENCES = 12


def _page() -> str:
    blocks = "\n".join(f"Step {n}:\n\n  ```bash\n  run {n} <Tag> {{x}}\n  ```\n" for n in range(FENCES))
    return 'import Note from "/snippets/note.mdx";\nexport const x = 1;\n\nIntro.\n\n' + blocks


def test_each_fence_of_a_page_with_imports_is_scanned_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = markdown_export.fence_end

    def counting(src: str, pos: int, end: int) -> int:
        calls.append(pos)
        return real(src, pos, end)

    monkeypatch.setattr(markdown_export, "fence_end", counting)
    out = mdx_to_markdown(_page())
    # the walk copying them, and one more: removing the imports looked only as far as the first fence
    assert len(calls) == FENCES + 1
    assert "import" not in out and "export" not in out
    for n in range(FENCES):  # fences are copied as written: tags and expressions inside left alone
        assert f"  ```bash\n  run {n} <Tag> {{x}}\n  ```" in out


def test_statements_inside_fences_stay_and_others_go() -> None:
    src = (
        'import A from "/snippets/a.mdx";\n\n```js\nimport b from "b";\nexport const c = 1;\n```\n\n'
        "export const d = 2;\n\n~~~\nexport default e;\n~~~\n\nEnd {d}.\n"
    )
    out = mdx_to_markdown(src)
    assert 'import b from "b";\nexport const c = 1;' in out
    assert "export default e;" in out
    assert "import A" not in out and "export const d" not in out
    assert out.rstrip().endswith("End 2.")


def test_plain_lines_and_indented_fences_convert_as_before() -> None:
    src = "one\ntwo <b>bold</b>\n\n- item\n\n    ~~~\n    {not an expression}\n    ~~~\nthree {1 + 1}\n"
    out = mdx_to_markdown(src)
    assert out == "one\ntwo **bold**\n\n- item\n\n    ~~~\n    {not an expression}\n    ~~~\nthree 2\n"


def test_each_link_target_is_resolved_once() -> None:
    asked: list[str] = []

    def resolve(href: str) -> str:
        asked.append(href)
        return "/v1" + href if href.startswith("/") else href

    text = "See [a](/a) and [b](/b), [a again](/a).\n\n```\n[c](/c)\n```\n"
    out = rewrite_links(text, resolve)
    assert out == "See [a](/v1/a) and [b](/v1/b), [a again](/v1/a).\n\n```\n[c](/c)\n```\n"
    assert sorted(asked) == ["/a", "/b"]  # not twice each (the check for a change, then the rewrite)


def test_a_snippet_without_expressions_is_converted_once_for_every_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "note.mdx").write_text("<Note>Keep your key secret.</Note>\n", encoding="utf-8")
    (tmp_path / "snippets" / "hi.mdx").write_text("Hello {props.who} from {product}.\n", encoding="utf-8")
    converted: list[str] = []
    real = markdown_export.mdx_to_markdown

    def counting(body: str, *args: object, **kwargs: object) -> str:
        converted.append(body)
        return real(body, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(markdown_export, "mdx_to_markdown", counting)
    markdown_export._scopeless_markdown.cache_clear()
    for n in range(3):
        page = (
            'import Note from "/snippets/note.mdx";\nimport Hi from "/snippets/hi.mdx";\n'
            f'export const product = "P{n}";\n\n<Note />\n\n<Hi who="R{n}" />\n'
        )
        out = page_markdown_of(page, tmp_path, {}, f"page{n}.mdx")
        assert "> **Note:** Keep your key secret." in out
        assert (
            f"Hello R{n} from P{n}." in out
        )  # a snippet reading the page's scope: its own Markdown per page
    assert converted.count("<Note>Keep your key secret.</Note>\n") == 1
    assert converted.count("Hello {props.who} from {product}.\n") == 3


_OLD_LINK_RE = re.compile(r"(!?\[(?:[^\[\]\n]|\n(?!\n))*\]\()([^)\s]+)((?:\s+\"[^\"\n]*\")?\))")
_PIECES = [
    "`",
    "```",
    "~~~",
    "~",
    " ",
    "\t",
    "\n",
    "\n\n",
    "a",
    "[",
    "]",
    "(",
    ")",
    "!",
    "/x",
    '"t"',
    "](",
    "``",
]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_code_and_links_are_found_where_the_plain_scans_find_them(text: str) -> None:
    found = [m.span() + m.groups() for m in markdown_links._code(text)]
    assert found == [m.span() + m.groups() for m in markdown_links._CODE_RE.finditer(text)]
    links = [m.span() + m.groups() for m in markdown_links._LINK_RE.finditer(text)]
    assert links == [m.span() + m.groups() for m in _OLD_LINK_RE.finditer(text)]


def test_code_is_looked_for_only_where_it_can_start(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[int] = []
    real = markdown_links._CODE_RE

    class Counting:
        def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
            tried.append(pos)
            return real.match(text, pos)

    monkeypatch.setattr(markdown_links, "_CODE_RE", Counting())
    prose = "A line of prose with [a link](/a) in it.\n" * 50
    text = f"{prose}\n```js\nconst [x](/not-a-link) = `y`;\n```\n\nUse `[c](/c)` or [d](/d).\n"
    out = rewrite_links(text, lambda href: "/v1" + href)
    assert out.count("](/v1/a)") == 50 and "[d](/v1/d)" in out
    assert "const [x](/not-a-link)" in out and "`[c](/c)`" in out
    assert len(tried) <= 4  # the text's start, the fence and one code span (not each of its 2,000 offsets)


_ESM_PIECES = [
    "import",
    "export",
    " ",
    "\n",
    "\n\n",
    "a",
    "{ b }",
    " from ",
    '"/s.mdx"',
    ";",
    "const x = 1",
    "`",
]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_ESM_PIECES), max_size=30).map("".join))
def test_statements_are_found_where_the_plain_scans_find_them(text: str) -> None:
    for pattern in (markdown_export._ESM_RE, markdown_export._IMPORT_RE):
        found = [m.span() + m.groups() for m in markdown_export._statements(pattern, text)]
        assert found == [m.span() + m.groups() for m in pattern.finditer(text)]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(["\n", "\n\n", "\n\n\n", "a", " ", "\r"]), max_size=30).map("".join))
def test_runs_of_blank_lines_become_one_as_the_regex_made_them(text: str) -> None:
    assert markdown_export._one_blank_line(text) == re.sub(r"\n{3,}", "\n\n", text)
