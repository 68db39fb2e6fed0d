"""Search floor: the time Pagefind alone takes to index a site's pages, as a build hands them over.

`python bench/search_floor.py DOCS_DIR [RUNS]` renders the site in memory (untimed), then indexes its search
records with Pagefind's service RUNS times and prints, as JSON, the median seconds until every page was added
and until the bundle was ready, with Pagefind's CPU seconds. A build cannot end before Pagefind has built the
bundle from its last page, so this bounds a build's wall time from below whatever the rendering costs.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path


def measure(docs: Path, runs: int) -> dict:
    """Render the site once, then time Pagefind indexing its records `runs` times."""
    os.environ["DOCSGEN_CACHE"] = "0"
    from docsgen.build import render_site
    from docsgen.outputs.pagefind import PagefindRun
    from docsgen.outputs.search import search_records
    from docsgen.render import site_context
    from docsgen.site.read import read_site

    site = read_site(docs)
    render_site(site, workers=1)
    records = search_records(site_context(site), site)
    added, ready, cpu = [], [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        run = PagefindRun()
        for record in records:
            run.add(record)
        run.finish()
        run.result()
        ready.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        added.append(run.added_seconds - started if run.added_seconds else float("nan"))
    return {
        "pages": len(records),
        "html_bytes": sum(len(r.html.encode("utf-8")) for r in records),
        "added_seconds": statistics.median(added),
        "ready_seconds": statistics.median(ready),
        "pagefind_cpu_seconds": statistics.median(cpu),
        "runs": runs,
    }


if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3)))
