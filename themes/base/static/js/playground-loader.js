/* API playground, loaded on demand: an endpoint page ships this small file instead of the playground's nine
   scripts. It puts the "Try it" button in the endpoint bar at once and loads the playground (the scripts named
   in data-scripts, in order) when the reader points at, focuses or presses the button; a press opens it once
   loaded. A playground behind sign-in (display "auth" or groups) loads right away: whether it shows at all
   depends on the reader's token. Deep links to a field (#param, #parent.child) open and highlight it here. */
(function (NS) {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  var me = document.currentScript;
  var scripts = [];
  try { scripts = JSON.parse(me.getAttribute("data-scripts") || "[]"); } catch (e) { scripts = []; }
  var state = "idle"; // idle -> loading -> ready | failed
  var waiting = [];
  NS.lazy = true; // playground.js then boots when this file says so, not on DOMContentLoaded

  function load(then) {
    if (then) waiting.push(then);
    if (state === "ready" || state === "failed") { flush(); return; }
    if (state === "loading") return;
    state = "loading";
    var left = scripts.length;
    scripts.forEach(function (src) {
      var s = document.createElement("script");
      s.src = src;
      s.async = false; // run in the listed order, as the deferred scripts did
      s.onload = function () { if (--left === 0) { state = "ready"; NS.boot(); flush(); } };
      s.onerror = function () { state = "failed"; flush(); };
      document.head.appendChild(s);
    });
  }

  function flush() {
    var calls = waiting;
    waiting = [];
    calls.forEach(function (f) { f(); });
  }

  /** Mirror Playground.build's button (playground.js) so the page looks the same before the playground loads. */
  function placeButton(effective) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "dg-pg-toggle tryit-button";
    button.setAttribute("aria-expanded", "false");
    button.setAttribute("aria-haspopup", "dialog");
    button.textContent = effective === "simple" ? T("build_request", "Build a request") : T("try_it", "Try it");
    var anchor = document.querySelector(".dg-api .dg-api-endpoint");
    if (!anchor) return null; // no endpoint bar: the playground places its own bar when it loads
    anchor.appendChild(button);
    NS.pendingToggle = button;
    var warm = function () { load(null); };
    button.addEventListener("pointerenter", warm, { once: true });
    button.addEventListener("focus", warm, { once: true });
    button.addEventListener("touchstart", warm, { once: true, passive: true });
    button.addEventListener("click", function onClick() { // the only click handler of this button
      var pg = NS.current;
      if (pg && pg.toggle === button) { pg.open(!pg.dialog.open); return; }
      button.setAttribute("aria-busy", "true");
      load(function () {
        button.removeAttribute("aria-busy");
        if (NS.current && NS.current.toggle === button) NS.current.open(true);
      });
    });
    document.dispatchEvent(new CustomEvent("dg:layout")); // the bar may scroll now: site.js makes it focusable
    return button;
  }

  /** Deep links (#param, #parent.child): open the field, scroll to it and highlight it for a moment. */
  function highlightTarget() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { id = location.hash.slice(1); }
    var target = id && document.getElementById(id);
    if (!target || !target.closest(".dg-api")) return;
    for (var p = target.parentElement; p; p = p.parentElement) if (p.tagName === "DETAILS") p.open = true;
    target.scrollIntoView({ block: "center" });
    target.classList.remove("dg-pg-flash");
    void target.offsetWidth;
    target.classList.add("dg-pg-flash");
    target.setAttribute("data-highlighted", "true");
    setTimeout(function () { target.classList.remove("dg-pg-flash"); }, 2500);
  }

  function start() {
    highlightTarget();
    var script = document.getElementById("dg-api");
    if (!script || !scripts.length) return;
    var data;
    try { data = JSON.parse(script.textContent); } catch (e) { return; }
    if (data.kind !== "operation" && data.kind !== "manual") return;
    var mode = data.display || "interactive";
    if (mode === "none") { document.documentElement.setAttribute("data-playground", "none"); return; }
    if (mode === "auth" || (data.groups && data.groups.length)) { load(null); return; }
    var effective = data.servers && data.servers.length ? (mode === "simple" ? "simple" : "interactive") : "simple";
    if (placeButton(effective)) document.documentElement.setAttribute("data-playground", effective);
    else load(null);
  }

  window.addEventListener("hashchange", highlightTarget);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
