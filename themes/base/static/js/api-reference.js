/* API reference pages: turn stacked alternatives and examples into tabs, open trees for #anchors.
   Progressive enhancement only: without this script every alternative and sample stays visible. */
(function () {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  var LANG_KEY = "dg-api-lang";

  function store(key, value) {
    try { if (value === undefined) return localStorage.getItem(key); localStorage.setItem(key, value); } catch (e) { return null; }
    return null;
  }

  function tabs(container, items, bar, labelOf, onSelect) {
    bar.setAttribute("role", "tablist");
    var buttons = items.map(function (item, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "tab");
      b.textContent = labelOf(item, i);
      b.title = b.textContent; // long labels end in an ellipsis (api.css): the whole label on hover
      b.addEventListener("click", function () { select(i, true); });
      b.addEventListener("keydown", function (ev) {
        var d = ev.key === "ArrowRight" ? 1 : ev.key === "ArrowLeft" ? -1 : 0;
        if (!d) return;
        ev.preventDefault();
        var n = (i + d + items.length) % items.length;
        select(n, true);
        buttons[n].focus();
      });
      bar.appendChild(b);
      return b;
    });
    function select(index, byUser) {
      items.forEach(function (item, i) {
        item.hidden = i !== index;
        buttons[i].setAttribute("aria-selected", i === index ? "true" : "false");
        buttons[i].tabIndex = i === index ? 0 : -1;
      });
      if (byUser) buttons[index].scrollIntoView({ block: "nearest", inline: "nearest" });
      if (onSelect) onSelect(index, byUser);
    }
    container.dgSelect = select;
    select(0, false);
    return select;
  }

  function direct(el, cls) {
    return Array.prototype.filter.call(el.children, function (c) { return c.classList.contains(cls); });
  }

  function initAlternatives(root) {
    root.querySelectorAll(".dg-api-alts").forEach(function (box) {
      var alts = direct(box, "dg-api-alt");
      if (alts.length < 2 || box.classList.contains("dg-js")) return;
      var bar = document.createElement("div");
      bar.className = "dg-api-switch option-dropdown"; // Mintlify's hook
      box.insertBefore(bar, alts[0]);
      box.classList.add("dg-js");
      tabs(box, alts, bar, function (alt, i) { return alt.getAttribute("data-title") || T("option_n", "Option {n}", { n: i + 1 }); });
    });
  }

  function initCards(root) {
    var langCards = [];
    root.querySelectorAll(".dg-api-card.dg-api-tabs").forEach(function (card) {
      var panels = Array.prototype.slice.call(card.querySelectorAll(".dg-api-panel"));
      panels.forEach(function (panel) {
        var pre = panel.querySelector("pre");
        if (!pre || !navigator.clipboard) return;
        var copy = document.createElement("button");
        copy.type = "button";
        copy.className = "dg-api-copy";
        copy.textContent = T("copy", "Copy");
        copy.addEventListener("click", function () {
          navigator.clipboard.writeText(pre.textContent).then(function () {
            copy.textContent = T("copied", "Copied");
            setTimeout(function () { copy.textContent = T("copy", "Copy"); }, 1500);
          });
        });
        panel.insertBefore(copy, pre);
      });
      if (panels.length < 2) return;
      var bar = document.createElement("div");
      bar.className = "dg-api-tabbar";
      card.insertBefore(bar, panels[0]);
      card.classList.add("dg-js");
      var isLang = card.getAttribute("data-tabs") === "lang";
      tabs(card, panels, bar, function (p) { return p.getAttribute("data-label") || ""; }, function (index, byUser) {
        if (!isLang || !byUser) return;
        var key = panels[index].getAttribute("data-key");
        store(LANG_KEY, key);
        langCards.forEach(function (other) { if (other !== card) chooseLang(other, key); });
      });
      if (isLang) langCards.push(card);
    });
    var saved = store(LANG_KEY);
    if (saved) langCards.forEach(function (card) { chooseLang(card, saved); });
  }

  function chooseLang(card, key) {
    var panels = Array.prototype.slice.call(card.querySelectorAll(".dg-api-panel"));
    var i = panels.findIndex(function (p) { return p.getAttribute("data-key") === key; });
    if (i >= 0 && card.dgSelect) card.dgSelect(i, false);
  }

  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    for (var el = target.parentElement; el; el = el.parentElement) {
      if (el.tagName === "DETAILS") el.open = true;
      if (el.classList && el.classList.contains("dg-api-alt") && el.hidden) {
        var box = el.parentElement;
        var index = direct(box, "dg-api-alt").indexOf(el);
        if (box.dgSelect && index >= 0) box.dgSelect(index, false);
      }
    }
    target.scrollIntoView();
  }

  function init() {
    var root = document.querySelector(".dg-api") ? document : null;
    if (!root) return;
    initAlternatives(document);
    initCards(document);
    reveal();
    window.addEventListener("hashchange", reveal);
  }

  // The endpoint selector (#endpoints-menu-trigger): Escape closes it and gives focus back, a click outside closes it.
  var endpoints = document.querySelector(".dg-endpoints");
  if (endpoints) {
    endpoints.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !endpoints.open) return;
      endpoints.open = false;
      endpoints.querySelector("summary").focus();
    });
    document.addEventListener("click", function (event) {
      if (endpoints.open && !endpoints.contains(event.target)) endpoints.open = false;
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
