"""The live-reload script the dev server adds to every HTML page it serves (never part of `docsgen build`)."""

from __future__ import annotations

import json
import re

EVENTS_PATH = "/__docsgen/events"

# Server-sent events: replay what happened since the page's generation (everything, if another server run
# served the page), reload when a change touches this page, swap changed stylesheets in place.
# Plain JavaScript, no dependencies.
SCRIPT = """(() => {
  const dev = window.__docsgenDev;
  dev.cssSwaps = 0;
  const here = () => {
    let p = decodeURI(location.pathname);
    if (p.endsWith("/index.html")) p = p.slice(0, -"index.html".length);
    return p;
  };
  const swapCss = (paths) => {
    for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
      const url = new URL(link.href, location.href);
      if (url.origin !== location.origin || !paths.includes(url.pathname)) continue;
      url.searchParams.set("dg-reload", String(Date.now()));
      const next = link.cloneNode();
      next.href = url.href;
      next.addEventListener("load", () => { link.remove(); dev.cssSwaps += 1; });
      next.addEventListener("error", () => next.remove());
      link.after(next);
    }
  };
  const connect = () => {
    const es = new EventSource(dev.events + "?since=" + dev.generation + "&run=" + dev.run);
    es.addEventListener("hello", () => { dev.ready = true; });
    es.addEventListener("change", (e) => {
      const data = JSON.parse(e.data);
      dev.generation = data.generation;
      if (data.reload === "*" || data.reload.includes(here())) { es.close(); location.reload(); return; }
      if (data.css.length) swapCss(data.css);
    });
    es.onerror = () => { dev.ready = false; };
  };
  connect();
})();"""

_BODY_END = re.compile(rb"</body\s*>", re.I)
_NAV_SRC = re.compile(rb"(_nav/[A-Za-z0-9_.-]+\.html)\?v=[0-9a-f]+")


def snippet(generation: int, proxy: str, run: str = "") -> str:
    """Return the <script> element added before </body>; `run` names the server process that served it."""
    config = json.dumps(
        {"generation": generation, "run": run, "events": EVENTS_PATH, "proxy": proxy, "ready": False}
    )
    return f"<script>window.__docsgenDev={config};\n{SCRIPT}</script>\n"


def inject(
    html: bytes,
    generation: int,
    proxy: str,
    nav_versions: dict[str, str] | None = None,
    run: str = "",
    asset_versions: tuple[str, str] = ("", ""),
) -> bytes:
    """Add the reload script to a page; point its sidebar and asset links at their current versions."""
    rendered, current = asset_versions
    if rendered and current != rendered:
        html = html.replace(b"?v=" + rendered.encode("ascii"), b"?v=" + current.encode("ascii"))
    if nav_versions:

        def versioned(m: re.Match[bytes]) -> bytes:
            version = nav_versions.get(m.group(1).decode("ascii"))
            return m.group(1) + b"?v=" + version.encode("ascii") if version else m.group(0)

        html = _NAV_SRC.sub(versioned, html)
    script = snippet(generation, proxy, run).encode("utf-8")
    found = None
    for match in _BODY_END.finditer(html):
        found = match
    if found is None:
        return html + script
    return html[: found.start()] + script + html[found.start() :]
