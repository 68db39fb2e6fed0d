/* AsyncAPI channel pages: a WebSocket console. Connect to a server URL of the channel, send messages built from
   the message schemas' examples, watch the stream of messages both ways, disconnect. Mount point and data:
   <div class="dg-ws" data-ws="{urls, messages}"> (docsgen/openapi/asyncapi_render.py). Nothing else is fetched. */
(function () {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  var MAX_LOG = 500; // messages kept on screen
  var uid = 0;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "class") e.className = attrs[k];
      else if (attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function row(label, control) {
    var id = "dg-ws-" + (++uid);
    control.id = id;
    var r = el("div", { "class": "dg-ws-row" });
    r.appendChild(el("label", { "for": id, "class": "dg-ws-label" }, label));
    r.appendChild(control);
    return r;
  }

  function pretty(text) {
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; }
  }

  function Console(mount, data) {
    var self = this;
    this.socket = null;
    var box = el("section", { "class": "dg-ws-console", "aria-label": T("ws_console", "WebSocket console") });
    box.appendChild(el("h2", { "class": "dg-ws-title" }, T("ws_console", "WebSocket console")));
    var url = el("input", { type: "url", "class": "dg-ws-url", autocomplete: "off", spellcheck: "false" });
    url.value = data.urls[0] || "";
    var connect = el("button", { type: "button", "class": "dg-ws-connect" }, T("connect", "Connect"));
    var urlRow = row(T("server_url", "Server URL"), url);
    urlRow.appendChild(connect);
    if (data.urls.length > 1) {
      var choice = el("select", { "class": "dg-ws-server" });
      data.urls.forEach(function (u) { choice.appendChild(el("option", { value: u }, u)); });
      choice.addEventListener("change", function () { url.value = choice.value; });
      box.appendChild(row(T("server", "Server"), choice));
    }
    box.appendChild(urlRow);
    var state = el("p", { "class": "dg-ws-state", role: "status", "aria-live": "polite" }, T("not_connected", "Not connected."));
    box.appendChild(state);
    var text = el("textarea", { "class": "dg-ws-message", rows: 6, spellcheck: "false" });
    var messages = data.messages || [];
    if (messages.length > 1) {
      var pick = el("select", { "class": "dg-ws-pick" });
      messages.forEach(function (m, i) { pick.appendChild(el("option", { value: String(i) }, m.label || m.name)); });
      pick.addEventListener("change", function () { text.value = messages[Number(pick.value)].example || ""; });
      box.appendChild(row(T("message", "Message"), pick));
    }
    text.value = messages.length ? messages[0].example || "" : "";
    box.appendChild(row(T("message_to_send", "Message to send"), text));
    var actions = el("div", { "class": "dg-ws-actions" });
    var send = el("button", { type: "button", "class": "dg-ws-send", disabled: true }, T("send", "Send"));
    var clear = el("button", { type: "button", "class": "dg-ws-clear" }, T("clear", "Clear"));
    actions.appendChild(send);
    actions.appendChild(clear);
    box.appendChild(actions);
    var log = el("ol", { "class": "dg-ws-log", "aria-label": T("messages", "Messages"), "aria-live": "polite" });
    box.appendChild(log);
    mount.appendChild(box);

    function entry(kind, body) {
      var li = el("li", { "class": "dg-ws-entry", "data-kind": kind });
      li.appendChild(el("span", { "class": "dg-ws-dir" }, { sent: "\u2191 " + T("ws_sent", "sent"), received: "\u2193 " + T("ws_received", "received"), info: "\u2022" }[kind]));
      li.appendChild(el("time", {}, new Date().toLocaleTimeString()));
      li.appendChild(el("pre", { "class": "dg-ws-body" }, body));
      log.appendChild(li);
      while (log.children.length > MAX_LOG) log.removeChild(log.firstChild);
      li.scrollIntoView({ block: "nearest" });
    }
    function connected(yes) {
      connect.textContent = yes ? T("disconnect", "Disconnect") : T("connect", "Connect");
      send.disabled = !yes;
      url.disabled = yes;
      box.setAttribute("data-state", yes ? "open" : "closed");
    }
    connect.addEventListener("click", function () {
      if (self.socket) { self.socket.close(1000, "closed by the reader"); return; }
      var ws;
      try { ws = new WebSocket(url.value.trim()); } catch (e) { state.textContent = T("cannot_connect", "Cannot connect: {error}", { error: e.message }); return; }
      self.socket = ws;
      state.textContent = T("connecting", "Connecting to {url}\u2026", { url: url.value.trim() });
      connect.textContent = T("disconnect", "Disconnect");
      ws.addEventListener("open", function () { connected(true); state.textContent = T("connected_to", "Connected to {url}", { url: ws.url }); entry("info", T("ws_connected", "connected")); });
      ws.addEventListener("message", function (ev) {
        if (typeof ev.data === "string") entry("received", pretty(ev.data));
        else entry("received", T("ws_binary", "(binary message, {n} bytes)", { n: ev.data.size || ev.data.byteLength || 0 }));
      });
      ws.addEventListener("error", function () { state.textContent = T("ws_failed", "The connection failed (the browser gives no detail: check the URL and that the server is up)."); });
      ws.addEventListener("close", function (ev) {
        self.socket = null;
        connected(false);
        state.textContent = ev.reason ? T("disconnected_reason", "Disconnected (code {code}: {reason}).", { code: ev.code, reason: ev.reason })
          : T("disconnected", "Disconnected (code {code}).", { code: ev.code });
        entry("info", T("ws_disconnected", "disconnected, code {code}", { code: ev.code }));
      });
    });
    send.addEventListener("click", function () {
      if (!self.socket || self.socket.readyState !== WebSocket.OPEN) return;
      self.socket.send(text.value);
      entry("sent", pretty(text.value));
    });
    clear.addEventListener("click", function () { log.textContent = ""; });
  }

  function start() {
    document.querySelectorAll(".dg-ws[data-ws]").forEach(function (mount) {
      var data;
      try { data = JSON.parse(mount.getAttribute("data-ws")); } catch (e) { return; }
      if (!data || !Array.isArray(data.urls) || !data.urls.length) return;
      new Console(mount, data);
    });
    document.documentElement.setAttribute("data-ws-console", "ready");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
