/* API playground: the form on an endpoint page (servers, auth, parameters, body) in a wide modal dialog, sending
   with fetch, live code samples in the aside, deep-link highlighting. Inputs: playground-base.js; sections:
   playground-form.js (+ -oauth, -body); environments and history: playground-env.js; logic:
   playground-request/-samples/-response(-auth).js.
   Page data: <script type="application/json" id="dg-api"> (docsgen/openapi/render/playground.py). */
(function (NS) {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  var LOCS = [["path", T("path_params", "Path parameters")], ["query", T("query_params", "Query parameters")], ["header", T("headers", "Headers")], ["cookie", T("cookies", "Cookies")]];
  var el, idFor, widget, fieldRow, proxyUrl; // from playground-base.js, taken at boot (it loads after this file)

  function Playground(data, mode) {
    this.data = data;
    this.mode = mode;
    this.st = { serverIndex: 0, serverVars: {}, values: {}, authIndex: 0, auth: {}, bodyIndex: 0, bodyText: "", bodyFields: {}, bodyFile: null };
    this.getters = {};
    this.setters = {};
    this.bodyGetters = {};
    this.urls = [];
    this.proxy = data.proxy !== false ? proxyUrl() : "";
    this.custom = data.customSamples || [];
  }

  Playground.prototype.changed = function () {
    var self = this;
    if (self.pending) return;
    self.pending = true;
    requestAnimationFrame(function () { self.pending = false; self.refresh(false); });
  };

  Playground.prototype.collect = function () {
    var st = this.st;
    var self = this;
    st.values = {};
    Object.keys(this.getters).forEach(function (k) { st.values[k] = self.getters[k](); });
    st.bodyFields = {};
    Object.keys(this.bodyGetters).forEach(function (k) { st.bodyFields[k] = self.bodyGetters[k](); });
    if (this.bodyArea) st.bodyText = this.bodyArea.value;
    if (this.bodyFileInput) st.bodyFile = this.bodyFileInput.files[0] || null;
    return NS.buildRequest(this.data, st);
  };

  Playground.prototype.build = function () {
    var d = this.data;
    var self = this;
    var root = el("section", { "class": "dg-pg", "aria-label": T("api_playground", "API playground"), "data-mode": this.mode });
    var dialogId = idFor("dialog");
    var titleId = idFor("title");
    // the first playground's form is Mintlify's #api-playground-input (its CSS hook); ids stay unique
    var formId = NS.formHookTaken ? idFor("form") : "api-playground-input";
    NS.formHookTaken = true;
    // "Try it" goes at the end of the method and path bar (one line, as on Mintlify); the live URL is in the dialog.
    // playground-loader.js put the same button in the bar before this file loaded: it becomes this one
    this.toggleFromLoader = !!NS.pendingToggle;
    this.toggle = NS.pendingToggle || el("button", { type: "button", "class": "dg-pg-toggle tryit-button", "aria-expanded": "false", "aria-haspopup": "dialog" }, this.mode === "simple" ? T("build_request", "Build a request") : T("try_it", "Try it"));
    NS.pendingToggle = null;
    this.toggle.setAttribute("aria-controls", dialogId);
    // A wide modal, not the narrow content column: long responses scroll inside it (full screen on phones).
    var dialog = el("dialog", { "class": "dg-pg-dialog", id: dialogId, "aria-labelledby": titleId });
    var head = el("div", { "class": "dg-pg-dialog-head" });
    var title = el("div", { "class": "dg-pg-dialog-title", id: titleId }); // no <h2>: prose heading styles
    title.appendChild(el("span", { "class": "dg-pg-dialog-method dg-api-method-" + String(d.method).toLowerCase() }, d.method));
    this.dialogUrl = el("code", { "class": "dg-pg-dialog-url" });
    title.appendChild(this.dialogUrl);
    head.appendChild(title);
    var actions = el("div", { "class": "dg-pg-actions" }); // Send on the line of the method and URL (Mintlify)
    head.appendChild(actions);
    var close = el("button", { type: "button", "class": "dg-pg-close", "aria-label": T("close_playground", "Close the playground") }, "\u00d7");
    close.addEventListener("click", function () { self.open(false); });
    head.appendChild(close);
    dialog.appendChild(head);
    dialog.addEventListener("close", function () { self.toggle.setAttribute("aria-expanded", "false"); });
    dialog.addEventListener("click", function (ev) { if (ev.target === dialog) self.open(false); }); // the backdrop
    var columns = el("div", { "class": "dg-pg-dialog-body" });
    var form = el("form", { "class": "dg-pg-panel", id: formId, novalidate: true });
    this.panel = form;
    this.dialog = dialog;
    // a button playground-loader.js placed has its click handled there (one handler: it opens once loaded)
    if (!this.toggleFromLoader) this.toggle.addEventListener("click", function () { self.open(!dialog.open); });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); self.send(); });
    form.addEventListener("input", function () { self.changed(); });
    form.addEventListener("change", function () { self.changed(); });
    if (NS.env && d.servers && d.servers.length) form.appendChild(NS.env.section(self));
    if (d.servers && d.servers.length) form.appendChild(NS.sections.server(self));
    if (d.security && (d.security.requirements || []).some(function (r) { return Object.keys(r).length; })) form.appendChild(NS.sections.auth(self));
    LOCS.forEach(function (loc) {
      var params = (d.parameters || []).filter(function (p) { return p["in"] === loc[0]; });
      if (!params.length) return;
      var fs = el("fieldset", { "class": "dg-pg-group" });
      fs.appendChild(el("legend", {}, loc[1]));
      params.forEach(function (p) {
        var key = p["in"] + ":" + p.name;
        var f = fieldRow(key, p.name, p.schema, p.required, p.description);
        var mine = NS.userValue(loc[0], p.name); // the signed-in reader's own value (apiPlaygroundInputs)
        var w = widget(f.id, p.schema, p.name, mine !== undefined ? mine : NS.initialValue(p, d.prefill), function () {
          if (mine !== undefined) NS.userOverride(loc[0], p.name, w.get());
          self.changed();
        });
        f.finish(w);
        self.getters[key] = w.get;
        self.setters[key] = w.set;
        fs.appendChild(f.row);
      });
      if (loc[0] === "cookie") fs.appendChild(el("p", { "class": "dg-pg-hint" }, T("cookies_hint", "Browsers send cookies only to the docs site's own host, or through the proxy.")));
      form.appendChild(fs);
    });
    if (d.body && d.body.contents && d.body.contents.length) form.appendChild(NS.sections.body(self));
    if (this.mode === "interactive") {
      this.sendButton = el("button", { type: "submit", form: formId, "class": "dg-pg-send" }, T("send", "Send"));
      this.cancelButton = el("button", { type: "button", "class": "dg-pg-cancel", hidden: true }, T("cancel", "Cancel"));
      this.cancelButton.addEventListener("click", function () { if (self.abort) self.abort.abort(); });
      actions.appendChild(this.sendButton);
      actions.appendChild(this.cancelButton);
    } else {
      form.appendChild(el("p", { "class": "dg-pg-simple-note" }, d.servers && d.servers.length
        ? T("request_only", "This page shows the request only; it cannot be sent from here.")
        : T("no_server", "The API defines no server, so requests cannot be sent from here. Copy a code sample instead.")));
    }
    this.errorsBox = el("div", { "class": "dg-pg-errors", role: "status", "aria-live": "polite" });
    form.appendChild(this.errorsBox);
    columns.appendChild(form);
    var out = el("div", { "class": "dg-pg-out" });
    if (NS.samples && NS.samples.bash) { // the aside's samples are behind the dialog: the request as cURL here
      var request = el("details", { "class": "dg-pg-request" });
      request.appendChild(el("summary", {}, T("request_sample", "Request (cURL)")));
      this.requestView = el("code", {});
      var pre = el("pre", { "class": "dg-pg-code" });
      pre.appendChild(this.requestView);
      request.appendChild(pre);
      out.appendChild(request);
    }
    this.responseBox = el("div", { "class": "dg-pg-response", "aria-live": "polite" });
    out.appendChild(this.responseBox);
    if (NS.history && this.mode === "interactive") out.appendChild(NS.history.section(self));
    columns.appendChild(out);
    dialog.appendChild(columns);
    root.appendChild(dialog);
    var anchor = document.querySelector(".dg-api .dg-api-endpoint");
    if (anchor) {
      // the loader's button stays where it is: moving it while the reader holds it down makes the press's
      // click go to the bar (Chromium), not the button, and the click was lost
      if (this.toggle.parentNode !== anchor) anchor.appendChild(this.toggle);
      anchor.parentNode.insertBefore(root, anchor.nextSibling);
    } else {
      var bar = el("div", { "class": "dg-pg-bar" });
      bar.appendChild(this.toggle);
      root.prepend(bar);
      (document.querySelector(".dg-prose") || document.body).prepend(root);
    }
    this.root = root;
    document.dispatchEvent(new CustomEvent("dg:layout")); // the bar's path may scroll now: site.js makes it focusable
    (this.afterBuild || []).forEach(function (f) { f(); });
    this.refresh(false);
    return root;
  };

  Playground.prototype.open = function (yes) {
    var dialog = this.dialog;
    if (yes && !dialog.open) {
      dialog.showModal();
      var first = this.panel.querySelector("input, select, textarea, button");
      if (first) first.focus();
    } else if (!yes && dialog.open) {
      dialog.close();
      this.toggle.focus();
    }
    this.toggle.setAttribute("aria-expanded", yes ? "true" : "false");
  };

  /** Put values back into the form (history re-runs, environments): {serverIndex, serverVars, values, bodyText}. */
  Playground.prototype.restore = function (saved) {
    var self = this;
    Object.keys(saved.values || {}).forEach(function (k) { if (self.setters[k]) self.setters[k](saved.values[k]); });
    if (typeof saved.bodyText === "string" && this.bodyArea) {
      this.bodyArea.value = saved.bodyText;
      this.bodyArea.dispatchEvent(new Event("input", { bubbles: true }));
    }
    this.refresh(false);
  };

  /** Update the URL preview, validation messages and the aside's code samples from the inputs. */
  Playground.prototype.refresh = function (showAll) {
    var built = this.collect();
    this.built = built;
    if (this.dialogUrl.textContent !== built.shownUrl) { // a long URL wraps after a "/", not mid-word
      var url = this.dialogUrl;
      url.textContent = "";
      built.shownUrl.split(/(?<=\/)/).forEach(function (part, i) {
        if (i) url.appendChild(document.createElement("wbr"));
        url.appendChild(document.createTextNode(part));
      });
    }
    if (this.requestView) this.requestView.textContent = NS.samples.bash(built.sample);
    this.showErrors(built.errors, showAll);
    this.updateSamples(built.sample);
    return built;
  };

  /** "<field> <problem>" in the page's language ("{path}: {message}" where the language needs it). */
  function fieldError(path, message) { return T("field_error", "{path} {message}", { path: path, message: message }); }

  Playground.prototype.showErrors = function (errors, showAll) {
    var panel = this.panel;
    var self = this;
    panel.querySelectorAll(".dg-pg-field").forEach(function (row) {
      var key = row.getAttribute("data-field");
      var mine = errors.filter(function (e) { return e.field === key && (showAll || e.key !== "val_required"); });
      var err = row.querySelector(".dg-pg-field-error");
      var control = row.querySelector("input, select, textarea");
      if (!err) return;
      err.hidden = !mine.length;
      err.textContent = mine.map(function (e) { return e.path && e.path !== key.split(":").pop() ? fieldError(e.path, e.message) : e.message; }).join("; ");
      if (control) {
        if (mine.length) control.setAttribute("aria-invalid", "true");
        else control.removeAttribute("aria-invalid");
      }
    });
    if (this.bodyStatus) {
      var be = errors.filter(function (e) { return e.field === "body" && (showAll || e.key !== "val_required"); });
      this.bodyStatus.textContent = be.length ? be.map(function (e) { return fieldError(e.path === "body" ? T("body", "Body") : e.path, e.message); }).join("\n") : (self.bodyArea && self.bodyArea.value.trim() ? T("valid_json", "Valid JSON for this schema.") : "");
      this.bodyStatus.className = "dg-pg-body-status" + (be.length ? " dg-pg-invalid" : " dg-pg-valid");
      if (this.bodyArea) {
        if (be.length) this.bodyArea.setAttribute("aria-invalid", "true");
        else this.bodyArea.removeAttribute("aria-invalid");
      }
    }
  };

  // Live samples keep the build's colours: strings and whole-line comments get Pygments' classes (highlight.css).
  var TINT = /('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|(^[ \t]*(?:#|\/\/)[^\n]*)/gm;
  function escapeHtml(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function tint(text) {
    var out = "", last = 0, m;
    TINT.lastIndex = 0;
    while ((m = TINT.exec(text))) {
      out += escapeHtml(text.slice(last, m.index));
      var cls = m[2] ? "c1" : m[1].charAt(0) === "'" ? "s1" : "s2";
      out += '<span class="' + cls + '">' + escapeHtml(m[0]) + "</span>";
      last = TINT.lastIndex;
    }
    return out + escapeHtml(text.slice(last));
  }

  Playground.prototype.updateSamples = function (sample) {
    var custom = this.custom;
    var card = document.querySelector('.dg-api-aside .dg-api-card[data-tabs="lang"]');
    if (!card) return;
    card.querySelectorAll(".dg-api-panel").forEach(function (panel) {
      var key = panel.getAttribute("data-key");
      var gen = NS.samples && NS.samples[key];
      var code = panel.querySelector("pre code");
      if (!gen || !code || custom.indexOf(key) >= 0) return;
      var text = gen(sample);
      if (code.textContent !== text) code.innerHTML = tint(text);
      panel.setAttribute("data-live", "true");
    });
  };

  Playground.prototype.send = function () {
    var self = this;
    if (this.mode !== "interactive" || this.busy) return;
    var built = this.refresh(true);
    if (built.errors.length) {
      this.errorsBox.textContent = "";
      this.errorsBox.appendChild(el("p", { "class": "dg-pg-error-title" }, T("fix_fields", "Fix these fields before sending ({n}):", { n: built.errors.length })));
      var ul = el("ul");
      built.errors.forEach(function (e) { ul.appendChild(el("li", {}, fieldError(e.path, e.message))); });
      this.errorsBox.appendChild(ul);
      var bad = this.panel.querySelector('[aria-invalid="true"]');
      if (bad) bad.focus();
      return;
    }
    this.errorsBox.textContent = "";
    var init = NS.fetchInit(built);
    var useProxy = !!(this.proxy && this.proxyBox && this.proxyBox.checked);
    var target = built.url;
    var origin = "";
    try { origin = new URL(target, location.href).origin; } catch (e) { origin = ""; }
    var cookieNames = [];
    if (built.cookies.length) {
      var header = built.cookies.map(function (c) { return c[0] + "=" + c[1]; }).join("; ");
      if (useProxy) init.headers.set("X-Docsgen-Cookie", header);
      else if (origin && new URL(origin).hostname === location.hostname) {
        built.cookies.forEach(function (c) { document.cookie = c[0] + "=" + encodeURIComponent(c[1]) + "; path=/; SameSite=Lax"; cookieNames.push(c[0]); });
        init.credentials = "include";
      }
    }
    if (this.data.credentials && !useProxy) init.credentials = "include";
    this.abort = new AbortController();
    init.signal = this.abort.signal;
    var timer = setTimeout(function () { self.abort.abort(); }, 60000);
    this.busy = true;
    this.sendButton.disabled = true;
    this.sendButton.textContent = T("sending", "Sending\u2026");
    this.cancelButton.hidden = false;
    this.urls.forEach(function (u) { URL.revokeObjectURL(u); });
    this.urls = [];
    this.responseBox.setAttribute("aria-busy", "true");
    var started = performance.now();
    var done = function () {
      clearTimeout(timer);
      cookieNames.forEach(function (n) { document.cookie = n + "=; path=/; max-age=0"; });
      self.busy = false;
      self.sendButton.disabled = false;
      self.sendButton.textContent = T("send", "Send");
      self.cancelButton.hidden = true;
      self.responseBox.removeAttribute("aria-busy");
      self.root.setAttribute("data-state", "done");
    };
    fetch(NS.proxied(useProxy ? this.proxy : "", target), init).then(function (res) {
      return res.arrayBuffer().then(function (bytes) {
        var headers = [];
        res.headers.forEach(function (v, k) { headers.push([k, v]); });
        var ms = performance.now() - started;
        NS.renderResponse(self.responseBox, { status: res.status, statusText: res.statusText, headers: headers,
          contentType: res.headers.get("content-type") || "", bytes: bytes, ms: ms, proxied: useProxy }, self.urls);
        if (NS.history) NS.history.record(self, built, res.status, ms);
        done();
      }, function (err) {
        // The answer started, then broke off: the docs proxy cuts one past its limit (docsgen dev), or the API stopped.
        NS.explainFailure(self.responseBox, { cut: true, status: res.status, origin: origin,
          limit: Number(res.headers.get("x-docsgen-proxy-limit")) || 0, message: String(err && err.message || err) });
        done();
      });
    }).catch(function (err) {
      var aborted = err && err.name === "AbortError";
      var info = { aborted: aborted, origin: origin, message: String(err && err.message || err), proxyAvailable: !!self.proxy && !useProxy,
        mixed: location.protocol === "https:" && /^http:/i.test(target) && !useProxy };
      if (aborted || info.mixed || useProxy) { NS.explainFailure(self.responseBox, info); done(); return; }
      // A no-cors probe tells "the server answered but CORS hid it" from "nothing answered".
      fetch(target, { method: "HEAD", mode: "no-cors", cache: "no-store" }).then(function () { info.reachable = true; }, function () { info.reachable = false; })
        .then(function () { NS.explainFailure(self.responseBox, info); done(); });
    });
  };

  /** Path template variables the data does not describe (hand-written `api:` pages) become required path inputs. */
  function addTemplateParams(data) {
    var params = data.parameters = data.parameters || [];
    (String(data.path || "").match(/\{[^}]+\}/g) || []).forEach(function (m) {
      var name = m.slice(1, -1);
      if (!params.some(function (p) { return p["in"] === "path" && p.name === name; })) {
        params.push({ name: name, "in": "path", required: true, schema: { type: "string" } });
      }
    });
  }

  function mark(state) { document.documentElement.setAttribute("data-playground", state); }

  function start() {
    var script = document.getElementById("dg-api");
    if (!script) return;
    var data;
    try { data = JSON.parse(script.textContent); } catch (e) { return; }
    if (data.kind !== "operation" && data.kind !== "manual") return;
    addTemplateParams(data);
    var mode = data.display || "interactive";
    var gated = mode === "auth" || (data.groups && data.groups.length);
    var effective = data.servers && data.servers.length ? (mode === "simple" ? "simple" : "interactive") : "simple";
    if (mode === "none") { mark("none"); return; }
    if (!gated) {
      NS.current = new Playground(data, effective);
      NS.current.build();
      mark(effective);
      return;
    }
    if (!NS.auth || !data.auth) { mark("hidden"); return; }
    NS.auth.allowed(data.auth, data.groups || []).then(function (ok) {
      if (!ok) { mark("hidden"); return; }
      NS.current = new Playground(data, effective);
      NS.current.build();
      mark(effective);
    }, function () { mark("hidden"); });
  }

  // A token handed over to a page that is already open (same-document navigation) signs the reader in too.
  window.addEventListener("hashchange", function () {
    var script = document.getElementById("dg-api");
    if (!NS.auth || NS.current || !script || document.documentElement.getAttribute("data-playground") !== "hidden") return;
    var data = JSON.parse(script.textContent);
    if (data.auth && location.hash.indexOf((data.auth.tokenParam || "token") + "=") >= 0) start();
  });

  NS.Playground = Playground;
  NS.start = start;
  /** Take the other modules' helpers and build the playground; deep links are playground-loader.js's. */
  function boot() {
    if (NS.ui) {
      el = NS.ui.el; idFor = NS.ui.idFor; widget = NS.ui.widget; fieldRow = NS.ui.fieldRow; proxyUrl = NS.ui.proxyUrl;
    }
    if (NS.ui && NS.sections) start();
  }
  NS.boot = boot;
  // playground-loader.js loads every playground-*.js module, then calls boot; loaded as deferred scripts
  // instead, they all run before DOMContentLoaded.
  if (!NS.lazy) {
    if (document.readyState === "complete") boot();
    else document.addEventListener("DOMContentLoaded", boot);
  }
})(window.DocsgenPlayground = window.DocsgenPlayground || {});