"""How pages get rendered, as fast as the previous build allows: one Engine object (docsgen.engine.site_engine).

The engine takes a render function (docsgen.render.render_page) and the site; it never decides what a page looks
like, and it writes only at the paths the outputs stage claimed (docsgen.write.PageWriter). Behind it: the
process pool and collector thresholds (pool.py), the page cache (cache.py, bodies.py) and the previous build's
files and search bundles of unchanged pages (reuse.py).
"""

from __future__ import annotations

from docsgen.engine.pool import PageRender, worker_count
from docsgen.engine.site_engine import Engine, EngineOptions, RenderedSite, render_in_memory

__all__ = ["Engine", "EngineOptions", "PageRender", "RenderedSite", "render_in_memory", "worker_count"]
