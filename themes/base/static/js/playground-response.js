/* API playground: showing a response (by Content-Type) and explaining failed requests. */
(function (NS) {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  var SHOWN = 50000; // characters rendered before "Show all": big bodies stay responsive
  var HIGHLIGHT_LIMIT = 400000; // larger JSON is shown without colouring

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /** JSON text as DOM nodes with token classes (strings, keys, numbers, literals); no innerHTML. */
  function highlightJson(text, into) {
    var re = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
    var last = 0;
    var m;
    var frag = document.createDocumentFragment();
    while ((m = re.exec(text))) {
      if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
      var cls = m[1] ? (m[2] ? "dg-pg-key" : "dg-pg-str") : m[3] ? "dg-pg-lit" : "dg-pg-num";
      frag.appendChild(el("span", cls, m[1] || m[0]));
      if (m[2]) frag.appendChild(document.createTextNode(m[2]));
      last = re.lastIndex;
    }
    if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
    into.appendChild(frag);
  }

  function copyButton(getText) {
    var b = el("button", "dg-pg-copy", T("copy", "Copy"));
    b.type = "button";
    b.addEventListener("click", function () {
      if (!navigator.clipboard) return;
      navigator.clipboard.writeText(getText()).then(function () {
        b.textContent = T("copied", "Copied");
        setTimeout(function () { b.textContent = T("copy", "Copy"); }, 1500);
      }, function () { b.textContent = T("copy_failed", "Copy failed"); });
    });
    return b;
  }

  /** A code block with copy button; long text is cut at SHOWN characters with a "Show all" button. */
  function codeBlock(text, lang) {
    var wrap = el("div", "dg-pg-codewrap");
    var pre = el("pre", "dg-pg-code");
    var code = el("code", lang ? "language-" + lang : "");
    pre.appendChild(code);
    pre.tabIndex = 0;
    function fill(all) {
      code.textContent = "";
      var shown = all ? text : text.slice(0, SHOWN);
      if (lang === "json" && shown.length <= HIGHLIGHT_LIMIT) highlightJson(shown, code);
      else code.textContent = shown;
    }
    fill(false);
    wrap.appendChild(copyButton(function () { return text; }));
    wrap.appendChild(pre);
    if (text.length > SHOWN) {
      var note = el("p", "dg-pg-truncated");
      note.appendChild(document.createTextNode(T("showing_chars", "Showing {shown} of {total} characters.", { shown: SHOWN.toLocaleString(document.documentElement.lang || "en"), total: text.length.toLocaleString(document.documentElement.lang || "en") }) + " "));
      var more = el("button", "dg-pg-more", T("show_all", "Show all"));
      more.type = "button";
      more.addEventListener("click", function () { fill(true); note.remove(); });
      note.appendChild(more);
      wrap.appendChild(note);
    }
    return wrap;
  }

  function media(kind, blob, urls) {
    var url = URL.createObjectURL(blob);
    urls.push(url);
    var node;
    if (kind === "image") {
      node = el("img", "dg-pg-image");
      node.alt = T("response_image", "Response image ({type})", { type: blob.type || "image" });
    } else {
      node = el(kind, "dg-pg-" + kind);
      node.controls = true;
    }
    node.src = url;
    return node;
  }

  /**
   * Render a finished fetch into `box`.
   * res: {status, statusText, headers: [[k, v]], contentType, bytes: ArrayBuffer, ms, proxied}
   */
  function renderResponse(box, res, urls) {
    box.textContent = "";
    var ok = res.status >= 200 && res.status < 300;
    var head = el("div", "dg-pg-status-line");
    var status = el("span", "dg-pg-status " + (ok ? "dg-pg-ok" : res.status >= 400 ? "dg-pg-bad" : "dg-pg-other"),
      res.status + (res.statusText ? " " + res.statusText : ""));
    status.setAttribute("data-status", String(res.status));
    head.appendChild(status);
    head.appendChild(el("span", "dg-pg-time", Math.round(res.ms) + " ms"));
    head.appendChild(el("span", "dg-pg-size", NS.formatSize(res.bytes.byteLength)));
    if (res.proxied) head.appendChild(el("span", "dg-pg-via", T("via_proxy", "via proxy")));
    box.appendChild(head);
    var details = el("details", "dg-pg-headers");
    details.appendChild(el("summary", "", T("headers", "Headers") + " (" + res.headers.length + ")"));
    var table = el("table");
    res.headers.forEach(function (h) {
      var tr = el("tr");
      tr.appendChild(el("th", "", h[0]));
      tr.appendChild(el("td", "", h[1]));
      table.appendChild(tr);
    });
    details.appendChild(table);
    if (!res.proxied) details.appendChild(el("p", "dg-pg-hint", T("exposed_headers", "Browsers only show the headers the API exposes with Access-Control-Expose-Headers.")));
    box.appendChild(details);
    var kind = NS.renderKind(res.contentType);
    var body = el("div", "dg-pg-body");
    body.setAttribute("data-kind", kind);
    if (!res.bytes.byteLength) {
      body.appendChild(el("p", "dg-pg-empty", T("no_response_body", "No response body.")));
    } else if (kind === "image" || kind === "audio" || kind === "video") {
      body.appendChild(media(kind, new Blob([res.bytes], { type: res.contentType }), urls));
    } else if (kind === "json" || kind === "text") {
      var text = new TextDecoder().decode(res.bytes);
      if (kind === "json") {
        try { text = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { kind = "text"; }
      }
      body.setAttribute("data-kind", kind);
      body.appendChild(codeBlock(text, kind === "json" ? "json" : ""));
    } else {
      var url = URL.createObjectURL(new Blob([res.bytes], { type: res.contentType }));
      urls.push(url);
      var p = el("p", "dg-pg-binary", T("binary_response", "Binary response ({type}, {size}).", { type: res.contentType || T("unknown_type", "unknown type"), size: NS.formatSize(res.bytes.byteLength) }) + " ");
      var a = el("a", "", T("download", "Download"));
      a.href = url;
      a.download = "response";
      p.appendChild(a);
      body.appendChild(p);
    }
    box.appendChild(body);
  }

  /** Explain a fetch() that failed without a response: CORS, an unreachable server, mixed content, a timeout. */
  function explainFailure(box, info) {
    box.textContent = "";
    var wrap = el("div", "dg-pg-error");
    wrap.setAttribute("role", "alert");
    var title;
    var lines = [];
    if (info.aborted) {
      title = T("request_cancelled", "The request was cancelled.");
    } else if (info.mixed) {
      title = T("mixed_title", "Blocked: this page is served over HTTPS and the API URL is plain HTTP.");
      lines.push(T("mixed_hint", "Browsers refuse such mixed-content requests. Use an https:// server or the proxy."));
    } else if (info.cut) {
      title = T("cut_title", "The answer broke off (HTTP {status}): only part of it arrived.", { status: info.status });
      lines.push(info.limit ? T("cut_limit", "The docs proxy passes on at most {mb} MB of an answer and cut this one there, or the API stopped sending before its end.", { mb: Math.round(info.limit / 1048576) })
        : T("cut_api", "The API stopped sending before the end of its answer."));
    } else if (info.reachable === true) {
      title = T("cors_title", "The API answered, but the browser hid the response (CORS).");
      lines.push(T("cors_origin", "The server at {origin} did not allow requests from {page}.", { origin: info.origin, page: location.origin }));
      lines.push(T("cors_preflight", "It must answer the OPTIONS preflight and send Access-Control-Allow-Origin (and Access-Control-Allow-Headers for the headers this request sets)."));
      lines.push(info.proxyAvailable ? T("cors_tick_proxy", "Tick \u201c{option}\u201d to send it from the docs server instead.", { option: T("use_proxy", "Send through the docs proxy (avoids CORS)") })
        : T("cors_proxy_hint", "A CORS proxy (docs.json api.playground.proxy with the docs server) avoids this."));
    } else {
      title = T("unreachable_title", "Could not reach {origin}.", { origin: info.origin || T("the_server", "the server") });
      lines.push(T("unreachable_hint", "The connection failed: the server may be down, refused the connection, the host name may be wrong, or a certificate is not trusted."));
      lines.push(T("unreachable_cors", "If the server is up, a CORS rejection looks the same to the page: the browser console shows the real reason."));
    }
    wrap.appendChild(el("p", "dg-pg-error-title", title));
    lines.forEach(function (l) { wrap.appendChild(el("p", "", l)); });
    if (info.message) wrap.appendChild(el("p", "dg-pg-error-raw", T("browser_message", "Browser message: {message}", { message: info.message })));
    box.appendChild(wrap);
  }

  NS.highlightJson = highlightJson;
  NS.codeBlock = codeBlock;
  NS.copyButton = copyButton;
  NS.renderResponse = renderResponse;
  NS.explainFailure = explainFailure;
  NS.SHOWN = SHOWN;
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
