"""Prose written between the code blocks of a <CodeGroup> reaches the reader (it was dropped without a word)."""

from __future__ import annotations

from tests.htmldom import parse
from tests.mdx_helpers import render

PAGE = """<CodeGroup>
```sh cURL
curl https://example.com
```
For the SDKs, pass it when you create the client:

```py Python
client = Client()
```

- a list item **after** the last sample
</CodeGroup>
"""


def _panels(html: str) -> list[str]:
    dom = parse(html)
    return [" ".join(panel.text.split()) for panel in dom.find_all("div", cls="dg-tabpanel")]


def test_prose_between_code_blocks_stays_with_the_sample_before_it():
    result = render(PAGE)
    panels = _panels(result.html)
    assert len(panels) == 2, result.html
    assert "curl https://example.com" in panels[0]
    assert "For the SDKs, pass it when you create the client:" in panels[0]
    assert "client = Client()" in panels[1] and "a list item after the last sample" in panels[1]
    assert not [d for d in result.diagnostics if d.code == "mdx.bad-child"]


def test_prose_before_the_first_code_block_goes_with_the_first_sample():
    result = render("<ResponseExample>\nReturns the new user.\n\n```json 200\n{}\n```\n</ResponseExample>\n")
    aside = "".join(result.aside_html) if isinstance(result.aside_html, list) else result.aside_html
    panels = _panels(aside)
    assert len(panels) == 1 and "Returns the new user." in panels[0], aside
