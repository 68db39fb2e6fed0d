// Changelog tag filters: show only <Update> entries carrying one of the pressed tags (all when none is pressed).
(() => {
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".dg-update-filter");
    if (!button) return;
    button.setAttribute("aria-pressed", String(button.getAttribute("aria-pressed") !== "true"));
    const pressed = [...document.querySelectorAll('.dg-update-filter[aria-pressed="true"]')].map((b) => b.dataset.tag);
    document.querySelectorAll(".dg-update").forEach((update) => {
      let tags = [];
      try { tags = JSON.parse(update.dataset.tags || "[]"); } catch { tags = []; }
      update.hidden = pressed.length > 0 && !tags.some((t) => pressed.includes(t));
    });
  });
})();
