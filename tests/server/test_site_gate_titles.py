"""Restricted pages' titles never leave the gate through shared files: `docsgen server run --site` serves the
section sidebars (`_nav/*.html`) and public pages' pagination cut to what the reader may read. Every file of the
output fetched without a session is free of restricted titles; a signed-in member sees the members' pages listed
and linked, still none of a group's they are not in."""

from __future__ import annotations

import subprocess
import sys
import time

import httpx
import pytest

from docsgen.server.site_auth import hash_password
from docsgen.server.testing import free_port
from tests.server.gate_helpers import build_private_site, gate_project

PASSWORD = {"method": "password", "passwordHash": hash_password("open sesame")}
# fixtures/private-docs: the members' page, two group pages and a group's API operation
RESTRICTED_TITLES = ("Members guide", "Admin console", "Invoices", "List ledgers")


@pytest.fixture(scope="module")
def gate(tmp_path_factory):
    """`docsgen server run --site acme` serving fixtures/private-docs behind a password."""
    tmp = tmp_path_factory.mktemp("titles")
    site = build_private_site(tmp / "out")
    gate_project(tmp, site, PASSWORD).dispose()
    port = free_port()
    command = [sys.executable, "-c", "from docsgen.cli import main; main()", "server", "run"]
    command += ["--db", f"sqlite:///{tmp / 'gate.sqlite3'}", "--site", "acme", "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"{base}/healthz")
            break
        except httpx.TransportError:
            assert time.monotonic() < deadline and process.poll() is None, process.stderr.read()
            time.sleep(0.1)
    yield site, base
    process.terminate()
    process.wait(20)


def test_no_file_served_without_a_session_names_a_restricted_page(gate):
    site, base = gate
    sidebars = sorted(p.relative_to(site).as_posix() for p in (site / "_nav").glob("*.html"))
    assert sidebars
    built = "".join((site / s).read_text(encoding="utf-8") for s in sidebars)
    assert "Members guide" in built and 'data-access="' in built  # the shared file lists it, marked
    with httpx.Client(base_url=base) as client:
        served = 0
        for file in sorted(p for p in site.rglob("*") if p.is_file()):
            rel = file.relative_to(site).as_posix()
            answer = client.get("/" + rel)
            if answer.status_code != 200:
                continue
            served += 1
            for title in RESTRICTED_TITLES:
                assert title.encode() not in answer.content, (rel, title)
        assert served > 20
        intro = client.get("/guides/public-intro/").text
        assert 'rel="prev"' in intro and "Members guide" not in intro  # its "Next" was the members' page
        nav = client.get("/" + sidebars[0])
        assert "Public introduction" in nav.text and "Guides" not in nav.text  # the emptied group goes too
        assert "private" in nav.headers["cache-control"] and "Cookie" in nav.headers["vary"]


def test_a_signed_in_member_sees_the_members_pages_listed(gate):
    site, base = gate
    sidebar = sorted(p.relative_to(site).as_posix() for p in (site / "_nav").glob("*.html"))[0]
    with httpx.Client(base_url=base) as client:
        signed = client.post("/login?redirect=/", data={"password": "open sesame"})
        assert signed.status_code == 303
        nav = client.get("/" + sidebar).text
        assert "Members guide" in nav and "Guides" in nav
        assert "Admin console" not in nav and "Invoices" not in nav  # group pages: never in the sidebar
        intro = client.get("/guides/public-intro/").text
        assert "Members guide" in intro  # the pagination link is back
