/* API playground, pure logic: initial values, coercion, validation, and building the request from the form state.
   No DOM access here, so the browser unit tests can call every function directly (window.DocsgenPlayground). */
(function (NS) {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  /* A validation problem: `key` names the message in the string table; `message` is in the page's language. */
  function problem(path, key, en, vars) { return { path: path, key: key, message: T(key, en, vars) }; }

  var PLACEHOLDERS = { bearer: "<token>", oauth2: "<token>", openIdConnect: "<token>", basic: "<encoded-value>",
    apiKey: "<api-key>", http: "<credentials>" };
  var SAFE = /%(2F|7B|7D|3C|3E|5B|5D|2C|3A|40|21|24|27|28|29|2A)/gi; // Python's quote(safe="/{}<>[],:@!$'()*")

  function isEmpty(v) {
    return v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
  }

  function typeOf(schema) {
    var t = schema && schema.type;
    if (Array.isArray(t)) t = t.filter(function (x) { return x !== "null"; })[0] || "any";
    return t || "any";
  }

  function deepEqual(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  /** The value a field starts with: x-default always, then (with docs.json prefill) example or default. */
  function initialValue(entry, prefill) {
    var schema = (entry && entry.schema) || entry || {};
    if (entry && entry["x-default"] !== undefined) return entry["x-default"];
    if (schema["x-default"] !== undefined) return schema["x-default"];
    if (prefill) {
      if (entry && entry.example !== undefined) return entry.example;
      if (entry && entry["default"] !== undefined) return entry["default"];
      if (schema["default"] !== undefined) return schema["default"];
    }
    return undefined;
  }

  /* Mintlify's apiPlaygroundInputs from the signed-in reader's user data (docsgen server's gate puts it in
     window.docsgenUser): {server, header, query, cookie, path}, each keyed by name (header names in any case). */
  function userInput(loc, name) {
    var u = window.docsgenUser && window.docsgenUser.apiPlaygroundInputs;
    var box = u && typeof u === "object" ? u[loc] : null;
    if (!box || typeof box !== "object") return undefined;
    if (Object.prototype.hasOwnProperty.call(box, name)) return box[name];
    if (loc === "header") {
      var lower = String(name).toLowerCase();
      var hit = Object.keys(box).filter(function (k) { return k.toLowerCase() === lower; })[0];
      if (hit !== undefined) return box[hit];
    }
    return undefined;
  }

  /* A prefilled field the reader changed keeps their value in this browser (as on Mintlify): read it
     (value omitted; null when none) or write it. */
  var OVERRIDE_KEY = "dg-pg-input:";
  function userOverride(loc, name, value) {
    var key = OVERRIDE_KEY + loc + ":" + name;
    try {
      if (arguments.length < 3) {
        var raw = localStorage.getItem(key);
        return raw === null ? null : JSON.parse(raw);
      }
      if (value === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { return null; }
    return null;
  }

  /** The value a prefilled field starts with: the reader's own change, else their user data; undefined if neither. */
  function userValue(loc, name) {
    var mine = userInput(loc, name);
    if (mine === undefined) return undefined;
    var changed = userOverride(loc, name);
    return changed !== null ? changed : mine;
  }

  /** Put x-default values of a schema's properties into an example object (the schema's `default` is unchanged). */
  function applyXDefaults(value, schema, depth) {
    depth = depth || 0;
    if (!schema || depth > 8) return value;
    if (schema["x-default"] !== undefined) return schema["x-default"];
    if (schema.properties && value && typeof value === "object" && !Array.isArray(value)) {
      Object.keys(schema.properties).forEach(function (k) {
        var sub = schema.properties[k];
        if (sub && sub["x-default"] !== undefined) value[k] = sub["x-default"];
        else if (value[k] !== undefined) value[k] = applyXDefaults(value[k], sub, depth + 1);
      });
    }
    return value;
  }

  /** Turn the text of an input into a typed value (numbers, booleans); anything unparsable stays text. */
  function coerce(text, schema) {
    if (text === undefined || text === null) return undefined;
    if (typeof text !== "string") return text;
    var t = typeOf(schema);
    if (text === "") return "";
    if ((t === "integer" || t === "number") && /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(text)) return Number(text);
    if (t === "boolean" && (text === "true" || text === "false")) return text === "true";
    if ((t === "object" || t === "array") && /^\s*[[{]/.test(text)) {
      try { return JSON.parse(text); } catch (e) { return text; }
    }
    return text;
  }

  function describe(v) { return typeof v === "string" ? JSON.stringify(v) : String(JSON.stringify(v)); }

  /** Append "path: problem" messages for `value` against a playground schema summary. */
  function validate(value, schema, path, out) {
    out = out || [];
    schema = schema || {};
    if (value === undefined) return out;
    var label = path || "value";
    if (value === null) {
      var types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!schema.nullable && types.indexOf("null") < 0 && schema.type !== undefined && schema.type !== "any") {
        out.push(problem(label, "val_not_null", "must not be null"));
      }
      return out;
    }
    var t = typeOf(schema);
    if (schema.enum && !schema.enum.some(function (e) { return deepEqual(e, value); })) {
      out.push(problem(label, "val_one_of", "must be one of {values}", { values: schema.enum.map(describe).join(", ") }));
      return out;
    }
    if (schema.const !== undefined && !deepEqual(schema.const, value)) {
      out.push(problem(label, "val_equal", "must be {value}", { value: describe(schema.const) }));
    }
    var actual = Array.isArray(value) ? "array" : typeof value;
    if (t === "integer" && !(typeof value === "number" && Number.isInteger(value))) {
      out.push(problem(label, "val_integer", "must be an integer"));
      return out;
    }
    if (t === "number" && !(typeof value === "number" && isFinite(value))) {
      out.push(problem(label, "val_number", "must be a number"));
      return out;
    }
    if ((t === "string" || t === "boolean" || t === "array" || t === "object") && actual !== t) {
      if (!(t === "string" && schema.binary)) out.push(t === "string" ? problem(label, "val_string", "must be a string") : t === "boolean" ? problem(label, "val_boolean", "must be a boolean")
        : t === "array" ? problem(label, "val_array", "must be an array") : problem(label, "val_object", "must be an object"));
      return out;
    }
    if (typeof value === "number") {
      if (typeof schema.minimum === "number" && (schema.exclusiveMinimum === true ? value <= schema.minimum : value < schema.minimum)) {
        out.push(schema.exclusiveMinimum === true ? problem(label, "val_gt", "must be greater than {n}", { n: schema.minimum }) : problem(label, "val_min", "must be at least {n}", { n: schema.minimum }));
      }
      if (typeof schema.maximum === "number" && (schema.exclusiveMaximum === true ? value >= schema.maximum : value > schema.maximum)) {
        out.push(schema.exclusiveMaximum === true ? problem(label, "val_lt", "must be less than {n}", { n: schema.maximum }) : problem(label, "val_max", "must be at most {n}", { n: schema.maximum }));
      }
      if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) {
        out.push(problem(label, "val_gt", "must be greater than {n}", { n: schema.exclusiveMinimum }));
      }
      if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) {
        out.push(problem(label, "val_lt", "must be less than {n}", { n: schema.exclusiveMaximum }));
      }
      if (typeof schema.multipleOf === "number" && schema.multipleOf > 0) {
        var q = value / schema.multipleOf;
        if (Math.abs(q - Math.round(q)) > 1e-9) out.push(problem(label, "val_multiple", "must be a multiple of {n}", { n: schema.multipleOf }));
      }
    }
    if (typeof value === "string") {
      if (typeof schema.minLength === "number" && value.length < schema.minLength) {
        out.push(problem(label, "val_min_length", "must be at least {n} characters", { n: schema.minLength }));
      }
      if (typeof schema.maxLength === "number" && value.length > schema.maxLength) {
        out.push(problem(label, "val_max_length", "must be at most {n} characters", { n: schema.maxLength }));
      }
      if (typeof schema.pattern === "string") {
        var re = null;
        try { re = new RegExp(schema.pattern, "u"); } catch (e) { re = null; }
        if (re && !re.test(value)) out.push(problem(label, "val_pattern", "must match {pattern}", { pattern: schema.pattern }));
      }
    }
    if (Array.isArray(value)) {
      if (typeof schema.minItems === "number" && value.length < schema.minItems) {
        out.push(problem(label, "val_min_items", "needs at least {n} items", { n: schema.minItems }));
      }
      if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
        out.push(problem(label, "val_max_items", "allows at most {n} items", { n: schema.maxItems }));
      }
      if (schema.items) value.forEach(function (item, i) { validate(item, schema.items, label + "[" + i + "]", out); });
    }
    if (actual === "object" && !Array.isArray(value)) {
      (schema.required || []).forEach(function (name) {
        if (value[name] === undefined) out.push(problem(path ? path + "." + name : name, "val_required", "is required"));
      });
      var props = schema.properties || {};
      Object.keys(value).forEach(function (k) {
        var sub = props[k] || (schema.additionalProperties && typeof schema.additionalProperties === "object" ? schema.additionalProperties : null);
        if (sub) validate(value[k], sub, path ? path + "." + k : k, out);
      });
    }
    return out;
  }

  /** Parse the JSON body editor's text: {value} or {error, line, column}. */
  function parseJson(text) {
    try {
      return { value: JSON.parse(text) };
    } catch (e) {
      var msg = String(e.message || e);
      var m = /position (\d+)/.exec(msg);
      var out = { error: msg };
      if (m) {
        var before = text.slice(0, Number(m[1])).split("\n");
        out.line = before.length;
        out.column = before[before.length - 1].length + 1;
      }
      return out;
    }
  }

  function serverUrl(server, vars) {
    if (!server) return "";
    var url = String(server.url || "");
    var defs = server.variables || {};
    return url.replace(/\{([^}]+)\}/g, function (all, name) {
      if (vars && !isEmpty(vars[name])) return String(vars[name]);
      if (defs[name] && defs[name]["default"] !== undefined) return String(defs[name]["default"]);
      return all;
    });
  }

  function joinUrl(base, path) {
    if (!base) return path;
    return base.replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "");
  }

  function text(v) { return typeof v === "string" ? v : JSON.stringify(v); }

  function enc(s, loose) {
    var e = encodeURIComponent(String(s));
    return loose ? e.replace(SAFE, function (m) { return decodeURIComponent(m); }) : e;
  }

  /** [[name, value]] pairs of one query parameter, following style/explode (form by default, deepObject). */
  function queryPairs(param, value) {
    var name = param.name;
    var explode = param.explode !== undefined ? param.explode : (param.style || "form") === "form";
    if (Array.isArray(value)) {
      if (explode) return value.map(function (v) { return [name, text(v)]; });
      var sep = param.style === "spaceDelimited" ? " " : param.style === "pipeDelimited" ? "|" : ",";
      return [[name, value.map(text).join(sep)]];
    }
    if (value && typeof value === "object") {
      if (param.style === "deepObject") {
        return Object.keys(value).map(function (k) { return [name + "[" + k + "]", text(value[k])]; });
      }
      if (explode) return Object.keys(value).map(function (k) { return [k, text(value[k])]; });
      return [[name, Object.keys(value).map(function (k) { return k + "," + text(value[k]); }).join(",")]];
    }
    return [[name, text(value)]];
  }

  function simpleText(value) {
    if (Array.isArray(value)) return value.map(text).join(",");
    if (value && typeof value === "object") return Object.keys(value).map(function (k) { return k + "," + text(value[k]); }).join(",");
    return text(value);
  }

  function utf8Base64(s) {
    var bytes = new TextEncoder().encode(s);
    var bin = "";
    bytes.forEach(function (b) { bin += String.fromCharCode(b); });
    return btoa(bin);
  }

  /** The auth fields in force for the chosen requirement alternative: [{scheme, kind, in, name, value, filled}]. */
  function authFields(data, state) {
    var sec = (data && data.security) || {};
    var reqs = (sec.requirements || []).filter(function (r) { return Object.keys(r).length > 0; });
    var index = state.authIndex === undefined ? 0 : state.authIndex;
    if (index < 0 || !reqs[index]) return [];
    var creds = state.auth || {};
    return Object.keys(reqs[index]).filter(function (n) { return sec.schemes && sec.schemes[n]; }).map(function (n) {
      var s = sec.schemes[n];
      var c = creds[n] || {};
      var kind = s.kind || "http";
      var f = { scheme: n, kind: kind, "in": s["in"] || "header", name: s.name || "Authorization", filled: false, value: "" };
      if (kind === "basic") {
        f.filled = !isEmpty(c.username) || !isEmpty(c.password);
        f.value = f.filled ? "Basic " + utf8Base64((c.username || "") + ":" + (c.password || "")) : "Basic " + PLACEHOLDERS.basic;
      } else if (kind === "bearer" || kind === "oauth2" || kind === "openIdConnect") {
        f.filled = !isEmpty(c.token);
        f.value = "Bearer " + (f.filled ? c.token : PLACEHOLDERS[kind]);
      } else {
        f.filled = !isEmpty(c.token);
        f.value = f.filled ? c.token : PLACEHOLDERS[kind] || "<credentials>";
      }
      return f;
    });
  }

  function present(v) { return !isEmpty(v) && !(typeof v === "string" && v.trim() === ""); }

  /**
   * Build the request from the form state.
   * state: {serverIndex, serverVars, values: {"query:name": value}, authIndex, auth: {scheme: {token|username|password}},
   *         bodyIndex, bodyText, bodyFields: {name: value | File | [File]}, bodyFile: File|null}
   * Returns {method, url, headers: [[k, v]], cookies: [[k, v]], body: {...}|null, errors: [{field, path, message}], sample}.
   */
  function buildRequest(data, state) {
    state = state || {};
    var errors = [];
    var values = state.values || {};
    var servers = data.servers || [];
    var server = servers[state.serverIndex || 0];
    var base = server ? serverUrl(server, state.serverVars) : "";
    var path = data.path;
    var query = [];
    var headers = [];
    var cookies = [];
    (data.parameters || []).forEach(function (p) {
      var key = p["in"] + ":" + p.name;
      var value = values[key];
      if (!present(value)) {
        if (p.required) errors.push({ field: key, path: p.name, key: "val_required", message: T("val_required", "is required") });
        if (p["in"] === "path") path = path.split("{" + p.name + "}").join("{" + p.name + "}");
        return;
      }
      validate(value, p.schema || {}, p.name).forEach(function (e) { errors.push({ field: key, path: e.path, key: e.key, message: e.message }); });
      if (p["in"] === "path") path = path.split("{" + p.name + "}").join(enc(simpleText(value)));
      else if (p["in"] === "query") query = query.concat(queryPairs(p, value));
      else if (p["in"] === "header") headers.push([p.name, simpleText(value)]);
      else if (p["in"] === "cookie") cookies.push([p.name, simpleText(value)]);
    });
    var sec = data.security || {};
    var auth = authFields(data, state);
    var authHeaders = [];
    var authQuery = [];
    auth.forEach(function (f) {
      if (!f.filled && !sec.optional && state.authIndex !== -1) {
        errors.push({ field: "auth:" + f.scheme, path: f.scheme, key: "val_required", message: T("val_required", "is required") });
      }
      if (f["in"] === "query") authQuery.push([f.name, f.value]);
      else if (f["in"] === "cookie") cookies.push([f.name, f.value]);
      else authHeaders.push([f.name, f.value]);
    });
    var body = buildBody(data, state, errors);
    var url = joinUrl(base, path);
    var pairs = query.concat(authQuery);
    var realUrl = url + (pairs.length ? "?" + pairs.map(function (q) { return enc(q[0]) + "=" + enc(q[1]); }).join("&") : "");
    var shownUrl = url + (pairs.length ? "?" + pairs.map(function (q) { return enc(q[0], true) + "=" + enc(q[1], true); }).join("&") : "");
    var allHeaders = authHeaders.slice().reverse().concat(headers);
    var sampleHeaders = allHeaders.slice();
    if (cookies.length) sampleHeaders.push(["Cookie", cookies.map(function (c) { return c[0] + "=" + c[1]; }).join("; ")]);
    var sample = { method: data.method, url: shownUrl, headers: sampleHeaders, body_kind: "", content_type: "", json_value: null, text: "", form: [] };
    if (body) {
      sample.body_kind = body.kind;
      sample.content_type = body.kind === "multipart" ? "" : body.contentType;
      if (body.kind === "json") sample.json_value = body.json;
      if (body.kind === "form" || body.kind === "text") sample.text = body.text;
      if (body.kind === "multipart") {
        sample.form = body.form.map(function (f) { return [f[0], f[2] ? fileName(f[1]) : f[1], f[2]]; });
      }
    }
    return { method: data.method, url: realUrl, shownUrl: shownUrl, base: base, headers: allHeaders, cookies: cookies, body: body, errors: errors, sample: sample };
  }

  function fileName(v) { return v && v.name ? v.name : "example-file"; }

  function isFile(v) { return typeof File !== "undefined" && v instanceof Blob; }

  function buildBody(data, state, errors) {
    var spec = data.body;
    if (!spec || !spec.contents || !spec.contents.length) return null;
    var content = spec.contents[state.bodyIndex || 0] || spec.contents[0];
    var kind = content.kind;
    var ctype = content.contentType;
    var schema = content.schema || {};
    if (kind === "json") {
      var t = state.bodyText === undefined ? "" : String(state.bodyText);
      if (!t.trim()) {
        if (spec.required) errors.push({ field: "body", path: "body", key: "val_required", message: T("val_required", "is required") });
        return null;
      }
      var parsed = parseJson(t);
      if (parsed.error) {
        errors.push({ field: "body", path: "body", key: "val_json", message: T("val_json", "is not valid JSON: {error}", { error: parsed.error }) });
        return { kind: "json", contentType: ctype, json: null, text: t };
      }
      validate(parsed.value, schema, "").forEach(function (e) { errors.push({ field: "body", path: e.path || "body", key: e.key, message: e.message }); });
      return { kind: "json", contentType: ctype, json: parsed.value, text: JSON.stringify(parsed.value) };
    }
    if (kind === "form" || kind === "multipart") {
      var fields = state.bodyFields || {};
      var props = schema.properties || {};
      var required = schema.required || [];
      var form = [];
      var any = false;
      Object.keys(props).forEach(function (name) {
        var v = fields[name];
        var sub = props[name] || {};
        var empty = !present(v) || (Array.isArray(v) && v.filter(present).length === 0);
        if (empty) {
          if (required.indexOf(name) >= 0) errors.push({ field: "body:" + name, path: name, key: "val_required", message: T("val_required", "is required") });
          return;
        }
        any = true;
        var list = Array.isArray(v) ? v : [v];
        list.forEach(function (item) {
          if (isFile(item)) { form.push([name, item, true]); return; }
          if (sub.type !== "array") validate(item, sub, name).forEach(function (e) { errors.push({ field: "body:" + name, path: e.path, key: e.key, message: e.message }); });
          form.push([name, text(item), false]);
        });
      });
      if (!any && !spec.required) return null;
      var encoded = form.filter(function (f) { return !f[2]; }).map(function (f) { return enc(f[0]) + "=" + enc(f[1]); }).join("&");
      return { kind: kind, contentType: ctype, form: form, text: encoded };
    }
    if (kind === "binary") {
      if (!state.bodyFile) {
        if (spec.required) errors.push({ field: "body", path: "body", key: "val_file", message: T("val_file", "needs a file") });
        return null;
      }
      return { kind: "binary", contentType: ctype, file: state.bodyFile };
    }
    var raw = state.bodyText === undefined ? "" : String(state.bodyText);
    if (!raw) {
      if (spec.required) errors.push({ field: "body", path: "body", key: "val_required", message: T("val_required", "is required") });
      return null;
    }
    return { kind: "text", contentType: ctype, text: raw };
  }

  /** The fetch() arguments for a built request (FormData/Blob bodies; cookies are handled by the caller). */
  function fetchInit(built) {
    var headers = new Headers();
    built.headers.forEach(function (h) { headers.append(h[0], h[1]); });
    var init = { method: built.method, headers: headers };
    var b = built.body;
    if (b && built.method !== "GET" && built.method !== "HEAD") {
      if (b.kind === "multipart") {
        var fd = new FormData();
        b.form.forEach(function (f) { if (f[2]) fd.append(f[0], f[1], f[1].name || "file"); else fd.append(f[0], f[1]); });
        init.body = fd;
      } else {
        headers.set("Content-Type", b.contentType);
        init.body = b.kind === "binary" ? b.file : b.text;
      }
    }
    return init;
  }

  /** The URL fetch() calls: the target itself, or the docs proxy with the target in `url=`. */
  function proxied(proxy, target) {
    if (!proxy) return target;
    return proxy + (proxy.indexOf("?") >= 0 ? "&" : "?") + "url=" + encodeURIComponent(target);
  }

  /** "1.2 KB" style byte counts. */
  function formatSize(n) {
    if (n < 1024) return n + " B";
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + " KB";
    return (n / 1024 / 1024).toFixed(1) + " MB";
  }

  /** How to show a response body: image, audio, video, json, text or binary. */
  function renderKind(contentType) {
    var ct = String(contentType || "").toLowerCase().split(";")[0].trim();
    if (/^image\//.test(ct)) return "image";
    if (/^audio\//.test(ct)) return "audio";
    if (/^video\//.test(ct)) return "video";
    if (/[/+]json$/.test(ct) || ct === "application/json") return "json";
    if (!ct || /^text\//.test(ct) || /[/+](xml|javascript|x-www-form-urlencoded|yaml|x-yaml|csv|graphql)$/.test(ct)) return "text";
    return "binary";
  }

  NS.PLACEHOLDERS = PLACEHOLDERS;
  NS.isEmpty = isEmpty;
  NS.typeOf = typeOf;
  NS.initialValue = initialValue;
  NS.userInput = userInput;
  NS.userOverride = userOverride;
  NS.userValue = userValue;
  NS.applyXDefaults = applyXDefaults;
  NS.coerce = coerce;
  NS.validate = validate;
  NS.parseJson = parseJson;
  NS.serverUrl = serverUrl;
  NS.joinUrl = joinUrl;
  NS.authFields = authFields;
  NS.buildRequest = buildRequest;
  NS.fetchInit = fetchInit;
  NS.proxied = proxied;
  NS.formatSize = formatSize;
  NS.renderKind = renderKind;
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
