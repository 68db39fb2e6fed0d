// <View> blocks: one dropdown switches which view of the page is shown; the choice is remembered.
(() => {
  const KEY = "docsgen:view";
  function show(title) {
    const views = [...document.querySelectorAll(".dg-view")];
    if (!views.some((v) => v.dataset.view === title)) return;
    views.forEach((v) => { v.hidden = v.dataset.view !== title; });
    document.querySelectorAll(".dg-view-select select").forEach((s) => { s.value = title; });
  }
  document.addEventListener("change", (event) => {
    const select = event.target.closest(".dg-view-select select");
    if (!select) return;
    show(select.value);
    try { localStorage.setItem(KEY, select.value); } catch { /* private mode */ }
  });
  const init = () => { try { const saved = localStorage.getItem(KEY); if (saved) show(saved); } catch { /* ignore */ } };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
