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

# A page as heavy as the real sites' pages (../shared/corpus/real-sites, 400 pages drawn: 5.4 KB of MDX, 5 code
# blocks, 7 component tags, 1.4 imports, 1.2 icons and 1.4 expressions a page), on top of the plain page: about
# 4 KB, 6 code blocks, 14 component tags (two from snippets), 2 imports, 6 icons, 3 expressions. About 6% of the
# pages carry what real sites get warned about (the real 35-version site had 1,448 warnings in 24,667 pages): an
# icon no library has, a component nobody defined, an image that is not there.
REAL_IMPORTS = """import Prerequisites from "/snippets/prerequisites.mdx";
import {{ SupportedRegions }} from "/snippets/regions.mdx";

export const product = "Acme Cloud";
export const limits = {{ requests: {requests}, burst: {other} }};
"""

REAL_MDX = """
<Prerequisites />

<Note>
  {{product}} applies a limit of {{limits.requests}} requests a minute to item {n} (bursts of {{limits.burst}}).
</Note>

## Configure item {n}

Item {n} reads its settings from the environment first, then from the project's configuration file, and
finally from the defaults of the region it runs in. A setting given twice keeps the first value found, so
a variable set in a shell overrides what the file says. Settings are read once, when the client starts:
restart the client after changing one. The options of item {other} work the same way.

Each request carries the key in its `Authorization` header. Keys are scoped to one project; a key of another
project is refused with `403` and the error code `key_scope`. Rotate keys regularly and never commit them.

<Tabs>
  <Tab title="Python" icon="python">
    ```python
    from acme import Client

    client = Client(api_key=os.environ["ACME_API_KEY"], timeout={other})
    item = client.items.get({n})
    for event in item.events(limit=50):
        print(event.id, event.created_at, event.payload.get("status"))
    ```
  </Tab>
  <Tab title="cURL" icon="terminal">
    ```bash
    curl -X GET "https://api.acme.dev/v1/items/{n}" \\
      -H "Authorization: Bearer $ACME_API_KEY" \\
      -H "Accept: application/json"
    ```
  </Tab>
</Tabs>

### Response

A successful call answers with the item and the limits that apply to it. Fields that are not set are left
out of the answer rather than given as `null`; clients should treat a missing field as its default.

```json
{{
  "id": "item_{n}",
  "status": "active",
  "limits": {{ "requests": {requests}, "burst": {other} }},
  "regions": ["eu-west-1", "us-east-1"],
  "created_at": "2026-01-{day:02d}T10:00:00Z"
}}
```

<ResponseField name="limits" type="object" required>
  The limits that apply to item {n}: requests a minute and requests at once.
</ResponseField>

## Deploy

Deploy the service with its configuration next to it. The container reads the file at start-up and
exposes the health endpoint on port 8080; the platform waits for it before sending traffic.

<CodeGroup>
```yaml config.yaml
service: item-{n}
replicas: 3
resources:
  cpu: "500m"
  memory: "512Mi"
```

```dockerfile Dockerfile
FROM python:3.12-slim
COPY . /app
RUN pip install --no-cache-dir -r /app/requirements.txt
CMD ["python", "-m", "app", "--item", "{n}"]
```
</CodeGroup>

<AccordionGroup>
  <Accordion title="Which regions does item {n} run in?" icon="globe">
    <SupportedRegions />
  </Accordion>
</AccordionGroup>

<CardGroup cols={{2}}>
  <Card title="Quickstart" icon="rocket" href="{first_link}">Start here.</Card>
  <Card title="Reference" icon="{card_icon}" href="{other_link}">Every option of item {other}.</Card>
</CardGroup>
{extra}
See [the previous page]({prev_link}) for the options item {n} shares with item {prev}.
"""

SNIPPETS = {
    "snippets/prerequisites.mdx": """<Info>
  Before you start you need an account and an API key. <Icon icon="key" /> Keys are in **Settings > API keys**.
</Info>

```bash
pip install acme-sdk
```
""",
    "snippets/regions.mdx": """export const SupportedRegions = () => (
  <ul>
    <li>eu-west-1 (Ireland)</li>
    <li>us-east-1 (Virginia)</li>
    <li>ap-northeast-1 (Tokyo)</li>
  </ul>
);
""",
}


def real_page_text(n: int, count: int, prefix: str) -> str:
    """Return a real-shaped page (see REAL_MDX) of a version and language folder; some pages carry a problem."""
    values = {"n": n, **_links(n, count, "mdx"), "prev": (n - 1) % count, "day": n % 28 + 1}
    values["requests"] = (n + 1) * 100
    values["card_icon"] = "book" if n % 40 else f"not-an-icon-{n % 5}"  # warned: no such icon
    extra = ""
    if n % 60 == 7:
        extra += "\n<PartnerCta product={product} />\n"  # warned: a component nobody defined
    if n % 60 == 31:
        extra += (
            f'\n<Frame>\n  <img src="/images/missing-{n}.png" alt="Screenshot of item {n}" />\n</Frame>\n'
        )
    body = REAL_IMPORTS.format(**values) + PLAIN.format(**values) + REAL_MDX.format(**values, extra=extra)
    for key in ("other_link", "prev_link", "first_link"):
        body = body.replace(f"]({values[key]})", f"](/{prefix}{values[key]})")
        body = body.replace(f'href="{values[key]}"', f'href="/{prefix}{values[key]}"')
    icon = ("rocket", "book", "code", "gear", "bolt")[n % 5]
    return f"---\ntitle: Page {n}\ndescription: Generated benchmark page {n}\nicon: {icon}\n---\n{body}"


def versioned_shape(count: int) -> tuple[int, int]:
    """Return (versions, pages per version and language) for about `count` pages in 4 languages."""
    versions = max(1, round(count / (len(LANGUAGES) * VERSION_PAGES)))
    return versions, max(1, count // (versions * len(LANGUAGES)))


GROUP_ICONS = ("rocket", "book-open", "code", "plug", "shield", "chart-line", "gear", "users", "database")


def _version_tabs(prefix: str, per: int, lang: str) -> list[dict]:
    """A version's navigation in one language: two tabs of groups of 20 pages, each group with an icon and
    a nested group of its last 8 pages (the long sidebars of real versioned sites)."""
    tabs = []
    for tab, (start, stop) in enumerate(((0, per // 2), (per // 2, per))):
        groups: list[dict] = []
        for g in range(start, stop, 20):
            pages: list = [f"{prefix}/{page_path(n)}" for n in range(g, min(g + 20, stop))]
            if len(pages) > 10:
                nested = {"group": f"Advanced {g // 20}", "pages": pages[-8:]}
                pages = pages[:-8] + [nested]
            icon = GROUP_ICONS[(g // 20) % len(GROUP_ICONS)]
            groups.append({"group": f"Section {g // 20} ({lang})", "icon": icon, "pages": pages})
        tabs.append({"tab": ["Guides", "Reference"][tab], "icon": ["book", "code"][tab], "groups": groups})
    return tabs


def write_versioned_site(root: Path, count: int = 25_200) -> Path:
    """Write a versioned, translated site: versions x languages x pages, every release a copy of the docs.

    The shape of a large real Mintlify site: `navigation.versions[].languages[].tabs[].groups[]` (groups with
    icons and nested groups), each version and language its own folder, every page real-shaped (real_page_text:
    snippets, icons, components, expressions, five code blocks; some with problems a build warns about).
    Returns the site folder.
    """
    versions, per = versioned_shape(count)
    root.mkdir(parents=True, exist_ok=True)
    version_nodes = []
    for v in range(versions, 0, -1):
        language_nodes = [
            {"language": lang, "tabs": _version_tabs(f"v{v}/{lang}", per, lang)} for lang in LANGUAGES
        ]
        version_nodes.append({"version": f"v{v}", "languages": language_nodes})
    config = {
        "$schema": "https://mintlify.com/docs.json",
        "theme": "mint",
        "name": "Versioned benchmark",
        "colors": {"primary": "#0D9373"},
        "navigation": {"versions": version_nodes},
    }
    (root / "docs.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    for name, text in SNIPPETS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    for v in range(1, versions + 1):
        for lang in LANGUAGES:
            for n in range(per):
                path = root / f"v{v}/{lang}/{page_path(n)}.mdx"
                path.parent.mkdir(parents=True, exist_ok=True)
                text = real_page_text(n, per, f"v{v}/{lang}")
                path.write_text(text.replace("title: Page", f"title: v{v} {lang} page"), encoding="utf-8")
    return root
