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
