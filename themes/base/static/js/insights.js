// docsgen analytics: page views and searches (query, number of results, result clicked), sent to the site's
// feedback server (404s are reported by the 404 page itself). No cookie, no storage, nothing sent under Do Not Track or Global Privacy Control; the server
// counts visitors with a hash it cannot reverse (docs/analytics.md). Loaded only when docs.json configures the
// feedback server, and only after consent when docs.json `integrations.cookies` asks for it.
(() => {
  const me = document.currentScript;
  if (!me || !me.dataset.endpoint) return;
  if (navigator.doNotTrack === "1" || window.doNotTrack === "1" || navigator.globalPrivacyControl === true) return;
  const endpoint = me.dataset.endpoint;
  const rootPath = new URL(document.documentElement.dataset.root || "/", location.href).pathname;
  const queue = [];
  let timer = 0;

  // sendBeacon survives the page being left; text/plain needs no CORS preflight.
  function send(events) {
    const body = JSON.stringify({ events });
    try {
      if (navigator.sendBeacon && navigator.sendBeacon(endpoint, new Blob([body], { type: "text/plain" }))) return;
    } catch {}
    fetch(endpoint, {
      method: "POST",
      body,
      headers: { "Content-Type": "text/plain;charset=UTF-8" },
      keepalive: true,
      mode: "cors",
      credentials: "omit",
      referrerPolicy: "no-referrer",
    }).catch(() => {});
  }

  function flush() {
    clearTimeout(timer);
    while (queue.length) send(queue.splice(0, 25));
  }

  // Events of one moment (a search and its clicked result) travel together.
  function add(event) {
    queue.push(event);
    clearTimeout(timer);
    timer = setTimeout(flush, 50);
  }

  // The site path of a link: "/" and the part after the site's root, without index.html or a trailing slash.
  function sitePath(href) {
    const url = new URL(href, location.href);
    let path = url.pathname.startsWith(rootPath) ? url.pathname.slice(rootPath.length) : url.pathname;
    path = path.replace(/(^|\/)index\.html$/, "").replace(/\.html$/, "").replace(/\/+$/, "");
    return "/" + path.replace(/^\/+/, "");
  }

  add({ kind: "view", path: me.dataset.path || sitePath(location.href), referrer: document.referrer || undefined });

  // A search counts once the reader stops typing (or leaves the dialog, or clicks a result).
  let pending = null;
  let settle = 0;
  function commit() {
    clearTimeout(settle);
    if (pending) add({ kind: "search", query: pending.query, results: pending.results });
    const done = pending;
    pending = null;
    return done;
  }
  document.addEventListener("dg:search", (event) => {
    const { query, results } = event.detail || {};
    if (typeof query !== "string" || !query.trim()) return;
    clearTimeout(settle);
    pending = { query: query.slice(0, 200), results: Number(results) || 0 };
    settle = setTimeout(commit, 1500);
  });
  document.addEventListener("dg:search-click", (event) => {
    const { query, href } = event.detail || {};
    const done = commit();
    const term = done ? done.query : typeof query === "string" ? query.slice(0, 200) : "";
    if (term.trim() && href) add({ kind: "click", query: term, path: sitePath(href) });
    flush();
  });
  document.addEventListener("dg:search-close", commit);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      commit();
      flush();
    }
  });
  addEventListener("pagehide", () => {
    commit();
    flush();
  });
})();
