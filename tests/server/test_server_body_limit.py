"""The body limit: the default (as the CLI runs it) accepts the longest valid entry, and the docs state it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx

from docsgen.server import limits
from docsgen.server.feedback import FIELDS, validate_submission
from docsgen.server.testing import cli_server

REPO = Path(__file__).resolve().parents[2]
EMOJI = "\U0001f600"  # outside the BMP: 4 bytes in UTF-8, a 12-byte surrogate pair when \u-escaped


def longest_entry(source: str, char: str = EMOJI) -> dict:
    """Every field the source accepts at its documented maximum length."""
    allowed, _required = FIELDS[source]
    body: dict = {"source": source, "path": "/" + char * (limits.MAX_LENGTH["path"] - 1)}
    for name in sorted(allowed):
        if name == "helpful":
            body[name] = False
        elif name == "contact":
            domain = ".".join(["b" * 63, "b" * 63, "b" * 56, "test"])  # labels of at most 63 characters
            body[name] = "a" * 64 + "@" + domain
            assert len(body[name]) == limits.MAX_LENGTH["contact"]
        elif name == "comment" and source == "thumbs_only":
            body[name] = " " * limits.MAX_LENGTH[name]  # accepted when blank
        else:
            body[name] = char * limits.MAX_LENGTH[name]
    validate_submission(body)  # really valid, at the limit
    return body


def post(base: str, content: bytes) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    return httpx.post(f"{base}/v1/feedback/lim", content=content, headers=headers, timeout=30)


def test_cli_default_accepts_every_longest_valid_entry(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DOCSGEN_DATABASE_URL"}
    command = [sys.executable, "-m", "docsgen.server.cli", "projects", "add", "lim"]
    subprocess.run(command, cwd=tmp_path, env=env, check=True, capture_output=True)
    with cli_server(tmp_path, "--rate-limit", "0") as base:  # no --max-body: the default
        for source in FIELDS:
            body = longest_entry(source)
            for encoded in (json.dumps(body).encode(), json.dumps(body, ensure_ascii=False).encode()):
                response = post(base, encoded)
                assert response.status_code == 201, (source, len(encoded), response.text[:200])
                assert response.json()["path"] == body["path"]
        # One character more is a validation error naming the field, not a size error.
        too_long = longest_entry("code_snippet")
        too_long["code"] += "x"
        response = post(base, json.dumps(too_long).encode())
        assert response.status_code == 422 and response.json()["error"]["param"] == "code"
        # Bodies above the limit are still refused.
        padded = json.dumps(too_long).encode() + b" " * limits.DEFAULT_MAX_BODY
        assert post(base, padded).status_code == 413


def test_docs_and_cli_state_the_default():
    text = (REPO / "docs" / "feedback-server.md").read_text(encoding="utf-8")
    stated = re.search(r"request bodies above (\d+) KiB \(`run --max-body`\)", text)
    assert stated and int(stated.group(1)) * 1024 == limits.DEFAULT_MAX_BODY
    spec = (REPO / "schemas" / "feedback-api.yaml").read_text(encoding="utf-8")
    assert f"({limits.DEFAULT_MAX_BODY // 1024} KiB by default" in spec
    env = {k: v for k, v in os.environ.items() if k != "DOCSGEN_DATABASE_URL"}
    command = [sys.executable, "-m", "docsgen.server.cli", "run", "--help"]
    shown = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    assert f"[default: {limits.DEFAULT_MAX_BODY};" in " ".join(shown.split())
