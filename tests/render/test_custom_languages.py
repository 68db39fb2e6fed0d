"""docs.json `styling.codeblocks.languages.custom` (issue 20 item 5): TextMate grammars highlight code blocks.

Each test builds a real site with grammar files and parses the built HTML: tokens carry the Pygments classes the
site's code themes colour; hostile grammars give a located diagnostic and a plain block, and --strict fails.
"""

from __future__ import annotations

import json
import pickle

import pytest

from docsgen.build import build
from docsgen.common.errors import DocsgenError
from docsgen.mdx import grammars
from docsgen.mdx.textmate import compile_grammar
from tests.htmldom import parse

BASE = {
    "name": "Acme Docs",
    "theme": "mint",
    "colors": {"primary": "#0D9373"},
    "navigation": {"groups": [{"group": "G", "pages": ["index"]}]},
}

# A small language written by hand the way real grammars are: repository, includes, begin/end with nested
# patterns, captures, beginCaptures/endCaptures, a back-reference in `end`, Oniguruma-only syntax (\h, ++).
QUILL = {
    "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    "name": "Quill",
    "scopeName": "source.quill",
    "aliases": ["qll"],
    "patterns": [{"include": "#comments"}, {"include": "#statements"}],
    "repository": {
        "comments": {
            "patterns": [
                {
                    "match": "(//).*$",
                    "name": "comment.line.double-slash.quill",
                    "captures": {"1": {"name": "punctuation.definition.comment.quill"}},
                },
                {"begin": "/\\*", "end": "\\*/", "name": "comment.block.quill"},
            ]
        },
        "statements": {
            "patterns": [
                {"include": "#function"},
                {"include": "#keywords"},
                {"include": "#strings"},
                {"include": "#numbers"},
                {"include": "#block"},
            ]
        },
        "function": {
            "match": "\\b(func)\\s++([A-Za-z_]\\w*)",
            "captures": {
                "1": {"name": "storage.type.function.quill"},
                "2": {"name": "entity.name.function.quill"},
            },
        },
        "keywords": {
            "patterns": [
                {"match": "\\b(if|else|return)\\b", "name": "keyword.control.quill"},
                {"match": "\\b(true|false|nil)\\b", "name": "constant.language.quill"},
            ]
        },
        "numbers": {"match": "\\b(?:0x\\h+|\\d+)\\b", "name": "constant.numeric.quill"},
        "strings": {
            "begin": "(['\"])",
            "end": "\\1",
            "name": "string.quoted.quill",
            "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.quill"}},
            "endCaptures": {"0": {"name": "punctuation.definition.string.end.quill"}},
            "patterns": [{"match": "\\\\.", "name": "constant.character.escape.quill"}],
        },
        "block": {
            "begin": "\\{",
            "end": "\\}",
            "captures": {"0": {"name": "punctuation.section.block.quill"}},
            "patterns": [{"include": "$self"}],
        },
    },
}
QUILL_CODE = """```Quill title="hello.qll"
// greet someone
func greet(name) {
  if name { return "hi \\"you\\"" } else { return 'x"y' }
  /* a block
     comment */ 0xFF
}
```
"""


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))


def make(make_site, files: dict, custom: list, name: str = "docs"):
    config = {**BASE, "styling": {"codeblocks": {"languages": {"custom": custom}}}}
    return make_site({"docs.json": json.dumps(config, indent=2), **files}, name)


def page(body: str) -> str:
    return "---\ntitle: Home\n---\n" + body


def tokens(html: str) -> list[tuple[str, str]]:
    """Return (class, text) of each token span of the first code block."""
    code = parse(html).find("code")
    assert code is not None
    return [
        (span.attrs.get("class", ""), span.text)
        for span in code.find_all("span")
        if "line" not in span.attrs.get("class", "")
    ]


def test_a_grammar_highlights_its_blocks(make_site, tmp_path):
    docs = make(
        make_site,
        {"langs/quill.json": json.dumps(QUILL), "index.mdx": page(QUILL_CODE)},
        ["/langs/quill.json"],
    )
    result = build(docs, tmp_path / "out")
    assert [d for d in result.diagnostics if "custom-language" in d.code] == []
    found = tokens((tmp_path / "out" / "index.html").read_text())
    assert ("c1", "// greet someone") in found  # the comment's delimiter takes the comment's class
    assert ("kt", "func") in found and ("nf", "greet") in found  # captures
    assert ("k", "if") in found and ("k", "return") in found
    assert ("s", '"hi ') in found and ("se", '\\"') in found  # begin/end with nested patterns
    assert ("s", "'x\"y'") in found  # end `\1` is the quote that began the string
    assert ("cm", "/* a block") in found and ("cm", "     comment */") in found  # across lines
    assert ("m", "0xFF") in found  # \h
    assert ("p", "{") in found and ("p", "}") in found
    assert [c for c, t in found if t == "name"] == []  # plain identifiers stay plain text


def test_language_names_match_any_case_and_aliases(make_site, tmp_path):
    body = page("```qll\nreturn 1\n```\n\n```QUILL\nreturn 2\n```\n")
    docs = make(make_site, {"quill.json": json.dumps(QUILL), "index.mdx": body}, ["quill.json"])
    build(docs, tmp_path / "out")
    blocks = parse((tmp_path / "out" / "index.html").read_text()).find_all("code")
    assert len(blocks) == 2
    for block in blocks:
        assert block.find("span", cls="k") is not None and block.find("span", cls="k").text == "return"


def test_code_group_blocks_are_highlighted_too(make_site, tmp_path):
    body = page("<CodeGroup>\n\n```quill one\nreturn 1\n```\n\n```quill two\nif x\n```\n\n</CodeGroup>\n")
    docs = make(make_site, {"quill.json": json.dumps(QUILL), "index.mdx": body}, ["quill.json"])
    build(docs, tmp_path / "out")
    keywords = [
        s.text for s in parse((tmp_path / "out" / "index.html").read_text()).find_all("span", cls="k")
    ]
    assert keywords == ["return", "if"]


def test_compiled_grammars_pickle():
    grammar = compile_grammar(QUILL)
    again = pickle.loads(pickle.dumps(grammar))
    assert len(again.rules) == len(grammar.rules) and again.candidates(again.root)


def test_a_changed_grammar_invalidates_the_page_cache(make_site, tmp_path):
    body = page("```quill\nreturn 1\n```\n")
    docs = make(make_site, {"quill.json": json.dumps(QUILL), "index.mdx": body}, ["quill.json"])
    build(docs, tmp_path / "out", cache=True)
    assert tokens((tmp_path / "out" / "index.html").read_text())[0] == ("k", "return")
    changed = json.loads(json.dumps(QUILL))
    changed["repository"]["keywords"]["patterns"][0]["name"] = "entity.name.function.quill"
    (docs / "quill.json").write_text(json.dumps(changed) + "\n")
    build(docs, tmp_path / "out2", cache=True)
    assert tokens((tmp_path / "out2" / "index.html").read_text())[0] == ("nf", "return")


def diagnostics_of(make_site, tmp_path, grammar_text: str, code: str = "return 1", strict: bool = False):
    body = page(f"Intro.\n\n```quill\n{code}\n```\n")
    docs = make(make_site, {"langs/quill.json": grammar_text, "index.mdx": body}, ["langs/quill.json"])
    result = build(docs, tmp_path / "out", strict=strict)
    block = parse((tmp_path / "out" / "index.html").read_text()).find("code", cls="language-quill")
    assert block is not None and block.find("span", cls="k") is None  # plain text
    assert code.split("\n")[0][:50] in block.text
    return [d for d in result.diagnostics if "custom-language" in d.code]


def grammar_with(rule: dict, **extra) -> str:
    return json.dumps({"name": "quill", "scopeName": "source.quill", "patterns": [rule], **extra}, indent=2)


def test_invalid_json_is_located(make_site, tmp_path):
    found = diagnostics_of(make_site, tmp_path, '{\n  "name": "quill",\n  "patterns": [,]\n}\n')
    assert [(d.severity.value, d.path, d.line) for d in found] == [("warning", "langs/quill.json", 3)]
    assert "not JSON" in found[0].message and found[0].column > 0


def test_an_uncompilable_pattern_names_its_json_path(make_site, tmp_path):
    text = json.dumps(
        {
            "name": "quill",
            "scopeName": "source.quill",
            "patterns": [{"include": "#string"}],
            "repository": {"string": {"patterns": [{"match": "a"}, {"match": "b"}, {"match": "(?~abc)"}]}},
        },
        indent=2,
    )
    (found,) = diagnostics_of(make_site, tmp_path, text)
    assert found.json_path == "repository.string.patterns[2].match" and found.path == "langs/quill.json"
    assert found.line == text[: text.index('"(?~abc)"')].count("\n") + 1 and found.column > 1
    assert "(?~abc)" in found.message and "expected an Oniguruma regular expression" in found.message


def test_catastrophic_backtracking_is_stopped_at_the_block(make_site, tmp_path):
    text = grammar_with({"match": "(a|aa)+$", "name": "keyword.quill"})
    (found,) = diagnostics_of(make_site, tmp_path, text, code="a" * 60 + "!")
    assert found.code == "mdx.custom-language" and found.path == "index.mdx"
    assert (found.line, found.json_path) == (7, "patterns[0].match")  # the block's first line
    assert "catastrophic backtracking" in found.message and "langs/quill.json" in found.message


def test_self_recursive_rules_end(make_site, tmp_path):
    # a rule that begins again where it began (a zero-width begin including itself)
    text = grammar_with({"begin": "(?=r)", "end": "x", "patterns": [{"include": "$self"}]})
    (found,) = diagnostics_of(make_site, tmp_path, text)
    assert "endless recursion" in found.message and found.json_path == "patterns[0].begin"
    # an include of itself with nothing else: no rule to run, no endless loop either
    loop = grammar_with({"include": "#a"}, repository={"a": {"patterns": [{"include": "#a"}]}})
    assert diagnostics_of(make_site, tmp_path / "2", loop) == []


def test_deep_nesting(make_site, tmp_path):
    deep = '{"patterns": [' * 10_000 + '{"match": "return", "name": "keyword.quill"}' + "]}" * 10_000
    text = '{"name": "quill", "scopeName": "source.quill", "patterns": [' + deep + "]}"
    (found,) = diagnostics_of(make_site, tmp_path, text)
    assert "nested" in found.message and found.path == "langs/quill.json" and found.line == 1
    # nesting at run time: a block opening more rules than the stack holds
    nest = grammar_with({"begin": "\\(", "end": "\\)", "patterns": [{"include": "$self"}]})
    (found,) = diagnostics_of(make_site, tmp_path / "2", nest, code="(" * 1000)
    assert "nested more than" in found.message


def test_huge_file_and_outside_paths(make_site, tmp_path):
    big = grammar_with({"match": "x"}, padding="x" * (grammars.MAX_GRAMMAR_BYTES + 10))
    (found,) = diagnostics_of(make_site, tmp_path, big)
    assert "MB" in found.message and found.path == "docs.json" and found.json_path.endswith("custom[0]")
    body = page("```quill\nreturn\n```\n")
    files = {"index.mdx": body}
    (tmp_path / "secret.json").write_text(json.dumps(QUILL))
    listed = ["../secret.json", "/../../secret.json", "nope.json", "link.json"]
    docs = make(make_site, files, listed, name="d2")
    (docs / "link.json").symlink_to(tmp_path / "secret.json")  # a link inside pointing outside
    result = build(docs, tmp_path / "out2")
    notes = [(d.json_path, d.message) for d in result.diagnostics if d.code == "styling.custom-language"]
    assert [p for p, _ in notes] == [f"styling.codeblocks.languages.custom[{i}]" for i in range(4)]
    assert all("outside the docs folder" in notes[i][1] for i in (0, 1, 3))
    assert parse((tmp_path / "out2" / "index.html").read_text()).find("span", cls="k") is None


def test_strict_fails_on_grammar_problems(make_site, tmp_path):
    text = grammar_with({"match": "(a|aa)+$", "name": "keyword.quill"})
    with pytest.raises(DocsgenError):
        diagnostics_of(make_site, tmp_path, text, code="a" * 60 + "!", strict=True)
    with pytest.raises(DocsgenError):
        diagnostics_of(make_site, tmp_path / "2", '{"name": "quill", "patterns": [', strict=True)


def test_external_includes_are_noted(make_site, tmp_path):
    text = grammar_with({"include": "source.js"}, repository={})
    text = json.dumps(
        {
            **json.loads(text),
            "patterns": [{"include": "source.js"}, {"match": "return", "name": "keyword.quill"}],
        }
    )
    body = page("```quill\nreturn\n```\n")
    docs = make(make_site, {"quill.json": text, "index.mdx": body}, ["quill.json"])
    result = build(docs, tmp_path / "out", strict=True)  # an info: not an error under --strict
    notes = [d for d in result.diagnostics if d.code == "styling.custom-language"]
    assert [(d.severity.value, d.json_path) for d in notes] == [("info", "patterns[0].include")]
    assert tokens((tmp_path / "out" / "index.html").read_text()) == [("k", "return")]


def test_nothing_left_out_silently(make_site, tmp_path):
    nameless = json.dumps({"scopeName": "", "patterns": []})
    injecting = json.dumps({**QUILL, "injections": {"L:source.quill": {"patterns": []}}})
    files = {"a.json": json.dumps(QUILL), "b.json": injecting, "c.json": nameless, "index.mdx": page("Hi.\n")}
    docs = make(make_site, files, ["a.json", "b.json", "c.json"])
    result = build(docs, tmp_path / "out")
    notes = sorted(
        (d.path, d.severity.value, d.json_path, d.message) for d in result.diagnostics if "language" in d.code
    )
    assert [n[:3] for n in notes] == [
        ("b.json", "info", "injections"),
        ("b.json", "info", "name"),
        ("b.json", "info", "name"),
        ("c.json", "warning", "name"),
    ]
    assert "'quill' is also named by a.json" in notes[1][3] + notes[2][3]


def test_grammars_load_once_per_build_with_the_render_pool(make_site, tmp_path, monkeypatch):
    log = tmp_path / "loads.txt"
    load = grammars._load

    def counted(*args):
        with log.open("a") as out:  # (forked workers append here too)
            out.write("load\n")
        return load(*args)

    monkeypatch.setattr(grammars, "_load", counted)
    # the first page (rendered before the pool forks) has no custom block: the grammars must be loaded anyway
    pages = {f"p{i}.mdx": page(f"```quill\nreturn {i}\n```\n" if i else "Hi.\n") for i in range(120)}
    config = {
        **BASE,
        "navigation": {"groups": [{"group": "G", "pages": [f"p{i}" for i in range(120)]}]},
        "styling": {"codeblocks": {"languages": {"custom": ["quill.json"]}}},
    }
    docs = make_site({"docs.json": json.dumps(config), "quill.json": json.dumps(QUILL), **pages})
    build(docs, tmp_path / "out", workers=2)
    assert log.read_text().count("load") == 1
    for i in (1, 77, 119):
        assert ("k", "return") in tokens((tmp_path / "out" / f"p{i}" / "index.html").read_text())


def test_a_page_has_a_time_budget_for_its_custom_blocks(make_site, tmp_path, monkeypatch):
    monkeypatch.setattr(grammars, "PAGE_SECONDS", 0.0)  # spent before the first block
    found = diagnostics_of(make_site, tmp_path, json.dumps(QUILL), code="return 2")
    assert [(d.code, d.line) for d in found] == [("mdx.custom-language", 7)]
    assert "the page's blocks in custom languages took over 0 s" in found[0].message


def test_a_grammar_may_include_another_listed_one(make_site, tmp_path):
    host = {
        "name": "host",
        "scopeName": "source.host",
        "patterns": [{"begin": "q`", "end": "`", "patterns": [{"include": "source.quill"}]}],
    }
    files = {
        "host.json": json.dumps(host),
        "quill.json": json.dumps(QUILL),
        "index.mdx": page("```host\nq`return 1`\n```\n"),
    }
    docs = make(make_site, files, ["host.json", "quill.json"])
    result = build(docs, tmp_path / "out", strict=True)
    assert [d for d in result.diagnostics if "language" in d.code] == []  # nothing left out
    assert ("k", "return") in tokens((tmp_path / "out" / "index.html").read_text())
