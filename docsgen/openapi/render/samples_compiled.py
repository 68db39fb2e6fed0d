"""Code samples for compiled languages: Go, Java, Swift, C#, .NET, C, C++, Kotlin, Rust, Dart."""

from __future__ import annotations

from docsgen.openapi.render.sample_request import SampleRequest, dq, dq_dollar, indent_lines


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
        out.append(f"    let payload = {indent_lines(_rust_raw(r.body_text()), '')};")
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
