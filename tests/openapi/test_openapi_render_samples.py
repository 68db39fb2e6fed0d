"""Generated code samples are syntactically valid, even with quotes, dollars and backslashes in examples."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from docsgen.openapi.render import ApiSettings, render_operation
from tests.htmldom import parse

NASTY = 'it\'s "quoted" $HOME \\ back `tick` ${x} #{y}\nnew line'
SPEC = {
    "openapi": "3.0.0",
    "servers": [{"url": "https://api.example.com"}],
    "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "query", "name": "api_key"}}},
    "security": [{"key": []}],
    "paths": {
        "/json/{id}": {
            "post": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "q", "in": "query", "schema": {"type": "string", "example": NASTY}},
                    {"name": "X-Note", "in": "header", "schema": {"type": "string", "example": "a'b\"c"}},
                ],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {
                                    "text": {"type": "string", "example": NASTY},
                                    "n": {"type": "integer"},
                                },
                            }
                        }
                    }
                },
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/form": {
            "post": {
                "requestBody": {
                    "content": {
                        "application/x-www-form-urlencoded": {
                            "schema": {"properties": {"a": {"type": "string", "example": NASTY}}}
                        }
                    }
                },
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/files": {
            "put": {
                "requestBody": {
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "properties": {
                                    "file": {"type": "string", "format": "binary"},
                                    "note": {"type": "string", "example": NASTY},
                                }
                            }
                        }
                    }
                },
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/raw": {
            "patch": {
                "requestBody": {
                    "content": {
                        "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
                    }
                },
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/plain": {"delete": {"responses": {"204": {"description": "gone"}}}},
    },
}
OPERATIONS = [
    ("post", "/json/{id}"),
    ("post", "/form"),
    ("put", "/files"),
    ("patch", "/raw"),
    ("delete", "/plain"),
]
LANGS = ("bash", "python", "javascript", "node", "typescript")


def samples(method: str, path: str) -> dict[str, str]:
    page = render_operation(SPEC, method, path, settings=ApiSettings(example_languages=LANGS), markdown=str)
    card = parse(page.aside_html).find(cls="dg-api-card", data_tabs="lang")
    return {p.attrs["data-key"]: p.find("code").text for p in card.find_all(cls="dg-api-panel")}


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_python_and_shell_samples_parse(method, path, tmp_path):
    got = samples(method, path)
    compile(got["python"], f"{method} {path}", "exec")
    script = tmp_path / "sample.sh"
    script.write_text(got["bash"], encoding="utf-8")
    result = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_javascript_samples_parse(method, path, tmp_path):
    node = shutil.which("node")
    assert node, "node is required (it also installs the real specs through npm)"
    got = samples(method, path)
    for name, code in (("browser.js", got["javascript"]), ("node.mjs", got["node"])):
        file = Path(tmp_path / name)
        file.write_text(code, encoding="utf-8")
        result = subprocess.run([node, "--check", str(file)], capture_output=True, text=True, check=False)
        assert result.returncode == 0, (name, result.stderr, code)


def test_shell_sample_round_trips_nasty_values(tmp_path):
    """Run the cURL sample with a fake `curl` that prints its arguments: values arrive unchanged."""
    code = samples("post", "/json/{id}")["bash"]
    fake = tmp_path / "curl"
    fake.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done\n', encoding="utf-8")
    fake.chmod(0o755)
    result = subprocess.run(
        ["bash", "-c", code], capture_output=True, env={"PATH": f"{tmp_path}:/usr/bin:/bin"}, check=True
    )
    args = result.stdout.decode().split("\0")
    assert "X-Note: a'b\"c" in args
    body = args[args.index("--data") + 1]
    import json

    assert json.loads(body)["text"] == NASTY
    url = args[args.index("--url") + 1]
    assert url.startswith("https://api.example.com/json/{id}?q=") and "api_key=<api-key>" in url
