"""`docsgen dev` assembles the site's own files (sitemap, redirects, agent files, feeds, access files, vendored
bundles) the way `docsgen build` does: the same functions (docsgen.outputs.add_site_files / add_page_files), the
first when the site is read, the second once its background pass rendered every page. What the pass ends with
serves byte for byte what the build wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docsgen.build import build
from docsgen.dev.incremental import DevSite

SITE_WIDE = (
    "sitemap.xml",
    "robots.txt",
    "llms.txt",
    "llms-full.txt",
    ".well-known/llms.txt",
    "404.html",
    "old/index.html",  # a redirect page
    "changelog/rss.xml",  # from the changelog page's rendered <Update> entries
    "_access.json",  # from a page marked `public: false`
    "_headers",
    "pagefind/access.json",
)


@pytest.fixture
def site(make_site) -> Path:
    return make_site(
        {
            "docs.json": json.dumps(
                {
                    "name": "Assembled",
                    "theme": "mint",
                    "colors": {"primary": "#0D9373"},
                    "seo": {"indexing": "all", "metatags": {"canonical": "https://docs.example.com"}},
                    "redirects": [{"source": "/old", "destination": "/guide"}],
                    "navigation": {
                        "groups": [{"group": "Docs", "pages": ["index", "guide", "changelog", "secret"]}]
                    },
                }
            ),
            "index.mdx": "---\ntitle: Home\n---\n\nWelcome, see the [guide](/guide).\n",
            "guide.mdx": "---\ntitle: Guide\n---\n\n## Flow\n\n```mermaid\ngraph TD; A-->B\n```\n",
            "changelog.mdx": (
                "---\ntitle: Changelog\nrss: true\n---\n\n"
                '<Update label="v2" description="Second">\n\nSecond release.\n\n</Update>\n\n'
                '<Update label="v1" description="First">\n\nFirst release.\n\n</Update>\n'
            ),
            "secret.mdx": "---\ntitle: Secret\npublic: false\n---\n\nOnly for staff.\n",
        }
    )


def test_the_pass_ends_with_the_site_files_a_build_writes(site: Path, tmp_path):
    out = tmp_path / "out"
    build(site, out, cache=False, workers=1)
    dev = DevSite(site, tmp_path / "dev", lazy=True, workers=1)
    try:
        dev.build()
        assert dev.wait_rendered(120)
        served = dev.snapshot.files
        for path in SITE_WIDE:
            assert (out / path).is_file(), f"the build wrote {path}"
            data = served.get(path)
            assert isinstance(data, bytes | Path), f"dev serves {path} once every page is rendered"
            got = data if isinstance(data, bytes) else data.read_bytes()
            assert got == (out / path).read_bytes(), f"dev's {path} is the build's"
        mermaid = sorted(
            p.relative_to(out).as_posix() for p in (out / "_static" / "vendor").rglob("mermaid*")
        )
        assert mermaid and all(path in served for path in mermaid), "the vendored bundle a page uses"
    finally:
        dev.close()
