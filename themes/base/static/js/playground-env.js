/* API playground: environments (named sets of server variables and credentials, kept in localStorage and shared
   by every endpoint of the site) and the request history of each endpoint (its last 20 requests, re-run with
   one click; also in localStorage, without credentials or files). */
(function (NS) {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  var ui = NS.ui;
  var el = ui.el, idFor = ui.idFor;
  var ENV_KEY = "dg-pg-envs";
  var HISTORY_KEY = "dg-pg-history:";
  var HISTORY_MAX = 20;

  function load(key, fallback) {
    try {
      var v = JSON.parse(localStorage.getItem(key));
      return v && typeof v === "object" ? v : fallback;
    } catch (e) { return fallback; }
  }

  function save(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* storage full or disabled */ }
  }

  function plain(value) {
    if (typeof Blob !== "undefined" && value instanceof Blob) return undefined;
    if (Array.isArray(value)) return value.map(plain).filter(function (v) { return v !== undefined; });
    return value;
  }

  /** Choose a server by its URL and fill its variables (playground-form.js keeps their widgets in pg.varWidgets). */
  function applyServer(pg, url, vars) {
    var servers = pg.data.servers || [];
    var index = servers.findIndex(function (s) { return s.url === url; });
    var select = pg.panel.querySelector(".dg-pg-server");
    if (index >= 0 && select && select.value !== String(index)) {
      select.value = String(index);
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
    Object.keys(vars || {}).forEach(function (name) {
      var w = pg.varWidgets && pg.varWidgets[name];
      if (!w) return;
      w.set(vars[name]);
      pg.st.serverVars[name] = w.get();
    });
  }

  function applyCredentials(pg, auth) {
    Object.keys(auth || {}).forEach(function (scheme) {
      Object.keys(auth[scheme] || {}).forEach(function (part) {
        var input = pg.panel.querySelector('[data-auth="' + CSS.escape(scheme + ":" + part) + '"]');
        if (!input) return;
        input.value = auth[scheme][part] || "";
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  }

  function snapshot(pg) {
    var server = (pg.data.servers || [])[pg.st.serverIndex || 0] || {};
    var auth = {};
    Object.keys(pg.st.auth || {}).forEach(function (scheme) {
      var parts = pg.st.auth[scheme];
      auth[scheme] = {};
      Object.keys(parts).forEach(function (p) { if (parts[p]) auth[scheme][p] = parts[p]; });
    });
    return { server: server.url || "", vars: JSON.parse(JSON.stringify(pg.st.serverVars || {})), auth: auth };
  }

  /** The "Environment" fieldset: choose, save (under a name) and delete environments. */
  function envSection(pg) {
    var fs = el("fieldset", { "class": "dg-pg-group dg-pg-env" });
    fs.appendChild(el("legend", {}, T("env", "Environment")));
    var row = el("div", { "class": "dg-pg-env-row" });
    var sid = idFor("env");
    row.appendChild(el("label", { "for": sid, "class": "dg-pg-label" }, T("env", "Environment")));
    var select = el("select", { id: sid, "class": "dg-pg-env-choice" });
    var nid = idFor("env-name");
    var name = el("input", { id: nid, type: "text", "class": "dg-pg-env-name", autocomplete: "off", "aria-label": T("env_name", "Environment name"), placeholder: T("env_placeholder", "Name, e.g. staging") });
    var saveBtn = el("button", { type: "button", "class": "dg-pg-add dg-pg-env-save" }, T("save", "Save"));
    var delBtn = el("button", { type: "button", "class": "dg-pg-remove dg-pg-env-delete" }, T("delete", "Delete"));
    var status = el("p", { "class": "dg-pg-hint", role: "status", "aria-live": "polite" });
    function draw() {
      var data = load(ENV_KEY, { current: "", envs: {} });
      select.textContent = "";
      select.appendChild(el("option", { value: "" }, "\u2014 none \u2014"));
      Object.keys(data.envs || {}).sort().forEach(function (n) { select.appendChild(el("option", { value: n }, n)); });
      select.value = data.envs && data.envs[data.current] ? data.current : "";
      delBtn.disabled = !select.value;
      return data;
    }
    select.addEventListener("change", function (ev) {
      ev.stopPropagation();
      var data = load(ENV_KEY, { current: "", envs: {} });
      data.current = select.value;
      save(ENV_KEY, data);
      delBtn.disabled = !select.value;
      name.value = select.value;
      var env = data.envs[select.value];
      if (env) {
        applyServer(pg, env.server, env.vars);
        applyCredentials(pg, env.auth);
        status.textContent = T("env_applied", "Environment \u201c{name}\u201d applied.", { name: select.value });
      }
      pg.changed();
    });
    saveBtn.addEventListener("click", function () {
      var n = name.value.trim() || select.value;
      if (!n) { name.focus(); status.textContent = T("env_name_first", "Give the environment a name first."); return; }
      var data = load(ENV_KEY, { current: "", envs: {} });
      data.envs = data.envs || {};
      data.envs[n] = snapshot(pg);
      data.current = n;
      save(ENV_KEY, data);
      draw();
      status.textContent = T("env_saved", "Saved server variables and credentials as \u201c{name}\u201d.", { name: n });
    });
    delBtn.addEventListener("click", function () {
      var data = load(ENV_KEY, { current: "", envs: {} });
      var n = select.value;
      if (!n) return;
      delete data.envs[n];
      data.current = "";
      save(ENV_KEY, data);
      draw();
      name.value = "";
      status.textContent = T("env_deleted", "Deleted \u201c{name}\u201d.", { name: n });
    });
    name.addEventListener("keydown", function (ev) { // Enter saves here; it must not send the request
      if (ev.key === "Enter") { ev.preventDefault(); saveBtn.click(); }
    });
    row.appendChild(select);
    row.appendChild(name);
    row.appendChild(saveBtn);
    row.appendChild(delBtn);
    fs.appendChild(row);
    fs.appendChild(status);
    fs.appendChild(el("p", { "class": "dg-pg-hint" }, T("env_hint", "Environments keep server variables and credentials in this browser (local storage), for every endpoint of this site.")));
    var start = draw();
    var env = start.envs && start.envs[start.current];
    if (env) { // the environment chosen last applies to every endpoint page
      name.value = start.current;
      pg.afterBuild = (pg.afterBuild || []).concat(function () { applyServer(pg, env.server, env.vars); applyCredentials(pg, env.auth); });
    }
    return fs;
  }

  function historyKey(pg) { return HISTORY_KEY + pg.data.method + " " + pg.data.path; }

  /** Keep a request that got an answer (no credentials, no files). */
  function record(pg, built, status, ms) {
    var values = {};
    Object.keys(pg.st.values || {}).forEach(function (k) { var v = plain(pg.st.values[k]); if (v !== undefined) values[k] = v; });
    var server = (pg.data.servers || [])[pg.st.serverIndex || 0] || {};
    var entry = { at: new Date().toISOString(), status: status, ms: Math.round(ms), url: built.shownUrl, method: built.method,
      server: server.url || "", vars: JSON.parse(JSON.stringify(pg.st.serverVars || {})), values: values,
      bodyIndex: pg.st.bodyIndex || 0, bodyText: pg.bodyArea ? pg.bodyArea.value : undefined };
    var list = load(historyKey(pg), []);
    if (!Array.isArray(list)) list = [];
    list.unshift(entry);
    save(historyKey(pg), list.slice(0, HISTORY_MAX));
    if (pg.drawHistory) pg.drawHistory();
  }

  function rerun(pg, entry) {
    applyServer(pg, entry.server, entry.vars);
    var ctype = pg.panel.querySelector(".dg-pg-ctype");
    if (ctype && ctype.value !== String(entry.bodyIndex || 0)) {
      ctype.value = String(entry.bodyIndex || 0);
      ctype.dispatchEvent(new Event("change", { bubbles: true }));
    }
    pg.restore({ values: entry.values, bodyText: entry.bodyText });
    pg.send();
  }

  /** The "History" list beside the response: newest first, each with a Re-run button. */
  function historySection(pg) {
    var box = el("details", { "class": "dg-pg-history" });
    var summary = el("summary", {}, T("history", "History"));
    var list = el("ol", { "class": "dg-pg-history-list" });
    box.appendChild(summary);
    box.appendChild(list);
    var clear = el("button", { type: "button", "class": "dg-pg-remove dg-pg-history-clear" }, T("clear_history", "Clear history"));
    clear.addEventListener("click", function () {
      try { localStorage.removeItem(historyKey(pg)); } catch (e) { /* disabled storage */ }
      pg.drawHistory();
    });
    box.appendChild(clear);
    pg.drawHistory = function () {
      var entries = load(historyKey(pg), []);
      if (!Array.isArray(entries)) entries = [];
      list.textContent = "";
      summary.textContent = T("history", "History") + " (" + entries.length + ")";
      clear.hidden = !entries.length;
      entries.forEach(function (entry) {
        var li = el("li", { "class": "dg-pg-history-item" });
        var ok = entry.status >= 200 && entry.status < 300;
        li.appendChild(el("span", { "class": "dg-pg-history-status " + (ok ? "dg-pg-ok" : "dg-pg-bad") }, String(entry.status)));
        li.appendChild(el("code", { "class": "dg-pg-history-url" }, entry.method + " " + entry.url));
        var when = new Date(entry.at);
        li.appendChild(el("time", { datetime: entry.at }, isNaN(when) ? "" : when.toLocaleTimeString()));
        var again = el("button", { type: "button", "class": "dg-pg-add dg-pg-rerun", "aria-label": T("rerun", "Re-run") + " " + entry.method + " " + entry.url + " (" + (isNaN(when) ? "" : when.toLocaleString()) + ")" }, T("rerun", "Re-run"));
        again.addEventListener("click", function () { rerun(pg, entry); });
        li.appendChild(again);
        list.appendChild(li);
      });
    };
    pg.drawHistory();
    return box;
  }

  NS.env = { section: envSection, applyServer: applyServer, applyCredentials: applyCredentials };
  NS.history = { section: historySection, record: record };
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
