"""The MCP server of a built site: tools `search`, `fetch` (and `feedback` when configured), resource llms.txt.

It uses the official `mcp` Python SDK (`pip install 'docsgen-sites[mcp]'`) and speaks stdio (for a client that starts
it) or streamable HTTP at http://HOST:PORT/mcp (127.0.0.1 unless told otherwise).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlsplit

import click
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings

from docsgen.mcp.index import PageNotFound, SiteIndex

FEEDBACK_TIMEOUT = 10.0  # seconds to wait for the feedback server
MAX_COMMENT = 5000  # the feedback server's limit for a comment


def post_feedback(server_url: str, project: str, body: dict) -> str:
    """POST one `agent` entry to a docsgen feedback server; return its id, or raise ToolError saying why not."""
    url = f"{server_url.rstrip('/')}/v1/feedback/{quote(project, safe='')}"
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=FEEDBACK_TIMEOUT) as answer:  # http(s) only
            return str(json.loads(answer.read(65_536)).get("id", ""))
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read(65_536))["error"]["message"]
        except (ValueError, KeyError, TypeError):
            detail = f"HTTP {exc.code}"
        raise ToolError(f"the feedback server refused the feedback: {detail}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ToolError(f"the feedback server at {server_url} could not be reached: {exc}") from None


def create_server(
    index: SiteIndex,
    *,
    name: str = "docs",
    feedback_url: str | None = None,
    feedback_project: str | None = None,
) -> MCPServer:
    """Build the MCP server over one site index."""
    server = MCPServer(
        name=name,
        instructions=(
            "Documentation of this site. Call `search` with a few keywords, then `fetch` a result's url to read "
            "the page as Markdown. The resource docs://llms.txt lists every page."
        ),
    )

    @server.tool()
    def search(query: str, limit: int = 10, language: str | None = None) -> list[dict]:
        """Search the documentation; return up to `limit` (1-50) pages with title, url and excerpt, best first.
        `language` (e.g. "en", "fr") keeps only pages in that language, for sites translated into several."""
        if not query.strip():
            raise ToolError("query is empty: give a few keywords")
        return index.search(query, limit, language)

    @server.tool()
    def fetch(url_or_path: str) -> str:
        """Return one documentation page as Markdown, by its URL or its path (e.g. /quickstart)."""
        try:
            return index.resolve(url_or_path).markdown
        except PageNotFound as exc:
            raise ToolError(str(exc)) from None

    @server.resource("docs://llms.txt", name="llms.txt", mime_type="text/markdown")
    def llms_txt() -> str:
        """The site's page list (llms.txt): every page's title and link."""
        return index.llms_txt()

    if feedback_url and feedback_project:

        @server.tool()
        def feedback(url_or_path: str, comment: str, helpful: bool | None = None) -> str:
            """Tell the documentation's authors what was wrong or missing on a page (sent as `agent` feedback)."""
            try:
                page = index.resolve(url_or_path)
            except PageNotFound as exc:
                raise ToolError(str(exc)) from None
            if not comment.strip() or len(comment) > MAX_COMMENT:
                raise ToolError(f"comment must be non-blank text of at most {MAX_COMMENT} characters")
            body: dict = {"path": "/" + page.url, "source": "agent", "comment": comment}
            if helpful is not None:
                body["helpful"] = helpful
            entry = post_feedback(feedback_url, feedback_project, body)
            return f"Thank you: feedback {entry} recorded for /{page.url}."

    return server


def transport_security(
    host: str, port: int, site_url: str | None, allowed: tuple[str, ...]
) -> TransportSecuritySettings:
    """Accept only requests whose Host is this server's own address, the site's host or an --allow-host
    (DNS-rebinding protection: a web page cannot make a reader's browser talk to a local server)."""
    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*", f"{host}:*", *allowed]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
    if site_url:
        parts = urlsplit(site_url)
        hosts.append(parts.netloc)
        origins.append(f"{parts.scheme}://{parts.netloc}")
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


@click.command()
@click.argument("site", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio for a client that starts the server; http for streamable HTTP at http://HOST:PORT/mcp.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind with --transport http.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535), help="Port for http.")
@click.option("--site-url", default=None, help="The site's public URL, so results carry absolute links.")
@click.option(
    "--allow-host",
    multiple=True,
    help="Another Host header to accept over http (a reverse proxy's), e.g. docs.example.com. Repeatable.",
)
@click.option("--feedback-url", default=None, help="A docsgen feedback server: enables the `feedback` tool.")
@click.option("--feedback-project", default=None, help="The project id on the feedback server.")
def mcp(
    site: Path,
    transport: str,
    host: str,
    port: int,
    site_url: str | None,
    allow_host: tuple[str, ...],
    feedback_url: str | None,
    feedback_project: str | None,
) -> None:
    """Serve a built site (the output folder of `docsgen build`) over the Model Context Protocol."""
    if not site.is_dir():
        raise click.UsageError(f"{site}: not a folder; give the output folder of `docsgen build`")
    if bool(feedback_url) != bool(feedback_project):
        raise click.UsageError("--feedback-url and --feedback-project go together")
    if feedback_url and not feedback_url.startswith(("http://", "https://")):
        raise click.UsageError(f"--feedback-url must be an http(s) URL, got {feedback_url!r}")
    index = SiteIndex(site, site_url)
    if not index.pages:
        raise click.UsageError(
            f"{site}: no page twins (page.md beside each page) found; build the site with `docsgen build` first"
        )
    for note in index.skipped:
        click.echo(f"docsgen mcp: {note}", err=True)
    click.echo(f"docsgen mcp: {len(index.pages)} page(s) indexed from {site}", err=True)
    server = create_server(index, feedback_url=feedback_url, feedback_project=feedback_project)
    if transport == "stdio":
        server.run("stdio")
    else:
        click.echo(f"docsgen mcp: serving http://{host}:{port}/mcp", err=True)
        security = transport_security(host, port, site_url, allow_host)
        server.run("streamable-http", host=host, port=port, transport_security=security)
