"""The sanitiser for spec-derived HTML keeps what MDX components render and drops what could run code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docsgen.mdx import MdxContext, render_mdx
from docsgen.openapi.sanitize import safe_url, sanitize_html

COMPONENTS = """# Title

<Note>Read **this** first with `code` and a [link](/x).</Note>

<Tabs>
  <Tab title="One">First</Tab>
  <Tab title="Two">Second</Tab>
</Tabs>

<CodeGroup>
```bash curl
curl https://x
```
```python Python
print("hi")
```
</CodeGroup>

<Card title="Card" icon="rocket" href="/guides">Body</Card>

<Accordion title="More">Hidden text</Accordion>

<Steps><Step title="A">Do A</Step></Steps>

| a | b |
|---|---|
| 1 | 2 |

- [x] done

<ParamField path="id" type="string" required>The id</ParamField>

<Frame caption="c"><img src="/a.png" /></Frame>
"""


def _same(html: str) -> str:
    return re.sub(r"\s*/>", ">", html)


def test_components_and_formatting_are_kept_as_rendered(tmp_path):
    html = render_mdx(COMPONENTS, MdxContext(docs_dir=Path(tmp_path), source="x.mdx")).html
    assert "dg-tabpanel" in html and "<svg" in html and "<table" in html
    assert _same(sanitize_html(html)) == _same(html)


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<p>a<script>alert(1)</script>b</p>", "<p>ab</p>"),
        ('<img src="x.png" onerror="alert(1)" alt="x">', '<img src="x.png" alt="x">'),
        ('<a href=" JaVa\tScRiPt:alert(1)">l</a>', "<a>l</a>"),
        ('<a href="&#106;avascript:alert(1)">l</a>', "<a>l</a>"),
        ('<svg onload="a()"><use xlink:href="javascript:a()"></use></svg>', "<svg><use></use></svg>"),
        ("<iframe src=x></iframe><object data=x></object><style>*{}</style>ok", "ok"),
        ('<form action="/x"><input type="text" name="q"></form>', '<input type="text" name="q">'),
        ('<div style="background:url(javascript:a)">x</div>', "<div>x</div>"),
        ('<img src="data:image/png;base64,AAAA">', '<img src="data:image/png;base64,AAAA">'),
        ('<a href="data:text/html,<script>a()</script>">x</a>', "<a>x</a>"),
        ("<meta http-equiv=refresh content='0;url=//evil'><base href=//evil>t", "t"),
        ("a &lt;b&gt; &amp; c", "a &lt;b&gt; &amp; c"),
    ],
)
def test_scripts_handlers_and_dangerous_urls_are_dropped(html, expected):
    assert sanitize_html(html) == expected


def test_safe_urls():
    assert safe_url("/guides") and safe_url("#x") and safe_url("https://a.example") and safe_url("mailto:a@b")
    assert not safe_url("javascript:x") and not safe_url("vbscript:x") and not safe_url("data:text/html,x")
