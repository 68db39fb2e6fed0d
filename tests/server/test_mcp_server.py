"""`docsgen mcp SITE`: a real MCP client of the official SDK talks to the server over stdio and over streamable
HTTP on 127.0.0.1, on the site built from fixtures/example; `feedback` reaches a real feedback server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from docsgen.build import build
from docsgen.server import feedback as fb
from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.testing import LiveServer, free_port, seed_project
from tests.conftest import FIXTURES

QUERIES = {
    "multipart upload parts": "/guides/uploads/multipart",
    "resumable upload offset": "/guides/uploads/resumable",
    "lifecycle rules": "/guides/lifecycle",
    "error code request id": "/reference/errors",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build(FIXTURES / "example", out)
    return out


def stdio(site: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "docsgen", "mcp", str(site), *extra])


async def exercise(client: Client, site: Path) -> None:
    """What every transport must do: search ranks the expected page first, fetch returns its twin."""
    tools = {t.name for t in (await client.list_tools()).tools}
    assert {"search", "fetch"} <= tools and "feedback" not in tools
    for query, expected in QUERIES.items():
        result = await client.call_tool("search", {"query": query, "limit": 3})
        assert not result.is_error
        hits = result.structured_content["result"]
        assert hits[0]["url"] == expected, (query, hits)
        assert set(hits[0]) >= {"title", "url", "excerpt"} and hits[0]["excerpt"]
    for ask in (
        "/guides/uploads/multipart",
        "guides/uploads/multipart.md",
        "https://x.test/guides/uploads/multipart/",
    ):
        result = await client.call_tool("fetch", {"url_or_path": ask})
        assert not result.is_error
        assert result.content[0].text == read_markdown_twin(site, "guides/uploads/multipart")
    home = await client.call_tool("fetch", {"url_or_path": "/"})
    assert home.content[0].text == read_markdown_twin(site, "")
    for outside in ("../../etc/passwd", "/guides/../../llms-full.txt", "/pagefind/pagefind.js", "/nope"):
        refused = await client.call_tool("fetch", {"url_or_path": outside})
        assert refused.is_error, outside
    listing = await client.read_resource("docs://llms.txt")
    assert listing.contents[0].text == (site / "llms.txt").read_text(encoding="utf-8")


def run_async(coro) -> None:
    """Run a coroutine on a fresh event loop in its own thread: the browser tests (Playwright's sync API) may leave
    an event loop running in the main thread, where asyncio.run() refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, coro).result()


def test_stdio_client_searches_and_fetches(site):
    async def run() -> None:
        async with Client(stdio(site)) as client:
            await exercise(client, site)

    run_async(run())


def _wait_for_port(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError("docsgen mcp --transport http did not start listening")


def listening_addresses(port: int) -> set[str]:
    """Return the local addresses (hex, as /proc/net/tcp{,6} write them) listening on a TCP port."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, _, hex_port = local.partition(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def test_http_client_searches_and_fetches_on_loopback(site):
    port = free_port()
    command = [sys.executable, "-m", "docsgen", "mcp", str(site), "--transport", "http", "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_port(port, process)
        assert listening_addresses(port) == {"0100007F"}  # bound to 127.0.0.1 only, by default
        # DNS-rebinding protection: a request naming another host is refused before it reaches a tool.
        rebound = httpx.post(
            f"http://127.0.0.1:{port}/mcp",
            headers={"Host": "evil.example", "Accept": "application/json, text/event-stream"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        )
        assert rebound.status_code in (400, 403, 421), rebound.status_code

        async def run() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await exercise(client, site)

        run_async(run())
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_feedback_tool_posts_agent_feedback_to_the_feedback_server(site, tmp_path):
    engine = open_database(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    seed_project(engine, "acme")
    with LiveServer(create_app(engine=engine, rate_limit=0)) as server:

        async def run() -> None:
            extra = ("--feedback-url", server.url, "--feedback-project", "acme")
            async with Client(stdio(site, *extra)) as client:
                sent = await client.call_tool(
                    "feedback",
                    {
                        "url_or_path": "/quickstart",
                        "comment": "Which region is the default?",
                        "helpful": False,
                    },
                )
                assert not sent.is_error, sent.content
                refused = await client.call_tool("feedback", {"url_or_path": "/nope", "comment": "x"})
                assert refused.is_error
                blank = await client.call_tool("feedback", {"url_or_path": "/quickstart", "comment": "  "})
                assert blank.is_error

        run_async(run())
    with engine.begin() as conn:
        rows = conn.execute(fb.feedback.select()).all()
    engine.dispose()
    assert [(r.source, r.path, r.comment, r.helpful) for r in rows] == [
        ("agent", "/quickstart", "Which region is the default?", False)
    ]


def test_without_the_sdk_the_command_says_what_to_install(tmp_path):
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "mcp.py").write_text("raise ModuleNotFoundError('No module named mcp', name='mcp')\n")
    env = {"PYTHONPATH": str(blocker), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "docsgen", "mcp", str(tmp_path)], capture_output=True, text=True, env=env
    )
    assert done.returncode != 0
    assert "pip install 'docsgen-sites[mcp]'" in done.stderr and "Traceback" not in done.stderr


def test_a_folder_without_twins_is_a_usage_error(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "docsgen", "mcp", str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 2 and "no page twins" in done.stderr and "Traceback" not in done.stderr


def read_markdown_twin(out_dir: Path, page_url: str) -> str:
    """Return the Markdown twin a built site holds for a page URL."""
    url = page_url.strip("/")
    return (out_dir / ((url or "index") + ".md")).read_text(encoding="utf-8")
