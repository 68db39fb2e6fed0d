"""A component called the same way on many pages runs once per process (docsgen/mdx/react/memo.py); what a
page's components see of each other (a module's state) stays as if every call had run."""

from __future__ import annotations

import pytest

from docsgen.mdx import render_mdx
from docsgen.mdx.react.js_engine import get_engine
from docsgen.mdx.react.memo import RenderMemo
from docsgen.mdx.react.sandbox import Realm
from tests.conftest import write_tree
from tests.htmldom import parse
from tests.mdx_helpers import make_ctx

COUNTER = (
    "let calls = 0;\n"
    'export const Count = ({ label }) => <b className="count">{label}:{++calls}</b>;\n'
    'export const Seen = () => <i className="seen">{calls}</i>;\n'
)
REGIONS = 'export const Regions = () => <ul className="regions"><li>eu-west-1</li></ul>;\n'


@pytest.fixture
def docs(tmp_path):
    return write_tree(tmp_path / "docs", {"snippets/counter.jsx": COUNTER, "snippets/regions.mdx": REGIONS})


@pytest.fixture
def renders(monkeypatch):
    """The component calls that reach the engine's realms (a fresh memory of answers for the test)."""
    monkeypatch.setattr(get_engine(), "memo", RenderMemo())
    calls: list[str] = []
    original = Realm.eval

    def counted(self, codes, limit):
        calls.extend(code for code in codes if code.startswith("__dgRender("))
        return original(self, codes, limit)

    monkeypatch.setattr(Realm, "eval", counted)
    return calls


def page(docs, body: str, source: str):
    result = render_mdx(body, make_ctx(docs, source=source))
    assert result.diagnostics == [], result.diagnostics
    return parse(result.html)


def test_the_same_call_on_other_pages_runs_once(docs, renders):
    body = 'import { Regions } from "/snippets/regions.mdx";\n\n# Regions\n\n<Regions />\n'
    first = page(docs, body, "v1/en/page.mdx")
    again = [page(docs, body, f"v{v}/{lang}/page.mdx") for v in (1, 2) for lang in ("fr", "de")]
    assert len(renders) == 1  # each page before ran it in a realm of its own
    for tree in again:
        assert (
            [li.text for li in tree.find_all("li")]
            == [li.text for li in first.find_all("li")]
            == ["eu-west-1"]
        )


def test_other_props_or_other_code_run_again(docs, renders):
    head = 'import { Count } from "/snippets/counter.jsx";\n\n'
    page(docs, head + '<Count label="a" />\n', "a.mdx")
    page(docs, head + '<Count label="b" />\n', "b.mdx")
    local = 'export const Count = ({ label }) => <b className="count">{label}!</b>;\n\n<Count label="a" />\n'
    tree = page(docs, local, "c.mdx")
    assert len(renders) == 3
    assert tree.find("b", cls="count").text == "a!"


def test_a_module_state_carries_from_call_to_call_as_when_each_ran(docs, renders):
    head = 'import { Count, Seen } from "/snippets/counter.jsx";\n\n'
    twice = head + '<Count label="x" />\n\n<Count label="x" />\n'
    for source in ("one.mdx", "two.mdx"):
        tree = page(docs, twice, source)
        assert [b.text for b in tree.find_all("b", cls="count")] == ["x:1", "x:2"]
    assert len(renders) == 2  # the second page's two calls were answered from the first's
    # a call not seen before comes after two remembered ones: they run first, so it sees the count they left
    tree = page(docs, twice + "\n<Seen />\n", "three.mdx")
    assert [b.text for b in tree.find_all("b", cls="count")] == ["x:1", "x:2"]
    assert tree.find("i", cls="seen").text == "2"
    assert len(renders) == 5


def test_a_page_answered_from_memory_makes_no_definition_text(docs, renders, monkeypatch):
    """Module definitions wait to be sent with the realm's next call, as (code, deps, names): their JavaScript
    text is made only when sent, so a page whose calls are all remembered makes none."""
    from docsgen.mdx.react import js_engine

    made: list[str] = []
    text = js_engine._define_text

    def counted(module_id, *parts):
        made.append(module_id)
        return text(module_id, *parts)

    monkeypatch.setattr(js_engine, "_define_text", counted)
    body = 'import { Regions } from "/snippets/regions.mdx";\n\n# Regions\n\n<Regions />\n'
    first = page(docs, body, "v1/en/page.mdx")
    assert len(renders) == 1 and made  # the first page sent its modules' definitions with the render
    made.clear()
    again = [page(docs, body, f"v{v}/de/page.mdx") for v in (1, 2, 3)]
    assert len(renders) == 1 and made == []
    assert all(str(tree) == str(first) for tree in again)


def test_a_module_code_is_hashed_into_the_call_key_once_per_process(docs, renders, monkeypatch):
    """The call key takes a module's code by its digest (made once per process for the text, when compiled):
    a page answered from memory does not hash its components' code again. Other code still runs again."""
    import hashlib
    from types import SimpleNamespace

    from docsgen.mdx.react import memo

    big = "const filler = " + repr("x" * 200_000) + ";\n"
    write_tree(docs, {"snippets/big.jsx": big + 'export const Big = () => <b className="big">big</b>;\n'})
    hashed: list[int] = []

    def counted(data=b""):
        hashed.append(len(data))
        return hashlib.sha256(data)

    monkeypatch.setattr(memo, "hashlib", SimpleNamespace(sha256=counted))  # the keys' hashing only
    body = 'import { Big } from "/snippets/big.jsx";\n\n<Big />\n'
    for source in ("v1/page.mdx", "v2/page.mdx", "v3/page.mdx"):
        assert page(docs, body, source).find("b", cls="big").text == "big"
    assert len(renders) == 1
    assert len(hashed) == 3 and max(hashed) < 2_000  # one key a page, without the 200 kB of code
    changed = big.replace("xxx", "xyx", 1) + 'export const Big = () => <b className="big">changed</b>;\n'
    write_tree(docs, {"snippets/big.jsx": changed})
    assert page(docs, body, "v4/page.mdx").find("b", cls="big").text == "changed"
    assert len(renders) == 2
