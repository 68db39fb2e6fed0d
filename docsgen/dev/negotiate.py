"""Content negotiation for agents: `Accept: text/markdown` (or text/plain) asks for a page's Markdown twin.

Mintlify answers such requests with the page's Markdown instead of its HTML; `docsgen dev` does the same, and
docs/guides/markdown-for-agents.mdx shows the equivalent rules for static hosts.
"""

from __future__ import annotations

MARKDOWN_TYPES = ("text/markdown", "text/x-markdown", "text/plain")
MAX_ACCEPT = 4096  # characters of an Accept header looked at (hostile headers stay cheap)
MAX_RANGES = 64


def _ranges(accept: str) -> list[tuple[str, float]]:
    """Return [(media range, q)] of an Accept header; malformed q values count as 1 (as browsers send them)."""
    out = []
    for part in accept[:MAX_ACCEPT].split(",")[:MAX_RANGES]:
        fields = [f.strip() for f in part.split(";")]
        media = fields[0].lower()
        if not media:
            continue
        q = 1.0
        for param in fields[1:]:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = min(max(float(value.strip()), 0.0), 1.0)
                except ValueError:
                    q = 1.0
        out.append((media, q))
    return out


def _quality(ranges: list[tuple[str, float]], media: str) -> float:
    """Return the q an Accept header gives one media type: the most specific matching range wins."""
    kind = media.split("/")[0] + "/*"
    for candidate in (media, kind, "*/*"):
        found = [q for m, q in ranges if m == candidate]
        if found:
            return max(found)
    return 0.0


def wants_markdown(accept: str | None) -> bool:
    """Tell whether a request prefers Markdown to HTML: a Markdown type named explicitly, ranked above text/html.

    Browsers (`text/html,...,*/*;q=0.8`) and clients sending no Accept get HTML; `Accept: text/markdown` or
    `text/plain` (curl -H, AI tools) get Markdown; a tie goes to HTML.
    """
    if not accept:
        return False
    ranges = _ranges(accept)
    named = [q for m, q in ranges if m in MARKDOWN_TYPES]
    if not named or max(named) <= 0:
        return False
    best = max(_quality(ranges, m) for m in MARKDOWN_TYPES if any(r == m for r, _ in ranges))
    return best > _quality(ranges, "text/html")


def twin_of(rel: str) -> str | None:
    """Return the Markdown twin's site path of a page file: 'a/b/index.html' -> 'a/b.md', 'index.html' -> 'index.md'."""
    if not rel.endswith(".html"):
        return None
    if rel == "index.html":
        return "index.md"
    if rel.endswith("/index.html"):
        return rel[: -len("/index.html")] + ".md"
    return rel[: -len(".html")] + ".md"
