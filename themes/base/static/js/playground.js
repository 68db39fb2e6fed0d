/* API playground: the form on an endpoint page (servers, auth, parameters, body), sending with fetch, live code
   samples in the aside, deep-link highlighting. Logic lives in playground-request/-samples/-response(-auth).js.
   Page data: <script type="application/json" id="dg-api"> (docsgen/openapi/render/playground.py). */
(function (NS) {
  "use strict";
  var LOCS = [["path", "Path parameters"], ["query", "Query parameters"], ["header", "Headers"], ["cookie", "Cookies"]];
  var AUTH_STORE = "dg-pg-auth:";
  var uid = 0;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "class") e.className = attrs[k];
      else if (attrs[k] !== undefined && attrs[k] !== null && attrs[k] !== false) e.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function idFor(s) { return "dg-pg-" + String(s).replace(/[^A-Za-z0-9_-]/g, "_") + "-" + (++uid); }

  function store(key, value) {
    try {
      if (value === undefined) return sessionStorage.getItem(AUTH_STORE + key);
      if (value === "") sessionStorage.removeItem(AUTH_STORE + key);
      else sessionStorage.setItem(AUTH_STORE + key, value);
    } catch (e) { return null; }
    return null;
  }

  function typeLabel(schema) {
    var t = NS.typeOf(schema || {});
    if (t === "array" && schema.items) return "array<" + NS.typeOf(schema.items) + ">";
    if (schema && schema.binary) return "file";
    return t + (schema && schema.format ? "<" + schema.format + ">" : "");
  }

  function isBinary(schema) {
    return !!(schema && (schema.binary || (NS.typeOf(schema) === "array" && schema.items && schema.items.binary)));
  }

  /** One typed input for a schema: {node, control, get(), set(v)}; onChange is called on every edit. */
  function widget(id, schema, label, initial, onChange) {
    schema = schema || {};
    var t = NS.typeOf(schema);
    if (isBinary(schema)) {
      var file = el("input", { type: "file", id: id, multiple: t === "array", "aria-label": label });
      file.addEventListener("change", onChange);
      return { node: file, control: file, get: function () { var f = Array.prototype.slice.call(file.files); return t === "array" ? f : f[0]; }, set: function () {} };
    }
    if (t === "array" && schema.items) return arrayWidget(id, schema, label, initial, onChange);
    if (schema.enum || t === "boolean") {
      var values = schema.enum || [true, false];
      var select = el("select", { id: id });
      select.appendChild(el("option", { value: "" }, "\u2014 not set \u2014"));
      values.forEach(function (v, i) { select.appendChild(el("option", { value: String(i) }, typeof v === "string" ? v : JSON.stringify(v))); });
      var setSel = function (v) {
        var i = values.findIndex(function (x) { return JSON.stringify(x) === JSON.stringify(v); });
        select.value = i >= 0 ? String(i) : "";
      };
      setSel(initial);
      select.addEventListener("change", onChange);
      return { node: select, control: select, get: function () { return select.value === "" ? undefined : values[Number(select.value)]; }, set: setSel };
    }
    if (t === "object" || (t !== "string" && t !== "integer" && t !== "number" && schema.properties)) {
      var area = el("textarea", { id: id, rows: 3, spellcheck: "false", "class": "dg-pg-json" });
      area.value = initial === undefined ? "" : JSON.stringify(initial, null, 2);
      area.addEventListener("input", onChange);
      return { node: area, control: area, get: function () { return area.value.trim() ? NS.coerce(area.value, { type: "object" }) : undefined; }, set: function (v) { area.value = v === undefined ? "" : JSON.stringify(v, null, 2); } };
    }
    var attrs = { id: id, type: "text", autocomplete: "off", spellcheck: "false" };
    if (t === "integer" || t === "number") {
      attrs.type = "number";
      attrs.inputmode = t === "integer" ? "numeric" : "decimal";
      attrs.step = schema.multipleOf || (t === "integer" ? 1 : "any");
      var min = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : schema.minimum;
      var max = typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : schema.maximum;
      if (typeof min === "number") attrs.min = min;
      if (typeof max === "number") attrs.max = max;
    } else if (schema.format === "password") attrs.type = "password";
    else if (schema.format === "date") attrs.type = "date";
    var ph = schema["default"] !== undefined ? "default: " + schema["default"] : schema.example !== undefined ? String(schema.example) : "";
    if (ph) attrs.placeholder = ph;
    var input = el("input", attrs);
    var set = function (v) { input.value = v === undefined || v === null ? "" : typeof v === "string" ? v : String(typeof v === "object" ? JSON.stringify(v) : v); };
    set(initial);
    input.addEventListener("input", onChange);
    return { node: input, control: input, get: function () { return input.value === "" ? undefined : NS.coerce(input.value, schema); }, set: set };
  }

  function arrayWidget(id, schema, label, initial, onChange) {
    var box = el("div", { "class": "dg-pg-array", id: id, role: "group", "aria-label": label });
    var list = el("div", { "class": "dg-pg-array-items" });
    var rows = [];
    var add = el("button", { type: "button", "class": "dg-pg-add" }, "Add item");
    function addRow(value, focus) {
      var row = el("div", { "class": "dg-pg-array-row" });
      var n = rows.length + 1;
      var w = widget(idFor(id + "-item"), schema.items, label + " item " + n, value, onChange);
      w.control.setAttribute("aria-label", label + " item " + n);
      var rm = el("button", { type: "button", "class": "dg-pg-remove", "aria-label": "Remove " + label + " item " + n }, "\u00d7");
      var entry = { row: row, w: w };
      rm.addEventListener("click", function () {
        rows.splice(rows.indexOf(entry), 1);
        row.remove();
        add.focus();
        onChange();
      });
      row.appendChild(w.node);
      row.appendChild(rm);
      list.appendChild(row);
      rows.push(entry);
      if (focus) w.control.focus();
    }
    add.addEventListener("click", function () { addRow(undefined, true); onChange(); });
    (Array.isArray(initial) ? initial : initial === undefined ? [] : [initial]).forEach(function (v) { addRow(v, false); });
    box.appendChild(list);
    box.appendChild(add);
    return {
      node: box,
      control: add,
      get: function () { var v = rows.map(function (r) { return r.w.get(); }).filter(function (x) { return !NS.isEmpty(x); }); return v.length ? v : undefined; },
      set: function () {}
    };
  }

  /** A labelled row: name, type, required marker, description, the input and an error slot. */
  function fieldRow(key, name, schema, required, description, docId) {
    var id = idFor(key);
    var row = el("div", { "class": "dg-pg-field", "data-field": key });
    var label = el("label", { "for": id, "class": "dg-pg-label" });
    label.appendChild(el("span", { "class": "dg-pg-name" }, name));
    label.appendChild(el("span", { "class": "dg-pg-type" }, typeLabel(schema)));
    if (required) label.appendChild(el("span", { "class": "dg-pg-req" }, "required"));
    row.appendChild(label);
    if (docId && document.getElementById(docId)) {
      var link = el("a", { href: "#" + docId, "class": "dg-pg-doclink", "aria-label": "Documentation of " + name }, "#");
      row.appendChild(link);
    }
    var err = el("p", { "class": "dg-pg-field-error", id: id + "-err", hidden: true });
    var desc = description ? el("p", { "class": "dg-pg-desc", id: id + "-desc" }, description) : null;
    return { row: row, id: id, err: err, desc: desc, finish: function (w) {
      row.appendChild(w.node);
      var described = [desc ? id + "-desc" : "", id + "-err"].filter(Boolean).join(" ");
      w.control.setAttribute("aria-describedby", described);
      if (required) w.control.setAttribute("aria-required", "true");
      if (desc) row.appendChild(desc);
      row.appendChild(err);
    } };
  }

  function proxyUrl() {
    var dev = window.__docsgenDev;
    if (dev && dev.proxy) return dev.proxy;
    if (window.DOCSGEN_PROXY) return window.DOCSGEN_PROXY;
    return document.documentElement.getAttribute("data-docsgen-proxy") || "";
  }

  function Playground(data, mode) {
    this.data = data;
    this.mode = mode;
    this.st = { serverIndex: 0, serverVars: {}, values: {}, authIndex: 0, auth: {}, bodyIndex: 0, bodyText: "", bodyFields: {}, bodyFile: null };
    this.getters = {};
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
    var root = el("section", { "class": "dg-pg", "aria-label": "API playground", "data-mode": this.mode });
    var bar = el("div", { "class": "dg-pg-bar" });
    var panelId = idFor("panel");
    this.toggle = el("button", { type: "button", "class": "dg-pg-toggle", "aria-expanded": "false", "aria-controls": panelId }, this.mode === "simple" ? "Build a request" : "Try it");
    bar.appendChild(this.toggle);
    this.urlView = el("code", { "class": "dg-pg-url" });
    bar.appendChild(this.urlView);
    root.appendChild(bar);
    var form = el("form", { "class": "dg-pg-panel", id: panelId, hidden: true, novalidate: true });
    this.panel = form;
    this.toggle.addEventListener("click", function () { self.open(form.hidden); });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); self.send(); });
    form.addEventListener("input", function () { self.changed(); });
    form.addEventListener("change", function () { self.changed(); });
    if (d.servers && d.servers.length) form.appendChild(this.serverSection());
    if (d.security && (d.security.requirements || []).some(function (r) { return Object.keys(r).length; })) form.appendChild(this.authSection());
    LOCS.forEach(function (loc) {
      var params = (d.parameters || []).filter(function (p) { return p["in"] === loc[0]; });
      if (!params.length) return;
      var fs = el("fieldset", { "class": "dg-pg-group" });
      fs.appendChild(el("legend", {}, loc[1]));
      params.forEach(function (p) {
        var key = p["in"] + ":" + p.name;
        var f = fieldRow(key, p.name, p.schema, p.required, p.description, p.name);
        var w = widget(f.id, p.schema, p.name, NS.initialValue(p, d.prefill), function () { self.changed(); });
        f.finish(w);
        self.getters[key] = w.get;
        fs.appendChild(f.row);
      });
      if (loc[0] === "cookie") fs.appendChild(el("p", { "class": "dg-pg-hint" }, "Browsers send cookies only to the docs site's own host, or through the proxy."));
      form.appendChild(fs);
    });
    if (d.body && d.body.contents && d.body.contents.length) form.appendChild(this.bodySection());
    var actions = el("div", { "class": "dg-pg-actions" });
    if (this.mode === "interactive") {
      this.sendButton = el("button", { type: "submit", "class": "dg-pg-send" }, "Send");
      this.cancelButton = el("button", { type: "button", "class": "dg-pg-cancel", hidden: true }, "Cancel");
      this.cancelButton.addEventListener("click", function () { if (self.abort) self.abort.abort(); });
      actions.appendChild(this.sendButton);
      actions.appendChild(this.cancelButton);
    } else {
      actions.appendChild(el("p", { "class": "dg-pg-simple-note" }, d.servers && d.servers.length
        ? "This page shows the request only; it cannot be sent from here."
        : "The API defines no server, so requests cannot be sent from here. Copy a code sample instead."));
    }
    form.appendChild(actions);
    this.errorsBox = el("div", { "class": "dg-pg-errors", role: "status", "aria-live": "polite" });
    form.appendChild(this.errorsBox);
    this.responseBox = el("div", { "class": "dg-pg-response", "aria-live": "polite" });
    form.appendChild(this.responseBox);
    root.appendChild(form);
    var anchor = document.querySelector(".dg-api .dg-api-endpoint");
    if (anchor) anchor.parentNode.insertBefore(root, anchor.nextSibling);
    else (document.querySelector(".dg-prose") || document.body).prepend(root);
    this.root = root;
    this.refresh(false);
    return root;
  };

  Playground.prototype.open = function (yes) {
    this.panel.hidden = !yes;
    this.toggle.setAttribute("aria-expanded", yes ? "true" : "false");
    if (yes) {
      var first = this.panel.querySelector("input, select, textarea, button");
      if (first) first.focus();
    }
  };

  Playground.prototype.serverSection = function () {
    var self = this;
    var d = this.data;
    var fs = el("fieldset", { "class": "dg-pg-group dg-pg-servers" });
    fs.appendChild(el("legend", {}, "Server"));
    var vars = el("div", { "class": "dg-pg-vars" });
    if (d.servers.length > 1) {
      var id = idFor("server");
      var row = el("div", { "class": "dg-pg-field" });
      row.appendChild(el("label", { "for": id, "class": "dg-pg-label" }, "Base URL"));
      var select = el("select", { id: id, "class": "dg-pg-server" });
      d.servers.forEach(function (s, i) { select.appendChild(el("option", { value: String(i) }, s.url + (s.description ? " \u2014 " + s.description : ""))); });
      select.addEventListener("change", function () { self.st.serverIndex = Number(select.value); self.st.serverVars = {}; drawVars(); });
      row.appendChild(select);
      fs.appendChild(row);
    } else {
      fs.appendChild(el("p", { "class": "dg-pg-server-one" }, d.servers[0].url));
    }
    function drawVars() {
      vars.textContent = "";
      var s = d.servers[self.st.serverIndex] || {};
      Object.keys(s.variables || {}).forEach(function (name) {
        var v = s.variables[name];
        var f = fieldRow("server:" + name, name, { type: "string", "enum": v["enum"] }, false, v.description);
        var w = widget(f.id, { type: "string", "enum": v["enum"] }, name, v["default"], function () {
          self.st.serverVars[name] = w.get();
          self.changed();
        });
        f.finish(w);
        vars.appendChild(f.row);
      });
    }
    drawVars();
    fs.appendChild(vars);
    if (this.proxy) {
      var pid = idFor("proxy");
      var prow = el("div", { "class": "dg-pg-check" });
      this.proxyBox = el("input", { type: "checkbox", id: pid, checked: true });
      prow.appendChild(this.proxyBox);
      prow.appendChild(el("label", { "for": pid }, "Send through the docs proxy (avoids CORS)"));
      fs.appendChild(prow);
    }
    return fs;
  };

  Playground.prototype.authSection = function () {
    var self = this;
    var sec = this.data.security;
    var reqs = (sec.requirements || []).filter(function (r) { return Object.keys(r).length; });
    var fs = el("fieldset", { "class": "dg-pg-group dg-pg-auth" });
    fs.appendChild(el("legend", {}, "Authorization"));
    var fields = el("div", {});
    if (reqs.length > 1 || sec.optional) {
      var id = idFor("auth");
      var row = el("div", { "class": "dg-pg-field" });
      row.appendChild(el("label", { "for": id, "class": "dg-pg-label" }, "Method"));
      var select = el("select", { id: id, "class": "dg-pg-auth-choice" });
      reqs.forEach(function (r, i) { select.appendChild(el("option", { value: String(i) }, Object.keys(r).join(" + "))); });
      if (sec.optional) select.appendChild(el("option", { value: "-1" }, "None"));
      select.addEventListener("change", function () { self.st.authIndex = Number(select.value); draw(); self.changed(); });
      row.appendChild(select);
      fs.appendChild(row);
    }
    function input(scheme, part, label, type, initial) {
      var key = scheme + ":" + part;
      var f = fieldRow("auth:" + scheme, label, { type: "string" }, !sec.optional, "");
      var stored = store(key);
      var value = stored !== null && stored !== undefined ? stored : initial !== undefined ? String(initial) : "";
      var inp = el("input", { id: f.id, type: type, autocomplete: "off", spellcheck: "false", "data-auth": key });
      inp.value = value;
      var c = self.st.auth[scheme] = self.st.auth[scheme] || {};
      c[part] = value;
      inp.addEventListener("input", function () { c[part] = inp.value; store(key, inp.value); });
      f.finish({ node: inp, control: inp });
      fields.appendChild(f.row);
    }
    function draw() {
      fields.textContent = "";
      var req = reqs[self.st.authIndex];
      if (!req) return;
      Object.keys(req).forEach(function (name) {
        var s = sec.schemes[name];
        if (!s) return;
        if (s.kind === "basic") {
          input(name, "username", "Username", "text");
          input(name, "password", "Password", "password");
        } else if (s.kind === "apiKey") {
          input(name, "token", s.name + " (" + s["in"] + ")", "password", s["x-default"]);
          if (s["in"] === "cookie") fields.appendChild(el("p", { "class": "dg-pg-hint" }, "Browsers send this cookie only to the docs site's own host, or through the proxy."));
        } else if (s.kind === "http") {
          input(name, "token", "Authorization", "password", s["x-default"]);
        } else {
          input(name, "token", (s.kind === "bearer" ? "Bearer token" : "Access token") + " (" + name + ")", "password", s["x-default"]);
        }
      });
    }
    draw();
    fs.appendChild(fields);
    fs.appendChild(el("p", { "class": "dg-pg-hint" }, "Credentials stay in this browser tab (session storage) and are sent only to the API."));
    return fs;
  };

  Playground.prototype.bodySection = function () {
    var self = this;
    var body = this.data.body;
    var fs = el("fieldset", { "class": "dg-pg-group dg-pg-bodyset" });
    fs.appendChild(el("legend", {}, "Body" + (body.required ? " (required)" : "")));
    var editor = el("div", { "class": "dg-pg-editor" });
    if (body.contents.length > 1) {
      var id = idFor("ctype");
      var row = el("div", { "class": "dg-pg-field" });
      row.appendChild(el("label", { "for": id, "class": "dg-pg-label" }, "Content type"));
      var select = el("select", { id: id, "class": "dg-pg-ctype" });
      body.contents.forEach(function (c, i) { select.appendChild(el("option", { value: String(i) }, c.contentType)); });
      select.addEventListener("change", function () { self.st.bodyIndex = Number(select.value); draw(); self.changed(); });
      row.appendChild(select);
      fs.appendChild(row);
    }
    function draw() {
      editor.textContent = "";
      self.bodyGetters = {};
      self.bodyArea = null;
      self.bodyFileInput = null;
      var c = body.contents[self.st.bodyIndex] || body.contents[0];
      if (c.kind === "json" || c.kind === "text") {
        var aid = idFor("body");
        editor.appendChild(el("label", { "for": aid, "class": "dg-pg-label" }, c.contentType));
        var area = el("textarea", { id: aid, "class": "dg-pg-body-text", rows: 10, spellcheck: "false", "aria-describedby": aid + "-status" });
        var ex = c.example;
        if (c.kind === "json") ex = NS.applyXDefaults(ex === undefined || ex === null ? (NS.typeOf(c.schema) === "object" ? {} : null) : JSON.parse(JSON.stringify(ex)), c.schema);
        area.value = c.kind === "json" ? (ex === null || ex === undefined ? "" : JSON.stringify(ex, null, 2)) : (ex === undefined || ex === null ? "" : typeof ex === "string" ? ex : JSON.stringify(ex));
        area.addEventListener("keydown", function (ev) {
          if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); self.send(); }
        });
        editor.appendChild(area);
        self.bodyStatus = el("p", { "class": "dg-pg-body-status", id: aid + "-status", "aria-live": "polite" });
        editor.appendChild(self.bodyStatus);
        self.bodyArea = area;
      } else if (c.kind === "binary") {
        var fid = idFor("file");
        editor.appendChild(el("label", { "for": fid, "class": "dg-pg-label" }, "File (" + c.contentType + ")"));
        self.bodyFileInput = el("input", { type: "file", id: fid });
        editor.appendChild(self.bodyFileInput);
      } else {
        var schema = c.schema || {};
        var props = schema.properties || {};
        var example = c.example && typeof c.example === "object" ? c.example : {};
        Object.keys(props).forEach(function (name) {
          var sub = props[name];
          var req = (schema.required || []).indexOf(name) >= 0;
          var f = fieldRow("body:" + name, name, sub, req, "", name);
          var init = sub["x-default"] !== undefined ? sub["x-default"] : self.data.prefill && !isBinary(sub) ? example[name] : undefined;
          var w = widget(f.id, sub, name, init, function () { self.changed(); });
          f.finish(w);
          self.bodyGetters[name] = w.get;
          editor.appendChild(f.row);
        });
      }
    }
    draw();
    fs.appendChild(editor);
    return fs;
  };

  /** Update the URL preview, validation messages and the aside's code samples from the inputs. */
  Playground.prototype.refresh = function (showAll) {
    var built = this.collect();
    this.built = built;
    this.urlView.textContent = built.method + " " + built.shownUrl;
    this.showErrors(built.errors, showAll);
    this.updateSamples(built.sample);
    return built;
  };

  Playground.prototype.showErrors = function (errors, showAll) {
    var panel = this.panel;
    var self = this;
    panel.querySelectorAll(".dg-pg-field").forEach(function (row) {
      var key = row.getAttribute("data-field");
      var mine = errors.filter(function (e) { return e.field === key && (showAll || e.message !== "is required"); });
      var err = row.querySelector(".dg-pg-field-error");
      var control = row.querySelector("input, select, textarea");
      if (!err) return;
      err.hidden = !mine.length;
      err.textContent = mine.map(function (e) { return (e.path && e.path !== key.split(":").pop() ? e.path + " " : "") + e.message; }).join("; ");
      if (control) {
        if (mine.length) control.setAttribute("aria-invalid", "true");
        else control.removeAttribute("aria-invalid");
      }
    });
    if (this.bodyStatus) {
      var be = errors.filter(function (e) { return e.field === "body" && (showAll || e.message !== "is required"); });
      this.bodyStatus.textContent = be.length ? be.map(function (e) { return (e.path === "body" ? "Body" : e.path) + " " + e.message; }).join("\n") : (self.bodyArea && self.bodyArea.value.trim() ? "Valid JSON for this schema." : "");
      this.bodyStatus.className = "dg-pg-body-status" + (be.length ? " dg-pg-invalid" : " dg-pg-valid");
      if (this.bodyArea) {
        if (be.length) this.bodyArea.setAttribute("aria-invalid", "true");
        else this.bodyArea.removeAttribute("aria-invalid");
      }
    }
  };

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
      if (code.textContent !== text) code.textContent = text;
      panel.setAttribute("data-live", "true");
    });
  };

  Playground.prototype.send = function () {
    var self = this;
    if (this.mode !== "interactive" || this.busy) return;
    var built = this.refresh(true);
    if (built.errors.length) {
      this.errorsBox.textContent = "";
      this.errorsBox.appendChild(el("p", { "class": "dg-pg-error-title" }, "Fix " + built.errors.length + " field" + (built.errors.length > 1 ? "s" : "") + " before sending:"));
      var ul = el("ul");
      built.errors.forEach(function (e) { ul.appendChild(el("li", {}, e.path + " " + e.message)); });
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
    this.sendButton.textContent = "Sending\u2026";
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
      self.sendButton.textContent = "Send";
      self.cancelButton.hidden = true;
      self.responseBox.removeAttribute("aria-busy");
      self.root.setAttribute("data-state", "done");
    };
    fetch(NS.proxied(useProxy ? this.proxy : "", target), init).then(function (res) {
      return res.arrayBuffer().then(function (bytes) {
        var headers = [];
        res.headers.forEach(function (v, k) { headers.push([k, v]); });
        NS.renderResponse(self.responseBox, { status: res.status, statusText: res.statusText, headers: headers,
          contentType: res.headers.get("content-type") || "", bytes: bytes, ms: performance.now() - started, proxied: useProxy }, self.urls);
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
  // Deferred scripts run before DOMContentLoaded: wait for it so every playground-*.js module is present.
  function boot() { highlightTarget(); start(); }
  window.addEventListener("hashchange", highlightTarget);
  if (document.readyState === "complete") boot();
  else document.addEventListener("DOMContentLoaded", boot);
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
