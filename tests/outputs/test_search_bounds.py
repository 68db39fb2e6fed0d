"""What Pagefind indexes is bounded: a page holding one 4 MB word builds in seconds (Pagefind's time grew with the
square of a word's length: 12 s for 2 MB of random letters here, 71 s and 257 s for 2 and 4 MB in the report)."""

from __future__ import annotations

import json
import random
import string

from docsgen.outputs import pagefind
from docsgen.outputs.pagefind import MAX_TOKEN_CHARS, bounded_record
from tests.bounded import run_cli


def test_long_words_are_cut_tags_and_quotes_kept():
    html = '<p class="x">short ' + "a" * 5000 + ' word <a href="' + "h" * 300 + '">t</a></p>'
    bounded = bounded_record(html)
    assert bounded == (
        '<p class="x">short '
        + "a" * MAX_TOKEN_CHARS
        + ' word <a href="'
        + "h" * MAX_TOKEN_CHARS
        + '">t</a></p>'
    )


def test_a_record_without_a_long_run_is_not_scanned_by_the_regex(monkeypatch):
    """Only a record with a whitespace-separated chunk longer than MAX_TOKEN_CHARS goes through the regex; every
    other comes back as it is. Runs cut by quotes or tags within a long chunk are kept whole when short."""
    scanned: list[str] = []

    class Counting:
        def sub(self, repl, html):
            scanned.append(html)
            return real.sub(repl, html)

    real = pagefind._LONG_TOKEN
    monkeypatch.setattr(pagefind, "_LONG_TOKEN", Counting())
    plain = "<p>" + " ".join(["word"] * 500) + ' <a href="x"> ' + "b" * MAX_TOKEN_CHARS + " </a></p>"
    assert bounded_record(plain) == plain
    assert scanned == []
    quoted = "<p>" + ('"' + "c" * 150) * 3 + "</p>"  # a 450-character chunk whose runs are 150 long
    assert bounded_record(quoted) == quoted
    assert scanned == [quoted]
    long = "<p>x " + "d" * (MAX_TOKEN_CHARS + 1) + " y</p>"
    assert bounded_record(long) == "<p>x " + "d" * MAX_TOKEN_CHARS + " y</p>"


def test_a_page_with_a_four_megabyte_word_builds_in_time(make_site, tmp_path):
    config = {
        "theme": "mint",
        "name": "S",
        "colors": {"primary": "#112233"},
        "navigation": {"pages": ["index"]},
    }
    rng = random.Random(1)
    word = "".join(rng.choice(string.ascii_lowercase) for _ in range(4_000_000))
    docs = make_site({"docs.json": json.dumps(config), "index.mdx": "# Hi\n\nfindme " + word + "\n"})
    done = run_cli("build", docs, "-o", tmp_path / "out", deadline=40)
    assert done.returncode == 0, done.stderr[-2000:]
    assert any((tmp_path / "out").rglob("pagefind-entry.json"))
