"""Content rows of issue 20 item 7: twoslash code blocks, image `actions`, legacy <Snippet file> (built sites)."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from docsgen.build import build
from tests.htmldom import parse

BASE = {"name": "C", "theme": "mint", "colors": {"primary": "#0D9373"}, "navigation": {"pages": ["index"]}}


def png(size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def built(make_site, tmp_path, body: str, files: dict | None = None):
    docs = make_site(
        {"docs.json": json.dumps(BASE), "index.mdx": "---\ntitle: Home\n---\n" + body, **(files or {})}
    )
    out = tmp_path / "out"
    result = build(docs, out)
    return out, result, parse((out / "index.html").read_text())


TWOSLASH = """Intro.

```ts twoslash Example
// @noErrors
import { helper } from "./lib";
// ---cut---
type Pet = "cat" | "dog";
const pet: Pet = "cat";
//    ^?
```

<CodeGroup>
```ts twoslash Grouped
// @strict: true
const x = 1;
```
</CodeGroup>
"""


def test_twoslash_markup_applied_and_noted(make_site, tmp_path):
    out, result, dom = built(make_site, tmp_path, TWOSLASH)
    texts = [code.text for code in dom.find_all("code", cls="language-ts")]
    assert len(texts) == 2
    first, grouped = texts
    assert 'type Pet = "cat" | "dog";' in first and 'const pet: Pet = "cat";' in first
    for hidden in ("@noErrors", "import { helper }", "---cut---", "^?"):
        assert hidden not in first
    assert "const x = 1;" in grouped and "@strict" not in grouped
    notes = [d for d in result.diagnostics if d.code == "mdx.twoslash"]
    assert [(d.path, d.line, d.severity.value) for d in notes] == [("index.mdx", 6, "info")]  # once per page
    assert "twoslash" not in [d.code for d in result.warnings]


def test_plain_blocks_keep_their_comments(make_site, tmp_path):
    _, result, dom = built(make_site, tmp_path, "```ts\n// @ts-check\nconst a = 1;\n//    ^?\n```\n")
    text = dom.find("code", cls="language-ts").text
    assert "// @ts-check" in text and "^?" in text
    assert not [d for d in result.diagnostics if d.code == "mdx.twoslash"]


def test_image_actions_become_data_attributes_and_load_the_script(make_site, tmp_path):
    body = (
        '<img src="/d.png" alt="Both" actions />\n\n'
        '<img src="/d.png" alt="One" actions="download" actionsPlacement="top-right" />\n\n'
        '<img src="/d.png" alt="Plain" />\n'
    )
    out, result, dom = built(make_site, tmp_path, body, {"d.png": png()})
    images = {img.attrs["alt"]: img.attrs for img in dom.find_all("img") if img.attrs.get("alt")}
    assert images["Both"]["data-actions"] == "copy download" and "actions" not in images["Both"]
    assert images["One"]["data-actions"] == "download"
    assert images["One"]["data-actions-placement"] == "top-right"
    assert "data-actions" not in images["Plain"]
    head = dom.find("head")
    assert any("js/image-actions.js" in (s.attrs.get("src") or "") for s in head.find_all("script"))
    assert any("image-actions.css" in (n.attrs.get("href") or "") for n in head.find_all("link"))
    assert not result.warnings


def test_image_actions_bad_values_warn_located(make_site, tmp_path):
    body = 'Text\n\n<img src="/d.png" alt="Bad" actions="print" actionsPlacement="middle" />\n'
    out, result, dom = built(make_site, tmp_path, body, {"d.png": png()})
    found = [(w.code, w.path, w.line) for w in result.warnings]
    assert found == [("mdx.image-actions", "index.mdx", 6)] * 2
    assert "data-actions" not in dom.find("img", alt="Bad").attrs
    assert "image-actions.js" not in (out / "index.html").read_text()


def test_no_image_actions_script_without_actions(make_site, tmp_path):
    out, _, _ = built(make_site, tmp_path, '<img src="/d.png" alt="x" />\n', {"d.png": png()})
    assert "image-actions" not in (out / "index.html").read_text()


def test_legacy_snippet_file_is_rendered(make_site, tmp_path):
    files = {"snippets/part.mdx": "Reusable **part** with [a link](/index).\n"}
    _, result, dom = built(make_site, tmp_path, '<Snippet file="part.mdx" />\n', files)
    prose = dom.find("strong")
    assert prose is not None and prose.text == "part"
    assert not result.warnings


@pytest.mark.browser
def test_image_actions_buttons_in_a_browser(make_site, tmp_path, browser):
    from tests.readers_sites import serve

    body = '<img src="/d.png" alt="Both" actions actionsPlacement="top-left" />\n'
    out, _, _ = built(make_site, tmp_path, body, {"d.png": png((400, 300))})
    server, url = serve(out)
    try:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        wrap = page.locator(".dg-image-actions")
        assert wrap.get_attribute("data-placement") == "top-left"
        buttons = page.locator(".dg-image-action")
        assert [buttons.nth(i).get_attribute("aria-label") for i in range(buttons.count())] == [
            "Copy image",
            "Download image",
        ]
        assert page.locator(".dg-image-action-bar").evaluate("e => getComputedStyle(e).opacity") == "0"
        page.hover("img[alt=Both]", position={"x": 300, "y": 250})
        page.wait_for_function(
            "getComputedStyle(document.querySelector('.dg-image-action-bar')).opacity === '1'"
        )
        with page.expect_download() as download:
            page.click("button[data-action=download]")
        assert download.value.suggested_filename == "d.png"
        assert errors == []
    finally:
        server.shutdown()
        server.server_close()
