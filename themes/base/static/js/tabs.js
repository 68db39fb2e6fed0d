// Tabs and code groups: click, arrow keys, dropdowns; tabs with the same title stay in sync across the page
// and the reader's last choice is remembered (localStorage) for the next page.
(() => {
  const KEY = "docsgen:tabs";
  const load = () => { try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch { return []; } };
  const save = (title) => {
    try { localStorage.setItem(KEY, JSON.stringify([title, ...load().filter((t) => t !== title)].slice(0, 20))); } catch { /* private mode */ }
  };
  const panels = (set) => [...set.children].filter((c) => c.classList.contains("dg-tabpanel"));
  const tabs = (set) => [...set.querySelectorAll(":scope > .dg-tabset-bar [role=tab]")];
  const indexOfTitle = (set, title) => panels(set).findIndex((p) => p.dataset.title === title);

  function select(set, index, focus) {
    const all = panels(set);
    if (index < 0 || index >= all.length) return;
    tabs(set).forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === index));
      tab.tabIndex = i === index ? 0 : -1;
      if (i === index && focus) tab.focus();
    });
    all.forEach((panel, i) => { panel.hidden = i !== index; });
    const dropdown = set.querySelector(":scope > .dg-tabset-bar select");
    if (dropdown) dropdown.value = String(index);
  }

  function choose(set, index, focus) {
    select(set, index, focus);
    const title = panels(set)[index]?.dataset.title;
    if (!title || set.dataset.sync !== "true") return;
    save(title);
    document.querySelectorAll('.dg-tabset[data-sync="true"]').forEach((other) => {
      if (other === set) return;
      const i = indexOfTitle(other, title);
      if (i >= 0) select(other, i, false);
    });
  }

  document.addEventListener("click", (event) => {
    const tab = event.target.closest(".dg-tabset-bar [role=tab]");
    if (!tab) return;
    const set = tab.closest(".dg-tabset");
    choose(set, tabs(set).indexOf(tab), false);
  });
  document.addEventListener("change", (event) => {
    const dropdown = event.target.closest(".dg-tabset-bar select");
    if (dropdown) choose(dropdown.closest(".dg-tabset"), Number(dropdown.value), false);
  });
  document.addEventListener("keydown", (event) => {
    const tab = event.target.closest(".dg-tabset-bar [role=tab]");
    if (!tab) return;
    const set = tab.closest(".dg-tabset");
    const all = tabs(set);
    let i = all.indexOf(tab);
    if (event.key === "ArrowRight") i = (i + 1) % all.length;
    else if (event.key === "ArrowLeft") i = (i - 1 + all.length) % all.length;
    else if (event.key === "Home") i = 0;
    else if (event.key === "End") i = all.length - 1;
    else return;
    event.preventDefault();
    choose(set, i, true);
  });

  function restore() {
    const preferred = load();
    document.querySelectorAll('.dg-tabset[data-sync="true"]').forEach((set) => {
      for (const title of preferred) {
        const i = indexOfTitle(set, title);
        if (i >= 0) { select(set, i, false); break; }
      }
    });
  }

  function revealHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (!target) return;
    let panel = target.closest(".dg-tabpanel");
    while (panel) {
      const set = panel.parentElement;
      select(set, panels(set).indexOf(panel), false);
      panel = set.parentElement && set.parentElement.closest(".dg-tabpanel");
    }
  }

  const init = () => { restore(); revealHash(); };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  window.addEventListener("hashchange", revealHash);
})();
