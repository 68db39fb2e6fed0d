"""The live-reload snippet the dev server adds to pages: where it goes and what it rewrites."""

from __future__ import annotations

import json
import re

from docsgen.dev.client import inject


def config_of(html: str) -> dict:
    return json.loads(re.search(r"window.__docsgenDev=(\{.*?\});", html).group(1))


def test_script_goes_before_the_last_body_end():
    page = b"<html><body><pre>&lt;/body&gt; </body> in text</pre>\n</BODY>\n</html>\n"
    out = inject(page, 7, "/__docsgen/proxy", run="abc").decode()
    assert out.count("window.__docsgenDev=") == 1
    assert out.index("window.__docsgenDev=") > out.index("in text") and out.rstrip().endswith(
        "</BODY>\n</html>"
    )
    assert config_of(out) == {
        "generation": 7,
        "run": "abc",
        "events": "/__docsgen/events",
        "proxy": "/__docsgen/proxy",
        "ready": False,
    }


def test_script_is_appended_without_body():
    out = inject(b"<p>fragment</p>", 1, "/p").decode()
    assert out.startswith("<p>fragment</p><script>")


def test_sidebar_links_point_at_the_current_sidebar():
    page = b'<nav data-src="_nav/s0-1.html?v=0123abcd"></nav><a href="../_nav/root.html?v=ffff">x</a></body>'
    out = inject(page, 1, "/p", {"_nav/s0-1.html": "99999999"}).decode()
    assert 'data-src="_nav/s0-1.html?v=99999999"' in out
    assert "_nav/root.html?v=ffff" in out  # unknown sidebars stay as they are
