// docsgen assistant: answers readers from the site's own pages, through the site's feedback server (docs/assistant.md).
// Opened by "Ask AI" in the search dialog, the contextual menu's "assistant" option, Ctrl/Cmd-I, ?assistant=<question>,
// and shown in place of the content on `mode: assistant` pages. The model's text is rendered by a small Markdown
// reader that only ever creates elements and text nodes: no HTML of the answer reaches the page.
(() => {
  const T = window.dgT || ((k, en, v) => (v ? en.replace(/\{(\w+)\}/g, (m, n) => (n in v ? String(v[n]) : m)) : en)); // the page language's words (theme-init.js)
  const me = document.currentScript;
  if (!me || !me.dataset.endpoint) return;
  const endpoint = me.dataset.endpoint;
  const root = document.documentElement.dataset.root || "./";
  const rootPath = new URL(root, location.href).pathname;
  const MAX = 2000;
  let threadId = null;
  let busy = false;
  let dialog = null;
  let chat = null;
  let built = false;

  function el(tag, attrs = {}, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function pagePath() {
    let path = location.pathname.startsWith(rootPath) ? location.pathname.slice(rootPath.length) : location.pathname;
    path = path.replace(/(^|\/)index\.html$/, "").replace(/\/+$/, "");
    return "/" + path.replace(/^\/+/, "");
  }

  // A link of the answer: site paths through the site's root, http(s) and #fragments as they are, nothing else.
  function safeHref(url) {
    if (/^\/(?!\/)/.test(url)) return root === "./" ? "./" + url.slice(1) : root + url.slice(1);
    if (/^https?:\/\/[^\s]+$/i.test(url) || /^#[\w-]*$/.test(url)) return url;
    return null;
  }

  function inline(text, parent) {
    const pattern = /(`[^`]+`)|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
    let last = 0;
    let m;
    while ((m = pattern.exec(text))) {
      if (m.index > last) parent.append(text.slice(last, m.index));
      if (m[1]) parent.append(el("code", {}, m[1].slice(1, -1)));
      else if (m[2]) inline(m[2], parent.appendChild(el("strong")));
      else if (m[3]) parent.append(el("em", {}, m[3]));
      else {
        const href = safeHref(m[5]);
        if (href) parent.append(el("a", { href }, m[4]));
        else parent.append(m[4]);
      }
      last = pattern.lastIndex;
    }
    if (last < text.length) parent.append(text.slice(last));
  }

  const LIST = /^\s*([-*+]|\d+[.)])\s+/;
  const BLOCK = /^(```|#{1,6}\s|>|\s*([-*+]|\d+[.)])\s)/;

  function markdown(text) {
    const out = document.createDocumentFragment();
    const lines = text.replace(/\r/g, "").split("\n");
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      let m;
      if (line.startsWith("```")) {
        const code = [];
        for (i++; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
        i++;
        out.append(el("pre")).lastChild.append(el("code", {}, code.join("\n")));
      } else if (!line.trim()) {
        i++;
      } else if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
        inline(m[2], out.appendChild(el("p")).appendChild(el("strong")));
        i++;
      } else if (LIST.test(line)) {
        const list = out.appendChild(el(/^\s*\d/.test(line) ? "ol" : "ul"));
        for (; i < lines.length && LIST.test(lines[i]); i++) inline(lines[i].replace(LIST, ""), list.appendChild(el("li")));
      } else if (line.startsWith(">")) {
        const quote = [];
        for (; i < lines.length && lines[i].startsWith(">"); i++) quote.push(lines[i].replace(/^>\s?/, ""));
        inline(quote.join(" "), out.appendChild(el("blockquote")));
      } else {
        const para = [line];
        for (i++; i < lines.length && lines[i].trim() && !BLOCK.test(lines[i]); i++) para.push(lines[i]);
        inline(para.join(" "), out.appendChild(el("p")));
      }
    }
    return out;
  }

  function build(inPage) {
    // Mintlify's CSS hooks (chat-assistant-*); the ids go to the first chat built, so they stay unique
    const ids = !built;
    built = true;
    const box = el("section", { class: "dg-assistant chat-assistant-sheet", "aria-label": T("ask_ai", "Ask AI") });
    if (ids) box.id = "chat-assistant-sheet";
    const head = box.appendChild(el("div", { class: "dg-assistant-head chat-assistant-sheet-header" }));
    head.append(el("h2", { class: "dg-assistant-title" }, T("ask_ai", "Ask AI")));
    if (!inPage) {
      const close = head.appendChild(el("button", { type: "button", class: "dg-assistant-close", "aria-label": T("close", "Close") }, "\u00d7"));
      close.addEventListener("click", () => dialog.close());
    }
    box.append(el("p", { class: "dg-assistant-hint chat-assistant-disclaimer-text" }, T("assistant_hint", "Answers come from these docs, with links to the pages used.")));
    const log = box.appendChild(el("div", { class: "dg-assistant-log chat-assistant-sheet-content", role: "log", "aria-live": "polite" }));
    const form = box.appendChild(el("form", { class: "dg-assistant-form" }));
    const input = form.appendChild(el("textarea", { class: "chat-assistant-input", name: "question", rows: "2", maxlength: String(MAX), "aria-label": T("your_question", "Your question"), placeholder: T("ask_placeholder", "Ask a question...") }));
    if (ids) input.id = "chat-assistant-textarea";
    form.append(el("button", { type: "submit", class: "dg-assistant-send chat-assistant-send-button" }, T("send", "Send")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      ask(input.value);
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        ask(input.value);
      }
    });
    return { box, log, input };
  }

  function ensureChat() {
    if (chat) return chat;
    dialog = el("dialog", { class: "dg-assistant-dialog", "aria-label": T("ask_ai", "Ask AI") });
    chat = build(false);
    dialog.append(chat.box);
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    document.body.append(dialog);
    return chat;
  }

  function open(question, send) {
    const c = ensureChat();
    if (dialog && !dialog.open) dialog.showModal();
    if (question) c.input.value = question.slice(0, MAX);
    c.input.focus();
    if (send && question) ask(question);
  }

  function rating(box, messageId) {
    const row = box.appendChild(el("div", { class: "dg-assistant-rate", role: "group", "aria-label": T("answer_helpful", "Was this answer helpful?") }));
    row.append(el("span", {}, T("answer_helpful", "Was this answer helpful?")));
    const status = el("span", { class: "dg-assistant-rated", role: "status" });
    for (const [label, helpful] of [[T("yes", "Yes"), true], [T("no", "No"), false]]) {
      const button = row.appendChild(el("button", { type: "button", "aria-pressed": "false" }, label));
      button.addEventListener("click", async () => {
        row.querySelectorAll("button").forEach((b) => { b.disabled = true; });
        button.setAttribute("aria-pressed", "true");
        try {
          const r = await fetch(endpoint + "/ratings", {
            method: "POST",
            body: JSON.stringify({ messageId, helpful }),
            headers: { "Content-Type": "text/plain;charset=UTF-8" },
            credentials: "omit",
          });
          status.textContent = r.ok ? T("feedback_thanks", "Thank you for your feedback!") : T("rating_failed", "Your rating could not be sent.");
        } catch {
          status.textContent = T("rating_failed", "Your rating could not be sent.");
        }
      });
    }
    row.append(status);
  }

  async function ask(raw) {
    const question = String(raw || "").trim().slice(0, MAX);
    const c = chat;
    if (!question || busy || !c) return;
    busy = true;
    c.input.value = "";
    c.log.append(el("div", { class: "dg-assistant-q chat-assistant-payload-item" }, question));
    const box = c.log.appendChild(el("div", { class: "dg-assistant-a chat-assistant-payload-item", "aria-busy": "true" }));
    const body = box.appendChild(el("div", { class: "dg-assistant-answer" }, T("assistant_searching", "Searching the docs...")));
    let text = "";
    let frame = 0;
    const draw = () => { frame = 0; body.replaceChildren(markdown(text)); };
    const handle = (name, data) => {
      if (name === "sources") {
        threadId = data.threadId || threadId;
        if (data.sources && data.sources.length) {
          const nav = box.appendChild(el("nav", { class: "dg-assistant-sources", "aria-label": T("pages_used", "Pages used") }));
          nav.append(el("p", {}, T("sources", "Sources")));
          const list = nav.appendChild(el("ul"));
          for (const s of data.sources) {
            const href = safeHref(String(s.url || ""));
            if (href) list.appendChild(el("li")).append(el("a", { href }, String(s.title || s.url)));
          }
        }
      } else if (name === "delta") {
        text += String(data.text || "");
        if (!frame) frame = requestAnimationFrame(draw);
      } else if (name === "done") {
        threadId = data.threadId || threadId;
        if (data.messageId) rating(box, data.messageId);
      }
    };
    try {
      const response = await fetch(endpoint + "/messages", {
        method: "POST",
        body: JSON.stringify({ question, threadId: threadId || undefined, path: pagePath() }),
        headers: { "Content-Type": "text/plain;charset=UTF-8" },
        credentials: "omit",
      });
      if (!response.ok) {
        body.textContent = response.status === 429 ? T("assistant_busy", "Too many questions at once: please wait a minute.") : T("assistant_failed", "The assistant could not answer.");
        return;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const name = (/^event: (.*)$/m.exec(block) || [])[1];
          const data = (/^data: (.*)$/m.exec(block) || [])[1];
          if (name && data) handle(name, JSON.parse(data));
        }
      }
      draw();
    } catch {
      body.textContent = T("assistant_unreachable", "The assistant is unreachable.");
    } finally {
      box.removeAttribute("aria-busy");
      busy = false;
    }
  }

  // "Ask AI" in the search dialog, with what the reader typed.
  const search = document.getElementById("dg-search");
  const searchInput = search?.querySelector(".dg-search-input");
  if (search && searchInput) {
    const entry = el("button", { type: "button", class: "dg-search-ask", id: "assistant-entry" });
    const label = () => {
      const q = searchInput.value.trim();
      entry.textContent = q ? `${T("ask_ai", "Ask AI")}: \u201c${q.slice(0, 80)}\u201d` : T("ask_ai_question", "Ask AI a question");
    };
    label();
    search.querySelector(".dg-search-box")?.after(entry);
    searchInput.addEventListener("input", label);
    entry.addEventListener("click", () => {
      const q = searchInput.value.trim();
      search.close();
      open(q, Boolean(q));
    });
  }

  window.dgAssistant = { open };
  document.addEventListener("keydown", (event) => {
    if ((event.key === "i" || event.key === "I") && (event.metaKey || event.ctrlKey) && !event.altKey) {
      event.preventDefault();
      open("", false);
    }
  });

  // `mode: assistant` pages: the chat takes the place of the content.
  const prose = document.body.classList.contains("dg-mode-assistant") && document.querySelector(".dg-prose");
  if (prose) {
    chat = build(true);
    prose.replaceChildren(chat.box);
  }
  const asked = new URLSearchParams(location.search).get("assistant");
  if (asked !== null) {
    if (prose) {
      chat.input.value = asked.slice(0, MAX);
      if (asked) ask(asked);
    } else open(asked, Boolean(asked));
  }
})();
