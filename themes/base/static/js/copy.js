// Copy buttons: code blocks (without removed diff lines), prompts (data-copy-target) and colours (data-copy).
(() => {
  const T = window.dgT || ((k, en, v) => (v ? en.replace(/\{(\w+)\}/g, (m, n) => (n in v ? String(v[n]) : m)) : en)); // the page language's words (theme-init.js)
  async function copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      const area = document.createElement("textarea");
      area.value = text;
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      let ok = false;
      try { ok = document.execCommand("copy"); } catch { ok = false; }
      area.remove();
      return ok;
    }
  }

  const codeText = (block) => [...block.querySelectorAll("pre code .line")]
    .filter((line) => !line.classList.contains("diff-remove"))
    .map((line) => line.textContent)
    .join("\n");

  document.addEventListener("click", async (event) => {
    const button = event.target.closest(".dg-copy, [data-copy]");
    if (!button) return;
    let text;
    if (button.dataset.copy !== undefined) text = button.dataset.copy;
    else if (button.dataset.copyTarget) {
      const target = document.querySelector(button.dataset.copyTarget);
      text = target ? target.innerText.trim() : "";
    } else {
      const block = button.closest(".dg-code");
      if (!block) return;
      text = codeText(block);
    }
    const ok = await copyText(text);
    const label = button.getAttribute("aria-label");
    button.classList.add("dg-copied");
    button.dataset.copied = ok ? "true" : "false";
    button.setAttribute("aria-label", ok ? T("copied", "Copied") : T("copy_failed", "Copy failed"));
    setTimeout(() => {
      button.classList.remove("dg-copied");
      if (label) button.setAttribute("aria-label", label);
    }, 1500);
  });
})();
