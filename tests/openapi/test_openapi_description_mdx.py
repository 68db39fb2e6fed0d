"""Components and HTML in spec descriptions render as MDX (as Mintlify does), sanitised: no script from spec text."""

from __future__ import annotations

import json

from docsgen.build import build
from tests.htmldom import parse

SPEC = """openapi: 3.1.0
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      summary: List pets
      description: |
        Lists pets.<br />Second line.

        <Note>Results are **paged**.</Note>

        <Warning onClick="alert(1)">Rate limited.</Warning><script>alert(2)</script>
        <a href="javascript:alert(3)">bad link</a>
      parameters:
        - name: limit
          in: query
          description: "How many. <Info>At most 100.</Info>"
          schema: {type: integer}
      responses:
        "200": {description: ok}
"""


def test_components_in_descriptions_render_and_stay_sanitised(make_site, tmp_path):
    nav = {"tabs": [{"tab": "Home", "pages": ["index"]}, {"tab": "API", "openapi": "api.yaml"}]}
    docs = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}, "navigation": nav}
    site = make_site({"docs.json": json.dumps(docs), "index.mdx": "# Home\n", "api.yaml": SPEC})
    out = tmp_path / "out"
    build(site, out)
    html = (out / "api-reference/list-pets/index.html").read_text()
    article = parse(html).find("article")
    text = article.text
    assert "<Note>" not in text and "<Info>" not in text and "<br" not in text and "Warning" not in text
    assert article.find("div", cls="dg-callout-note") is not None  # the <Note> is a callout
    assert article.find("div", cls="dg-callout-info") is not None  # in a parameter's description too
    assert "<strong>paged</strong>" in html
    assert "alert(" not in str(article) and "onclick" not in str(article).lower()
