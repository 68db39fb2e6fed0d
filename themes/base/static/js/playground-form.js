/* API playground: the form's sections (server, authorization, body). OAuth flows (playground-oauth.js) and the
   body's example picker and field-by-field editor (playground-body.js) plug in where they apply. */
(function (NS) {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  var ui = NS.ui;
  var el = ui.el, idFor = ui.idFor, store = ui.store, widget = ui.widget, fieldRow = ui.fieldRow, isBinary = ui.isBinary;

  function serverSection(self) {
    var d = self.data;
    var fs = el("fieldset", { "class": "dg-pg-group dg-pg-servers" });
    fs.appendChild(el("legend", {}, T("server", "Server")));
    var vars = el("div", { "class": "dg-pg-vars" });
    if (d.servers.length > 1) {
      var id = idFor("server");
      var row = el("div", { "class": "dg-pg-field" });
      row.appendChild(el("label", { "for": id, "class": "dg-pg-label" }, T("base_url", "Base URL")));
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
      self.varWidgets = {};
      var s = d.servers[self.st.serverIndex] || {};
      Object.keys(s.variables || {}).forEach(function (name) {
        var v = s.variables[name];
        var f = fieldRow("server:" + name, name, { type: "string", "enum": v["enum"] }, false, v.description);
        var mine = NS.userValue("server", name); // the signed-in reader's own value (apiPlaygroundInputs)
        var w = widget(f.id, { type: "string", "enum": v["enum"] }, name, mine !== undefined ? String(mine) : v["default"], function () {
          self.st.serverVars[name] = w.get();
          if (mine !== undefined) NS.userOverride("server", name, w.get());
          self.changed();
        });
        if (mine !== undefined && w.get() !== undefined) self.st.serverVars[name] = w.get();
        f.finish(w);
        self.varWidgets[name] = w;
        vars.appendChild(f.row);
      });
    }
    drawVars();
    fs.appendChild(vars);
    if (self.proxy) {
      var pid = idFor("proxy");
      var prow = el("div", { "class": "dg-pg-check" });
      self.proxyBox = el("input", { type: "checkbox", id: pid, checked: true });
      prow.appendChild(self.proxyBox);
      prow.appendChild(el("label", { "for": pid }, T("use_proxy", "Send through the docs proxy (avoids CORS)")));
      fs.appendChild(prow);
    }
    return fs;
  }

  function authSection(self) {
    var sec = self.data.security;
    var reqs = (sec.requirements || []).filter(function (r) { return Object.keys(r).length; });
    var fs = el("fieldset", { "class": "dg-pg-group dg-pg-auth" });
    fs.appendChild(el("legend", {}, T("authorization", "Authorization")));
    var fields = el("div", {});
    if (reqs.length > 1 || sec.optional) {
      var id = idFor("auth");
      var row = el("div", { "class": "dg-pg-field" });
      row.appendChild(el("label", { "for": id, "class": "dg-pg-label" }, T("auth_method", "Method")));
      var select = el("select", { id: id, "class": "dg-pg-auth-choice" });
      reqs.forEach(function (r, i) { select.appendChild(el("option", { value: String(i) }, Object.keys(r).join(" + "))); });
      if (sec.optional) select.appendChild(el("option", { value: "-1" }, T("none", "None")));
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
    /* The signed-in reader's own value (docsgen server's gate: window.docsgenUser.apiPlaygroundInputs, Mintlify's
       user data); a value the reader typed before (session storage) still wins. */
    function prefill(s) {
      var u = window.docsgenUser && window.docsgenUser.apiPlaygroundInputs;
      if (!u || typeof u !== "object") return s["x-default"];
      if (s.kind === "apiKey") {
        var box = u[s["in"]];
        return box && box[s.name] !== undefined ? box[s.name] : s["x-default"];
      }
      var h = u.header && (u.header.Authorization || u.header.authorization);
      if (typeof h !== "string") return s["x-default"];
      return s.kind === "http" ? h : h.replace(/^Bearer\s+/i, "");
    }
    function draw() {
      fields.textContent = "";
      var req = reqs[self.st.authIndex];
      if (!req) return;
      Object.keys(req).forEach(function (name) {
        var s = sec.schemes[name];
        if (!s) return;
        if (s.kind === "basic") {
          input(name, "username", T("username", "Username"), "text");
          input(name, "password", T("password", "Password"), "password");
        } else if (s.kind === "apiKey") {
          input(name, "token", s.name + " (" + s["in"] + ")", "password", prefill(s));
          if (s["in"] === "cookie") fields.appendChild(el("p", { "class": "dg-pg-hint" }, T("cookie_hint", "Browsers send this cookie only to the docs site's own host, or through the proxy.")));
        } else if (s.kind === "http") {
          input(name, "token", T("authorization", "Authorization"), "password", prefill(s));
        } else {
          input(name, "token", (s.kind === "bearer" ? T("bearer_token", "Bearer token") : T("access_token", "Access token")) + " (" + name + ")", "password", prefill(s));
          if (s.kind === "oauth2" && s.flows && NS.oauth) {
            var box = NS.oauth.box(self, name, s, req[name] || []);
            if (box) fields.appendChild(box);
          }
        }
      });
    }
    draw();
    fs.appendChild(fields);
    fs.appendChild(el("p", { "class": "dg-pg-hint" }, T("credentials_hint", "Credentials stay in this browser tab (session storage) and are sent only to the API.")));
    return fs;
  }

  function bodySection(self) {
    var body = self.data.body;
    var fs = el("fieldset", { "class": "dg-pg-group dg-pg-bodyset" });
    fs.appendChild(el("legend", {}, T("body", "Body") + (body.required ? " (" + T("required", "required") + ")" : "")));
    var editor = el("div", { "class": "dg-pg-editor" });
    if (body.contents.length > 1) {
      var id = idFor("ctype");
      var row = el("div", { "class": "dg-pg-field" });
      row.appendChild(el("label", { "for": id, "class": "dg-pg-label" }, T("content_type", "Content type")));
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
        if (c.kind === "json" && NS.bodyEditor) NS.bodyEditor.enhance(self, c, area, editor);
      } else if (c.kind === "binary") {
        var fid = idFor("file");
        editor.appendChild(el("label", { "for": fid, "class": "dg-pg-label" }, T("file_of_type", "File ({type})", { type: c.contentType })));
        self.bodyFileInput = el("input", { type: "file", id: fid });
        editor.appendChild(self.bodyFileInput);
      } else {
        var schema = c.schema || {};
        var props = schema.properties || {};
        var example = c.example && typeof c.example === "object" ? c.example : {};
        Object.keys(props).forEach(function (name) {
          var sub = props[name];
          var req = (schema.required || []).indexOf(name) >= 0;
          var f = fieldRow("body:" + name, name, sub, req, "");
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
  }

  NS.sections = { server: serverSection, auth: authSection, body: bodySection };
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
