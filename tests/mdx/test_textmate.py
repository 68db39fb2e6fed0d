"""The TextMate tokenizer (docsgen.mdx.textmate, tmtokenize, tmregex) on grammars shaped like real ones:
`\\G` anchors, `while` rules, capture patterns, back-references, applyEndPatternLast, Oniguruma syntax."""

from __future__ import annotations

import pytest

from docsgen.mdx.textmate import GrammarError, compile_grammar
from docsgen.mdx.tmregex import compile_pattern, translate
from docsgen.mdx.tmtokenize import Overrun, html_lines, token_class, tokenize


def run(grammar: dict, code: str) -> list[list[tuple[str | None, str]]]:
    """Return each line's pieces with neighbours of one class merged."""
    out = []
    for line in tokenize(compile_grammar({"scopeName": "source.t", **grammar}), code):
        merged: list[tuple[str | None, str]] = []
        for cls, text in line:
            if merged and merged[-1][0] == cls:
                merged[-1] = (cls, merged[-1][1] + text)
            elif text:
                merged.append((cls, text))
        out.append(merged)
    return out


# Shaped like the TOML grammar Shiki ships: a zero-width comment rule ended by `(?!\G)`, values matched with
# `\G` right after `key =`, a key's dotted parts retokenized by capture patterns.
TOMLISH = {
    "patterns": [{"include": "#comments"}, {"include": "#pair"}],
    "repository": {
        "comments": {
            "begin": "(^[ \\t]+)?(?=#)",
            "end": "(?!\\G)",
            "patterns": [{"begin": "#", "end": "\\n", "name": "comment.line.number-sign.t"}],
        },
        "pair": {
            "begin": "([A-Za-z0-9_.-]+)\\s*(=)\\s*",
            "beginCaptures": {
                "1": {
                    "name": "variable.other.key.t",
                    "patterns": [{"match": "\\.", "name": "punctuation.separator.variable.t"}],
                },
                "2": {"name": "punctuation.separator.key-value.t"},
            },
            "end": "(?<=\\S)(?<!=)|$",
            "patterns": [
                {"match": "\\G(true|false)", "name": "constant.language.boolean.t"},
                {"match": "\\G\\d+", "name": "constant.numeric.integer.t"},
                {"begin": '\\G"', "end": '"', "name": "string.quoted.double.t"},
            ],
        },
    },
}


def test_anchor_g_matches_where_the_begin_ended():
    lines = run(TOMLISH, '# top\nkey = true\nname = "x y"\na.b = 12 # no\nflag = 1true')
    assert lines[0] == [("c1", "# top")]
    assert lines[1] == [
        ("nv", "key"),
        (None, " "),
        ("p", "="),
        (None, " "),
        ("kc", "true"),
    ]  # \G after `key = `
    assert lines[2] == [("nv", "name"), (None, " "), ("p", "="), (None, " "), ("s2", '"x y"')]
    assert lines[3][:3] == [("nv", "a"), ("p", "."), ("nv", "b")]  # a capture's own patterns
    assert ("mi", "12") in lines[3] and ("c1", "# no") in lines[3]
    assert ("kc", "true") not in lines[4]  # `true` is not where the begin ended: \G does not match there


def test_while_rules_hold_while_each_line_matches():
    grammar = {
        "patterns": [
            {
                "begin": "^(>) ",
                "while": "^(>) ",
                "name": "markup.quote.t",
                "beginCaptures": {"1": {"name": "punctuation.definition.quote.t"}},
                "whileCaptures": {"1": {"name": "punctuation.definition.quote.t"}},
                "patterns": [{"match": "\\bdo\\b", "name": "keyword.t"}],
            },
            {"match": "\\bdo\\b", "name": "storage.type.t"},
        ]
    }
    lines = run(grammar, "> do this\n> and do\ndo it")
    assert ("k", "do") in lines[0] and ("k", "do") in lines[1]
    assert lines[2][0] == ("kt", "do")  # the quote ended: outer rules again


def test_end_back_reference_and_apply_end_pattern_last():
    heredoc = {
        "patterns": [
            {
                "begin": "<<(\\w+)",
                "end": "^\\1$",
                "name": "string.unquoted.heredoc.t",
                "patterns": [{"match": "\\$\\w+", "name": "variable.other.t"}],
            }
        ]
    }
    lines = run(heredoc, "<<EOT\nhi $name\nEOTX\nEOT\nafter")
    assert ("nv", "$name") in lines[1] and lines[2] == [("s", "EOTX")] and lines[3] == [("s", "EOT")]
    assert lines[4] == [(None, "after")]
    last = {
        "patterns": [
            {
                "begin": "\\(",
                "end": "\\)",
                "applyEndPatternLast": True,
                "name": "meta.paren.t",
                "patterns": [{"match": "\\)\\)", "name": "keyword.operator.t"}],
            }
        ]
    }
    assert ("o", "))") in run(last, "(a))")[0]  # the patterns win a tie with `end`


def test_nested_captures_and_scope_classes():
    grammar = {
        "patterns": [
            {
                "match": "((def)\\s+(\\w+))\\((\\w*)\\)",
                "captures": {
                    "1": {"name": "meta.function.t"},
                    "2": {"name": "storage.type.function.t"},
                    "3": {"name": "entity.name.function.t"},
                    "4": {"name": "variable.parameter.t"},
                },
            }
        ]
    }
    assert run(grammar, "def go(x)")[0] == [
        ("kt", "def"),
        (None, " "),
        ("nf", "go"),
        (None, "("),
        ("nv", "x"),
        (None, ")"),
    ]
    assert (
        token_class(("source.t", "string.quoted.single.t", "punctuation.definition.string.begin.t")) == "s1"
    )
    assert token_class(("source.t", "comment.block.documentation.t")) == "cs"
    assert token_class(("source.t", "meta.tag.t")) is None


def test_html_is_escaped():
    grammar = {"patterns": [{"match": "<\\w+>", "name": "entity.name.tag.t"}]}
    assert html_lines(tokenize(compile_grammar(grammar), "<b> & </b>")) == [
        '<span class="nt">&lt;b&gt;</span> &amp; &lt;/b&gt;'
    ]


@pytest.mark.parametrize(
    ("oniguruma", "text", "found"),
    [
        ("\\h+", "zz0fFg", "0fF"),
        ("[\\h_]+", "-a_9-", "a_9"),
        ("a++b", "aab", "aab"),
        ("(?>ab|a)c", "abc", "abc"),
        ("(?<q>['\"])x\\k<q>", "'x'", "'x'"),
        ("\\x{41}+", "AAB", "AA"),
        ("[[:upper:]][[:word:]]*", "a Foo_1", "Foo_1"),
        ("[a-z&&[^aeiou]]+", "abcde", "bcd"),
        ("(?m:a.b)", "a\nb", "a\nb"),  # Ruby's m: dot matches a newline
        ("x\\Ry", "x\r\ny", "x\r\ny"),
    ],
)
def test_oniguruma_syntax(oniguruma, text, found):
    m = compile_pattern(oniguruma, "match").compiled.search(text)
    assert m is not None and m.group(0) == found, translate(oniguruma)


def test_grammar_errors_name_the_json_path():
    with pytest.raises(GrammarError) as caught:
        compile_grammar({"patterns": [{"include": "#nope"}], "repository": {"a": {"match": "x"}}})
    assert caught.value.path == ("patterns", 0, "include")
    with pytest.raises(GrammarError) as caught:
        compile_grammar({"patterns": [], "repository": {"a": {"begin": "(", "end": "x"}}})
    assert caught.value.path == ("repository", "a", "begin") and caught.value.offset is not None
    with pytest.raises(GrammarError) as caught:
        compile_grammar({"name": "x"})
    assert caught.value.path == ("patterns",)


def test_bounds():
    paren = {"patterns": [{"begin": "\\(", "end": "\\)", "patterns": [{"include": "$self"}]}]}
    with pytest.raises(Overrun) as caught:
        tokenize(compile_grammar(paren), "(" * 500)
    assert "nested more than" in caught.value.message and caught.value.where == "patterns[0].begin"
    with pytest.raises(Overrun) as caught:
        tokenize(compile_grammar(paren), "x\n" + "y" * 20_000)
    assert caught.value.line == 2 and "characters" in caught.value.message
    slow = {"patterns": [{"match": "(\\w|\\w\\w)+$", "name": "keyword.t"}]}
    with pytest.raises(Overrun) as caught:
        tokenize(compile_grammar(slow), "a" * 80 + "!")
    assert caught.value.where == "patterns[0].match"


def test_token_and_time_budgets(monkeypatch):
    from docsgen.mdx import tmtokenize

    words = compile_grammar({"patterns": [{"match": "\\w+", "name": "keyword.t"}]})
    monkeypatch.setattr(tmtokenize, "MAX_TOKENS", 50)
    with pytest.raises(Overrun) as caught:
        tokenize(words, "a b c d e f g h i j\n" * 6)
    assert "more than 50 tokens" in caught.value.message and caught.value.line == 6
    with pytest.raises(Overrun) as caught:
        tokenize(words, "a b", seconds=0)
    assert "time ran out" in caught.value.message


def test_rule_count_is_bounded(monkeypatch):
    from docsgen.mdx import textmate

    monkeypatch.setattr(textmate, "MAX_RULES", 10)
    rules = [{"match": f"w{i}", "name": "keyword.t"} for i in range(20)]
    with pytest.raises(GrammarError) as caught:
        compile_grammar({"patterns": rules})
    assert "more than 10 rules" in caught.value.message and caught.value.path == ("patterns", 9)


def test_includes_of_other_listed_grammars():
    other = {
        "scopeName": "source.sql",
        "patterns": [{"include": "#kw"}, {"begin": "\\(", "end": "\\)", "patterns": [{"include": "$self"}]}],
        "repository": {
            "kw": {"match": "\\bSELECT\\b", "name": "keyword.sql"},
            "num": {"match": "\\d+", "name": "constant.numeric.sql"},
        },
    }
    host = {
        "scopeName": "source.host",
        "patterns": [
            {"begin": "sql`", "end": "`", "patterns": [{"include": "source.sql"}]},
            {"match": "\\bnum\\b", "name": "storage.type.host"},
            {
                "begin": "n`",
                "end": "`",
                "patterns": [{"include": "source.sql#num"}, {"include": "source.js"}],
            },
        ],
    }
    grammar = compile_grammar(host, {"source.sql": other})
    assert grammar.external == ("source.js",)
    line = [(c, t) for c, t in tokenize(grammar, "sql`SELECT (SELECT 1)` n`42` SELECT")[0] if c]
    assert line == [("k", "SELECT"), ("k", "SELECT"), ("m", "42")]  # `$self` inside is the other grammar
    alone = compile_grammar(host)
    assert alone.external == ("source.sql", "source.js") and len(alone.notes) == 3
