"""The one stylesheet every page links: the theme's sheets joined in cascade order (a single render-blocking request).

A page used to link site.css, theme.css, components.css and highlight.css in its <head> and search.css in its
body: five requests, four of them holding back the first paint. They are joined, in that order, into
`_static/docsgen.css` (the separate files are still written: the no-JavaScript sidebar page and older pages link
them). What follows it in a page's <head> keeps its place after it: the stylesheets of a page's features
(api.css ...), the site's Tailwind output, then the site's own CSS files, last.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

PAGE_CSS = "docsgen.css"
# The theme's sheets every page needs, in cascade order (a later one wins between equal selectors).
PAGE_CSS_PARTS = ("site.css", "theme.css", "components.css", "highlight.css", "search.css")


def page_css_parts(static: Mapping[str, Path]) -> tuple[str, ...]:
    """Return the parts of the page stylesheet a theme has, in cascade order."""
    return tuple(name for name in PAGE_CSS_PARTS if name in static)


def page_css(static: Mapping[str, Path], replaced: Mapping[str, str] | None = None) -> bytes:
    """Join the theme's page sheets into one stylesheet; `replaced`: parts made for this site (highlight.css
    from docs.json's code themes) used instead of the theme's file."""
    chunks = []
    for name in page_css_parts(static):
        text = (replaced or {}).get(name)
        if text is None:
            text = static[name].read_text(encoding="utf-8")
        chunks.append(f"/* {name} */\n{text.rstrip()}\n")
    return "".join(chunks).encode("utf-8")
