"""Generate the benchmark sites: the same pages as MDX for docsgen and as Markdown for MkDocs + Material."""

from __future__ import annotations

import json
from pathlib import Path

PER_GROUP = 50  # pages per navigation group

PLAIN = """
## Overview {n}

This is page {n} of the benchmark site. It has **bold text**, *emphasis*, `inline code`, a link to
[page {other}]({other_link}) and an [external link](https://example.com/docs/{n}).

### Details

A second paragraph so the page has some prose to parse: the quick brown fox jumps over the lazy dog,
then reads the reference for item {n} and the guide for item {other}.

```python
def handler_{n}(request):
    \"\"\"Answer a request for page {n}.\"\"\"
    items = [i * {n} for i in range(10)]
    return {{"page": {n}, "items": items}}
```

| Name | Type | Description |
| --- | --- | --- |
| id | string | Identifier of item {n} |
| count | integer | How many items, at most {other} |
| enabled | boolean | Whether the item is active |

## Next steps

- Read [the previous page]({prev_link}).
- Go back to [the first page]({first_link}).
"""

COMPONENTS_MDX = """
## Install

<Tabs>
  <Tab title="Python">
    Install the Python client for page {n}:

    ```bash
    pip install example-{n}
    ```
  </Tab>
  <Tab title="JavaScript">
    Install the JavaScript client:

    ```bash
    npm install example-{n}
    ```
  </Tab>
</Tabs>

<CardGroup cols={{2}}>
  <Card title="Quickstart" icon="rocket" href="{first_link}">Start here for item {n}.</Card>
  <Card title="Reference" icon="book" href="{other_link}">Every option of item {other}.</Card>
</CardGroup>

<AccordionGroup>
  <Accordion title="Why page {n}?">Because the benchmark needs {n} pages.</Accordion>
  <Accordion title="Can I skip it?">Yes, go to [page {other}]({other_link}).</Accordion>
</AccordionGroup>

<Steps>
  <Step title="Create a key">Open the dashboard and create a key for item {n}.</Step>
  <Step title="Call the API">Send the key in the `Authorization` header.</Step>
</Steps>

<CodeGroup>
```bash cURL
curl https://api.example.com/items/{n}
```

```python Python
client.items.get({n})
```
</CodeGroup>
"""

COMPONENTS_MD = """
## Install

=== "Python"

    Install the Python client for page {n}:

    ```bash
    pip install example-{n}
    ```

=== "JavaScript"

    Install the JavaScript client:

    ```bash
    npm install example-{n}
    ```

<div class="grid cards" markdown>

-   **Quickstart**: Start here for item {n}. [Open]({first_link})
-   **Reference**: Every option of item {other}. [Open]({other_link})

</div>

??? note "Why page {n}?"
    Because the benchmark needs {n} pages.

??? note "Can I skip it?"
    Yes, go to [page {other}]({other_link}).

1. **Create a key**: open the dashboard and create a key for item {n}.
2. **Call the API**: send the key in the `Authorization` header.

=== "cURL"

    ```bash
    curl https://api.example.com/items/{n}
    ```

=== "Python"

    ```python
    client.items.get({n})
    ```
"""


def page_path(n: int) -> str:
    """Return the docs-relative path of page n, without extension."""
    return f"section-{n // PER_GROUP}/page-{n}"


def _links(n: int, count: int, flavor: str) -> dict[str, str]:
    """Return the links of page n as each tool expects them written."""
    other, prev = (n * 7 + 3) % count, (n - 1) % count

    def link(
        m: int,
    ) -> str:  # docsgen: site paths; Hugo: site paths of its pretty URLs; MkDocs: relative .md paths
        if flavor == "hugo":
            return "/" + page_path(m) + "/"
        return "/" + page_path(m) if flavor == "mdx" else "../" + page_path(m) + ".md"

    return {"other": str(other), "other_link": link(other), "prev_link": link(prev), "first_link": link(0)}


def page_text(n: int, count: int, flavor: str, components: bool) -> str:
    """Return one page: frontmatter, then the plain content, then (optionally) the components."""
    values = {"n": n, **_links(n, count, flavor)}
    body = PLAIN.format(**values)
    if components:
        body += (COMPONENTS_MDX if flavor == "mdx" else COMPONENTS_MD).format(**values)
    return f"---\ntitle: Page {n}\ndescription: Generated benchmark page {n}\n---\n{body}"


def write_docsgen_site(root: Path, count: int, *, components: bool = False) -> Path:
    """Write a docsgen site (docs.json + MDX) of `count` pages in groups of PER_GROUP; return its folder."""
    root.mkdir(parents=True, exist_ok=True)
    groups = []
    for start in range(0, count, PER_GROUP):
        pages = [page_path(n) for n in range(start, min(start + PER_GROUP, count))]
        groups.append({"group": f"Section {start // PER_GROUP}", "pages": pages})
    config = {
        "$schema": "https://mintlify.com/docs.json",
        "theme": "mint",
        "name": "Benchmark",
        "colors": {"primary": "#0D9373"},
        "navigation": {"groups": groups},
    }
    (root / "docs.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    for n in range(count):
        path = root / f"{page_path(n)}.mdx"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page_text(n, count, "mdx", components), encoding="utf-8")
    return root


def write_mkdocs_site(root: Path, count: int, *, components: bool = False) -> Path:
    """Write an MkDocs + Material project (mkdocs.yml + docs/*.md) with the same pages; return its folder."""
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    nav_lines = []
    for start in range(0, count, PER_GROUP):
        nav_lines.append(f"  - 'Section {start // PER_GROUP}':")
        nav_lines += [f"      - {page_path(n)}.md" for n in range(start, min(start + PER_GROUP, count))]
    extensions = ["tables", "admonition", "pymdownx.highlight", "pymdownx.superfences", "toc"]
    if components:
        extensions += ["pymdownx.details", "attr_list", "md_in_html"]
    ext_lines = [f"  - {e}" for e in extensions]
    if components:
        ext_lines.append("  - pymdownx.tabbed:\n      alternate_style: true")
    config = "\n".join(
        [
            "site_name: Benchmark",
            "theme:\n  name: material\n  features:\n    - navigation.sections",
            "markdown_extensions:",
            *ext_lines,
            "nav:",
            *nav_lines,
            "",
        ]
    )
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    for n in range(count):
        path = docs / f"{page_path(n)}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page_text(n, count, "md", components), encoding="utf-8")
    return root


def write_openapi_site(root: Path, spec: Path) -> Path:
    """Write a docsgen site with one generated page per operation of a spec (a group naming the spec)."""
    root.mkdir(parents=True, exist_ok=True)
    target = root / "openapi.json"
    if not target.exists():
        target.write_bytes(spec.read_bytes())
    config = {
        "theme": "mint",
        "name": "GitHub REST",
        "colors": {"primary": "#0D9373"},
        "navigation": {"groups": [{"group": "REST API", "openapi": "openapi.json"}]},
    }
    (root / "docs.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    return root


LANGUAGES = ("en", "fr", "de", "ja")
VERSION_PAGES = 180  # pages per version and language, as the real site the scale case models


def versioned_shape(count: int) -> tuple[int, int]:
    """Return (versions, pages per version and language) for about `count` pages in 4 languages."""
    versions = max(1, round(count / (len(LANGUAGES) * VERSION_PAGES)))
    return versions, max(1, count // (versions * len(LANGUAGES)))


def write_versioned_site(root: Path, count: int = 25_200) -> Path:
    """Write a versioned, translated site: versions x languages x pages, every release a copy of the docs.

    The shape of a large real Mintlify site: `navigation.versions[].languages[].tabs[].groups[]`, each version and
    language its own folder, a third of the pages with the usual components. Returns the site folder.
    """
    versions, per = versioned_shape(count)
    root.mkdir(parents=True, exist_ok=True)
    version_nodes = []
    for v in range(versions, 0, -1):
        language_nodes = []
        for lang in LANGUAGES:
            prefix = f"v{v}/{lang}"
            tabs = []
            for tab, (start, stop) in enumerate(((0, per // 2), (per // 2, per))):
                groups = []
                for g in range(start, stop, 20):
                    pages = [f"{prefix}/{page_path(n)}" for n in range(g, min(g + 20, stop))]
                    groups.append({"group": f"Section {g // 20} ({lang})", "pages": pages})
                tabs.append({"tab": ["Guides", "Reference"][tab], "groups": groups})
            language_nodes.append({"language": lang, "tabs": tabs})
        version_nodes.append({"version": f"v{v}", "languages": language_nodes})
    config = {
        "$schema": "https://mintlify.com/docs.json",
        "theme": "mint",
        "name": "Versioned benchmark",
        "colors": {"primary": "#0D9373"},
        "navigation": {"versions": version_nodes},
    }
    (root / "docs.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    for v in range(1, versions + 1):
        for lang in LANGUAGES:
            for n in range(per):
                path = root / f"v{v}/{lang}/{page_path(n)}.mdx"
                path.parent.mkdir(parents=True, exist_ok=True)
                text = page_text(n, per, "mdx", components=n % 3 == 0)
                text = text.replace("](/section-", f"](/v{v}/{lang}/section-").replace(
                    'href="/section-', f'href="/v{v}/{lang}/section-'
                )
                path.write_text(text.replace("title: Page", f"title: v{v} {lang} page"), encoding="utf-8")
    return root
