"""docs.json work is bounded: `$ref` inlining is counted, and odd values are located errors, never a traceback."""

from __future__ import annotations

import json

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
