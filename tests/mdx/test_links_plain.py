"""Links markdown-it would give back unchanged skip its URL parse (docsgen.mdx.parser): same result either way."""

from __future__ import annotations

import random

import pytest
from markdown_it import MarkdownIt

from docsgen.mdx.parser import _PLAIN_LINK, MD

REFERENCE = MarkdownIt()  # markdown-it's own normalizeLink, no shortcut


@pytest.mark.parametrize(
    "url",
    [
        "/docs/quickstart",
        "../../v1/en/section-1/page-80/",
        "#overview",
        "guide?tab=python&x=1#install",
        "https://example.com/docs/11",
        "http://a.b-c.d/x_y~z",
        "https://example.com",
    ],
)
def test_plain_links_take_the_shortcut(url):
    assert _PLAIN_LINK.match(url) and MD.normalizeLink(url) == REFERENCE.normalizeLink(url) == url


@pytest.mark.parametrize(
    "url",
    [
        "HTTPS://Example.COM/Docs",  # scheme and host lowercased
        "https://EXAMPLE.com/x",
        "//cdn.example.com/x.js",  # protocol-relative: a host
        "/a b",
        "/café",
        "/100%",
        "/x%20y",
        "mailto:me@example.com",
        "https://example.com:8080/x",
        "javascript:alert(1)",
        "/a\\b",
        "https://bücher.example/",
    ],
)
def test_other_links_are_normalised_by_markdown_it(url):
    assert not _PLAIN_LINK.match(url)
    assert MD.normalizeLink(url) == REFERENCE.normalizeLink(url)


def test_random_links_agree_with_markdown_it():
    rng = random.Random(7)
    alphabet = "abcXYZ019-._~/#?=&:% é\\"
    prefixes = ["", "/", "//", "http://", "https://", "HTTP://", "https://a.B", "https://ex.com", "mailto:"]
    for _ in range(20_000):
        url = rng.choice(prefixes) + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert MD.normalizeLink(url) == REFERENCE.normalizeLink(url), url
