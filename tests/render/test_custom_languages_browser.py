"""Custom languages in a real browser: a code block in a TextMate-grammar language is coloured by the site's code
theme like a built-in language, in light and dark mode (screenshots before/after under the artifacts folder)."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from docsgen.build import build
from tests.conftest import write_tree
from tests.outputs.test_redirects_browser import serve
from tests.render.test_custom_languages import QUILL, QUILL_CODE

SHOTS = Path(os.environ.get("DOCSGEN_ARTIFACTS", "/tmp/docsgen-test-artifacts")) / "custom-languages"
BODY = "---\ntitle: Home\n---\n" + QUILL_CODE + "\n```python\nreturn 'x'  # c\n```\n"


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    root = tmp_path_factory.mktemp("custom-languages")
    urls = {}
    stack = contextlib.ExitStack()
    for name, custom in (("plain", []), ("grammar", ["/langs/quill.json"])):
        config = {
            "name": "Quill",
            "theme": "mint",
            "colors": {"primary": "#0D9373"},
            "navigation": {"pages": ["index"]},
            "styling": {"codeblocks": {"languages": {"custom": custom}}},
        }
        files = {"docs.json": json.dumps(config), "index.mdx": BODY, "langs/quill.json": json.dumps(QUILL)}
        build(write_tree(root / name, files), root / f"{name}-out")
        urls[name] = stack.enter_context(serve(root / f"{name}-out"))
    with stack:
        yield urls


def color(locator) -> str:
    return locator.evaluate("e => getComputedStyle(e).color")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_custom_language_is_coloured_like_built_in_ones(page, sites, scheme):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": 1000, "height": 800})
    for name in ("plain", "grammar"):
        page.goto(sites[name].rstrip("/") + "/")
        expect(page.locator("html")).to_have_attribute("data-theme", scheme)
        block = page.locator("code.language-quill")
        expect(block).to_be_visible()
        page.locator(".dg-code").first.screenshot(path=str(SHOTS / f"{name}-{scheme}.png"))
    quill, python = page.locator("code.language-quill"), page.locator("code.language-python")
    plain_text = color(quill.locator(".line").first)
    keyword = quill.locator("span.k", has_text="return").first
    function = quill.locator("span.nf", has_text="greet")
    comment = quill.locator("span.c1").first
    # coloured by the theme, each kind its own colour, the same colour as Pygments' tokens of the same kind
    assert len({color(keyword), color(function), color(comment), plain_text}) == 4
    assert color(keyword) == color(python.locator("span.k").first)
    assert color(comment) == color(python.locator("span.c1").first)
