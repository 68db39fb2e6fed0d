/* API playground: a JSON body's named examples (a picker) and its field-by-field editor built from the schema,
   kept in sync with the raw JSON text both ways. Keys the form does not know stay in the JSON as written. */
(function (NS) {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  var ui = NS.ui;
  var el = ui.el, idFor = ui.idFor;
  var MAX_DEPTH = 3;

  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

  function clone(v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); }

  /** Inputs for an object schema's properties (nested objects as nested groups): {node, get(), set(obj)}. */
  function objectForm(schema, path, depth, onChange) {
    var box = el("div", { "class": "dg-pg-bodyform-group" });
    var parts = {};
    var props = schema.properties || {};
    var required = schema.required || [];
    Object.keys(props).forEach(function (name) {
      var sub = props[name] || {};
      var key = path ? path + "." + name : name;
      if (NS.typeOf(sub) === "object" && sub.properties && depth < MAX_DEPTH) {
        var fs = el("fieldset", { "class": "dg-pg-bodyform-nested", "data-field": "bodyform:" + key });
        fs.appendChild(el("legend", {}, name + (required.indexOf(name) >= 0 ? " (required)" : "")));
        var inner = objectForm(sub, key, depth + 1, onChange);
        fs.appendChild(inner.node);
        box.appendChild(fs);
        parts[name] = inner;
        return;
      }
      var f = ui.fieldRow("bodyform:" + key, name, sub, required.indexOf(name) >= 0, "");
      var w = ui.widget(f.id, sub, name, undefined, onChange);
      f.finish(w);
      box.appendChild(f.row);
      parts[name] = w;
    });
    return {
      node: box,
      /** The value `base` becomes with the form's fields (keys unknown to the form are kept). */
      merge: function (base) {
        var out = isObject(base) ? clone(base) : {};
        Object.keys(parts).forEach(function (name) {
          var p = parts[name];
          var v = p.merge ? p.merge(out[name]) : p.get();
          if (v === undefined || (p.merge && isObject(v) && !Object.keys(v).length && out[name] === undefined)) delete out[name];
          else out[name] = v;
        });
        return out;
      },
      set: function (obj) {
        Object.keys(parts).forEach(function (name) { parts[name].set(isObject(obj) ? obj[name] : undefined); });
      }
    };
  }

  function tab(label, selected, controls) {
    return el("button", { type: "button", role: "tab", "class": "dg-pg-tab", "aria-selected": selected ? "true" : "false", "aria-controls": controls }, label);
  }

  /** Add the example picker and the Form/JSON switch around the JSON body textarea. */
  function enhance(pg, content, area, editor) {
    var schema = content.schema || {};
    var examples = content.examples || [];
    var label = editor.querySelector("label[for='" + area.id + "']");
    var form = null;
    var status = pg.bodyStatus;
    function parsed() {
      try { return JSON.parse(area.value); } catch (e) { return undefined; }
    }
    if (examples.length > 1) {
      var sid = idFor("example");
      var row = el("div", { "class": "dg-pg-field dg-pg-examples" });
      row.appendChild(el("label", { "for": sid, "class": "dg-pg-label" }, T("example", "Example")));
      var select = el("select", { id: sid, "class": "dg-pg-example-choice" });
      examples.forEach(function (ex, i) { select.appendChild(el("option", { value: String(i) }, ex.label)); });
      select.addEventListener("change", function () {
        var value = clone(examples[Number(select.value)].value);
        value = NS.applyXDefaults(value === undefined || value === null ? {} : value, schema);
        area.value = JSON.stringify(value, null, 2);
        area.dispatchEvent(new Event("input", { bubbles: true }));
      });
      row.appendChild(select);
      editor.insertBefore(row, editor.firstChild);
    }
    if (NS.typeOf(schema) !== "object" || !schema.properties || !Object.keys(schema.properties).length) return;
    var formId = idFor("bodyform");
    var jsonId = area.id;
    var bar = el("div", { role: "tablist", "class": "dg-pg-tabs", "aria-label": T("body_editor", "Body editor") });
    var formTab = tab(T("form", "Form"), false, formId);
    var jsonTab = tab("JSON", true, jsonId);
    bar.appendChild(formTab);
    bar.appendChild(jsonTab);
    form = objectForm(schema, "", 0, function () {
      area.value = JSON.stringify(form.merge(parsed()), null, 2);
      pg.changed();
    });
    var pane = el("div", { id: formId, role: "tabpanel", "class": "dg-pg-bodyform", hidden: true, "aria-label": T("body_fields", "Body fields") });
    pane.appendChild(form.node);
    editor.insertBefore(bar, label || area);
    editor.insertBefore(pane, label || area);
    area.setAttribute("role", "textbox");
    function show(which) {
      var isForm = which === "form";
      if (isForm) { var v = parsed(); if (v !== undefined) form.set(v); }
      pane.hidden = !isForm;
      area.hidden = isForm;
      if (label) label.hidden = isForm;
      formTab.setAttribute("aria-selected", isForm ? "true" : "false");
      jsonTab.setAttribute("aria-selected", isForm ? "false" : "true");
      editor.setAttribute("data-view", which);
    }
    formTab.addEventListener("click", function () { show("form"); });
    jsonTab.addEventListener("click", function () { show("json"); });
    area.addEventListener("input", function () { // JSON -> form, when the text parses
      var v = parsed();
      if (isObject(v)) form.set(v);
    });
    form.set(parsed());
    if (status) editor.appendChild(status); // the validation line stays under whichever view is shown
    show("json");
  }

  NS.bodyEditor = { enhance: enhance, objectForm: objectForm };
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
