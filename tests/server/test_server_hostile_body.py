"""Hostile feedback bodies under the size limit are a 400 with the documented error body, never a 500."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx

from docsgen.server.testing import cli_server


def post(base: str, content: bytes) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    return httpx.post(f"{base}/v1/feedback/hb", content=content, headers=headers, timeout=60)


def test_deep_nesting_and_lone_surrogates_are_400_invalid_json(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DOCSGEN_DATABASE_URL"}
    command = [sys.executable, "-m", "docsgen.server.cli", "projects", "add", "hb"]
    subprocess.run(command, cwd=tmp_path, env=env, check=True, capture_output=True)
    with cli_server(tmp_path, "--rate-limit", "0") as base:
        bodies = [
            b"[" * 400_000,  # under the 512 KiB limit: was a RecursionError and a 500
            b'{"source": "contextual", "path": "/a", "helpful": true, "comment": "x\\ud800y"}',
            b'{"source": "contextual", "path": "/\\udfff", "helpful": true, "comment": "x"}',
        ]
        for body in bodies:
            response = post(base, body)
            assert response.status_code == 400, response.text[:300]
            error = response.json()["error"]
            assert error["code"] == "invalid_json" and error["message"].startswith(
                "the body is not valid JSON"
            )
        # a surrogate pair is one character: still accepted
        pair = b'{"source": "contextual", "path": "/a", "helpful": true, "comment": "\\ud83d\\ude00"}'
        response = post(base, pair)
        assert response.status_code == 201, response.text[:300]
        assert response.json()["comment"] == "\U0001f600"
