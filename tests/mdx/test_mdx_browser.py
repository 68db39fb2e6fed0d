"""Interactive components in a real browser: tabs (keys, sync, memory), code groups, accordions, copy, expandable code."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from tests.conftest import REPO
from tests.mdx_helpers import render

STATIC = REPO / "themes" / "base" / "static"
LONG = "\n".join(f"print({i})" for i in range(40))
PAGE = f"""
# Components

<Tabs>
  <Tab title="JavaScript">JS panel</Tab>
  <Tab title="Python">Python panel</Tab>
  <Tab title="Go">Go panel</Tab>
</Tabs>

<CodeGroup>
```js JavaScript
console.log("js")
```
```python Python
print("py")
```
</CodeGroup>

<CodeGroup dropdown>
```bash npm
npm install docsgen
```
```bash yarn
yarn add docsgen
```
</CodeGroup>

<Accordion title="First question">
  First answer.
</Accordion>

<Accordion title="Deep link" id="deep">
  Deep answer.
</Accordion>

```python copy-me.py
a = 1 # [!code --]
a = 2 # [!code ++]
```

```python long.py expandable
{LONG}
```

<ParamField body="user" type="object">
  <Expandable title="properties">
    <ParamField body="email" type="string">Nested email field.</ParamField>
  </Expandable>
</ParamField>

<View title="Python">
  Python view.
</View>

<View title="Node">
  Node view.
</View>

<Update label="June" tags={{["Feature"]}}>
  Feature entry.
</Update>

<Update label="May" tags={{["Fix"]}}>
  Fix entry.
</Update>
"""


def page_html() -> str:
    result = render(PAGE)
    scripts = "".join(f'<script src="/js/{name}.js" defer></script>' for name in sorted(result.assets))
    return (
        '<!doctype html><html data-theme="light"><head><meta charset="utf-8">'
        "<style>:root{--dg-primary:#0d9373;--dg-bg:#fff;--dg-fg:#111;--dg-muted:#666;--dg-border:#ddd;"
        "--dg-surface:#f7f7f7;--dg-code-bg:#f6f8fa;--dg-radius:10px}</style>"
        '<link rel="stylesheet" href="/components.css"><link rel="stylesheet" href="/highlight.css">'
        f'{scripts}</head><body><main class="dg-prose">{result.html}</main></body></html>'
    )


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    root = tmp_path_factory.mktemp("mdx-browser")
    (root / "js").mkdir()
    for name in ("components.css", "highlight.css"):
        (root / name).write_text((STATIC / name).read_text(encoding="utf-8"), encoding="utf-8")
    for script in (STATIC / "js").glob("*.js"):
        (root / "js" / script.name).write_text(script.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "index.html").write_text(page_html(), encoding="utf-8")
    (root / "other.html").write_text(page_html(), encoding="utf-8")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_tabs_click_and_keyboard(page, site_url):
    page.goto(f"{site_url}/index.html")
    tabset = page.locator(".dg-tabset").first
    tabs = tabset.get_by_role("tab")
    expect(tabset.get_by_text("JS panel")).to_be_visible()
    expect(tabset.get_by_text("Python panel")).to_be_hidden()
    tabs.nth(2).click()
    expect(tabset.get_by_text("Go panel")).to_be_visible()
    expect(tabs.nth(2)).to_have_attribute("aria-selected", "true")
    tabs.nth(2).press("ArrowRight")  # wraps to the first tab and focuses it
    expect(tabs.nth(0)).to_be_focused()
    expect(tabset.get_by_text("JS panel")).to_be_visible()
    page.keyboard.press("End")
    expect(tabset.get_by_text("Go panel")).to_be_visible()


def test_tabs_sync_with_code_group_and_are_remembered(page, site_url):
    page.goto(f"{site_url}/index.html")
    page.locator(".dg-tabset").first.get_by_role("tab", name="Python").click()
    group = page.locator(".dg-codegroup").first
    expect(group.get_by_role("tab", name="Python")).to_have_attribute("aria-selected", "true")
    expect(group.locator("code:visible")).to_contain_text('print("py")')
    page.goto(f"{site_url}/other.html")
    expect(page.locator(".dg-tabset").first.get_by_text("Python panel")).to_be_visible()
    expect(page.locator(".dg-codegroup").first.get_by_role("tab", name="Python")).to_have_attribute(
        "aria-selected", "true"
    )


def test_code_group_dropdown(page, site_url):
    page.goto(f"{site_url}/index.html")
    group = page.locator(".dg-tabset-dropdown")
    expect(group.locator(".dg-tabpanel:visible")).to_contain_text("npm install")
    group.locator("select").select_option(label="yarn")
    expect(group.locator(".dg-tabpanel:visible")).to_contain_text("yarn add")


def test_accordion_toggles_and_opens_from_hash(page, site_url):
    page.goto(f"{site_url}/index.html")
    first = page.locator("details.dg-accordion").first
    expect(first.get_by_text("First answer.")).to_be_hidden()
    first.locator("summary").click()
    expect(first.get_by_text("First answer.")).to_be_visible()
    assert page.evaluate("location.hash") == "#first-question"
    page.goto(f"{site_url}/other.html#deep")
    expect(page.get_by_text("Deep answer.")).to_be_visible()


def test_copy_button_copies_code_without_removed_lines(page, site_url, context):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url)
    page.goto(f"{site_url}/index.html")
    block = page.locator('.dg-code[data-title="copy-me.py"]')
    block.hover()
    block.locator(".dg-copy").click()
    expect(block.locator(".dg-copy")).to_have_attribute("data-copied", "true")
    assert page.evaluate("navigator.clipboard.readText()") == "a = 2"


def test_expandable_code_shows_more(page, site_url):
    page.goto(f"{site_url}/index.html")
    block = page.locator('.dg-code[data-title="long.py"]')
    body = block.locator(".dg-code-body")
    collapsed = body.evaluate("el => el.getBoundingClientRect().height")
    button = block.get_by_role("button", name="Show more")
    button.click()
    expect(block).to_have_class("dg-code dg-overflows dg-expanded")
    expanded = body.evaluate("el => el.getBoundingClientRect().height")
    assert expanded > collapsed * 1.5
    expect(block.get_by_role("button", name="Show less")).to_have_attribute("aria-expanded", "true")


def test_view_selector_switches_views(page, site_url):
    page.goto(f"{site_url}/index.html")
    expect(page.get_by_text("Python view.")).to_be_visible()
    expect(page.get_by_text("Node view.")).to_be_hidden()
    page.locator(".dg-view-select select").select_option("Node")
    expect(page.get_by_text("Node view.")).to_be_visible()
    expect(page.get_by_text("Python view.")).to_be_hidden()


def test_changelog_tag_filter(page, site_url):
    page.goto(f"{site_url}/index.html")
    page.get_by_role("button", name="Fix").click()
    expect(page.get_by_text("Fix entry.")).to_be_visible()
    expect(page.get_by_text("Feature entry.")).to_be_hidden()
    page.get_by_role("button", name="Fix").click()
    expect(page.get_by_text("Feature entry.")).to_be_visible()


def test_hash_to_nested_field_opens_its_expandable(page, site_url):
    page.goto(f"{site_url}/other.html#user-email")
    expect(page.get_by_text("Nested email field.")).to_be_visible()
