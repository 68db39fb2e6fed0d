// docsgen site script: theme toggle, banner dismissal, shared sidebar, mobile menu. No dependencies.
(() => {
  const T = window.dgT || ((k, en, v) => (v ? en.replace(/\{(\w+)\}/g, (m, n) => (n in v ? String(v[n]) : m)) : en)); // the page language's words (theme-init.js)
  const doc = document.documentElement;
  const root = doc.dataset.root || "./";
  const store = {
    get(k) { try { return localStorage.getItem(k); } catch { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch { /* private mode */ } },
  };

  // One toggle in the header; themes with the logo on top of the sidebar have a second one there.
  const toggles = document.querySelectorAll(".dg-theme-toggle");
  for (const toggle of toggles) {
    toggle.setAttribute("aria-pressed", String(doc.dataset.theme === "dark"));
    toggle.addEventListener("click", () => {
      const next = doc.dataset.theme === "dark" ? "light" : "dark";
      doc.dataset.theme = next;
      // Mintlify sites style dark mode with `.dark ...` selectors (Tailwind's class strategy).
      doc.classList.toggle("dark", next === "dark");
      doc.classList.toggle("light", next !== "dark");
      doc.style.colorScheme = next;
      store.set("dg-theme", next);
      for (const t of toggles) t.setAttribute("aria-pressed", String(next === "dark"));
      document.dispatchEvent(new CustomEvent("dg:themechange", { detail: next }));
    });
  }

  // Boxes that scroll sideways (code, wide tables) take keyboard focus, so keyboard readers can scroll them.
  function focusScrollers() {
    for (const el of document.querySelectorAll(".dg-main pre, .dg-main table, .dg-main .dg-scroll, .dg-main .dg-api-url")) {
      if (!el.hasAttribute("tabindex") && el.scrollWidth > el.clientWidth) el.tabIndex = 0;
    }
  }
  focusScrollers();
  addEventListener("resize", focusScrollers);
  document.addEventListener("dg:tabchange", focusScrollers);
  document.addEventListener("dg:layout", focusScrollers); // e.g. "Try it" joined the endpoint bar

  // "Last updated" dates in the page's language (the build writes them in English).
  if (doc.lang && !/^en(-|$)/.test(doc.lang)) {
    for (const time of document.querySelectorAll(".dg-last-updated time[datetime]")) {
      const [y, m, d] = time.getAttribute("datetime").slice(0, 10).split("-").map(Number);
      if (!y || !m || !d) continue;
      try {
        time.textContent = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(doc.lang, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
      } catch { /* a language tag the browser does not know: the English date stays */ }
    }
  }

  // Markdown task lists: each (read-only) checkbox is named by its item's text for screen readers.
  for (const box of document.querySelectorAll(".dg-prose li > input[type=checkbox]:not([aria-label])")) {
    const text = box.parentElement.textContent.trim().slice(0, 120);
    if (text) box.setAttribute("aria-label", text);
  }

  // Image zoom (as on Mintlify): content images that are not links open full size in a dialog.
  for (const img of document.querySelectorAll(".dg-prose img:not(.dg-icon)")) {
    if (img.closest("a, button, .dg-card, [data-no-zoom]") || img.hasAttribute("noZoom")) continue;
    img.classList.add("dg-zoomable");
    img.tabIndex = 0;
    img.setAttribute("role", "button");
    if (!img.getAttribute("aria-label")) img.setAttribute("aria-label", T("zoom_image", "Zoom image") + (img.alt ? ": " + img.alt : ""));
    const show = () => {
      const dialog = document.createElement("dialog");
      dialog.className = "dg-zoom";
      const big = img.cloneNode();
      big.removeAttribute("tabindex"); big.removeAttribute("role"); big.removeAttribute("aria-label");
      big.className = "";
      dialog.append(big);
      dialog.addEventListener("click", () => dialog.close());
      dialog.addEventListener("close", () => dialog.remove());
      document.body.append(dialog);
      dialog.showModal();
    };
    img.addEventListener("click", show);
    img.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); show(); } });
  }

  const banner = document.getElementById("banner");
  // A site stylesheet that gives the banner its own text colour (`#banner { color: ... }`, written for Mintlify)
  // chose it against Mintlify's banner background, colors.dark as written; docsgen darkens that colour only so
  // that its own white text reads. Such a banner gets colors.dark back (langchain: #1a2c2a text on #84C4C0).
  if (banner && banner.classList.contains("dg-banner-info") && !banner.hasAttribute("style")
      && getComputedStyle(banner).color !== "rgb(255, 255, 255)") banner.classList.add("dg-banner-site-text");
  if (banner && banner.dataset.dismissible) {
    const key = "dg-banner-" + banner.dataset.key;
    if (store.get(key)) banner.remove();
    banner.querySelector(".dg-banner-close")?.addEventListener("click", () => {
      store.set(key, "1");
      banner.remove();
    });
  }

  const menu = document.querySelector(".dg-menu-button");
  const sidebar = document.getElementById("sidebar");
  menu?.addEventListener("click", () => {
    // the drawer starts under the top bar as it stands (a banner or the tab row make it taller than --dg-header-h)
    const bar = document.getElementById("navbar");
    if (bar) sidebar.style.setProperty("--dg-drawer-top", `${Math.max(0, Math.round(bar.getBoundingClientRect().bottom))}px`);
    const open = sidebar.classList.toggle("dg-open");
    menu.setAttribute("aria-expanded", String(open));
  });
  // The phone drawer closes on Escape and gives focus back to the button that opened it.
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !menu || !sidebar?.classList.contains("dg-open")) return;
    sidebar.classList.remove("dg-open");
    menu.setAttribute("aria-expanded", "false");
    menu.focus();
  });

  // The tab row scrolls sideways on phones: the current tab in view, a fade on the side(s) where it goes on.
  const tabRow = document.querySelector(".dg-tabs");
  if (tabRow) {
    const mark = () => {
      const left = tabRow.scrollLeft > 1;
      const right = tabRow.scrollLeft + tabRow.clientWidth < tabRow.scrollWidth - 1;
      tabRow.dataset.more = left && right ? "both" : left ? "start" : right ? "end" : "none";
    };
    const current = tabRow.querySelector("a[aria-current]");
    if (current && tabRow.scrollWidth > tabRow.clientWidth) {
      const row = tabRow.getBoundingClientRect();
      const at = current.getBoundingClientRect();
      if (at.right > row.right || at.left < row.left) tabRow.scrollLeft += at.left - row.left - (row.width - at.width) / 2;
    }
    mark();
    tabRow.addEventListener("scroll", mark, { passive: true });
    addEventListener("resize", mark);
  }

  // "On this page": the entry of the section being read is marked (aria-current), as on Mintlify.
  const tocLinks = [...document.querySelectorAll(".dg-toc a[href^='#']")];
  const targets = tocLinks.map((a) => document.getElementById(decodeURIComponent(a.hash.slice(1))));
  if (tocLinks.length && targets.every(Boolean)) {
    let shown = null;
    const spy = () => {
      const line = (parseFloat(getComputedStyle(doc).scrollPaddingTop) || 0) + 80;
      let index = 0;
      const end = scrollY > 0 && innerHeight + scrollY >= doc.scrollHeight - 2; // at the end: the last shown
      targets.forEach((t, i) => { // a heading in a closed tab or accordion has no box: skipped
        if (t.getClientRects().length && (end || t.getBoundingClientRect().top <= line)) index = i;
      });
      if (index === shown) return;
      shown = index;
      tocLinks.forEach((a, i) => {
        a.classList.toggle("dg-active", i === index);
        if (i === index) a.setAttribute("aria-current", "location");
        else a.removeAttribute("aria-current");
      });
    };
    let queued = false;
    addEventListener("scroll", () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => { queued = false; spy(); });
    }, { passive: true });
    addEventListener("resize", spy);
    spy();
  }

  // The sidebar of a section is one shared file, so a page's HTML does not grow with the site.
  const nav = document.querySelector(".dg-sidebar-nav[data-src]");
  function mount(html) {
    const parsed = new DOMParser().parseFromString(html, "text/html").querySelector(".dg-sidebar-nav");
    if (!parsed) return;
    for (const a of parsed.querySelectorAll("a[data-href]")) a.setAttribute("href", root + a.dataset.href);
    nav.replaceChildren(...parsed.childNodes);
    const key = nav.dataset.key;
    const current = nav.querySelector(`a[data-key="${CSS.escape(key)}"]`);
    if (current) {
      current.setAttribute("aria-current", "page");
      current.parentElement.dataset.active = "true"; // Mintlify's hooks: #sidebar-content li[data-active]
      for (let el = current.parentElement; el && el !== nav; el = el.parentElement) {
        if (el.tagName === "DETAILS") el.open = true;
        if (el.classList.contains("dg-nav-group-box")) el.dataset.active = "true"; // .sidebar-group[data-active]
        if (el.classList.contains("dg-nav-sub-linked")) el.querySelector(":scope > details").open = true;
      }
      const box = sidebar.getBoundingClientRect();
      const at = current.getBoundingClientRect();
      if (at.bottom > box.bottom || at.top < box.top) current.scrollIntoView({ block: "center" });
    }
    if (nav.dataset.drilldown !== "true") {
      // Without drilldown, a click on a group title only opens or closes it.
      for (const a of nav.querySelectorAll(".dg-nav-sub-linked > a")) {
        a.addEventListener("click", (e) => {
          if (a.dataset.key !== key) return;
          e.preventDefault();
          const details = a.parentElement.querySelector(":scope > details");
          details.open = !details.open;
        });
      }
    }
    document.dispatchEvent(new CustomEvent("dg:navready"));
  }
  if (nav && nav.dataset.src) {
    const src = root + nav.dataset.src;
    // Behind docsgen server's sign-in the sidebar lists what this reader may read: kept per reader's groups.
    const user = window.docsgenUser;
    const slot = user && user.signedIn ? `${src}#${(user.groups || []).join(",")}` : src;
    let cached = null;
    try { cached = sessionStorage.getItem(slot); } catch { /* storage off */ }
    if (cached) mount(cached);
    else {
      fetch(src).then((r) => (r.ok ? r.text() : Promise.reject(r.status))).then((html) => {
        try { sessionStorage.setItem(slot, html); } catch { /* quota */ }
        mount(html);
      }).catch(() => {
        const a = document.createElement("a");
        a.href = src.split("?")[0];
        a.textContent = T("browse_section", "Browse all pages of this section");
        nav.replaceChildren(a);
      });
    }
  }
})();
