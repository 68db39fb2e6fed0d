"""Code samples for scripting languages and shells: cURL, Python, JavaScript, Node.js, TypeScript, PHP, Ruby,
PowerShell."""

from __future__ import annotations

from docsgen.openapi.render.sample_request import (
    SampleRequest,
    dq,
    indent_lines,
    pyrepr,
    sq_php,
    sq_ps,
    sq_shell,
)


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
        body = f"JSON.stringify({indent_lines(r.body_text(), '  ')})"
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
