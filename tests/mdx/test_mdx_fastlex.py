"""The combined-regex lexer loop (docsgen.mdx.fastlex) yields exactly Pygments' own tokens."""

from __future__ import annotations

import pytest
from pygments.lexers import get_lexer_by_name

from docsgen.mdx.code import get_lexer, highlight_lines
from docsgen.mdx.fastlex import _DISPATCH, accelerate

SAMPLES = {
    "python": [
        'def f(x: int) -> str:\n    """Doc."""\n    return f"{x!r:>{width}} {{literal}}"\n',
        "class A(B, metaclass=M):\n    @property\n    def x(self): return 0x1F + 1_000 + 3.5e-2j\n",
        "match cmd:\n    case [x, *rest] if x > 0:\n        print(rb'\\d+', u'ü')\n",
        "from .pkg import (a as b,\n  c)\nimport os.path\nasync def g(): await h()\n",
        "x = '''unterminated\n",
    ],
    "bash": [
        "cat <<EOF\nhello $USER ${HOME:-/root}\nEOF\necho done\n",
        "cat <<-'END'\n\tliteral $x\n\tEND\nfor i in $(seq 1 3); do echo \"$i\"; done\n",
        "curl -X POST https://api.example.com -H 'Authorization: Bearer $TOKEN' -d '{\"a\":1}'\n",
        "if [[ -f x && $((1+2)) -eq 3 ]]; then `uname -a`; fi # comment\n",
    ],
    "sql": ["SELECT a, COUNT(*) FROM t WHERE b = 'x''y' GROUP BY a;\nselect * from T -- lower case\n"],
    "javascript": [
        "const re = /a[/]b/g; let s = `x ${y + `z`}`; // c\nexport default async function* f() {}\n",
        "a = b\n/ c / d; x = y => ({...z});\n",
    ],
    "typescript": ["type T<U extends keyof V> = { [K in U]?: V[K] };\nenum E { A = 1 }\n"],
    "html": ['<!doctype html><div class="a" onclick="f(1)"><script>if (a < b) {}</script><style>a{}</style>'],
    "css": ["@media (max-width: 10px) { .a:hover::before { content: '\\201C'; color: #fff !important } }\n"],
    "go": ["package main\nfunc main() { x := []int{1}; fmt.Printf(`%v\n`, x) }\n"],
    "rust": [
        'fn main<\'a>(x: &\'a str) -> Result<(), Box<dyn Error>> { println!("{x}"); r#"raw"#; Ok(()) }\n'
    ],
    "yaml": ["a: &anchor\n  - b: |\n      text\n  - *anchor\n"],
    "graphql": ['query Q($id: ID!) { user(id: $id) { ...F @include(if: true) } }\n"""block"""\n'],
    "ruby": ["def f(*a, **k) = a.map { |x| x * 2 }\nputs <<~EOS\n  #{1 + 1}\nEOS\n"],
    "perl": ['my $s = q{a}; $s =~ s/(\\w+)/\\U$1/g; print <<"END";\nx\nEND\n'],
}


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_tokens_equal_pygments(lang):
    reference = get_lexer_by_name(lang, stripnl=False, ensurenl=False)
    fast = accelerate(get_lexer_by_name(lang, stripnl=False, ensurenl=False))
    samples = SAMPLES[lang] + ["".join(SAMPLES[other]) for other in sorted(SAMPLES)]  # foreign code too
    for text in samples:
        assert list(fast.get_tokens(text)) == list(reference.get_tokens(text))
        for pos in (1, len(text) // 2):  # starting mid-construct exercises error recovery
            assert list(fast.get_tokens(text[pos:])) == list(reference.get_tokens(text[pos:]))


def test_site_lexers_are_accelerated_and_states_combined():
    lexer = get_lexer("python")
    assert "get_tokens_unprocessed" in vars(lexer)
    highlight_lines("x = 1\n", "python")
    steps = _DISPATCH[type(lexer)]["root"]
    rules = len(type(lexer)._tokens["root"])
    assert any(matcher is not None for matcher, _ in steps)
    assert len(steps) < rules / 4  # dozens of rules, a few combined steps


def test_heredoc_backreference_rule_is_tried_alone():
    lexer = get_lexer("bash")
    list(lexer.get_tokens("cat <<EOF\nx\nEOF\n"))
    steps = _DISPATCH[type(lexer)]["root"]
    alone = [entry for matcher, entry in steps if matcher is None]
    assert any("\\2" in entry[0].__self__.pattern for entry in alone)


def test_other_lexers_unchanged():
    lexer = get_lexer_by_name("json")
    assert accelerate(lexer) is lexer
    assert "get_tokens_unprocessed" not in vars(lexer)
