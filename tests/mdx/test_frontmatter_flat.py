"""Flat frontmatter (plain `key: value` lines) skips the bounds walk; what it reads and reports is unchanged."""

from __future__ import annotations

import pytest

import docsgen.mdx.frontmatter as frontmatter
from docsgen.mdx.frontmatter import load_frontmatter


@pytest.mark.parametrize(
    "text",
    [
        "title: Home\ndescription: The start\nicon: rocket\n",
        "title: 'Quoted: yes'\nsidebarTitle: Short\nversion: 2\n",
        "title: Dated\ndate: 2024-01-31\n",
    ],
)
def test_flat_frontmatter_reads_as_the_full_walk_does(text, monkeypatch):
    assert frontmatter._flat(text)
    fast = load_frontmatter(text, "a.mdx", 2)
    monkeypatch.setattr(frontmatter, "_flat", lambda _: False)
    assert fast == load_frontmatter(text, "a.mdx", 2)


@pytest.mark.parametrize(
    "text",
    [
        "a: &x [1]\nb: *x\n",  # anchors and aliases
        "keywords: [a, b]\n",  # flow collection
        "nested:\n  deeper: 1\n",  # indentation
        "- a\n- b\n",  # a list
        "k: v\n" * 6000,  # more values than the bound
    ],
)
def test_anything_else_takes_the_bounded_walk(text):
    assert not frontmatter._flat(text)


def test_a_message_on_flat_frontmatter_still_points_at_its_key():
    meta, diagnostics = load_frontmatter("description: fine\ntitle: true\n", "a.mdx", 2)
    assert "title" not in meta
    (warning,) = diagnostics
    assert (warning.line, warning.column) == (3, 1) and "`title` must be text" in warning.message


PLAIN_LINES = [
    "title: Home",
    "description: The start of it all",
    "title: v1 de page 166",
    "title: C# and F#",  # '#' without a space before it is text
    "title: 50% off",
    "title: a/b (c) - d, e.f",
    "title: Ünïcode — “quotes”",
    "title:   spaced   ",
    "sidebar_title: x",
    "icon: rocket",
]
NOT_PLAIN_LINES = [
    "version: 2",
    "ratio: 1.5",
    "public: yes",
    "public: off",
    "flag: true",
    "nothing: null",
    "tilde: ~",
    "date: 2024-01-31",
    "octal: 017",
    "sexagesimal: 1:30",
    "title: Quoted: yes",
    "title: text # a comment",
    "title: 'single'",
    'title: "double"',
    "title: [a, b]",
    "title: {a: b}",
    "title: - item",
    "title: |",
    "title: >",
    "title: &anchor x",
    "title: *alias",
    "title: !tag x",
    "title: @at",
    "title: `tick",
    "title: ends with colon:",
    "title: tab\there",
    "title: line\u2028separator",
    "title:",
    "yes: key that YAML reads as a boolean",
    "123: numeric key",
    "  indented: x",
    "- list: item",
    "title: a\ntitle: duplicate",
    "title: first\n  continued",
]


@pytest.mark.parametrize("line", PLAIN_LINES)
def test_plain_lines_are_read_without_yaml_as_yaml_reads_them(line):
    import yaml

    text = f"{line}\nother: plain words\n"
    plain = frontmatter._plain(text)
    assert plain is not None, line
    assert plain == yaml.load(text, Loader=yaml.CSafeLoader)


@pytest.mark.parametrize("line", NOT_PLAIN_LINES)
def test_anything_else_is_left_to_yaml(line):
    assert frontmatter._plain(f"{line}\n") is None, line


def test_random_lines_never_read_otherwise_than_yaml():
    import random

    import yaml

    rng = random.Random(22)
    alphabet = "ab yZ:#-'\"&*!%@`|>[]{},?~.019\t\\/()éß\u2028\r"
    checked = 0
    for _ in range(20000):
        line = "k: " + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        plain = frontmatter._plain(line)
        if plain is None:
            continue
        checked += 1
        assert plain == yaml.load(line, Loader=yaml.CSafeLoader), repr(line)
    assert checked > 500  # the fast path was taken often enough to mean something


def test_every_fixture_page_reads_the_same_with_or_without_the_plain_path(monkeypatch):
    from tests.conftest import FIXTURES

    texts = []
    for path in sorted(FIXTURES.rglob("*.mdx")):
        source = path.read_text(encoding="utf-8", errors="replace")
        if source.startswith("---\n") and "\n---" in source[4:]:
            texts.append(source[4 : source.index("\n---", 4) + 1])
    assert len(texts) > 20
    fast = [load_frontmatter(text, "a.mdx", 2) for text in texts]
    monkeypatch.setattr(frontmatter, "_plain", lambda _: None)
    assert fast == [load_frontmatter(text, "a.mdx", 2) for text in texts]
