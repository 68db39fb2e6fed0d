// docsgen search: a header button, Ctrl/Cmd-K and "/" open a dialog; Pagefind loads only on first use.
(() => {
  const T = window.dgT || ((k, en, v) => (v ? en.replace(/\{(\w+)\}/g, (m, n) => (n in v ? String(v[n]) : m)) : en)); // the page language's words (theme-init.js)
  const dialog = document.getElementById("dg-search");
  // the header's button; themes with the search on top of the sidebar have a second one there
  const buttons = document.querySelectorAll(".dg-search-button");
  const button = buttons[0];
  if (!dialog || !button) return;
  const input = dialog.querySelector(".dg-search-input");
  const list = dialog.querySelector(".dg-search-results");
  const status = dialog.querySelector(".dg-search-status");
  const all = dialog.querySelector(".dg-search-all");
  const root = document.documentElement.dataset.root || "./";
  const scope = JSON.parse(dialog.dataset.scope || "{}");
  const mac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
  for (const kbd of document.querySelectorAll(".dg-search-kbd")) if (mac) kbd.textContent = "\u2318K";
  let engine = null;
  let active = -1;
  let timer = 0;
  let serial = 0;

  // A site with versions or products has one index per product and version (pagefind/<group>/): the page's own
  // is loaded; "search all" merges the others, listed in pagefind/indexes.json, on first use.
  const index = (dialog.dataset.index || "pagefind").replace(/\/*$/, "/");
  let merged = null;

  // A site that marks access (docsgen server's sign-in gate) keeps restricted pages in bundles of their own,
  // listed per base bundle in pagefind/access.json; the gate lists only those the reader may read.
  function restricted() {
    if (!("access" in dialog.dataset)) return Promise.resolve([]);
    return fetch(new URL(root + "pagefind/access.json", location.href))
      .then((response) => (response.ok ? response.json() : {}))
      .then((listing) => (listing[index.replace(/\/$/, "")] || []).map((f) => new URL(root + f + "/", location.href).href))
      .catch(() => []);
  }

  function load() {
    if (!engine) {
      engine = restricted().then(async (extra) => {
        const bundles = [new URL(root + index, location.href).href, ...extra];
        let pf = null;
        while (bundles.length && !pf) {  // the base bundle is missing when every page of it is restricted
          pf = await import(bundles.shift() + "pagefind.js").catch(() => null);
        }
        if (!pf) throw new Error("no search index");
        await pf.options({ excerptLength: 24 });
        pf.init();
        await Promise.all(bundles.map((url) => pf.mergeIndex(url).catch(() => null)));
        return pf;
      });
      engine.catch(() => { engine = null; });
    }
    return engine;
  }

  function mergeAll(pf) {
    if (!merged && index !== "pagefind/") {
      merged = fetch(new URL(root + "pagefind/indexes.json", location.href))
        .then((response) => (response.ok ? response.json() : []))
        .then((names) => Promise.all(names
          .map((name) => new URL(root + "pagefind/" + name + "/", location.href).href)
          .filter((url) => !url.endsWith("/" + index))
          .map((url) => pf.mergeIndex(url))))
        .catch(() => { merged = null; });
    }
    return merged || Promise.resolve();
  }

  function open() {
    if (!dialog.open) dialog.showModal();
    input.focus();
    input.select();
    load().catch(() => {});
  }

  function close() {
    if (dialog.open) dialog.close();
    report("dg:search-close", {});
  }

  // For the site's own analytics and assistant (js/insights.js, js/assistant.js), when they are loaded.
  function report(name, detail) {
    document.dispatchEvent(new CustomEvent(name, { detail }));
  }

  // Keep only text and <mark> from Pagefind's excerpt: nothing else of the index reaches the page as HTML.
  function excerpt(html) {
    const out = document.createElement("span");
    out.className = "dg-search-excerpt";
    const doc = new DOMParser().parseFromString(`<p>${html}</p>`, "text/html");
    for (const node of doc.body.firstChild.childNodes) {
      if (node.nodeName === "MARK") {
        const mark = document.createElement("mark");
        mark.textContent = node.textContent;
        out.append(mark);
      } else {
        out.append(document.createTextNode(node.textContent));
      }
    }
    return out;
  }

  function href(url) {
    return root === "./" ? "./" + url.replace(/^\//, "") : root + url.replace(/^\//, "");
  }

  function select(index) {
    const items = list.querySelectorAll("[role=option]");
    if (!items.length) return;
    active = (index + items.length) % items.length;
    items.forEach((item, i) => item.setAttribute("aria-selected", String(i === active)));
    input.setAttribute("aria-activedescendant", items[active].id);
    items[active].scrollIntoView({ block: "nearest" });
  }

  function best(data) {
    const subs = (data.sub_results || []).filter((s) => s.url !== data.url);
    subs.sort((a, b) => (b.locations || []).length - (a.locations || []).length);
    return subs.length && (subs[0].locations || []).length ? subs[0] : null;
  }

  function render(results, query) {
    list.replaceChildren();
    active = -1;
    input.removeAttribute("aria-activedescendant");
    results.forEach((data, i) => {
      const sub = best(data);
      // The link itself is the option: an option holding a link would nest interactive elements.
      const li = document.createElement("li");
      li.setAttribute("role", "none");
      const a = document.createElement("a");
      a.id = `dg-search-option-${i}`;
      a.setAttribute("role", "option");
      a.setAttribute("aria-selected", "false");
      a.href = href(sub ? sub.url : data.url);
      a.tabIndex = -1;
      const title = document.createElement("span");
      title.className = "dg-search-title";
      title.textContent = data.meta.title + (sub && sub.title !== data.meta.title ? " \u203a " + sub.title : "");
      a.append(title);
      if (data.meta.crumbs) {
        const crumbs = document.createElement("span");
        crumbs.className = "dg-search-crumbs";
        crumbs.textContent = data.meta.crumbs;
        a.append(crumbs);
      }
      a.append(excerpt(sub ? sub.excerpt : data.excerpt));
      li.append(a);
      li.addEventListener("mousemove", () => { if (active !== i) select(i); });
      list.append(li);
    });
    input.setAttribute("aria-expanded", String(results.length > 0));
    status.textContent = query
      ? results.length ? (results.length === 1 ? T("results_one", "1 result") : T("results", "{n} results", { n: results.length })) : T("no_results_for", "No results for \u201c{q}\u201d", { q: query })
      : "";
    if (results.length) select(0);
  }

  async function run() {
    const query = input.value.trim();
    const mine = ++serial;
    if (!query) {
      render([], "");
      return;
    }
    let pf;
    try {
      pf = await load();
    } catch {
      status.textContent = location.protocol === "file:"
        ? T("search_needs_http", "Search needs the site to be served over HTTP (for example: python -m http.server).")
        : T("search_unavailable", "Search is unavailable: this site has no search index.");
      return;
    }
    if (all && all.checked) await mergeAll(pf);
    if (mine !== serial) return;
    const filters = all && all.checked ? {} : scope;
    const search = await pf.search(query, { filters });
    if (mine !== serial || !search) return;
    const data = await Promise.all(search.results.slice(0, 10).map((r) => r.data()));
    if (mine !== serial) return;
    render(data, query);
    report("dg:search", { query, results: search.results.length });
  }

  list.addEventListener("click", (event) => {
    const link = event.target.closest?.("[role=option]");
    if (link) report("dg:search-click", { query: input.value.trim(), href: link.href });
  });
  for (const b of buttons) b.addEventListener("click", open);
  dialog.querySelector(".dg-search-close")?.addEventListener("click", close);
  dialog.addEventListener("click", (event) => { if (event.target === dialog) close(); });
  all?.addEventListener("change", run);
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(run, 80);
  });
  input.addEventListener("keydown", (event) => {
    const count = list.querySelectorAll("[role=option]").length;
    if (event.key === "ArrowDown" && count) {
      event.preventDefault();
      select(active + 1);
    } else if (event.key === "ArrowUp" && count) {
      event.preventDefault();
      select(active - 1);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (event.key === "Enter") {
      event.preventDefault();
      const link = list.querySelectorAll("[role=option]")[Math.max(active, 0)];
      if (link) {
        report("dg:search-click", { query: input.value.trim(), href: link.href });
        close();
        location.href = link.href;
      }
    }
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest?.("input, textarea, select, [contenteditable=''], [contenteditable=true]");
    if ((event.key === "k" || event.key === "K") && (event.metaKey || event.ctrlKey) && !event.altKey) {
      event.preventDefault();
      dialog.open ? close() : open();
    } else if (event.key === "/" && !typing && !dialog.open) {
      event.preventDefault();
      open();
    }
  });
})();
