"""How pages get rendered, as fast as the previous build allows: one Engine object (docsgen.engine.site_engine).

The engine takes a render function (docsgen.render.render_page) and the site; it never decides what a page looks
like, and it writes only at the paths the outputs stage claimed (docsgen.engine.write.PageWriter). Behind it: the
render processes (pool.py: RenderPool, the one pool, forked from a known state and safe to fork from a process
with threads), the build's rendering of every page on them (rendering.py), the page cache (cache.py, bodies.py)
and the previous build's files and search bundles of unchanged pages (reuse.py). `docsgen dev` renders the pages
nobody asked for yet on the same RenderPool (docsgen.dev.background), with the engine's worker count.

The folder also holds the engine's leaf helpers, which the stages above the engine use too and which import
nothing of it: the output writer (write.py: SiteFiles, the temporary folder of output_temp.py swapped or moved
into place by output_update.py), the cache folders (cachedir.py) and the stage timings (timings.py). This file
imports nothing, so importing one of them does not load the engine (which imports those stages).
"""
