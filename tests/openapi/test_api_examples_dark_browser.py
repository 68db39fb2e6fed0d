"""The API pages' example column is dark in both colour schemes, as on Mintlify
(../shared/reference/mintlify-ui/playground-API-playground-light.png: the request and response panels are #111216
on a white page). OpenAPI endpoint pages and MDX pages with <RequestExample>/<ResponseExample> alike; the code
blocks of the page's text keep the scheme's colours. Every text in the column reads on its panel (WCAG AA)."""

from __future__ import annotations

import json
import shutil

import pytest
from playwright.sync_api import Browser

from docsgen.build import build
from docsgen.common import contrast
from tests.conftest import FIXTURES, write_tree
from tests.readers_sites import serve

ENDPOINT = "api-reference/pets/create-a-pet/"
MDX = "guides/example/"
EXAMPLE_PAGE = """---
title: Example
---

Run this:

```python
print("hello")
```

<RequestExample>

```bash cURL
curl --request POST https://api.example.com/v1/pets --data '{"name": "Rex"}'
```

</RequestExample>

<ResponseExample>

```json 200
{"id": 1, "name": "Rex", "ok": true}
```

</ResponseExample>
"""

PANELS = """() => {
  const rgb = (el, prop) => getComputedStyle(el)[prop];
  const aside = document.querySelector('.dg-api-aside');
  const panels = [...aside.querySelectorAll('.dg-api-card, .dg-codegroup')];
  const texts = [];
  for (const panel of panels) {
    const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.data.trim() || !el.getClientRects().length || el.closest('[hidden]')) continue;
      texts.push([node.data.trim().slice(0, 30), rgb(el, 'color')]);
    }
  }
  const prose = document.querySelector('.dg-prose .dg-code');
  return {panels: panels.map((p) => rgb(p, 'backgroundColor')), texts,
    prose: prose && rgb(prose, 'backgroundColor')};
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("api-dark")
    source = root / "src"
    shutil.copytree(FIXTURES / "api-site", source)
    config = json.loads((source / "docs.json").read_text(encoding="utf-8"))
    config["navigation"]["tabs"][0]["groups"][0]["pages"].append("guides/example")
    write_tree(source, {"docs.json": json.dumps(config), "guides/example.mdx": EXAMPLE_PAGE})
    build(source, root / "out")
    server, url = serve(root / "out")
    yield url
    server.shutdown()


@pytest.mark.parametrize("path", [ENDPOINT, MDX])
@pytest.mark.parametrize("mode", ["light", "dark"])
def test_example_panels_are_dark_in_both_schemes(browser: Browser, site, path, mode):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=mode)
    page.goto(site + path)
    page.wait_for_load_state("networkidle")
    found = page.evaluate(PANELS)
    page.close()
    assert found["panels"], "no example panel in the right-hand column"
    for background in found["panels"]:
        assert contrast.luminance(contrast.parse_color(background)) < 0.02, background
    panel = contrast.parse_color(found["panels"][0])
    assert len(found["texts"]) > 5
    low = [(t, c) for t, c in found["texts"] if contrast.ratio(contrast.parse_color(c), panel) < 4.5]
    assert low == []
    if path == MDX:  # the page's own code block keeps the scheme's colours
        prose = contrast.luminance(contrast.parse_color(found["prose"]))
        assert (prose > 0.8) if mode == "light" else (prose < 0.05), found["prose"]


def test_a_single_response_is_a_marked_tab_not_a_titled_box(browser: Browser, site):
    """Mintlify draws one response example as a bar with its status as the one, marked tab ("202", underlined),
    not a "Response" title over a "201" label; the title stays for screen readers."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(site + ENDPOINT)
    page.wait_for_load_state("networkidle")
    found = page.evaluate("""() => {
      const card = document.getElementById('response-example'), title = card.querySelector('.dg-api-card-title');
      const label = card.querySelector('.dg-api-panel-label'), code = card.querySelector('.dg-api-code');
      const s = getComputedStyle(label);
      return {title: title.textContent, titleWidth: title.getBoundingClientRect().width, label: label.textContent,
        underline: s.borderBottomWidth, rule: getComputedStyle(code).borderTopWidth,
        labelColor: s.color, tab: getComputedStyle(document.querySelector('.dg-api-tabbar [aria-selected="true"]')).color,
        under: label.getBoundingClientRect().bottom - code.getBoundingClientRect().top};
    }""")
    page.close()
    assert found["title"] == "Response" and found["titleWidth"] <= 1
    assert found["label"] == "201" and found["underline"] == "2px" and found["rule"] == "1px"
    assert 0 <= found["under"] <= 1  # the underline sits on the bar's rule
    assert (
        found["tab"] == found["labelColor"] != "rgb(229, 231, 235)"
    )  # the marked tab in the accent, as "cURL"
