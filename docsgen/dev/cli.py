"""`docsgen dev`: argument parsing only; docsgen.dev.app does the work."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("dev")
@click.argument("docs_dir", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--port", default=3000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on."
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (keep it local).")
@click.option("--open", "open_browser", is_flag=True, help="Open the site in the default browser.")
@click.option("--next-free-port", is_flag=True, help="If the port is taken, use the next free one.")
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests for this host name (repeatable); by default only the address, localhost, "
    "127.0.0.1 and [::1].",
)
@click.option(
    "--with-integrations",
    "integrations",
    is_flag=True,
    help="Load docs.json integrations (analytics, chat, consent scripts) in previewed pages; left out by default.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    help="Render processes of the background pass [default: one per CPU, as docsgen build; small sites: 1].",
)
def dev(
    docs_dir: Path,
    port: int,
    host: str,
    open_browser: bool,
    next_free_port: bool,
    allow_hosts: tuple[str, ...],
    integrations: bool,
    workers: int | None,
) -> None:
    """Preview the site locally, rebuilding and reloading the browser on every save. Pages render when first
    opened, the rest in the background."""
    from docsgen.dev.app import run

    run(
        docs_dir,
        host=host,
        port=port,
        open_browser=open_browser,
        next_free_port=next_free_port,
        allow_hosts=allow_hosts,
        integrations=integrations,
        workers=workers,
        echo=lambda line: click.echo(line, err=_is_problem(line)),
    )


def _is_problem(line: str) -> bool:
    """Tell whether a line reports a problem (stderr) rather than progress (stdout)."""
    return line.startswith(("warning", "error")) or ": error:" in line or ": warning:" in line
