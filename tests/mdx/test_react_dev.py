"""docsgen dev: editing a component file re-renders the pages that use it."""

from __future__ import annotations

import json
from pathlib import Path

from docsgen.dev.incremental import DevSite


def test_editing_a_jsx_file_rerenders_its_pages(make_site):
    site = make_site(
        {
            "docs.json": json.dumps(
                {
                    "name": "D",
                    "theme": "mint",
                    "colors": {"primary": "#0D9373"},
                    "navigation": {"pages": ["a", "b"]},
                }
            ),
            "snippets/hi.jsx": 'export const Hi = () => <p className="hi">first</p>;\n',
            "a.mdx": "---\ntitle: A\n---\nimport { Hi } from '/snippets/hi.jsx';\n\n<Hi />\n",
            "b.mdx": "---\ntitle: B\n---\nNo component.\n",
        }
    )
    dev = DevSite(site, site / "_site")
    assert not dev.build().errors
    (site / "snippets" / "hi.jsx").write_text('export const Hi = () => <p className="hi">second</p>;\n')
    update = dev.apply([site / "snippets" / "hi.jsx"])
    assert update.rendered == ["a"]
    content = dev.snapshot.files["a/index.html"]  # rendered pages are files of the page store
    assert isinstance(content, Path) and b'<p class="hi">second</p>' in content.read_bytes()
    dev.close()
