// Mermaid diagrams without a CDN. Each ```mermaid fence arrives as
//   <div class="mermaid-diagram"><pre class="mermaid">source</pre></div>
// which readers without JavaScript see as code. This script loads the vendored build from the site itself
// (<root>_static/vendor/mermaid.min.js, root from <html data-root>), draws every diagram as SVG in the current
// theme (html[data-theme="dark"] -> mermaid "dark"), draws again when the theme changes, and adds zoom/pan
// controls (Mintlify's `actions` and `placement` fence options). A diagram that fails to parse keeps
// showing its source, marked with data-error.
(() => {
  const T = window.dgT || ((k, en) => en); // the page language's words (theme-init.js)
  const doc = document.documentElement;
  const boxes = [...document.querySelectorAll(".mermaid-diagram")].filter((b) => b.querySelector("pre.mermaid"));
  if (!boxes.length) return;

  const self = document.currentScript;
  const version = self ? new URL(self.src, location.href).search : "";
  const root = doc.dataset.root || "./";
  const src = new URL(`${root}_static/vendor/mermaid.min.js${version}`, document.baseURI).href;

  let loading = null;
  const load = () =>
    (loading ||= new Promise((resolve, reject) => {
      if (window.mermaid) return resolve(window.mermaid);
      const tag = document.createElement("script");
      tag.src = src;
      tag.async = true;
      tag.onload = () => (window.mermaid ? resolve(window.mermaid) : reject(new Error("mermaid did not load")));
      tag.onerror = () => reject(new Error(`cannot load ${src}`));
      document.head.append(tag);
    }));

  const currentTheme = () => {
    const set = doc.dataset.theme;
    if (set === "dark" || set === "light") return set;
    return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  };

  let counter = 0;
  let drawn = null;

  async function draw(theme) {
    if (theme === drawn) return;
    drawn = theme;
    const mermaid = await load();
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      theme: theme === "dark" ? "dark" : "default",
      // mermaid's dark edge labels (#ccc on #585858) miss WCAG AA contrast: a darker label background
      ...(theme === "dark" ? { themeVariables: { edgeLabelBackground: "#3a3a3a" } } : {}),
      fontFamily: getComputedStyle(document.body).fontFamily,
    });
    for (const box of boxes) {
      const pre = box.querySelector("pre.mermaid");
      const id = `dg-mermaid-${++counter}`;
      try {
        const { svg, bindFunctions } = await mermaid.render(id, pre.textContent);
        let out = box.querySelector(".mermaid-svg");
        if (!out) {
          out = document.createElement("div");
          out.className = "mermaid-svg";
          out.style.transformOrigin = "0 0";
          box.append(out);
        }
        out.innerHTML = svg;
        bindFunctions?.(out);
        pre.hidden = true;
        box.dataset.mermaidTheme = theme;
        box.removeAttribute("data-error");
        controls(box, out);
      } catch (error) {
        pre.hidden = false;
        box.querySelector(".mermaid-svg")?.remove();
        box.querySelector(".mermaid-controls")?.remove();
        box.dataset.error = String(error?.message || error).slice(0, 500);
        document.getElementById(`d${id}`)?.remove(); // mermaid's scratch element, left behind on errors
      }
    }
    document.dispatchEvent(new CustomEvent("dg:mermaid-rendered", { detail: theme }));
  }

  // Zoom and pan: shown when the page asks (actions) or, by default, for diagrams taller than 120px.
  function controls(box, out) {
    box.querySelector(".mermaid-controls")?.remove();
    const wanted = box.dataset.actions;
    if (wanted === "false" || (wanted !== "true" && out.getBoundingClientRect().height <= 120)) return;
    const state = { scale: 1, x: 0, y: 0 };
    const apply = () => (out.style.transform = `translate(${state.x}px, ${state.y}px) scale(${state.scale})`);
    const bar = document.createElement("div");
    bar.className = "mermaid-controls";
    const [vertical, horizontal] = (box.dataset.placement || "bottom-right").split("-");
    Object.assign(bar.style, { position: "absolute", display: "flex", gap: "0.25rem" });
    bar.style[vertical] = bar.style[horizontal] = "0.5rem";
    const actions = [
      [T("zoom_in", "Zoom in"), "+", () => (state.scale = Math.min(state.scale * 1.25, 8))],
      [T("zoom_out", "Zoom out"), "\u2212", () => (state.scale = Math.max(state.scale / 1.25, 0.25))],
      [T("reset_view", "Reset view"), "\u21ba", () => Object.assign(state, { scale: 1, x: 0, y: 0 })],
    ];
    for (const [label, text, act] of actions) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = text;
      button.setAttribute("aria-label", label);
      button.title = label;
      button.addEventListener("click", () => {
        act();
        apply();
      });
      bar.append(button);
    }
    Object.assign(box.style, { position: "relative", overflow: "hidden" });
    box.append(bar);
    let drag = null;
    out.onpointerdown = (event) => {
      drag = { x: event.clientX - state.x, y: event.clientY - state.y };
      out.setPointerCapture(event.pointerId);
    };
    out.onpointermove = (event) => {
      if (!drag) return;
      state.x = event.clientX - drag.x;
      state.y = event.clientY - drag.y;
      apply();
    };
    out.onpointerup = out.onpointercancel = () => (drag = null);
  }

  let queue = Promise.resolve();
  const schedule = () => {
    const theme = currentTheme();
    queue = queue.then(() => draw(theme)).catch((error) => {
      drawn = null;
      console.warn("docsgen: mermaid diagrams not drawn:", error);
    });
  };
  schedule();
  new MutationObserver(schedule).observe(doc, { attributes: true, attributeFilter: ["data-theme"] });
  matchMedia("(prefers-color-scheme: dark)").addEventListener?.("change", schedule);
})();
