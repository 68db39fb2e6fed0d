"""First-character dispatch of the fast lexer loop (docsgen.mdx.firstchars, docsgen.mdx.fastlex): a rule is
left out at a position only when it cannot start with the character there, so tokens stay Pygments' own."""

from __future__ import annotations

import random
import re

import pytest
from pygments.lexers import get_lexer_by_name

from docsgen.mdx import fastlex
from docsgen.mdx.fastlex import accelerate
from docsgen.mdx.firstchars import first_chars

from .test_mdx_fastlex import SAMPLES


def chars(pattern: str, flags: int = 0) -> set[str] | None:
    got = first_chars(re.compile(pattern, flags))
    return None if got is None else {chr(code) for code in got}


def test_first_chars_of_sequences_classes_and_flags():
    assert chars(r"abc") == {"a"}
    assert chars(r"(?<!\.)(def|class)\b") == {"d", "c"}  # a lookbehind matches empty
    assert chars(r"\s*#.*") == {"\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ", "#"}
    assert chars(r"[rRbB]{0,2}'") == {"r", "R", "b", "B", "'"}
    assert chars(r"x{0}y") == {"x", "y"}  # over-estimates are allowed
    assert chars(r"(?i)select") == {"s", "S"}
    assert chars("(?i)\u212a") == {"k", "K"}  # KELVIN SIGN folds to ASCII k under IGNORECASE
    assert chars(r"(?i:a)b") == {"a", "A"}
    assert chars(r"[^a-z]") == {chr(c) for c in range(128)} - set("abcdefghijklmnopqrstuvwxyz")
    assert chars(r".", re.S) == {chr(c) for c in range(128)}
    assert chars(r".") == {chr(c) for c in range(128)} - {"\n"}
    assert chars("\u00e9") == set()  # only non-ASCII starts


@pytest.mark.parametrize("pattern", [r"a*", r"(?=x)", r"\b", r"(a)?\1", r"(a)?(?(1)b|c)", r"x|", r"(?:a|b?)"])
def test_rules_that_can_start_anywhere_or_match_empty_get_no_estimate(pattern):
    assert first_chars(re.compile(pattern)) is None


LANGS = sorted(SAMPLES) + ["java", "csharp", "php", "powershell", "docker", "toml", "kotlin", "swift", "diff"]


def test_estimates_hold_on_every_match_of_real_rules():
    """Every rule of these lexers, matched at every position of the samples: the character there (ASCII) is in
    the rule's estimate."""
    text = "".join("".join(v) for v in SAMPLES.values())
    for lang in LANGS:
        lexer = get_lexer_by_name(lang)
        for rules in lexer._tokens.values():
            for rule in rules:
                compiled = getattr(rule[0], "__self__", None)
                estimate = first_chars(compiled)
                if estimate is None:
                    continue
                for pos in range(len(text)):
                    if ord(text[pos]) < 128 and compiled.match(text, pos):
                        assert ord(text[pos]) in estimate, (lang, compiled.pattern, pos)


def _fuzz(seed: int, size: int) -> str:
    rng = random.Random(seed)
    alphabet = "abcxyzABCK_019 \t\n\r\"'`\\/#$%&()*+,-.:;<=>?@[]{}|~!^é\u212aü\u2028"
    return "".join(rng.choice(alphabet) for _ in range(size))


@pytest.mark.parametrize("lang", LANGS)
def test_tokens_equal_pygments_on_random_text(lang, monkeypatch):
    monkeypatch.setattr(fastlex, "_DISPATCH", {})
    monkeypatch.setattr(fastlex, "_SORT_AFTER", 1)  # every run sorts its rules at once
    reference = get_lexer_by_name(lang, stripnl=False, ensurenl=False)
    fast = accelerate(get_lexer_by_name(lang, stripnl=False, ensurenl=False))
    for seed in range(12):
        text = _fuzz(seed, 400)
        assert list(fast.get_tokens(text)) == list(reference.get_tokens(text))
    for text in SAMPLES.get(lang, []) + ["".join(SAMPLES[other]) for other in sorted(SAMPLES)]:
        assert list(fast.get_tokens(text)) == list(reference.get_tokens(text))


def test_combined_regex_is_tried_only_where_many_rules_can_start(monkeypatch):
    """Punctuation, spaces, quotes and digits try the few rules that can start with them, not the combined
    regex of all the state's rules: counted over a fresh dispatch table."""
    monkeypatch.setattr(fastlex, "_DISPATCH", {})
    monkeypatch.setattr(fastlex, "_SORT_AFTER", 1)
    lexer = accelerate(get_lexer_by_name("python", stripnl=False, ensurenl=False))
    text = "x = f(a, [1, 2], {'k': (3)}) + 4\n" * 20
    reference = list(get_lexer_by_name("python", stripnl=False, ensurenl=False).get_tokens(text))
    calls = [0]
    real_compile = re.compile

    def counting_compile(pattern, flags=0):
        compiled = real_compile(pattern, flags)
        if "|" in str(pattern) and compiled.groups > 10:  # a combined regex of a run of rules

            class Counted:
                groups = compiled.groups

                @staticmethod
                def match(text, pos=0):
                    calls[0] += 1
                    return compiled.match(text, pos)

            return Counted
        return compiled

    monkeypatch.setattr(fastlex.re, "compile", counting_compile)
    assert list(lexer.get_tokens(text)) == reference
    positions = len(reference)
    assert 0 < calls[0] < positions / 3  # names start with letters: many rules can; the rest go alone


def test_first_characters_are_worked_out_only_for_runs_tried_often(monkeypatch):
    monkeypatch.setattr(fastlex, "_DISPATCH", {})
    lexer = accelerate(get_lexer_by_name("python", stripnl=False, ensurenl=False))
    worked_out = []
    monkeypatch.setattr(fastlex, "first_chars", lambda p: worked_out.append(p) or first_chars(p))
    text = "x = f(a, [1, 2])\n"
    reference = get_lexer_by_name("python", stripnl=False, ensurenl=False)
    assert list(lexer.get_tokens(text)) == list(reference.get_tokens(text))
    assert worked_out == []  # a little code: the combined regex alone
    many = text * 200
    assert list(lexer.get_tokens(many)) == list(reference.get_tokens(many))
    assert worked_out  # the root state's run was tried more than _SORT_AFTER times
