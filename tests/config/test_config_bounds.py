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


def test_odd_values_are_located_errors_not_internal_ones(make_site, tmp_path):
    nav = {"pages": ["index"]}
    chain = {f"r{i}.json": json.dumps({"$ref": f"r{i + 1}.json"}) for i in range(499)}
    chain["r499.json"] = json.dumps(nav)
    cases = {
        "redirect source of 3,000 segments": (
            {
                "docs.json": json.dumps(
                    {**BASE, "navigation": nav, "redirects": [{"source": "/s" * 3000, "destination": "/"}]}
                )
            },
            r"^docs\.json:1:\d+: error: redirect source has 3,001 path segments; expected at most 64 "
            r"\(at redirects\[0\]\.source\) \[config\.redirect-source\]",
        ),
        "5,000-digit integer": (
            {"docs.json": json.dumps({**BASE, "navigation": nav})[:-1] + ', "x": ' + "9" * 5000 + "}"},
            r"^docs\.json:1:\d+: error: invalid JSON: a number of more than 4,300 digits",
        ),
        "chain of 500 $ref files": (
            {**chain, "docs.json": json.dumps({**BASE, "navigation": {"$ref": "r0.json"}})},
            r"^r\d+\.json:1:\d+: error: more than 64 \$ref files included inside each other",
        ),
    }
    for name, (files, expected) in cases.items():
        docs = make_site({**files, "index.mdx": "# Hi\n"}, name=name.replace(" ", "-").replace("$", ""))
        for args in (("validate", docs), ("build", docs, "-o", tmp_path / "out")):
            done = run_cli(*args)
            assert done.returncode == 1, (name, done.stderr[-1000:])
            assert "internal error" not in done.stderr
            assert re.search(expected, done.stderr, re.M), (name, done.stderr[-1000:])


def test_a_file_name_that_is_not_utf8_is_a_warning(make_site, tmp_path):
    docs = make_site(
        {"docs.json": json.dumps({**BASE, "navigation": {"pages": ["index"]}}), "index.mdx": "# Hi\n"}
    )
    (docs / "caf\udce9.mdx").write_bytes(b"# x\n")  # the name's bytes: caf\xe9.mdx (Latin-1)
    done = run_cli("build", docs, "-o", tmp_path / "out")
    assert done.returncode == 0, done.stderr[-1000:]
    assert "caf\ufffd.mdx: warning: file caf\ufffd.mdx has a name that is not UTF-8: skipped" in done.stderr
    assert (tmp_path / "out" / "index.html").exists()
