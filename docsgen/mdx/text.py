"""Plain text of a rendered page (search, llms-full.txt) and audience markers for <Visibility>."""

from __future__ import annotations

import html
import re

AGENTS_OPEN, AGENTS_CLOSE = "<!--dg:agents-->", "<!--/dg:agents-->"
HUMANS_OPEN, HUMANS_CLOSE = "<!--dg:humans-->", "<!--/dg:humans-->"
_AGENTS_RE = re.compile(re.escape(AGENTS_OPEN) + ".*?" + re.escape(AGENTS_CLOSE), re.S)
_HUMANS_RE = re.compile(re.escape(HUMANS_OPEN) + ".*?" + re.escape(HUMANS_CLOSE), re.S)
_DROP_RE = re.compile(r"<(svg|script|style|button|template)\b.*?</\1>", re.S | re.I)
_NOTEXT_RE = re.compile(r"<(\w+)[^>]*\bdata-notext\b[^>]*>.*?</\1>", re.S)
_BLOCK_RE = re.compile(
    r"</?(p|div|h[1-6]|li|ul|ol|pre|tr|table|details|summary|section|br|hr|dt|dd|blockquote)\b[^>]*>", re.I
)
_TAG_RE = re.compile(r"<[^>]+>")
_PANEL_RE = re.compile(r'<div class="dg-tabpanel"[^>]*?data-title="([^"]*)"[^>]*>')
_ANCHOR_RE = re.compile(r'<a class="anchor"[^>]*>#</a>')


def finish_html(fragment: str) -> str:
    """Drop agent-only content and the audience markers from the HTML shown to people."""
    if "<!--dg:" not in fragment:
        return fragment
    fragment = _AGENTS_RE.sub("", fragment)
    return fragment.replace(HUMANS_OPEN, "").replace(HUMANS_CLOSE, "")


def html_to_text(fragment: str) -> str:
    """Return readable plain text: agent-only content kept, human-only content and UI chrome dropped."""
    if "<!--dg:" in fragment:
        fragment = _HUMANS_RE.sub("", fragment)
    fragment = _ANCHOR_RE.sub("", _DROP_RE.sub("", fragment))
    if "dg-tabpanel" in fragment:
        fragment = _PANEL_RE.sub(lambda m: f"\n{m.group(1)}:\n", fragment)  # tab labels head their panels
    if "data-notext" in fragment:
        fragment = _NOTEXT_RE.sub("", fragment)
    fragment = _BLOCK_RE.sub("\n", fragment)
    text = html.unescape(_TAG_RE.sub("", fragment))
    lines = [line.rstrip() for line in text.split("\n")]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
