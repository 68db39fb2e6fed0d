/* API playground, display "auth": who is signed in. The owner's login page hands over a signed JWT (#token=... in
   the URL, or localStorage); it is verified here with WebCrypto against the public key(s) from docs.json
   (api.playground.auth). Nothing is fetched. Only asymmetric algorithms: a shared secret could not stay secret. */
(function (NS) {
  "use strict";
  var ALGS = {
    RS256: { imp: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, ver: { name: "RSASSA-PKCS1-v1_5" }, kty: "RSA" },
    RS384: { imp: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" }, ver: { name: "RSASSA-PKCS1-v1_5" }, kty: "RSA" },
    RS512: { imp: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" }, ver: { name: "RSASSA-PKCS1-v1_5" }, kty: "RSA" },
    PS256: { imp: { name: "RSA-PSS", hash: "SHA-256" }, ver: { name: "RSA-PSS", saltLength: 32 }, kty: "RSA" },
    PS384: { imp: { name: "RSA-PSS", hash: "SHA-384" }, ver: { name: "RSA-PSS", saltLength: 48 }, kty: "RSA" },
    PS512: { imp: { name: "RSA-PSS", hash: "SHA-512" }, ver: { name: "RSA-PSS", saltLength: 64 }, kty: "RSA" },
    ES256: { imp: { name: "ECDSA", namedCurve: "P-256" }, ver: { name: "ECDSA", hash: "SHA-256" }, kty: "EC", crv: "P-256" },
    ES384: { imp: { name: "ECDSA", namedCurve: "P-384" }, ver: { name: "ECDSA", hash: "SHA-384" }, kty: "EC", crv: "P-384" }
  };

  function b64urlBytes(s) {
    s = s.replace(/-/g, "+").replace(/_/g, "/");
    while (s.length % 4) s += "=";
    var bin = atob(s);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  function b64urlJson(s) { return JSON.parse(new TextDecoder().decode(b64urlBytes(s))); }

  /** Take a token handed over in the URL fragment (#token=...), store it, and remove it from the address bar. */
  function takeToken(auth) {
    var param = auth.tokenParam || "token";
    var key = auth.storageKey || "docsgen-auth-token";
    var hash = location.hash.slice(1);
    if (hash.indexOf(param + "=") >= 0) {
      var params = new URLSearchParams(hash);
      var token = params.get(param);
      if (token) {
        try { localStorage.setItem(key, token); } catch (e) { /* storage disabled: use it for this view only */ }
        params["delete"](param);
        var rest = params.toString();
        history.replaceState(null, "", location.pathname + location.search + (rest ? "#" + rest : ""));
        return token;
      }
    }
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }

  function importKey(entry, alg) {
    var a = ALGS[alg];
    if (entry.jwk) {
      if (entry.jwk.kty !== a.kty || (a.crv && entry.jwk.crv !== a.crv)) return Promise.resolve(null);
      if (entry.jwk.alg && entry.jwk.alg !== alg) return Promise.resolve(null);
      return crypto.subtle.importKey("jwk", entry.jwk, a.imp, false, ["verify"]);
    }
    if (entry.kty !== a.kty || (a.crv && entry.crv !== a.crv) || (entry.alg && entry.alg !== alg)) return Promise.resolve(null);
    return crypto.subtle.importKey("spki", b64urlBytes(entry.spki), a.imp, false, ["verify"]);
  }

  /** Resolve to the verified claims of `token`, or null (bad signature, wrong key, expired, wrong issuer...). */
  function verify(token, auth, now) {
    if (!token || !window.crypto || !crypto.subtle) return Promise.resolve(null);
    var parts = String(token).split(".");
    if (parts.length !== 3) return Promise.resolve(null);
    var header, claims;
    try { header = b64urlJson(parts[0]); claims = b64urlJson(parts[1]); } catch (e) { return Promise.resolve(null); }
    var alg = header.alg;
    if (!ALGS[alg]) return Promise.resolve(null);
    var keys = (auth.keys || []).filter(function (k) { return !header.kid || !k.kid || k.kid === header.kid; });
    var data = new TextEncoder().encode(parts[0] + "." + parts[1]);
    var sig = b64urlBytes(parts[2]);
    var t = (now === undefined ? Date.now() / 1000 : now);
    var leeway = 60;
    if (typeof claims.exp === "number" && t > claims.exp + leeway) return Promise.resolve(null);
    if (typeof claims.nbf === "number" && t < claims.nbf - leeway) return Promise.resolve(null);
    if (auth.issuer && claims.iss !== auth.issuer) return Promise.resolve(null);
    if (auth.audience) {
      var aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      if (aud.indexOf(auth.audience) < 0) return Promise.resolve(null);
    }
    return keys.reduce(function (prev, entry) {
      return prev.then(function (ok) {
        if (ok) return ok;
        return importKey(entry, alg).then(function (key) {
          return key ? crypto.subtle.verify(ALGS[alg].ver, key, sig, data) : false;
        }).catch(function () { return false; });
      });
    }, Promise.resolve(false)).then(function (ok) { return ok ? claims : null; });
  }

  /** The reader's groups from the claims (`groupsClaim`, dotted paths allowed; a string or a list). */
  function groupsOf(claims, claim) {
    var v = claims;
    String(claim || "groups").split(".").forEach(function (p) { v = v && typeof v === "object" ? v[p] : undefined; });
    if (typeof v === "string") return v.split(/[\s,]+/).filter(Boolean);
    return Array.isArray(v) ? v.map(String) : [];
  }

  /** Resolve to true when the reader may see the playground of a page with `groups` (empty: any signed-in reader). */
  function allowed(auth, groups) {
    var token = takeToken(auth);
    return verify(token, auth).then(function (claims) {
      if (!claims) return false;
      if (!groups || !groups.length) return true;
      var mine = groupsOf(claims, auth.groupsClaim);
      return groups.some(function (g) { return mine.indexOf(String(g)) >= 0; });
    });
  }

  NS.auth = { verify: verify, allowed: allowed, groupsOf: groupsOf, takeToken: takeToken };
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
