"""Shared set-up of the dashboard tests: a SQLite database with two projects, feedback entries, signing in."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import httpx

from docsgen.server import feedback as fb
from docsgen.server.db import open_database
from docsgen.server.testing import seed_project
from tests.htmldom import parse

DAY = 86_400_000


@dataclass
class World:
    """Two projects with their admin keys and a few entries each."""

    engine: object
    key_a: str
    key_b: str
    docs: Path
    out: Path


def make_world(tmp_path: Path, now_ms: int) -> World:
    """Create projects alpha (with docs folders) and beta, and feedback of every source."""
    engine = open_database(f"sqlite:///{tmp_path / 'dash.sqlite3'}")
    docs, out = tmp_path / "docs", tmp_path / "site"
    docs.mkdir()
    key_a = seed_project(engine, "alpha", docs_dir=docs, out_dir=out)
    key_b = seed_project(engine, "beta")
    entries_a = [
        ({"source": "thumbs_only", "path": "/quickstart", "helpful": False}, 0),
        ({"source": "contextual", "path": "/quickstart", "helpful": False, "comment": "Step 3 fails"}, 1),
        (
            {
                "source": "contextual",
                "path": "/guides/auth",
                "helpful": True,
                "comment": "<script>alert(1)</script> great",
                "contact": "ada@example.com",
            },
            2,
        ),
        (
            {
                "source": "code_snippet",
                "path": "/api/users",
                "comment": '=HYPERLINK("http://evil")',
                "code": 'print("<b>hi</b>")\n',
                "filename": "main.py",
                "lang": "python",
            },
            3,
        ),
        ({"source": "thumbs_only", "path": "/guides/auth", "helpful": True}, 4),
    ]
    with engine.begin() as conn:
        for values, days_ago in entries_a:
            fb.store(conn, "alpha", fb.validate_submission(values), now_ms - days_ago * DAY - 1000)
        secret = {"source": "contextual", "path": "/beta-only", "helpful": False, "comment": "BETA SECRET"}
        fb.store(conn, "beta", fb.validate_submission(secret), now_ms - 5000)
    return World(engine, key_a, key_b, docs, out)


def sign_in(client: httpx.Client, key: str) -> httpx.Response:
    """Sign in through the form like a browser; return the final response (the feedback page on success)."""
    form = client.get("/dashboard/signin")
    token = parse(form.text).find("input", name="token").attrs["value"]
    return client.post("/dashboard/signin", data={"token": token, "key": key}, follow_redirects=True)


def csrf_of(html: str) -> str:
    """Return the CSRF token of a signed-in page."""
    return parse(html).find("input", name="csrf").attrs["value"]
