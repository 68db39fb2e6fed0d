"""Mermaid: the fence HTML, the vendored build, and a real browser drawing diagrams offline in both themes."""

from __future__ import annotations

import functools
import http.server
import threading
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from docsgen.common.resources import themes_dir
from docsgen.mdx.mermaid import MERMAID_SCRIPT, MERMAID_VENDOR, render_mermaid

STATIC = themes_dir() / "base" / "static"
REPO = Path(__file__).resolve().parents[2]

FLOWCHART = """
    flowchart LR
      start[Write docs] --> build{Build ok?}
      build -->|yes| ship[Ship site]
      build -->|no| fix[Fix errors]
      fix --> evil["<img src=x onerror=window.pwned=1>"]
"""


def test_fence_html_shows_escaped_source():
    html = render_mermaid(FLOWCHART)
    root = ET.fromstring(html)
    assert root.tag == "div" and root.get("class") == "mermaid-diagram"
    (pre,) = list(root)
    assert pre.tag == "pre" and pre.get("class") == "mermaid" and len(pre) == 0
    assert pre.text.startswith("flowchart LR\n  start[Write docs]")  # dedented, surrounding blank lines gone
    assert "<img src=x onerror=window.pwned=1>" in pre.text and "<img" not in html


def test_fence_options_become_data_attributes():
    root = ET.fromstring(render_mermaid("graph TD; A-->B", actions=False, placement="top-left"))
    assert root.get("data-actions") == "false" and root.get("data-placement") == "top-left"
    root = ET.fromstring(render_mermaid("graph TD; A-->B", actions=True, placement="middle"))
    assert root.get("data-actions") == "true" and root.get("data-placement") is None
    assert ET.fromstring(render_mermaid("graph TD; A-->B")).attrib == {"class": "mermaid-diagram"}


def test_vendored_build_and_licence_are_present():
    vendor = STATIC / MERMAID_VENDOR
    assert vendor.stat().st_size > 1_000_000
    head = vendor.read_bytes()[:200]
    assert b"mermaid" in head
    assert "MIT License" in (STATIC / "vendor" / "mermaid.LICENSE.txt").read_text(encoding="utf-8")
    notes = (REPO / "docs" / "vendored.md").read_text(encoding="utf-8")
    assert "mermaid.min.js" in notes and "npm pack mermaid@" in notes
    assert (STATIC / MERMAID_SCRIPT).is_file()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Serve a tiny site at http://127.0.0.1:PORT/docs/ whose page sits one folder below the root."""
    root = tmp_path_factory.mktemp("mermaid-site")
    docs = root / "docs"
    (docs / "guide").mkdir(parents=True)
    (docs / "_static").symlink_to(STATIC, target_is_directory=True)
    bad = render_mermaid("flowchart LR\n  A[unclosed --> ")
    small = render_mermaid("graph LR; A-->B", actions=False)
    page = f"""<!doctype html>
<html lang="en" data-root="../" data-theme="light">
<head><meta charset="utf-8"><title>Diagrams</title>
<script src="../_static/js/mermaid-init.js?v=test1" defer></script></head>
<body style="font-family: sans-serif">
<div id="good">{render_mermaid(FLOWCHART, placement="top-left")}</div>
<div id="bad">{bad}</div>
<div id="small">{small}</div>
</body></html>"""
    (docs / "guide" / "index.html").write_text(page, encoding="utf-8")
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/docs/guide/"
    server.shutdown()
    server.server_close()


def _svg_state(page, selector: str) -> dict:
    return page.evaluate(
        """(sel) => {
            const box = document.querySelector(sel + ' .mermaid-diagram');
            const svg = box.querySelector('.mermaid-svg svg');
            return {
                svg: !!svg,
                text: svg ? svg.textContent : '',
                preHidden: box.querySelector('pre.mermaid').hidden,
                theme: box.dataset.mermaidTheme || null,
                error: box.dataset.error || null,
                html: svg ? svg.outerHTML : '',
                controls: box.querySelectorAll('.mermaid-controls button').length,
            };
        }""",
        selector,
    )


def test_flowchart_renders_offline_and_follows_the_theme(page, site):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(site)
    page.wait_for_selector("#good .mermaid-svg svg", timeout=30_000)

    good = _svg_state(page, "#good")
    assert good["svg"] and good["preHidden"] and good["theme"] == "light" and good["error"] is None
    for label in ("Write docs", "Build ok?", "Ship site", "Fix errors", "yes", "no"):
        assert label in good["text"], label
    # securityLevel strict: a label cannot run script.
    assert "onerror" not in good["html"] and page.evaluate("window.pwned") is None

    # The broken diagram keeps showing its source; the others still render.
    bad = _svg_state(page, "#bad")
    assert not bad["svg"] and not bad["preHidden"] and bad["error"]
    assert page.locator("#bad pre.mermaid").is_visible()
    assert _svg_state(page, "#small")["svg"]

    # Zoom controls: on for the big diagram, off where the fence said actions={false}.
    assert good["controls"] == 3 and _svg_state(page, "#small")["controls"] == 0
    page.click("#good .mermaid-controls button[aria-label='Zoom in']")
    assert "scale(1.25)" in page.eval_on_selector("#good .mermaid-svg", "e => e.style.transform")

    # Switching the theme redraws in mermaid's dark theme.
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    page.wait_for_function("document.querySelector('#good .mermaid-diagram').dataset.mermaidTheme === 'dark'")
    dark = _svg_state(page, "#good")
    assert dark["svg"] and dark["html"] != good["html"]
    assert "Ship site" in dark["text"]

    assert any(url.endswith("/docs/_static/vendor/mermaid.min.js?v=test1") for url in requests)
    outside = [
        u
        for u in requests
        if urlsplit(u).scheme not in ("data", "blob") and urlsplit(u).hostname != "127.0.0.1"
    ]
    assert outside == [], outside


def test_source_stays_readable_without_javascript(browser, site):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site)
        assert page.locator("#good pre.mermaid").is_visible()
        assert "flowchart LR" in page.locator("#good pre.mermaid").inner_text()
        assert page.locator("#good svg").count() == 0
    finally:
        context.close()
