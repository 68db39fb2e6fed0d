// Expandable code blocks: "Show more" / "Show less".
(() => {
  const T = window.dgT || ((k, en, v) => (v ? en.replace(/\{(\w+)\}/g, (m, n) => (n in v ? String(v[n]) : m)) : en)); // the page language's words (theme-init.js)
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".dg-code-expand");
    if (!button) return;
    const block = button.closest(".dg-code");
    const open = block.classList.toggle("dg-expanded");
    button.setAttribute("aria-expanded", String(open));
    button.textContent = open ? T("show_less", "Show less") : T("show_more", "Show more");
  });
})();
