"""Classes of real Mintlify pages that lost content: each case is the smallest page of its class."""

from __future__ import annotations

from tests.mdx_helpers import render


def test_line_starting_with_an_html_block_tag_and_more_is_jsx_not_raw_html():
    # `<div/>` and `<br />` open CommonMark raw HTML blocks; MDX reads them as JSX followed by content.
    html = render('<div/>{/* note */}\n<Frame caption="Cap">\n  Inside\n</Frame>\n').html
    assert "{/*" not in html and "note" not in html
    assert "<figcaption>Cap</figcaption>" in html and "&lt;Frame" not in html and "<Frame" not in html
    html = render("<br /> Click **here** and see [the docs](/docs) <Badge>New</Badge>\n").html
    assert "<strong>here</strong>" in html and 'href="/docs/"' in html
    assert "dg-badge" in html and "<Badge" not in html and "**" not in html


def test_closing_tag_with_a_space_after_the_slash_closes_the_component():
    result = render("<Note>\nhello\n</ Note>\n\nafter\n")
    assert "&lt;/ Note&gt;" not in result.html and not result.diagnostics
    callout_end = result.html.index("</div></div>")
    assert result.html.index("after") > callout_end
