"""Request code samples in the docs.json languages, from one language-neutral description of the request."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

BOUNDARY = "---011000010111000001101001"


@dataclass
class SampleRequest:
    """What every generator needs: method, full URL, headers and the body in a few shapes."""

    method: str
    url: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    body_kind: str = ""  # "" | "json" | "form" | "multipart" | "binary" | "text"
    content_type: str = ""
    json_value: Any = None  # for "json"
    text: str = ""  # "form": urlencoded string; "text": the raw text
    form: list[tuple[str, str, bool]] = field(default_factory=list)  # multipart (name, value, is_file)

    def all_headers(self) -> list[tuple[str, str]]:
        """Headers including the Content-Type of the body (multipart with its boundary)."""
        out = list(self.headers)
        if self.body_kind == "multipart":
            out.append(("Content-Type", f"multipart/form-data; boundary={BOUNDARY}"))
        elif self.content_type:
            out.append(("Content-Type", self.content_type))
        return out

    def body_text(self, pretty: bool = True) -> str:
        """The body as one string (multipart spelled out with its boundary; files as placeholders)."""
        if self.body_kind == "json":
            return json.dumps(self.json_value, indent=2 if pretty else None, ensure_ascii=False)
        if self.body_kind == "multipart":
            parts = []
            for name, value, is_file in self.form:
                disp = f'form-data; name="{name}"' + (f'; filename="{value}"' if is_file else "")
                parts.append(
                    f"--{BOUNDARY}\r\nContent-Disposition: {disp}\r\n\r\n{'' if is_file else value}\r\n"
                )
            return "".join(parts) + f"--{BOUNDARY}--\r\n"
        if self.body_kind == "binary":
            return "<binary data>"
        return self.text


# -- string literals ---------------------------------------------------------------------------------------
def dq(text: str) -> str:
    """A double-quoted string literal understood by C-like languages (JSON escaping)."""
    return json.dumps(text, ensure_ascii=False)


def sq_shell(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def sq_php(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def sq_ps(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def dq_dollar(text: str) -> str:
    """Kotlin/Dart double-quoted literal: `$` starts interpolation there."""
    return dq(text).replace("$", "\\$")


def pyrepr(value: Any, indent: int = 0) -> str:
    """A Python literal for a JSON value (True/False/None), indented like json.dumps."""
    pad, inner = "    " * indent, "    " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{dq(str(k))}: {pyrepr(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(f"{inner}{pyrepr(v, indent + 1)}" for v in value) + f"\n{pad}]"
    if value is True:
        return "True"
    if value is False:
        return "False"
    if value is None:
        return "None"
    if isinstance(value, str):
        return dq(value)
    return json.dumps(value)


def _indent(text: str, pad: str) -> str:
    return text.replace("\n", "\n" + pad)


# -- generators --------------------------------------------------------------------------------------------
def curl(r: SampleRequest) -> str:
    lines = [f"curl --request {r.method}", f"  --url {sq_shell(r.url)}"]
    for name, value in r.headers:
        lines.append(f"  --header {sq_shell(f'{name}: {value}')}")
    if r.body_kind == "multipart":
        for name, value, is_file in r.form:
            lines.append(f"  --form {sq_shell(f'{name}=@{value}' if is_file else f'{name}={value}')}")
    elif r.body_kind:
        if r.content_type:
            lines.append(f"  --header {sq_shell('Content-Type: ' + r.content_type)}")
        if r.body_kind == "binary":
            lines.append("  --data-binary @example-file")
        else:
            lines.append(f"  --data {sq_shell(r.body_text())}")
    return " \\\n".join(lines)


def python(r: SampleRequest) -> str:
    out = ["import requests", "", f"url = {dq(r.url)}", ""]
    args = ["url"]
    headers = list(r.headers)
    if r.body_kind == "json":
        out += [f"payload = {pyrepr(r.json_value)}", ""]
        args.append("json=payload")
    elif r.body_kind == "multipart":
        files = [(n, v) for n, v, f in r.form if f]
        data = {n: v for n, v, f in r.form if not f}
        if files:
            out.append("files = {" + ", ".join(f'{dq(n)}: open({dq(v)}, "rb")' for n, v in files) + "}")
            args.append("files=files")
        if data:
            out.append(f"payload = {pyrepr(data)}")
            args.append("data=payload")
        out.append("")
    elif r.body_kind == "binary":
        headers.append(("Content-Type", r.content_type))
        out += ['payload = open("example-file", "rb")', ""]
        args.append("data=payload")
    elif r.body_kind:
        headers.append(("Content-Type", r.content_type))
        out += [f"payload = {dq(r.text)}", ""]
        args.append("data=payload")
    if headers:
        out += ["headers = {" + ", ".join(f"{dq(k)}: {dq(v)}" for k, v in headers) + "}", ""]
        args.append("headers=headers")
    out += [f"response = requests.request({dq(r.method)}, {', '.join(args)})", "", "print(response.text)"]
    return "\n".join(out)


def _js_options(r: SampleRequest, ts: bool = False, node: bool = False) -> tuple[list[str], str]:
    """The `options` object of fetch() and any set-up lines (FormData...)."""
    setup: list[str] = []
    headers = list(r.headers)
    body = ""
    if r.body_kind == "json":
        headers.append(("Content-Type", r.content_type or "application/json"))
        body = f"JSON.stringify({_indent(json.dumps(r.json_value, indent=2, ensure_ascii=False), '  ')})"
    elif r.body_kind == "multipart":
        setup.append("const form = new FormData();")
        for name, value, is_file in r.form:
            if is_file and node:
                setup.append(f"form.append({dq(name)}, await fs.openAsBlob({dq(value)}));")
            elif is_file:
                setup.append(f"form.append({dq(name)}, fileInput.files[0]); // {value}")
            else:
                setup.append(f"form.append({dq(name)}, {dq(value)});")
        body = "form"
    elif r.body_kind == "form":
        headers.append(("Content-Type", r.content_type))
        body = f"new URLSearchParams({dq(r.text)})"
    elif r.body_kind == "binary":
        headers.append(("Content-Type", r.content_type))
        body = 'await fs.openAsBlob("example-file")' if node else "fileInput.files[0]"
    elif r.body_kind:
        headers.append(("Content-Type", r.content_type))
        body = dq(r.text)
    lines = [f"  method: {dq(r.method)}"]
    if headers:
        lines.append("  headers: {" + ", ".join(f"{dq(k)}: {dq(v)}" for k, v in headers) + "}")
    if body:
        lines.append(f"  body: {body}")
    decl = "const options: RequestInit = {" if ts else "const options = {"
    return setup, decl + "\n" + ",\n".join(lines) + "\n};"


def javascript(r: SampleRequest) -> str:
    setup, options = _js_options(r)
    return "\n".join(
        [
            *setup,
            *([""] if setup else []),
            options,
            "",
            f"fetch({dq(r.url)}, options)",
            "  .then(response => response.json())",
            "  .then(response => console.log(response))",
            "  .catch(err => console.error(err));",
        ]
    )


def _node_like(r: SampleRequest, ts: bool) -> str:
    setup, options = _js_options(r, ts=ts, node=True)
    head = ['import fs from "node:fs";', ""] if "fs." in options + "".join(setup) else []
    return "\n".join(
        [
            *head,
            f"const url = {dq(r.url)};",
            *setup,
            options,
            "",
            "try {",
            "  const response = await fetch(url, options);",
            "  const data = await response.json();",
            "  console.log(data);",
            "} catch (error) {",
            "  console.error(error);",
            "}",
        ]
    )


def node(r: SampleRequest) -> str:
    return _node_like(r, ts=False)


def typescript(r: SampleRequest) -> str:
    return _node_like(r, ts=True)


def php(r: SampleRequest) -> str:
    opts = [
        f"  CURLOPT_URL => {sq_php(r.url)},",
        "  CURLOPT_RETURNTRANSFER => true,",
        f"  CURLOPT_CUSTOMREQUEST => {sq_php(r.method)},",
    ]
    if r.body_kind == "binary":
        opts.append("  CURLOPT_POSTFIELDS => file_get_contents('example-file'),")
    elif r.body_kind:
        opts.append(f"  CURLOPT_POSTFIELDS => {sq_php(r.body_text())},")
    headers = r.all_headers()
    if headers:
        opts.append("  CURLOPT_HTTPHEADER => [")
        opts += [f"    {sq_php(f'{k}: {v}')}," for k, v in headers]
        opts.append("  ],")
    return "\n".join(
        [
            "<?php",
            "",
            "$curl = curl_init();",
            "",
            "curl_setopt_array($curl, [",
            *opts,
            "]);",
            "",
            "$response = curl_exec($curl);",
            "$err = curl_error($curl);",
            "",
            "curl_close($curl);",
            "",
            "if ($err) {",
            '  echo "cURL Error #:" . $err;',
            "} else {",
            "  echo $response;",
            "}",
        ]
    )


def _raw_go(text: str) -> str:
    return f"`{text}`" if "`" not in text else dq(text)


def go(r: SampleRequest) -> str:
    imports = ["fmt", "net/http", "io"]
    body_lines: list[str] = []
    payload = "nil"
    if r.body_kind == "binary":
        imports.append("os")
        body_lines = ['\tpayload, _ := os.Open("example-file")', ""]
        payload = "payload"
    elif r.body_kind:
        imports.append("strings")
        body_lines = [f"\tpayload := strings.NewReader({_raw_go(r.body_text())})", ""]
        payload = "payload"
    headers = [f"\treq.Header.Add({dq(k)}, {dq(v)})" for k, v in r.all_headers()]
    return "\n".join(
        [
            "package main",
            "",
            "import (",
            *[f'\t"{i}"' for i in sorted(imports)],
            ")",
            "",
            "func main() {",
            "",
            f"\turl := {dq(r.url)}",
            "",
            *body_lines,
            f"\treq, _ := http.NewRequest({dq(r.method)}, url, {payload})",
            "",
            *headers,
            *([""] if headers else []),
            "\tres, _ := http.DefaultClient.Do(req)",
            "",
            "\tdefer res.Body.Close()",
            "\tbody, _ := io.ReadAll(res.Body)",
            "",
            "\tfmt.Println(string(body))",
            "",
            "}",
        ]
    )


def _java_text(text: str) -> str:
    if "\n" in text and '"""' not in text and "\\" not in text:
        return '"""\n' + text + '"""'
    return dq(text)


def java(r: SampleRequest) -> str:
    if r.body_kind == "binary":
        publisher = 'HttpRequest.BodyPublishers.ofFile(Path.of("example-file"))'
    elif r.body_kind:
        publisher = f"HttpRequest.BodyPublishers.ofString({_java_text(r.body_text())})"
    else:
        publisher = "HttpRequest.BodyPublishers.noBody()"
    lines = [
        "HttpRequest request = HttpRequest.newBuilder()",
        f"    .uri(URI.create({dq(r.url)}))",
        *[f"    .header({dq(k)}, {dq(v)})" for k, v in r.all_headers()],
        f"    .method({dq(r.method)}, {publisher})",
        "    .build();",
        "HttpResponse<String> response = HttpClient.newHttpClient()"
        ".send(request, HttpResponse.BodyHandlers.ofString());",
        "System.out.println(response.body());",
    ]
    return "\n".join(lines)


_RUBY_CLASSES = {
    "GET": "Get",
    "POST": "Post",
    "PUT": "Put",
    "PATCH": "Patch",
    "DELETE": "Delete",
    "HEAD": "Head",
    "OPTIONS": "Options",
    "TRACE": "Trace",
}


def ruby(r: SampleRequest) -> str:
    cls = _RUBY_CLASSES.get(r.method, "Get")
    out = [
        "require 'uri'",
        "require 'net/http'",
        "",
        f"url = URI({sq_php(r.url)})",
        "",
        "http = Net::HTTP.new(url.host, url.port)",
        "http.use_ssl = true",
        "",
        f"request = Net::HTTP::{cls}.new(url)",
    ]
    out += [f"request[{sq_php(k)}] = {sq_php(v)}" for k, v in r.all_headers()]
    if r.body_kind == "binary":
        out.append("request.body = File.binread('example-file')")
    elif r.body_kind:
        out.append(f"request.body = {sq_php(r.body_text())}")
    out += ["", "response = http.request(request)", "puts response.read_body"]
    return "\n".join(out)


def powershell(r: SampleRequest) -> str:
    out = []
    headers = [(k, v) for k, v in r.all_headers() if k.lower() != "content-type"]
    if headers:
        out.append("$headers=@{}")
        out += [f"$headers.Add({sq_ps(k)}, {sq_ps(v)})" for k, v in headers]
    cmd = f"$response = Invoke-WebRequest -Uri {sq_ps(r.url)} -Method {r.method}"
    if headers:
        cmd += " -Headers $headers"
    ctype = next((v for k, v in r.all_headers() if k.lower() == "content-type"), "")
    if ctype:
        cmd += f" -ContentType {sq_ps(ctype)}"
    if r.body_kind == "binary":
        cmd += " -InFile 'example-file'"
    elif r.body_kind:
        out.append(f"$body = {sq_ps(r.body_text())}")
        cmd += " -Body $body"
    out.append(cmd)
    return "\n".join(out)


def swift(r: SampleRequest) -> str:
    out = [
        "import Foundation",
        "",
        f"let url = URL(string: {dq(r.url)})!",
        "var request = URLRequest(url: url)",
    ]
    out.append(f"request.httpMethod = {dq(r.method)}")
    headers = r.all_headers()
    if headers:
        out.append(
            "request.allHTTPHeaderFields = [" + ", ".join(f"{dq(k)}: {dq(v)}" for k, v in headers) + "]"
        )
    if r.body_kind == "binary":
        out.append('request.httpBody = try Data(contentsOf: URL(fileURLWithPath: "example-file"))')
    elif r.body_kind:
        out.append(f"request.httpBody = {dq(r.body_text())}.data(using: .utf8)")
    out += [
        "",
        "let (data, _) = try await URLSession.shared.data(for: request)",
        "print(String(decoding: data, as: UTF8.self))",
    ]
    return "\n".join(out)


def _cs_verbatim(text: str) -> str:
    return '@"' + text.replace('"', '""') + '"'


def csharp(r: SampleRequest) -> str:
    headers = [(k, v) for k, v in r.headers]
    ctype = next((v for k, v in r.all_headers() if k.lower() == "content-type"), "")
    out = [
        "using System.Net.Http.Headers;",
        "",
        "var client = new HttpClient();",
        "var request = new HttpRequestMessage",
        "{",
        f"    Method = new HttpMethod({dq(r.method)}),",
        f"    RequestUri = new Uri({dq(r.url)}),",
    ]
    if headers:
        out.append("    Headers =")
        out.append("    {")
        out += [f"        {{ {dq(k)}, {dq(v)} }}," for k, v in headers]
        out.append("    },")
    if r.body_kind == "binary":
        content = 'new ByteArrayContent(File.ReadAllBytes("example-file"))'
    elif r.body_kind:
        content = f"new StringContent({_cs_verbatim(r.body_text())})"
    else:
        content = ""
    if content:
        header = (
            f"{{ Headers = {{ ContentType = MediaTypeHeaderValue.Parse({dq(ctype)}) }} }}" if ctype else ""
        )
        out.append(f"    Content = {content}{(' ' + header) if header else ''},")
    out += [
        "};",
        "using (var response = await client.SendAsync(request))",
        "{",
        "    response.EnsureSuccessStatusCode();",
        "    var body = await response.Content.ReadAsStringAsync();",
        "    Console.WriteLine(body);",
        "}",
    ]
    return "\n".join(out)


def dotnet(r: SampleRequest) -> str:
    method = r.method.capitalize()
    out = [
        "using RestSharp;",
        "",
        f"var options = new RestClientOptions({dq(r.url)});",
        "var client = new RestClient(options);",
        f'var request = new RestRequest("", Method.{method});',
    ]
    out += [f"request.AddHeader({dq(k)}, {dq(v)});" for k, v in r.headers]
    ctype = next((v for k, v in r.all_headers() if k.lower() == "content-type"), "")
    if r.body_kind == "binary":
        out.append('request.AddFile("file", "example-file");')
    elif r.body_kind:
        out.append(f"request.AddStringBody({_cs_verbatim(r.body_text())}, {dq(ctype)});")
    out += [
        "var response = await client.ExecuteAsync(request);",
        "",
        'Console.WriteLine("{0}", response.Content);',
    ]
    return "\n".join(out)


def c(r: SampleRequest) -> str:
    out = [
        "CURL *hnd = curl_easy_init();",
        "",
        f"curl_easy_setopt(hnd, CURLOPT_CUSTOMREQUEST, {dq(r.method)});",
        f"curl_easy_setopt(hnd, CURLOPT_URL, {dq(r.url)});",
        "",
    ]
    headers = r.all_headers()
    if headers:
        out.append("struct curl_slist *headers = NULL;")
        out += [f"headers = curl_slist_append(headers, {dq(f'{k}: {v}')});" for k, v in headers]
        out += ["curl_easy_setopt(hnd, CURLOPT_HTTPHEADER, headers);", ""]
    if r.body_kind:
        out += [f"curl_easy_setopt(hnd, CURLOPT_POSTFIELDS, {dq(r.body_text(pretty=False))});", ""]
    out.append("CURLcode ret = curl_easy_perform(hnd);")
    return "\n".join(out)


def cpp(r: SampleRequest) -> str:
    method = r.method.capitalize()
    args = [f"cpr::Url{{{dq(r.url)}}}"]
    headers = r.all_headers()
    if headers:
        args.append("cpr::Header{" + ", ".join(f"{{{dq(k)}, {dq(v)}}}" for k, v in headers) + "}")
    if r.body_kind:
        args.append(f"cpr::Body{{{dq(r.body_text(pretty=False))}}}")
    return "\n".join(
        [
            "#include <cpr/cpr.h>",
            "#include <iostream>",
            "",
            "int main() {",
            f"    cpr::Response r = cpr::{method}(" + ",\n        ".join(args) + ");",
            "    std::cout << r.text << std::endl;",
            "}",
        ]
    )


def kotlin(r: SampleRequest) -> str:
    out = ["val client = OkHttpClient()", ""]
    ctype = next((v for k, v in r.all_headers() if k.lower() == "content-type"), "")
    body = "null"
    if r.body_kind:
        out.append(f"val mediaType = {dq_dollar(ctype)}.toMediaType()")
        if r.body_kind == "binary":
            out.append('val body = File("example-file").asRequestBody(mediaType)')
        else:
            out.append(f"val body = {dq_dollar(r.body_text())}.toRequestBody(mediaType)")
        body = "body"
    out += [
        "val request = Request.Builder()",
        f"  .url({dq_dollar(r.url)})",
        f"  .method({dq(r.method)}, {body})",
    ]
    out += [f"  .addHeader({dq_dollar(k)}, {dq_dollar(v)})" for k, v in r.headers]
    out += ["  .build()", "", "val response = client.newCall(request).execute()"]
    return "\n".join(out)


def _rust_raw(text: str) -> str:
    hashes = "#"
    while f'"{hashes}' in text:
        hashes += "#"
    return f'r{hashes}"{text}"{hashes}'


def rust(r: SampleRequest) -> str:
    method = (
        r.method.upper()
        if r.method.upper() in ("GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE")
        else None
    )
    method_expr = (
        f"reqwest::Method::{method}" if method else f"reqwest::Method::from_bytes(b{dq(r.method)}).unwrap()"
    )
    out = ["#[tokio::main]", "pub async fn main() {", f"    let url = {dq(r.url)};"]
    if r.body_kind == "binary":
        out.append('    let payload = std::fs::read("example-file").unwrap();')
    elif r.body_kind:
        out.append(f"    let payload = {_indent(_rust_raw(r.body_text()), '')};")
    out += [
        "",
        "    let client = reqwest::Client::new();",
        f"    let response = client.request({method_expr}, url)",
    ]
    out += [f"        .header({dq(k)}, {dq(v)})" for k, v in r.all_headers()]
    if r.body_kind:
        out.append("        .body(payload)")
    out += [
        "        .send()",
        "        .await;",
        "",
        "    let results = response.unwrap().text().await.unwrap();",
        "    dbg!(results);",
        "}",
    ]
    return "\n".join(out)


def dart(r: SampleRequest) -> str:
    out = ["import 'package:http/http.dart' as http;", "", "void main() async {"]
    headers = r.all_headers()
    if headers:
        out.append(
            "  final headers = {" + ", ".join(f"{dq_dollar(k)}: {dq_dollar(v)}" for k, v in headers) + "};"
        )
    out.append(f"  final request = http.Request({dq(r.method)}, Uri.parse({dq_dollar(r.url)}));")
    if headers:
        out.append("  request.headers.addAll(headers);")
    if r.body_kind == "binary":
        out.insert(0, "import 'dart:io';")
        out.append("  request.bodyBytes = await File('example-file').readAsBytes();")
    elif r.body_kind:
        out.append(f"  request.body = {dq_dollar(r.body_text())};")
    out += [
        "",
        "  final response = await request.send();",
        "  print(await response.stream.bytesToString());",
        "}",
    ]
    return "\n".join(out)


GENERATORS: dict[str, tuple[str, str, Callable[[SampleRequest], str]]] = {
    # key: (label, highlight language, generator)
    "bash": ("cURL", "bash", curl),
    "python": ("Python", "python", python),
    "javascript": ("JavaScript", "javascript", javascript),
    "node": ("Node.js", "javascript", node),
    "php": ("PHP", "php", php),
    "go": ("Go", "go", go),
    "java": ("Java", "java", java),
    "ruby": ("Ruby", "ruby", ruby),
    "powershell": ("PowerShell", "powershell", powershell),
    "swift": ("Swift", "swift", swift),
    "csharp": ("C#", "csharp", csharp),
    "dotnet": (".NET", "csharp", dotnet),
    "typescript": ("TypeScript", "typescript", typescript),
    "c": ("C", "c", c),
    "cpp": ("C++", "cpp", cpp),
    "kotlin": ("Kotlin", "kotlin", kotlin),
    "rust": ("Rust", "rust", rust),
    "dart": ("Dart", "dart", dart),
}


def generate(request: SampleRequest, languages: tuple[str, ...]) -> list[tuple[str, str, str, str]]:
    """Return (key, label, highlight language, code) for each known language, in order."""
    out = []
    for lang in languages:
        entry = GENERATORS.get(lang)
        if entry:
            label, hl, fn = entry
            out.append((lang, label, hl, fn(request)))
    return out
