"""docs.json work is bounded: `$ref` inlining is counted, and odd values are located errors, never a traceback."""

from __future__ import annotations

import json
import re

from tests.bounded import run_cli

BASE = {"theme": "mint", "name": "X", "colors": {"primary": "#112233"}}


def test_ref_fan_out_is_counted_and_located(make_site, tmp_path):
    # 22 files, each two $refs to the next: 4 million values inlined (killed at 120 s with over 5 GB before).
    files = {
        f"n{i}.json": json.dumps({"groups": [{"$ref": f"n{i + 1}.json"}, {"$ref": f"n{i + 1}.json"}]})
        for i in range(21)
    }
    files["n21.json"] = json.dumps({"group": "x", "pages": ["index"]})
    docs = make_site(
        {**files, "docs.json": json.dumps({**BASE, "navigation": {"$ref": "n0.json"}}), "index.mdx": "# Hi\n"}
    )
    for args in (("validate", docs), ("build", docs, "-o", tmp_path / "out")):
        done = run_cli(*args, deadline=60, memory=1024**3)
        assert done.returncode == 1
        assert "more than 100,000 values" in done.stderr and "[config.too-large]" in done.stderr
        assert done.stderr.count("error:") == 1, done.stderr[-2000:]
    assert not (tmp_path / "out").exists()


def test_script_and_data_urls_are_refused_as_logo_and_favicon(make_site, tmp_path):
    config = {
        **BASE,
        "navigation": {"pages": ["index"]},
        "logo": {"light": "javascript:alert(1)", "dark": "data:image/svg+xml,<svg onload=alert(1)>"},
        "favicon": "JaVa\tscript:alert(2)",
    }
    docs = make_site({"docs.json": json.dumps(config), "index.mdx": "# Hi\n"})
    done = run_cli("build", docs, "-o", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    for where in ("logo.light", "logo.dark", "favicon"):
        assert f"(at {where}) [config.unsafe-url]" in done.stderr
    assert re.search(r"^docs\.json:1:\d+: warning: image source 'javascript:alert\(1\)'", done.stderr, re.M)
    html = (tmp_path / "out" / "index.html").read_text()
    assert "alert(" not in html and "script:" not in html.lower()
    # a path on the site and an https URL stay
    config["logo"] = {"light": "/logo.svg", "dark": "https://example.com/dark.svg"}
    config["favicon"] = "/favicon.svg"
    files = {
        "docs.json": json.dumps(config),
        "index.mdx": "# Hi\n",
        "logo.svg": "<svg/>",
        "favicon.svg": "<svg/>",
    }
    docs = make_site(files, name="ok")
    done = run_cli("build", docs, "-o", tmp_path / "out2")
    assert "[config.unsafe-url]" not in done.stderr
    assert "https://example.com/dark.svg" in (tmp_path / "out2" / "index.html").read_text()
