// The 404 page's recommended pages (Mintlify's not-found-recommended-pages-list / -page-link): the words of the
// address that was not found, searched in the site's own search index (Pagefind, as js/search.js loads it); up to
// five pages, listed under the description. Nothing is shown when nothing matches or the site has no index.
(() => {
  const box = document.querySelector(".dg-notfound-recs");
  if (!box) return;
  const root = document.documentElement.dataset.root || "./";
  const index = (document.getElementById("dg-search")?.dataset.index || "pagefind").replace(/\/*$/, "/");
  let path = location.pathname;
  try { path = decodeURIComponent(path); } catch { /* keep it encoded */ }
  const words = path.replace(/\.html?$/i, "").split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1 && !/^\d+$/.test(w)).slice(-6);
  if (!words.length) return;
  const href = (url) => (root === "./" ? "./" + url.replace(/^\//, "") : root + url.replace(/^\//, ""));

  async function recommend() {
    const pf = await import(new URL(root + index, location.href).href + "pagefind.js");
    pf.init();
    let found = await pf.search(words.join(" "));
    if (!found.results.length && words.length > 1) found = await pf.search(words[words.length - 1]);
    const pages = await Promise.all(found.results.slice(0, 5).map((r) => r.data()));
    const list = box.querySelector("ul");
    const seen = new Set();
    for (const page of pages) {
      if (seen.has(page.url)) continue;
      seen.add(page.url);
      const link = document.createElement("a");
      link.className = "dg-notfound-rec not-found-recommended-page-link";
      link.href = href(page.url);
      link.textContent = (page.meta && page.meta.title) || page.url;
      list.appendChild(document.createElement("li")).append(link);
    }
    box.hidden = !list.children.length;
  }

  recommend().catch(() => { box.hidden = true; });
})();
