// The assistant's other entries (Mintlify's #assistant-entry-mobile, #ask-assistant-code-block-button,
// #text-selection-tooltip): a button in the phone top bar, "Ask AI" on every code block (the code goes to the chat as
// context), and a tooltip over text the reader selects in the page body (the selection goes as a quote). Loaded after
// js/assistant.js, only on sites whose assistant is on; each opens the chat through window.dgAssistant.open.
(() => {
  const T = window.dgT || ((k, en) => en);
  const assistant = window.dgAssistant;
  if (!assistant) return;
  const MAX = 1800; // leaves room in the question (2000 characters) for the reader's words
  const SPARKLE = "M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z";

  function button(cls, label, id) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    if (id) b.id = id;
    b.setAttribute("aria-label", label);
    b.title = label;
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("width", "16");
    svg.setAttribute("height", "16");
    svg.setAttribute("aria-hidden", "true");
    const path = svg.appendChild(document.createElementNS("http://www.w3.org/2000/svg", "path"));
    path.setAttribute("d", SPARKLE);
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "1.8");
    path.setAttribute("stroke-linejoin", "round");
    b.append(svg);
    return b;
  }

  const fence = (code, lang) => "```" + (lang || "") + "\n" + code.slice(0, MAX) + "\n```\n\n";
  const quote = (text) => text.slice(0, MAX).split("\n").map((line) => "> " + line).join("\n") + "\n\n";

  // The phone top bar: beside the search button, shown under 821px (assistant.css).
  const search = document.querySelector(".dg-header-row .dg-search-button");
  if (search) {
    const entry = button("dg-assistant-mobile", T("ask_ai", "Ask AI"), "assistant-entry-mobile");
    entry.setAttribute("aria-haspopup", "dialog");
    entry.addEventListener("click", () => assistant.open("", false));
    search.after(entry);
  }

  // Code blocks: the outermost element carrying data-lang with a <pre> (as js/feedback.js finds them).
  let first = true;
  document.querySelectorAll(".dg-prose [data-lang]").forEach((block) => {
    if (!block.querySelector("pre") || (block.parentElement && block.parentElement.closest("[data-lang]"))) return;
    const ask = button("dg-code-ask ask-assistant-code-block-button", T("ask_ai", "Ask AI"), first ? "ask-assistant-code-block-button" : "");
    first = false;
    ask.addEventListener("click", () => {
      const pre = [...block.querySelectorAll("pre")].find((p) => p.offsetParent !== null) || block.querySelector("pre");
      const code = (pre.querySelector("code") || pre).innerText.replace(/\n+$/, "");
      assistant.open(fence(code, block.getAttribute("data-lang")), false);
    });
    const copy = block.querySelector(".code-block-copy-button, .dg-copy");
    if (copy && copy.parentElement) copy.before(ask);
    else block.prepend(ask);
  });

  // Selected text in the page body: a tooltip above the selection with one button.
  const body = document.querySelector(".dg-prose");
  if (!body || document.body.classList.contains("dg-mode-assistant")) return;
  const tip = document.createElement("div");
  tip.id = "text-selection-tooltip";
  tip.className = "dg-selection-tip text-selection-tooltip";
  tip.setAttribute("role", "toolbar");
  tip.setAttribute("aria-label", T("ask_ai", "Ask AI"));
  tip.hidden = true;
  const tipButton = button("dg-selection-ask text-selection-tooltip-button", T("ask_ai", "Ask AI"), "text-selection-tooltip-button");
  tipButton.setAttribute("aria-keyshortcuts", "Control+I Meta+I");
  tipButton.append(document.createTextNode(T("ask_ai", "Ask AI")));
  tip.append(tipButton);
  let selected = "";

  function selection() {
    const sel = window.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount) return null;
    const range = sel.getRangeAt(0);
    if (!body.contains(range.commonAncestorContainer) || tip.contains(range.commonAncestorContainer)) return null;
    const text = sel.toString().trim();
    return text ? { range, text } : null;
  }

  function show() {
    const found = selection();
    if (!found) {
      if (!tip.contains(document.activeElement)) tip.hidden = true;
      return;
    }
    selected = found.text;
    // after the block holding the selection's end, so Tab from the selection reaches the button next
    const outer = (node) => {
      while (node.parentElement && node.parentElement !== body) node = node.parentElement;
      return node;
    };
    let block = outer(found.range.endContainer);
    // a selection ending at offset 0 of the next block (a triple click) belongs to the block before it
    if (found.range.endOffset === 0 && block !== outer(found.range.startContainer) && block.previousElementSibling) {
      block = block.previousElementSibling === tip ? tip.previousElementSibling || block : block.previousElementSibling;
    }
    if (tip.previousSibling !== block) block.after(tip);
    tip.hidden = false;
    const rect = found.range.getBoundingClientRect();
    const left = Math.max(8, Math.min(rect.left + rect.width / 2 - tip.offsetWidth / 2, innerWidth - tip.offsetWidth - 8));
    const top = rect.top - tip.offsetHeight - 8 < 8 ? rect.bottom + 8 : rect.top - tip.offsetHeight - 8;
    tip.style.left = `${Math.round(left)}px`;
    tip.style.top = `${Math.round(top)}px`;
  }

  function askSelection() {
    const text = selected;
    tip.hidden = true;
    if (text) assistant.open(quote(text), false);
  }

  let timer = 0;
  document.addEventListener("selectionchange", () => {
    clearTimeout(timer);
    timer = setTimeout(show, 120);
  });
  tipButton.addEventListener("mousedown", (event) => event.preventDefault()); // keep the selection
  tipButton.addEventListener("click", askSelection);
  tip.addEventListener("keydown", (event) => {
    if (event.key === "Escape") tip.hidden = true;
  });
  window.addEventListener("scroll", () => { if (!tip.hidden && !tip.contains(document.activeElement)) tip.hidden = true; }, { passive: true });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !tip.hidden) tip.hidden = true;
    // Ctrl/Cmd-I with text selected asks about it (js/assistant.js opens an empty chat otherwise)
    if ((event.key === "i" || event.key === "I") && (event.metaKey || event.ctrlKey) && !event.altKey && selection()) {
      event.stopImmediatePropagation();
      event.preventDefault();
      selected = selection().text;
      askSelection();
    }
  }, true);
})();
