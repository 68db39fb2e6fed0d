// Changelog tag filters: show only the <Update> entries carrying every pressed tag (all entries when none is
// pressed; untagged entries are hidden while a filter is active, as on Mintlify). The pressed tags live in the
// URL as ?tags=A,B, so a filtered view can be shared, and a link with ?tags= opens filtered.
(() => {
  const buttons = () => [...document.querySelectorAll(".dg-update-filter")];
  if (!buttons().length) return;

  function apply() {
    const pressed = buttons().filter((b) => b.getAttribute("aria-pressed") === "true").map((b) => b.dataset.tag);
    document.querySelectorAll(".dg-update").forEach((update) => {
      let tags = [];
      try { tags = JSON.parse(update.dataset.tags || "[]"); } catch { tags = []; }
      update.hidden = pressed.length > 0 && !pressed.every((t) => tags.includes(t));
    });
    return pressed;
  }

  function syncUrl(pressed) {
    const url = new URL(location.href);
    if (pressed.length) url.searchParams.set("tags", pressed.join(","));
    else url.searchParams.delete("tags");
    history.replaceState(history.state, "", url);
  }

  const wanted = (new URLSearchParams(location.search).get("tags") || "")
    .split(",").map((t) => t.trim().toLowerCase()).filter(Boolean);
  if (wanted.length) {
    for (const b of buttons()) b.setAttribute("aria-pressed", String(wanted.includes(b.dataset.tag.toLowerCase())));
    apply();
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest(".dg-update-filter");
    if (!button) return;
    button.setAttribute("aria-pressed", String(button.getAttribute("aria-pressed") !== "true"));
    syncUrl(apply());
  });
})();
