"""Links with fragments and links written to `.mdx` files, as real sites write them."""

from __future__ import annotations

import json

from docsgen.build import build
from tests.nav.test_links_versions_wildcards import BASE, content_links


def test_fragment_is_written_once_and_a_broken_mdx_link_warns(make_site, tmp_path):
    docs = make_site(
        {
            "docs.json": json.dumps({**BASE, "navigation": {"pages": ["index", "guide"]}}),
            "index.mdx": (
                "# Home\n\n[Gone](/docs/how_to#llms) [Guide](/guide.mdx#setup) "
                "[Missing](/nowhere.mdx#x) [Rel](./other.mdx)\n"
            ),
            "guide.mdx": "# Guide\n\n## Setup\n",
        },
        name="fragments",
    )
    out = tmp_path / "out"
    result = build(docs, out)
    links = content_links(out, "index.html")
    assert links["Gone"] == "docs/how_to#llms"
    assert links["Guide"] == "guide/#setup"
    assert links["Missing"].count("#") == 1
    broken = sorted((d.line, d.column) for d in result.diagnostics if d.code == "link.broken")
    assert broken == [(3, 8), (3, 63), (3, 85)]  # at each href
