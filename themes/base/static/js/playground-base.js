/* API playground: the form's building blocks (typed inputs, labelled rows, per-tab credential storage). Deferred
   scripts run in the page's (sorted) asset order, so the playground-* modules that sort after this one may use it at once.
   Shared by playground.js and its section modules through window.DocsgenPlayground.ui. */
(function (NS) {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
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
      select.appendChild(el("option", { value: "" }, T("not_set", "\u2014 not set \u2014")));
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
    var add = el("button", { type: "button", "class": "dg-pg-add" }, T("add_item", "Add item"));
    function addRow(value, focus) {
      var row = el("div", { "class": "dg-pg-array-row" });
      var n = rows.length + 1;
      var w = widget(idFor(id + "-item"), schema.items, label + " item " + n, value, onChange);
      w.control.setAttribute("aria-label", label + " item " + n);
      var rm = el("button", { type: "button", "class": "dg-pg-remove", "aria-label": T("remove_item", "Remove {label} item {n}", { label: label, n: n }) }, "\u00d7");
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
      set: function (v) {
        rows.forEach(function (r) { r.row.remove(); });
        rows = [];
        (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).forEach(function (x) { addRow(x, false); });
      }
    };
  }

  /** A labelled row: name, type, required marker, description, the input and an error slot. */
  function fieldRow(key, name, schema, required, description) {
    var id = idFor(key);
    var row = el("div", { "class": "dg-pg-field", "data-field": key });
    var label = el("label", { "for": id, "class": "dg-pg-label" });
    label.appendChild(el("span", { "class": "dg-pg-name" }, name));
    (schema && schema.pre || []).forEach(function (t) { label.appendChild(el("span", { "class": "dg-pg-pill" }, t)); });
    label.appendChild(el("span", { "class": "dg-pg-type" }, typeLabel(schema)));
    (schema && schema.post || []).forEach(function (t) { label.appendChild(el("span", { "class": "dg-pg-pill" }, t)); });
    if (required) label.appendChild(el("span", { "class": "dg-pg-req" }, "required"));
    row.appendChild(label);
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
  NS.ui = { el: el, idFor: idFor, store: store, typeLabel: typeLabel, isBinary: isBinary, widget: widget, fieldRow: fieldRow, proxyUrl: proxyUrl };
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
