// docsgen contextual page menu: copy the page's Markdown twin, open it, or hand the page to an AI assistant.
(() => {
  const menu = document.querySelector(".dg-contextual");
  if (!menu) return;
  const mdUrl = new URL(menu.dataset.md, location.href).href;
  const status = menu.querySelector(".dg-contextual-status");
  const prompt = () => `Read from ${location.href.split("#")[0]} so I can ask questions about it.`;
  let markdown = null;
  const fetchMarkdown = () => {
    markdown ??= fetch(mdUrl).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.text();
    });
    markdown.catch(() => { markdown = null; });
    return markdown;
  };
  const say = (text) => {
    status.hidden = false;
    status.textContent = text;
    setTimeout(() => { status.hidden = true; }, 2000);
  };

  function customHref(spec, text) {
    if (typeof spec === "string") return spec;
    const url = new URL(spec.base, location.href);
    for (const q of spec.query || []) {
      const value = String(q.value ?? "")
        .replaceAll("$page", text ?? "")
        .replaceAll("$path", menu.dataset.path || location.pathname);
      url.searchParams.set(q.key, value);
    }
    return url.href;
  }

  async function refresh() {
    for (const a of menu.querySelectorAll("[data-action=ai]")) a.href = a.dataset.base + encodeURIComponent(prompt());
    const custom = [...menu.querySelectorAll("[data-action=custom]")];
    const needsPage = custom.some((a) => a.dataset.href.includes("$page"));
    const text = needsPage ? await fetchMarkdown().catch(() => "") : "";
    for (const a of custom) a.href = customHref(JSON.parse(a.dataset.href), text);
  }

  menu.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-action=copy]");
    if (!button) return;
    event.preventDefault();
    try {
      const text = await fetchMarkdown();
      await navigator.clipboard.writeText(text);
      say("Copied");
      button.dataset.copied = "true";
    } catch (err) {
      say("Copy failed");
    }
    menu.querySelector("details")?.removeAttribute("open");
  });
  menu.querySelector("details")?.addEventListener("toggle", refresh);
  refresh();
})();
