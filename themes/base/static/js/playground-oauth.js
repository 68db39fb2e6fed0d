/* API playground: OAuth 2.0 flows of a security scheme. Authorization code with PKCE: the authorize URL opens in a
   pop-up, the authorization server redirects to the site's _static/oauth-callback.html, which hands the code back
   (postMessage to the opener, or a BroadcastChannel when the server cut the opener); the code is exchanged at
   the token URL. Client credentials: one token request. Token requests go through the `docsgen dev` proxy when
   there is one (authorization servers rarely answer CORS), directly otherwise. The token stays in this tab. */
(function (NS) {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)
  var ui = NS.ui;
  var el = ui.el, idFor = ui.idFor, store = ui.store;
  var FLOWS = { authorizationCode: T("oauth_code_flow", "Authorization code (PKCE)"), clientCredentials: T("oauth_client_flow", "Client credentials") };
  var CHANNEL = "docsgen-oauth";

  function b64url(bytes) {
    var bin = "";
    new Uint8Array(bytes).forEach(function (b) { bin += String.fromCharCode(b); });
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function random(n) {
    var a = new Uint8Array(n);
    crypto.getRandomValues(a);
    return b64url(a);
  }

  /** The PKCE pair: {verifier, challenge, method} (S256; "plain" only where WebCrypto is missing: plain http). */
  function pkce() {
    var verifier = random(48);
    if (!(window.crypto && crypto.subtle)) return Promise.resolve({ verifier: verifier, challenge: verifier, method: "plain" });
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)).then(function (hash) {
      return { verifier: verifier, challenge: b64url(hash), method: "S256" };
    });
  }

  /** The site's callback page, next to the theme's scripts: <root>_static/oauth-callback.html. */
  function redirectUri() {
    var script = document.querySelector('script[src*="js/playground-oauth.js"]');
    var base = script ? script.src : location.href;
    var url = new URL("../oauth-callback.html", base);
    url.search = "";
    url.hash = "";
    return url.href;
  }

  function absolute(url, pg) {
    var base = (pg.built && pg.built.base) || location.href;
    try { return new URL(url, /^https?:/i.test(base) ? base.replace(/\/?$/, "/") : location.href).href; } catch (e) { return url; }
  }

  /** client_secret_basic (RFC 6749 2.3.1): id and secret form-urlencoded, then base64. */
  function basic(id, secret) {
    var form = function (s) { return encodeURIComponent(s).replace(/%20/g, "+"); };
    var pair = form(id) + ":" + form(secret);
    return "Basic " + btoa(unescape(encodeURIComponent(pair)));
  }

  /** POST the token request (form-encoded); resolve the parsed JSON answer or reject with a readable message. */
  function tokenRequest(pg, tokenUrl, params, id, secret) {
    var headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" });
    if (secret) headers.set("Authorization", basic(id, secret));
    else params.set("client_id", id);
    var useProxy = !!(pg.proxy && (!pg.proxyBox || pg.proxyBox.checked));
    var target = absolute(tokenUrl, pg);
    return fetch(NS.proxied(useProxy ? pg.proxy : "", target), { method: "POST", headers: headers, body: params.toString() })
      .then(function (res) {
        return res.text().then(function (text) {
          var data = null;
          try { data = JSON.parse(text); } catch (e) { data = null; }
          if (!res.ok || !data || !data.access_token) {
            var why = data && (data.error_description || data.error || data.message) || text.slice(0, 200) || res.statusText;
            throw new Error(T("token_answered", "The token request answered {status}: {reason}", { status: res.status, reason: why }));
          }
          return data;
        });
      }, function (err) {
        throw new Error(T("token_failed", "The token request to {url} failed ({error}).", { url: target, error: err && err.message || err }) +
          (useProxy ? "" : " " + T("token_cors", "The authorization server may not allow CORS: use `docsgen dev`, whose proxy sends it.")));
      });
  }

  /** Wait for the callback page's message with this state: resolve {code} or reject with the server's error. */
  function waitForCode(state, popup) {
    return new Promise(function (resolve, reject) {
      var channel = typeof BroadcastChannel !== "undefined" ? new BroadcastChannel(CHANNEL) : null;
      var timer = setInterval(function () {
        if (popup && popup.closed) { finish(); reject(new Error(T("signin_closed", "The sign-in window was closed before it finished."))); }
      }, 700);
      function finish() {
        clearInterval(timer);
        window.removeEventListener("message", onMessage);
        if (channel) channel.close();
      }
      function take(data) {
        if (!data || data.type !== CHANNEL || data.state !== state) return;
        finish();
        if (data.error) reject(new Error(T("auth_server_error", "The authorization server answered {error}.", { error: data.error + (data.error_description ? ": " + data.error_description : "") })));
        else if (data.code) resolve(data);
        else reject(new Error(T("no_code", "The callback carried no code.")));
      }
      function onMessage(ev) { if (ev.origin === location.origin) take(ev.data); }
      window.addEventListener("message", onMessage);
      if (channel) channel.onmessage = function (ev) { take(ev.data); };
    });
  }

  /** The OAuth box under an oauth2 scheme's token input; null when the scheme has no supported flow. */
  function box(pg, name, scheme, wanted) {
    var flows = Object.keys(scheme.flows || {}).filter(function (f) { return FLOWS[f] && scheme.flows[f].tokenUrl; });
    if (!flows.length) return null;
    var fs = el("fieldset", { "class": "dg-pg-oauth", "data-scheme": name });
    fs.appendChild(el("legend", {}, "OAuth 2.0"));
    var flowIndex = 0;
    var body = el("div", {});
    var status = el("p", { "class": "dg-pg-hint dg-pg-oauth-status", role: "status", "aria-live": "polite" });
    if (flows.length > 1) {
      var fid = idFor("flow");
      var row = el("div", { "class": "dg-pg-field" });
      row.appendChild(el("label", { "for": fid, "class": "dg-pg-label" }, T("oauth_flow", "Flow")));
      var select = el("select", { id: fid, "class": "dg-pg-oauth-flow" });
      flows.forEach(function (f, i) { select.appendChild(el("option", { value: String(i) }, FLOWS[f])); });
      select.addEventListener("change", function (ev) { ev.stopPropagation(); flowIndex = Number(select.value); draw(); });
      row.appendChild(select);
      fs.appendChild(row);
    }
    function text(part, label, type) {
      var f = ui.fieldRow("oauth:" + name + ":" + part, label, { type: "string" }, part === "clientId", "");
      var input = el("input", { id: f.id, type: type, autocomplete: "off", spellcheck: "false", "data-oauth": part });
      input.value = store(name + ":" + part) || "";
      input.addEventListener("input", function (ev) { ev.stopPropagation(); store(name + ":" + part, input.value); });
      f.finish({ node: input, control: input });
      body.appendChild(f.row);
      return input;
    }
    function draw() {
      body.textContent = "";
      var kind = flows[flowIndex];
      var flow = scheme.flows[kind];
      var id = text("clientId", T("client_id", "Client ID"), "text");
      var secret = text("clientSecret", kind === "clientCredentials" ? T("client_secret", "Client secret") : T("client_secret_optional", "Client secret (if the client has one)"), "password");
      var scopes = Object.keys(flow.scopes || {});
      var boxes = [];
      if (scopes.length) {
        var group = el("fieldset", { "class": "dg-pg-scopes" });
        group.appendChild(el("legend", {}, T("scopes", "Scopes")));
        scopes.forEach(function (scope) {
          var sid = idFor("scope");
          var line = el("div", { "class": "dg-pg-check" });
          var cb = el("input", { type: "checkbox", id: sid, value: scope, checked: wanted.indexOf(scope) >= 0 });
          cb.addEventListener("change", function (ev) { ev.stopPropagation(); });
          line.appendChild(cb);
          var lab = el("label", { "for": sid });
          lab.appendChild(el("code", {}, scope));
          if (flow.scopes[scope]) lab.appendChild(document.createTextNode(" \u2014 " + flow.scopes[scope]));
          line.appendChild(lab);
          group.appendChild(line);
          boxes.push(cb);
        });
        body.appendChild(group);
      }
      var go = el("button", { type: "button", "class": "dg-pg-send dg-pg-oauth-go" }, kind === "clientCredentials" ? T("get_token", "Get token") : T("authorize", "Authorize"));
      go.addEventListener("click", function () {
        var chosen = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }).join(" ");
        if (!id.value.trim()) { status.textContent = T("client_id_first", "Enter the client ID first."); id.focus(); return; }
        go.disabled = true;
        status.textContent = kind === "clientCredentials" ? T("requesting_token", "Requesting a token\u2026") : T("waiting_signin", "Waiting for the sign-in window\u2026");
        var got = kind === "clientCredentials" ? clientCredentials(pg, flow, id.value.trim(), secret.value, chosen) : authorizationCode(pg, flow, id.value.trim(), secret.value, chosen);
        got.then(function (data) {
          var input = pg.panel.querySelector('[data-auth="' + CSS.escape(name + ":token") + '"]');
          if (input) {
            input.value = data.access_token;
            input.dispatchEvent(new Event("input", { bubbles: true }));
          }
          status.textContent = [T("token_received", "Token received."),
            data.expires_in ? T("token_valid_for", "Valid for {n} s.", { n: data.expires_in }) : "",
            data.scope ? T("token_scopes", "Scopes: {scopes}.", { scopes: data.scope }) : "",
            T("token_tab_only", "It is kept in this tab only.")].filter(Boolean).join(" ");
          fs.setAttribute("data-state", "token");
        }, function (err) {
          status.textContent = T("no_token", "No token: {error}", { error: err && err.message || err });
          fs.setAttribute("data-state", "error");
        }).then(function () { go.disabled = false; });
      });
      body.appendChild(go);
    }
    draw();
    fs.appendChild(body);
    fs.appendChild(status);
    return fs;
  }

  function clientCredentials(pg, flow, id, secret, scope) {
    var params = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope) params.set("scope", scope);
    return tokenRequest(pg, flow.tokenUrl, params, id, secret);
  }

  function authorizationCode(pg, flow, id, secret, scope) {
    var state = random(24);
    var redirect = redirectUri();
    // The window opens now, in the click's user activation; its address follows once the PKCE hash is ready.
    var popup = window.open("about:blank", "dg-oauth-" + state, "popup=yes,width=520,height=680");
    if (!popup) return Promise.reject(new Error(T("popup_blocked", "The browser blocked the sign-in window: allow pop-ups for this site.")));
    return pkce().then(function (p) {
      var url = new URL(absolute(flow.authorizationUrl || "", pg));
      if (url.protocol !== "https:" && url.protocol !== "http:") { // spec text: never a javascript: URL
        popup.close();
        throw new Error(T("bad_auth_url", "The authorizationUrl is not an http(s) URL: {protocol}", { protocol: url.protocol }));
      }
      var q = url.searchParams;
      q.set("response_type", "code");
      q.set("client_id", id);
      q.set("redirect_uri", redirect);
      if (scope) q.set("scope", scope);
      q.set("state", state);
      q.set("code_challenge", p.challenge);
      q.set("code_challenge_method", p.method);
      var waiting = waitForCode(state, popup);
      popup.location.href = url.href;
      return waiting.then(function (answer) {
        var params = new URLSearchParams({ grant_type: "authorization_code", code: answer.code, redirect_uri: redirect, code_verifier: p.verifier });
        return tokenRequest(pg, flow.tokenUrl, params, id, secret);
      });
    });
  }

  NS.oauth = { box: box, pkce: pkce, redirectUri: redirectUri };
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
