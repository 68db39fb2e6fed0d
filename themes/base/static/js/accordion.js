// Accordions: open the one a URL hash points at (and its parents); opening one puts its anchor in the URL.
(() => {
  function revealHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (!target) return;
    let details = target.closest("details");
    while (details) {
      details.open = true;
      details = details.parentElement && details.parentElement.closest("details");
    }
    target.scrollIntoView({ block: "start" });
  }
  document.addEventListener("toggle", (event) => {
    const details = event.target;
    if (details.classList && details.classList.contains("dg-accordion") && details.open && details.id) {
      history.replaceState(null, "", "#" + encodeURIComponent(details.id));
    }
  }, true);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", revealHash);
  else revealHash();
  window.addEventListener("hashchange", revealHash);
})();
