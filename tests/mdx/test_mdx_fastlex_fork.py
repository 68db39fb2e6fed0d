"""A lexer the pages rendered before the fork used much has its first-character tables made there, once:
forked workers inherit them instead of working them out again (docsgen.mdx.fastlex.sort_tried)."""

from __future__ import annotations

import os

import pytest
from pygments.lexer import RegexLexer
from pygments.token import Keyword, Name, Number, Operator, Text

from docsgen.mdx import fastlex


def _lexer_class() -> type[RegexLexer]:
    class Tiny(RegexLexer):  # a class of its own: no other test has tried its runs
        tokens = {
            "root": [
                (r"\s+", Text),
                (r"(if|else|while)\b", Keyword),
                (r"[0-9]+", Number),
                (r"[+*/=-]", Operator),
                (r"[a-z_]\w*", Name),
            ]
        }

    return Tiny


CODE = "if x = 12 else y + 3\n"  # 16 tries of the root run


def _lex(lexer: RegexLexer, times: int) -> list:
    return [token for _ in range(times) for token in lexer.get_tokens(CODE)]


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = fastlex.first_chars

    def counted(pattern):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real(pattern)

    monkeypatch.setattr(fastlex, "first_chars", counted)
    monkeypatch.setattr(fastlex, "_DISPATCH", {})  # only this test's lexer has been tried
    return calls


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked only where fork exists")
def test_forked_child_does_not_work_out_tables_made_before_the_fork(monkeypatch):
    calls = _counting(monkeypatch)
    cls = _lexer_class()
    lexer = fastlex.accelerate(cls())
    plain = cls()
    assert _lex(lexer, 4) == _lex(plain, 4)  # 64 tries: more than a lexer used much before the fork
    assert calls[0] == 0  # not yet: fewer than _SORT_AFTER tries
    assert fastlex.sort_tried() == 1
    assert calls[0] == 5  # the root run's five rules, once
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child lexes past _SORT_AFTER tries and reports how many tables it made
        try:
            same = _lex(lexer, 200) == _lex(plain, 200)
            os.write(write, f"{calls[0]} {same}".encode())
        finally:
            os._exit(0)
    os.close(write)
    report = os.read(read, 100).decode()
    os.close(read)
    os.waitpid(pid, 0)
    assert report == "5 True"  # nothing worked out again in the child; same tokens as Pygments'


def test_a_lexer_little_used_before_the_fork_is_not_sorted(monkeypatch):
    calls = _counting(monkeypatch)
    cls = _lexer_class()
    lexer = fastlex.accelerate(cls())
    _lex(lexer, 1)  # 16 tries: a page with a line of code
    fastlex.sort_tried()
    assert calls[0] == 0
    assert all(
        not run.firsts
        for steps in fastlex._DISPATCH[cls].values()
        for marker, run in steps
        if marker is fastlex._RUN
    )
