// docsgen contextual page menu: copy the page's Markdown twin, open it, hand the page to an AI tool, print it,
// or connect an AI tool to the site's MCP server (docsgen mcp, served at <site>/mcp).
(() => {
  const T = window.dgT || ((k, en, v) => (v ? en.replace(/\{(\w+)\}/g, (m, n) => (n in v ? String(v[n]) : m)) : en)); // the page language's words (theme-init.js)
  const menu = document.querySelector(".dg-contextual");
  if (!menu) return;
  const mdUrl = new URL(menu.dataset.md, location.href).href;
  const mcpUrl = new URL(menu.dataset.mcp || "mcp", location.href).href;
  const server = menu.dataset.server || "docs";
  const status = menu.querySelector(".dg-contextual-status");
  const prompt = () => T("ai_prompt", "Read from {url} so I can ask questions about it.", { url: location.href.split("#")[0] });
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
  const close = () => menu.querySelector("details")?.removeAttribute("open");

  function customHref(spec, text) {
    if (typeof spec === "string") return spec.replaceAll("$mcp", mcpUrl);
    const url = new URL(spec.base.replaceAll("$mcp", mcpUrl), location.href);
    for (const q of spec.query || []) {
      const value = String(q.value ?? "")
        .replaceAll("$page", text ?? "")
        .replaceAll("$path", menu.dataset.path || location.pathname)
        .replaceAll("$mcp", mcpUrl);
      url.searchParams.set(q.key, value);
    }
    return url.href;
  }

  function installHref(kind) {
    if (kind === "cursor") {
      const config = btoa(JSON.stringify({ url: mcpUrl }));
      return `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(server)}&config=${encodeURIComponent(config)}`;
    }
    const config = JSON.stringify({ type: "http", url: mcpUrl });
    return `https://vscode.dev/redirect/mcp/install?name=${encodeURIComponent(server)}&config=${encodeURIComponent(config)}`;
  }

  async function refresh() {
    for (const a of menu.querySelectorAll("[data-action=ai]")) a.href = a.dataset.base + encodeURIComponent(prompt());
    for (const a of menu.querySelectorAll("[data-action=install]")) a.href = installHref(a.dataset.option);
    const custom = [...menu.querySelectorAll("[data-action=custom]")];
    const needsPage = custom.some((a) => a.dataset.href.includes("$page"));
    const text = needsPage ? await fetchMarkdown().catch(() => "") : "";
    for (const a of custom) a.href = customHref(JSON.parse(a.dataset.href), text);
  }

  async function copy(button, text, done) {
    try {
      await navigator.clipboard.writeText(await text);
      say(done);
      button.dataset.copied = "true";
    } catch (err) {
      say(T("copy_failed", "Copy failed"));
    }
  }

  function ask() {
    const title = menu.dataset.title || document.title;
    // The site's assistant when its feedback server is configured (js/assistant.js), else the site search.
    if (window.dgAssistant) return window.dgAssistant.open(T("explain_page", "Explain the page \u201c{title}\u201d", { title }), false);
    const open = document.querySelector(".dg-search-button");
    if (!open) return;
    open.click();
    const input = document.querySelector(".dg-search-input");
    if (input) {
      input.value = title;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  menu.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    event.preventDefault();
    const action = button.dataset.action;
    close();
    if (action === "copy") await copy(button, fetchMarkdown(), T("copied", "Copied"));
    else if (action === "mcp") await copy(button, mcpUrl, T("mcp_copied", "MCP server URL copied"));
    else if (action === "add-mcp") await copy(button, `npx add-mcp ${mcpUrl}`, T("install_copied", "Install command copied"));
    else if (action === "print") window.print();
    else if (action === "assistant") ask();
  });
  menu.querySelector("details")?.addEventListener("toggle", refresh);
  refresh();
})();
