/* API playground: request code samples, a line-for-line port of docsgen/openapi/render/samples.py so the samples
   in the page's aside can follow the reader's inputs. A sample request is
   {method, url, headers: [[k, v]], body_kind, content_type, json_value, text, form: [[name, value, isFile]]}. */
(function (NS) {
  "use strict";
  var BOUNDARY = "---011000010111000001101001";

  function dq(s) { return JSON.stringify(String(s)); }
  function sqShell(s) { return "'" + String(s).split("'").join("'\\''") + "'"; }
  function sqPhp(s) { return "'" + String(s).split("\\").join("\\\\").split("'").join("\\'") + "'"; }
  function sqPs(s) { return "'" + String(s).split("'").join("''") + "'"; }
  function dqDollar(s) { return dq(s).split("$").join("\\$"); }
  function pad(n) { return new Array(n + 1).join(" "); }

  /** Python's json.dumps(value) (", " and ": " separators). */
  function dumps(v) {
    if (Array.isArray(v)) return "[" + v.map(dumps).join(", ") + "]";
    if (v && typeof v === "object") return "{" + Object.keys(v).map(function (k) { return dq(k) + ": " + dumps(v[k]); }).join(", ") + "}";
    return JSON.stringify(v === undefined ? null : v);
  }

  function pyrepr(v, indent) {
    indent = indent || 0;
    var p = pad(4 * indent), inner = pad(4 * (indent + 1));
    if (Array.isArray(v)) {
      if (!v.length) return "[]";
      return "[\n" + v.map(function (x) { return inner + pyrepr(x, indent + 1); }).join(",\n") + "\n" + p + "]";
    }
    if (v && typeof v === "object") {
      var keys = Object.keys(v);
      if (!keys.length) return "{}";
      return "{\n" + keys.map(function (k) { return inner + dq(k) + ": " + pyrepr(v[k], indent + 1); }).join(",\n") + "\n" + p + "}";
    }
    if (v === true) return "True";
    if (v === false) return "False";
    if (v === null || v === undefined) return "None";
    if (typeof v === "string") return dq(v);
    return JSON.stringify(v);
  }

  function allHeaders(r) {
    var out = r.headers.slice();
    if (r.body_kind === "multipart") out.push(["Content-Type", "multipart/form-data; boundary=" + BOUNDARY]);
    else if (r.content_type) out.push(["Content-Type", r.content_type]);
    return out;
  }

  function bodyText(r, pretty) {
    if (pretty === undefined) pretty = true;
    if (r.body_kind === "json") return pretty ? JSON.stringify(r.json_value, null, 2) : dumps(r.json_value);
    if (r.body_kind === "multipart") {
      return r.form.map(function (f) {
        var disp = 'form-data; name="' + f[0] + '"' + (f[2] ? '; filename="' + f[1] + '"' : "");
        return "--" + BOUNDARY + "\r\nContent-Disposition: " + disp + "\r\n\r\n" + (f[2] ? "" : f[1]) + "\r\n";
      }).join("") + "--" + BOUNDARY + "--\r\n";
    }
    if (r.body_kind === "binary") return "<binary data>";
    return r.text;
  }

  function ctypeOf(r) {
    var h = allHeaders(r).filter(function (x) { return x[0].toLowerCase() === "content-type"; })[0];
    return h ? h[1] : "";
  }

  function curl(r) {
    var lines = ["curl --request " + r.method, "  --url " + sqShell(r.url)];
    r.headers.forEach(function (h) { lines.push("  --header " + sqShell(h[0] + ": " + h[1])); });
    if (r.body_kind === "multipart") {
      r.form.forEach(function (f) { lines.push("  --form " + sqShell(f[2] ? f[0] + "=@" + f[1] : f[0] + "=" + f[1])); });
    } else if (r.body_kind) {
      if (r.content_type) lines.push("  --header " + sqShell("Content-Type: " + r.content_type));
      if (r.body_kind === "binary") lines.push("  --data-binary @example-file");
      else lines.push("  --data " + sqShell(bodyText(r)));
    }
    return lines.join(" \\\n");
  }

  function python(r) {
    var out = ["import requests", "", "url = " + dq(r.url), ""];
    var args = ["url"];
    var headers = r.headers.slice();
    if (r.body_kind === "json") {
      out.push("payload = " + pyrepr(r.json_value), "");
      args.push("json=payload");
    } else if (r.body_kind === "multipart") {
      var files = r.form.filter(function (f) { return f[2]; });
      var data = {};
      var hasData = false;
      r.form.forEach(function (f) { if (!f[2]) { data[f[0]] = f[1]; hasData = true; } });
      if (files.length) {
        out.push("files = {" + files.map(function (f) { return dq(f[0]) + ": open(" + dq(f[1]) + ', "rb")'; }).join(", ") + "}");
        args.push("files=files");
      }
      if (hasData) { out.push("payload = " + pyrepr(data)); args.push("data=payload"); }
      out.push("");
    } else if (r.body_kind === "binary") {
      headers.push(["Content-Type", r.content_type]);
      out.push('payload = open("example-file", "rb")', "");
      args.push("data=payload");
    } else if (r.body_kind) {
      headers.push(["Content-Type", r.content_type]);
      out.push("payload = " + dq(r.text), "");
      args.push("data=payload");
    }
    if (headers.length) {
      out.push("headers = {" + headers.map(function (h) { return dq(h[0]) + ": " + dq(h[1]); }).join(", ") + "}", "");
      args.push("headers=headers");
    }
    out.push("response = requests.request(" + dq(r.method) + ", " + args.join(", ") + ")", "", "print(response.text)");
    return out.join("\n");
  }

  function jsOptions(r, ts, node) {
    var setup = [];
    var headers = r.headers.slice();
    var body = "";
    if (r.body_kind === "json") {
      headers.push(["Content-Type", r.content_type || "application/json"]);
      body = "JSON.stringify(" + JSON.stringify(r.json_value, null, 2).split("\n").join("\n  ") + ")";
    } else if (r.body_kind === "multipart") {
      setup.push("const form = new FormData();");
      r.form.forEach(function (f) {
        if (f[2] && node) setup.push("form.append(" + dq(f[0]) + ", await fs.openAsBlob(" + dq(f[1]) + "));");
        else if (f[2]) setup.push("form.append(" + dq(f[0]) + ", fileInput.files[0]); // " + f[1]);
        else setup.push("form.append(" + dq(f[0]) + ", " + dq(f[1]) + ");");
      });
      body = "form";
    } else if (r.body_kind === "form") {
      headers.push(["Content-Type", r.content_type]);
      body = "new URLSearchParams(" + dq(r.text) + ")";
    } else if (r.body_kind === "binary") {
      headers.push(["Content-Type", r.content_type]);
      body = node ? 'await fs.openAsBlob("example-file")' : "fileInput.files[0]";
    } else if (r.body_kind) {
      headers.push(["Content-Type", r.content_type]);
      body = dq(r.text);
    }
    var lines = ["  method: " + dq(r.method)];
    if (headers.length) lines.push("  headers: {" + headers.map(function (h) { return dq(h[0]) + ": " + dq(h[1]); }).join(", ") + "}");
    if (body) lines.push("  body: " + body);
    var decl = ts ? "const options: RequestInit = {" : "const options = {";
    return [setup, decl + "\n" + lines.join(",\n") + "\n};"];
  }

  function javascript(r) {
    var o = jsOptions(r, false, false);
    return o[0].concat(o[0].length ? [""] : [], [o[1], "", "fetch(" + dq(r.url) + ", options)",
      "  .then(response => response.json())", "  .then(response => console.log(response))",
      "  .catch(err => console.error(err));"]).join("\n");
  }

  function nodeLike(r, ts) {
    var o = jsOptions(r, ts, true);
    var head = (o[1] + o[0].join("")).indexOf("fs.") >= 0 ? ['import fs from "node:fs";', ""] : [];
    return head.concat(["const url = " + dq(r.url) + ";"], o[0], [o[1], "", "try {",
      "  const response = await fetch(url, options);", "  const data = await response.json();",
      "  console.log(data);", "} catch (error) {", "  console.error(error);", "}"]).join("\n");
  }

  function php(r) {
    var opts = ["  CURLOPT_URL => " + sqPhp(r.url) + ",", "  CURLOPT_RETURNTRANSFER => true,",
      "  CURLOPT_CUSTOMREQUEST => " + sqPhp(r.method) + ","];
    if (r.body_kind === "binary") opts.push("  CURLOPT_POSTFIELDS => file_get_contents('example-file'),");
    else if (r.body_kind) opts.push("  CURLOPT_POSTFIELDS => " + sqPhp(bodyText(r)) + ",");
    var headers = allHeaders(r);
    if (headers.length) {
      opts.push("  CURLOPT_HTTPHEADER => [");
      headers.forEach(function (h) { opts.push("    " + sqPhp(h[0] + ": " + h[1]) + ","); });
      opts.push("  ],");
    }
    return ["<?php", "", "$curl = curl_init();", "", "curl_setopt_array($curl, ["].concat(opts, ["]);", "",
      "$response = curl_exec($curl);", "$err = curl_error($curl);", "", "curl_close($curl);", "",
      "if ($err) {", '  echo "cURL Error #:" . $err;', "} else {", "  echo $response;", "}"]).join("\n");
  }

  function go(r) {
    var imports = ["fmt", "net/http", "io"];
    var bodyLines = [];
    var payload = "nil";
    if (r.body_kind === "binary") {
      imports.push("os");
      bodyLines = ['\tpayload, _ := os.Open("example-file")', ""];
      payload = "payload";
    } else if (r.body_kind) {
      imports.push("strings");
      var t = bodyText(r);
      bodyLines = ["\tpayload := strings.NewReader(" + (t.indexOf("`") < 0 ? "`" + t + "`" : dq(t)) + ")", ""];
      payload = "payload";
    }
    var headers = allHeaders(r).map(function (h) { return "\treq.Header.Add(" + dq(h[0]) + ", " + dq(h[1]) + ")"; });
    return ["package main", "", "import ("].concat(imports.sort().map(function (i) { return '\t"' + i + '"'; }),
      [")", "", "func main() {", "", "\turl := " + dq(r.url), ""], bodyLines,
      ["\treq, _ := http.NewRequest(" + dq(r.method) + ", url, " + payload + ")", ""], headers,
      headers.length ? [""] : [], ["\tres, _ := http.DefaultClient.Do(req)", "", "\tdefer res.Body.Close()",
        "\tbody, _ := io.ReadAll(res.Body)", "", "\tfmt.Println(string(body))", "", "}"]).join("\n");
  }

  function javaText(t) {
    if (t.indexOf("\n") >= 0 && t.indexOf('"""') < 0 && t.indexOf("\\") < 0) return '"""\n' + t + '"""';
    return dq(t);
  }

  function java(r) {
    var pub = r.body_kind === "binary" ? 'HttpRequest.BodyPublishers.ofFile(Path.of("example-file"))'
      : r.body_kind ? "HttpRequest.BodyPublishers.ofString(" + javaText(bodyText(r)) + ")"
        : "HttpRequest.BodyPublishers.noBody()";
    return ["HttpRequest request = HttpRequest.newBuilder()", "    .uri(URI.create(" + dq(r.url) + "))"].concat(
      allHeaders(r).map(function (h) { return "    .header(" + dq(h[0]) + ", " + dq(h[1]) + ")"; }),
      ["    .method(" + dq(r.method) + ", " + pub + ")", "    .build();",
        "HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());",
        "System.out.println(response.body());"]).join("\n");
  }

  var RUBY = { GET: "Get", POST: "Post", PUT: "Put", PATCH: "Patch", DELETE: "Delete", HEAD: "Head", OPTIONS: "Options", TRACE: "Trace" };

  function ruby(r) {
    var out = ["require 'uri'", "require 'net/http'", "", "url = URI(" + sqPhp(r.url) + ")", "",
      "http = Net::HTTP.new(url.host, url.port)", "http.use_ssl = true", "",
      "request = Net::HTTP::" + (RUBY[r.method] || "Get") + ".new(url)"];
    allHeaders(r).forEach(function (h) { out.push("request[" + sqPhp(h[0]) + "] = " + sqPhp(h[1])); });
    if (r.body_kind === "binary") out.push("request.body = File.binread('example-file')");
    else if (r.body_kind) out.push("request.body = " + sqPhp(bodyText(r)));
    out.push("", "response = http.request(request)", "puts response.read_body");
    return out.join("\n");
  }

  function powershell(r) {
    var out = [];
    var headers = allHeaders(r).filter(function (h) { return h[0].toLowerCase() !== "content-type"; });
    if (headers.length) {
      out.push("$headers=@{}");
      headers.forEach(function (h) { out.push("$headers.Add(" + sqPs(h[0]) + ", " + sqPs(h[1]) + ")"); });
    }
    var cmd = "$response = Invoke-WebRequest -Uri " + sqPs(r.url) + " -Method " + r.method;
    if (headers.length) cmd += " -Headers $headers";
    var ct = ctypeOf(r);
    if (ct) cmd += " -ContentType " + sqPs(ct);
    if (r.body_kind === "binary") cmd += " -InFile 'example-file'";
    else if (r.body_kind) { out.push("$body = " + sqPs(bodyText(r))); cmd += " -Body $body"; }
    out.push(cmd);
    return out.join("\n");
  }

  function swift(r) {
    var out = ["import Foundation", "", "let url = URL(string: " + dq(r.url) + ")!", "var request = URLRequest(url: url)",
      "request.httpMethod = " + dq(r.method)];
    var headers = allHeaders(r);
    if (headers.length) out.push("request.allHTTPHeaderFields = [" + headers.map(function (h) { return dq(h[0]) + ": " + dq(h[1]); }).join(", ") + "]");
    if (r.body_kind === "binary") out.push('request.httpBody = try Data(contentsOf: URL(fileURLWithPath: "example-file"))');
    else if (r.body_kind) out.push("request.httpBody = " + dq(bodyText(r)) + ".data(using: .utf8)");
    out.push("", "let (data, _) = try await URLSession.shared.data(for: request)", "print(String(decoding: data, as: UTF8.self))");
    return out.join("\n");
  }

  function csVerbatim(t) { return '@"' + t.split('"').join('""') + '"'; }

  function csharp(r) {
    var ct = ctypeOf(r);
    var out = ["using System.Net.Http.Headers;", "", "var client = new HttpClient();", "var request = new HttpRequestMessage", "{",
      "    Method = new HttpMethod(" + dq(r.method) + "),", "    RequestUri = new Uri(" + dq(r.url) + "),"];
    if (r.headers.length) {
      out.push("    Headers =", "    {");
      r.headers.forEach(function (h) { out.push("        { " + dq(h[0]) + ", " + dq(h[1]) + " },"); });
      out.push("    },");
    }
    var content = r.body_kind === "binary" ? 'new ByteArrayContent(File.ReadAllBytes("example-file"))'
      : r.body_kind ? "new StringContent(" + csVerbatim(bodyText(r)) + ")" : "";
    if (content) {
      var header = ct ? "{ Headers = { ContentType = MediaTypeHeaderValue.Parse(" + dq(ct) + ") } }" : "";
      out.push("    Content = " + content + (header ? " " + header : "") + ",");
    }
    out.push("};", "using (var response = await client.SendAsync(request))", "{", "    response.EnsureSuccessStatusCode();",
      "    var body = await response.Content.ReadAsStringAsync();", "    Console.WriteLine(body);", "}");
    return out.join("\n");
  }

  function capitalize(s) { return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase(); }

  function dotnet(r) {
    var out = ["using RestSharp;", "", "var options = new RestClientOptions(" + dq(r.url) + ");", "var client = new RestClient(options);",
      'var request = new RestRequest("", Method.' + capitalize(r.method) + ");"];
    r.headers.forEach(function (h) { out.push("request.AddHeader(" + dq(h[0]) + ", " + dq(h[1]) + ");"); });
    if (r.body_kind === "binary") out.push('request.AddFile("file", "example-file");');
    else if (r.body_kind) out.push("request.AddStringBody(" + csVerbatim(bodyText(r)) + ", " + dq(ctypeOf(r)) + ");");
    out.push("var response = await client.ExecuteAsync(request);", "", 'Console.WriteLine("{0}", response.Content);');
    return out.join("\n");
  }

  function c(r) {
    var out = ["CURL *hnd = curl_easy_init();", "", "curl_easy_setopt(hnd, CURLOPT_CUSTOMREQUEST, " + dq(r.method) + ");",
      "curl_easy_setopt(hnd, CURLOPT_URL, " + dq(r.url) + ");", ""];
    var headers = allHeaders(r);
    if (headers.length) {
      out.push("struct curl_slist *headers = NULL;");
      headers.forEach(function (h) { out.push("headers = curl_slist_append(headers, " + dq(h[0] + ": " + h[1]) + ");"); });
      out.push("curl_easy_setopt(hnd, CURLOPT_HTTPHEADER, headers);", "");
    }
    if (r.body_kind) out.push("curl_easy_setopt(hnd, CURLOPT_POSTFIELDS, " + dq(bodyText(r, false)) + ");", "");
    out.push("CURLcode ret = curl_easy_perform(hnd);");
    return out.join("\n");
  }

  function cpp(r) {
    var args = ["cpr::Url{" + dq(r.url) + "}"];
    var headers = allHeaders(r);
    if (headers.length) args.push("cpr::Header{" + headers.map(function (h) { return "{" + dq(h[0]) + ", " + dq(h[1]) + "}"; }).join(", ") + "}");
    if (r.body_kind) args.push("cpr::Body{" + dq(bodyText(r, false)) + "}");
    return ["#include <cpr/cpr.h>", "#include <iostream>", "", "int main() {",
      "    cpr::Response r = cpr::" + capitalize(r.method) + "(" + args.join(",\n        ") + ");",
      "    std::cout << r.text << std::endl;", "}"].join("\n");
  }

  function kotlin(r) {
    var out = ["val client = OkHttpClient()", ""];
    var body = "null";
    if (r.body_kind) {
      out.push("val mediaType = " + dqDollar(ctypeOf(r)) + ".toMediaType()");
      if (r.body_kind === "binary") out.push('val body = File("example-file").asRequestBody(mediaType)');
      else out.push("val body = " + dqDollar(bodyText(r)) + ".toRequestBody(mediaType)");
      body = "body";
    }
    out.push("val request = Request.Builder()", "  .url(" + dqDollar(r.url) + ")", "  .method(" + dq(r.method) + ", " + body + ")");
    r.headers.forEach(function (h) { out.push("  .addHeader(" + dqDollar(h[0]) + ", " + dqDollar(h[1]) + ")"); });
    out.push("  .build()", "", "val response = client.newCall(request).execute()");
    return out.join("\n");
  }

  function rustRaw(t) {
    var hashes = "#";
    while (t.indexOf('"' + hashes) >= 0) hashes += "#";
    return "r" + hashes + '"' + t + '"' + hashes;
  }

  function rust(r) {
    var known = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE"];
    var m = r.method.toUpperCase();
    var methodExpr = known.indexOf(m) >= 0 ? "reqwest::Method::" + m : "reqwest::Method::from_bytes(b" + dq(r.method) + ").unwrap()";
    var out = ["#[tokio::main]", "pub async fn main() {", "    let url = " + dq(r.url) + ";"];
    if (r.body_kind === "binary") out.push('    let payload = std::fs::read("example-file").unwrap();');
    else if (r.body_kind) out.push("    let payload = " + rustRaw(bodyText(r)) + ";");
    out.push("", "    let client = reqwest::Client::new();", "    let response = client.request(" + methodExpr + ", url)");
    allHeaders(r).forEach(function (h) { out.push("        .header(" + dq(h[0]) + ", " + dq(h[1]) + ")"); });
    if (r.body_kind) out.push("        .body(payload)");
    out.push("        .send()", "        .await;", "", "    let results = response.unwrap().text().await.unwrap();", "    dbg!(results);", "}");
    return out.join("\n");
  }

  function dart(r) {
    var out = ["import 'package:http/http.dart' as http;", "", "void main() async {"];
    var headers = allHeaders(r);
    if (headers.length) out.push("  final headers = {" + headers.map(function (h) { return dqDollar(h[0]) + ": " + dqDollar(h[1]); }).join(", ") + "};");
    out.push("  final request = http.Request(" + dq(r.method) + ", Uri.parse(" + dqDollar(r.url) + "));");
    if (headers.length) out.push("  request.headers.addAll(headers);");
    if (r.body_kind === "binary") {
      out.unshift("import 'dart:io';");
      out.push("  request.bodyBytes = await File('example-file').readAsBytes();");
    } else if (r.body_kind) out.push("  request.body = " + dqDollar(bodyText(r)) + ";");
    out.push("", "  final response = await request.send();", "  print(await response.stream.bytesToString());", "}");
    return out.join("\n");
  }

  NS.samples = {
    bash: curl, python: python, javascript: javascript, node: function (r) { return nodeLike(r, false); },
    typescript: function (r) { return nodeLike(r, true); }, php: php, go: go, java: java, ruby: ruby,
    powershell: powershell, swift: swift, csharp: csharp, dotnet: dotnet, c: c, cpp: cpp, kotlin: kotlin,
    rust: rust, dart: dart
  };
  NS.sampleBody = bodyText;
})(window.DocsgenPlayground = window.DocsgenPlayground || {});
