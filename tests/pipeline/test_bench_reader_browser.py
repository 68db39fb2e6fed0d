"""bench/reader.py on a tiny docsgen site in Debian's chromium: each traced cold load yields the first contentful
paint, the main thread's CPU before it and the compositor's (raster + frames drawn), and the table shows them."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import reader  # noqa: E402


def test_reader_reports_main_thread_and_compositor_work_before_first_paint(tmp_path, browser):
    out = reader.build_docsgen(tmp_path, 6)
    server, url = reader.serve(out)
    try:
        # pytest-playwright's browser: a second Playwright of its own in this process would not start
        loads = reader.measure({"docsgen": url + reader.sitegen.page_path(reader.GUIDE) + "/"}, 2, browser)
    finally:
        server.shutdown()
    got = loads["docsgen"]
    assert len(got.fcp) == len(got.cpu) == len(got.compositor) == 2
    assert all(f > 0 for f in got.fcp) and all(c > 0 for c in got.cpu)
    assert all(c > 0 for c in got.compositor)  # the first frame was rasterized and drawn before it was shown
    assert [u.rsplit("/", 1)[-1].split("?")[0] for u in got.blocking] == ["docsgen.css"]
    row = next(line for line in reader.report_table(loads).splitlines() if line.startswith("| docsgen |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[5] == f"{statistics.median(got.compositor):.1f}"  # the compositor column
