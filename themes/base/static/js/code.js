// Expandable code blocks: "Show more" / "Show less".
(() => {
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".dg-code-expand");
    if (!button) return;
    const block = button.closest(".dg-code");
    const open = block.classList.toggle("dg-expanded");
    button.setAttribute("aria-expanded", String(open));
    button.textContent = open ? "Show less" : "Show more";
  });
})();
