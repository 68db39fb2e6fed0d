"""What Pagefind indexes is bounded: a page holding one 4 MB word builds in seconds (Pagefind's time grew with the
square of a word's length: 12 s for 2 MB of random letters here, 71 s and 257 s for 2 and 4 MB in the report)."""

from __future__ import annotations

import json
import random
import string

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
