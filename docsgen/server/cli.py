"""`docsgen server ...`: run the feedback server and manage its projects and admin keys.

Only click is imported at module level, so `docsgen build` works without the [server] extra.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click

from docsgen.server.limits import (
    DEFAULT_BUILD_MEMORY,
    DEFAULT_BUILD_TIMEOUT,
    DEFAULT_MAX_BODY,
    DEFAULT_RATE_LIMIT,
)

DB_HELP = "Database URL (sqlite:///file or postgresql://...); default $DOCSGEN_DATABASE_URL, else ./docsgen-feedback.sqlite3."


def _engine(db: str | None):
    try:
        from docsgen.server.db import open_database
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        from docsgen.common.resources import install_command

        raise click.ClickException(
            f"the feedback server needs: {install_command('server')} ({exc})"
        ) from None
    try:
        return open_database(db)
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database is a user problem, not a traceback
        raise click.ClickException(f"cannot open the database: {exc}") from None


def _when(ms: int | None) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%SZ") if ms else "-"


db_option = click.option("--db", "db", metavar="URL", default=None, help=DB_HELP)


@click.group("server")
def server() -> None:
    """Run the optional feedback server and manage its projects and admin keys."""


@server.command("run")
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="TCP port.")
@click.option(
    "--rate-limit",
    default=DEFAULT_RATE_LIMIT,
    show_default=True,
    type=click.IntRange(0),
    help="Feedback POSTs per client per minute (0: no limit).",
)
@click.option(
    "--max-body",
    default=DEFAULT_MAX_BODY,
    show_default=True,
    type=click.IntRange(1024),
    help="Largest request body in bytes (the default fits the longest valid entry, fully \\u-escaped).",
)
@click.option(
    "--forwarded-allow-ips",
    default=None,
    metavar="IPS",
    help="Comma-separated proxy addresses or networks whose X-Forwarded-For/-Proto are trusted "
    "(like uvicorn's option); default: none, not even loopback.",
)
@click.option(
    "--build-timeout",
    default=DEFAULT_BUILD_TIMEOUT,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds a deployment build may run before it is stopped and fails (0: no limit).",
)
@click.option(
    "--build-memory",
    default=DEFAULT_BUILD_MEMORY // 2**20,
    show_default=True,
    type=click.IntRange(0),
    help="Address space in MiB a deployment build may use before it fails as out of memory (0: no limit).",
)
@click.option(
    "--site",
    "site_project",
    default=None,
    metavar="PROJECT",
    help="Also serve this project's published site at / behind its sign-in gate (`docsgen server auth`).",
)
@click.option(
    "--analytics-retention",
    "retention_days",
    default=395,
    show_default=True,
    type=click.IntRange(0),
    help="Days analytics events and assistant conversations are kept (0: forever).",
)
@click.option(
    "--analytics-rate",
    "visitor_rate",
    default=120,
    show_default=True,
    type=click.IntRange(0),
    help="Analytics batches per visitor per minute (0: no limit).",
)
@click.option(
    "--model-url",
    default=None,
    metavar="URL",
    help="The assistant's model: an OpenAI-compatible API base (https://api.openai.com/v1, "
    "http://127.0.0.1:11434/v1 for Ollama, ...); its key is read from $DOCSGEN_MODEL_API_KEY. "
    "Without it the assistant answers with the best passages.",
)
@click.option(
    "--model", "model_name", default=None, metavar="NAME", help="The model name sent to --model-url."
)
@click.option(
    "--assistant-rate",
    default=20,
    show_default=True,
    type=click.IntRange(0),
    help="Assistant questions per client per minute (0: no limit).",
)
def run(
    db: str | None,
    host: str,
    port: int,
    rate_limit: int,
    max_body: int,
    forwarded_allow_ips: str | None,
    build_timeout: float,
    build_memory: int,
    site_project: str | None,
    retention_days: int,
    visitor_rate: int,
    model_url: str | None,
    model_name: str | None,
    assistant_rate: int,
) -> None:
    """Serve the feedback API (and, with --site, a project's site)."""
    import uvicorn

    from docsgen.server.analytics_api import AnalyticsOptions
    from docsgen.server.app import create_app
    from docsgen.server.assistant_api import AssistantOptions
    from docsgen.server.isolated_build import BuildLimits
    from docsgen.server.model import ModelConfig

    app = create_app(
        engine=_engine(db),
        rate_limit=rate_limit,
        max_body=max_body,
        forwarded_allow_ips=forwarded_allow_ips,
        build_limits=BuildLimits(timeout=build_timeout, memory=build_memory * 2**20),
        site_project=site_project,
        analytics=AnalyticsOptions(retention_days=retention_days, visitor_rate=visitor_rate),
        assistant=AssistantOptions(ModelConfig.from_options(model_url, model_name), assistant_rate),
    )
    # The app applies --forwarded-allow-ips itself; uvicorn's own default would trust loopback peers.
    uvicorn.run(app, host=host, port=port, log_level="info", server_header=False, proxy_headers=False)


@server.group("keys")
def keys() -> None:
    """Create, list and revoke admin API keys."""


@keys.command("create")
@click.option("--project", "project_id", required=True, help="The project the key may read and manage.")
@db_option
def keys_create(project_id: str, db: str | None) -> None:
    """Create an admin key and print it (only the key) on stdout; it cannot be shown again."""
    from docsgen.server.keys import create_key

    engine = _engine(db)
    try:
        with engine.begin() as conn:
            key = create_key(conn, project_id)
    except LookupError:
        raise click.ClickException(
            f"no project {project_id!r}: run `docsgen server projects add {project_id}` first"
        ) from None
    click.echo(key)


@keys.command("list")
@click.option("--project", "project_id", default=None, help="Only this project's keys.")
@db_option
def keys_list(project_id: str | None, db: str | None) -> None:
    """List key ids (never the keys), their project and whether they are revoked."""
    from docsgen.server.keys import PREFIX, list_keys

    with _engine(db).connect() as conn:
        for info in list_keys(conn, project_id):
            state = f"revoked {_when(info.revoked_ms)}" if info.revoked_ms else "active"
            click.echo(f"{PREFIX}{info.id}...\t{info.project_id}\tcreated {_when(info.created_ms)}\t{state}")


@keys.command("revoke")
@click.argument("key_id")
@db_option
def keys_revoke(key_id: str, db: str | None) -> None:
    """Revoke a key, given its id as `keys list` shows it (or the whole key)."""
    from docsgen.server.keys import revoke_key

    with _engine(db).begin() as conn:
        if not revoke_key(conn, key_id.removesuffix("...")):
            raise click.ClickException(f"no active key {key_id!r}")
    click.echo(f"revoked {key_id}", err=True)


@server.group("projects")
def projects() -> None:
    """Register projects: allowed browser origins and the folders deployments build."""


@projects.command("add")
@click.argument("project_id")
@click.option(
    "--origin",
    "origins",
    multiple=True,
    metavar="URL",
    help="Browser origin allowed to post feedback (repeatable).",
)
@click.option(
    "--docs",
    "docs_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Docs folder deployments build.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder deployments publish to.",
)
@db_option
def projects_add(
    project_id: str, origins: tuple[str, ...], docs_dir: Path | None, out_dir: Path | None, db: str | None
) -> None:
    """Create a project or update its origins and folders."""
    from docsgen.server.projects import add_project

    if (docs_dir is None) != (out_dir is None):
        raise click.UsageError("--docs and --out go together")
    engine = _engine(db)
    try:
        with engine.begin() as conn:
            created = add_project(conn, project_id, list(origins), docs_dir, out_dir)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{'created' if created else 'updated'} project {project_id}", err=True)


@projects.command("list")
@db_option
def projects_list(db: str | None) -> None:
    """List projects with their origins and folders."""
    from docsgen.server.projects import list_projects, origins_of

    with _engine(db).connect() as conn:
        for row in list_projects(conn):
            origins = ",".join(origins_of(row)) or "-"
            click.echo(f"{row.id}\torigins={origins}\tdocs={row.docs_dir or '-'}\tout={row.out_dir or '-'}")


from docsgen.server.auth_cli import auth  # noqa: E402 - the command group below the others

server.add_command(auth)

if __name__ == "__main__":  # `python -m docsgen.server.cli run ...` before the lead registers the group
    server()
