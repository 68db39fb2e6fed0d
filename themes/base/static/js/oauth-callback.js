/* The OAuth 2.0 redirect target of the API playground (_static/oauth-callback.html): hand the authorization
   server's answer (code or error, with its state) to the page that opened the sign-in window, then close.
   Only to this site's own origin: postMessage to the opener, and a BroadcastChannel for when the authorization
   server's Cross-Origin-Opener-Policy cut the opener. The code is useless without the opener's PKCE verifier. */
(function () {
  "use strict";
  var T = (function () { try { if (window.opener && window.opener.dgT) return window.opener.dgT; } catch (e) { /* another origin */ } return function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; })(); // the opener page's words
  document.title = T("signing_in", "Signing in\u2026");
  var params = new URLSearchParams(location.search || location.hash.slice(1));
  var message = { type: "docsgen-oauth" };
  ["code", "state", "error", "error_description"].forEach(function (k) {
    if (params.get(k) !== null) message[k] = params.get(k);
  });
  history.replaceState(null, "", location.pathname); // the code leaves the address bar and the history
  var sent = false;
  try {
    if (window.opener && !window.opener.closed) { window.opener.postMessage(message, location.origin); sent = true; }
  } catch (e) { sent = false; }
  try {
    var channel = new BroadcastChannel("docsgen-oauth");
    channel.postMessage(message);
    channel.close();
    sent = true;
  } catch (e) { /* no BroadcastChannel */ }
  var status = document.getElementById("dg-oauth-status");
  if (status) {
    status.textContent = message.error ? T("callback_error", "The authorization server answered: {error}. You can close this window.", { error: message.error })
      : sent ? T("callback_done", "Signed in. You can close this window.") : T("callback_lost", "Open the API playground page again: this window lost it.");
  }
  if (sent) setTimeout(function () { window.close(); }, 300);
})();
