"""Interactive custom components work in a real browser after hydration, with the vendored Preact only."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from docsgen.build import build
from tests.conftest import write_tree

COUNTER = """---
title: Counter
---
import { Toggle } from "/snippets/toggle.jsx";
import { Gone } from "/snippets/gone.jsx";

export const Counter = ({ start = 0, children }) => {
  const [n, setN] = useState(start);
  const [ready, setReady] = useState("no");
  useEffect(() => setReady("yes"), []);
  return (
    <div className="counter">
      <button onClick={() => setN(n + 1)}>Clicked {n} times</button>
      <span className="ready">effect ran: {ready}</span>
      {n > 4 && <strong className="many">many</strong>}
      <Card title="Inside card">card body</Card>
      {children}
    </div>
  );
};

<Counter start={3}>
Child **markdown** stays.
</Counter>

<Toggle label="Details">
Hidden until opened.
</Toggle>
"""

TOGGLE = """import { useState } from "react";

export const Toggle = ({ label, children }) => {
  const [open, setOpen] = useState(false);
  return (
    <div className="toggle">
      <button aria-expanded={open ? "true" : "false"} onClick={() => setOpen(!open)}>{label}</button>
      {open && <div className="toggle-body">{children}</div>}
    </div>
  );
};
"""


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    root = tmp_path_factory.mktemp("react-browser")
    docs = write_tree(
        root / "docs",
        {
            "docs.json": '{"name": "R", "theme": "mint", "colors": {"primary": "#0D9373"},'
            ' "navigation": {"pages": ["index", "plain"]}}',
            "index.mdx": COUNTER,
            "plain.mdx": "---\ntitle: Plain\n---\nNo components here.\n",
            "snippets/toggle.jsx": TOGGLE,
        },
    )
    out = root / "out"
    result = build(docs, out)
    # the missing file is reported at build time and does not stop the page's other components in the browser
    assert [d.code for d in result.diagnostics if d.code.startswith("react.")] == ["react.missing-import"]

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(out)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", out
    server.shutdown()


def test_state_effects_and_events_work_after_hydration(page, site_url):
    url, _ = site_url
    errors: list[str] = []
    page.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and "Failed to load" not in m.text else None,
    )
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{url}/index.html")
    counter = page.locator(".counter")
    expect(counter.locator(".ready")).to_have_text("effect ran: yes")  # useEffect ran in the browser
    button = counter.get_by_role("button")
    expect(button).to_have_text("Clicked 3 times")
    button.click()
    button.click()
    expect(button).to_have_text("Clicked 5 times")
    expect(counter.locator(".many")).to_have_text("many")
    expect(counter.locator("strong", has_text="markdown")).to_be_visible()  # MDX children survive
    expect(counter.locator(".dg-card", has_text="Inside card")).to_be_visible()  # so does a Mintlify card
    toggle = page.locator(".toggle")
    expect(toggle.locator(".toggle-body")).to_have_count(0)
    toggle.get_by_role("button", name="Details").click()
    expect(toggle.locator(".toggle-body")).to_contain_text("Hidden until opened.")
    assert errors == []
    assert [u for u in failed if not u.endswith("/favicon.ico")] == []
    assert all(r.startswith(url) for r in requests)  # nothing from a CDN
    assert any(r.split("?")[0].endswith("/_static/vendor/preact.min.js") for r in requests)


def test_pages_without_components_load_no_more_javascript(page, site_url):
    url, out = site_url
    html = (out / "plain" / "index.html").read_text()
    assert "react.js" not in html and "preact" not in html
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{url}/plain/")
    expect(page.get_by_text("No components here.")).to_be_visible()
    assert not [r for r in requests if "preact" in r or "react.js" in r]
