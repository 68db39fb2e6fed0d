"""`docsgen server auth ...`: how readers sign in to a project's site served with `docsgen server run --site`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

ENV_HELP = "Name of an environment variable holding it (kept out of shell history and process lists)."


@click.group("auth")
def auth() -> None:
    """Require sign-in to a project's site: a password, a JWT from your app, or OAuth 2.0 / OpenID Connect."""


def _engine(db: str | None):
    from docsgen.server.cli import _engine as open_engine

    return open_engine(db)


def _secret(env: str | None, what: str) -> str | None:
    if env is None:
        return None
    value = os.environ.get(env)
    if not value:
        raise click.ClickException(f"the environment variable {env} holding the {what} is empty or unset")
    return value


@auth.command("set")
@click.argument("project_id")
@click.option("--password-env", metavar="VAR", help="Shared password, read from this variable. " + ENV_HELP)
@click.option(
    "--jwt-key",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="PEM public key verifying the JWTs your app hands over at /login/jwt-callback#<JWT> (EdDSA, ES256, RS256...).",
)
@click.option(
    "--login-url", metavar="URL", help="Your app's login page (JWT): readers are sent there with ?redirect=."
)
@click.option(
    "--oidc-issuer",
    metavar="URL",
    help="OpenID Connect issuer (its /.well-known/openid-configuration is read).",
)
@click.option("--client-id", metavar="ID", help="OAuth client id.")
@click.option(
    "--client-secret-env", metavar="VAR", help="OAuth client secret (optional with PKCE). " + ENV_HELP
)
@click.option("--scopes", default="openid", show_default=True, help="OAuth scopes, space-separated.")
@click.option(
    "--groups-claim", default="groups", show_default=True, help="ID token claim holding the groups."
)
@click.option(
    "--groups-delimiter", default=None, help="Split a string groups claim on this (1-4 characters)."
)
@click.option(
    "--info-url", metavar="URL", help="Endpoint returning the reader's user data for the access token."
)
@click.option("--personalization", is_flag=True, help="Identify readers without restricting any page.")
@click.option("--db", "db", metavar="URL", default=None, help="Database URL (as for `docsgen server run`).")
def auth_set(project_id: str, **options) -> None:
    """Set how readers sign in to PROJECT's site (one method)."""
    from docsgen.server.projects import get_project
    from docsgen.server.site_auth import hash_password, save_auth

    chosen = [
        m
        for m, on in (
            ("password", options["password_env"]),
            ("jwt", options["jwt_key"]),
            ("oauth", options["oidc_issuer"]),
        )
        if on
    ]
    if len(chosen) != 1:
        raise click.UsageError("give exactly one of --password-env, --jwt-key, --oidc-issuer")
    method = chosen[0]
    config: dict = {"method": method, "mode": "personalization" if options["personalization"] else "full"}
    if method == "password":
        config["passwordHash"] = hash_password(_secret(options["password_env"], "password") or "")
    elif method == "jwt":
        text = options["jwt_key"].read_text(encoding="utf-8")
        if "PRIVATE KEY" in text:
            raise click.ClickException("--jwt-key holds a PRIVATE key: give the server only the public key")
        config["publicKey"] = text
        if options["login_url"]:
            config["loginUrl"] = options["login_url"]
    else:
        if not options["client_id"]:
            raise click.UsageError("--oidc-issuer needs --client-id")
        config.update(issuer=options["oidc_issuer"], clientId=options["client_id"], scopes=options["scopes"])
        config["groupsClaim"] = options["groups_claim"]
        if options["groups_delimiter"]:
            if not 1 <= len(options["groups_delimiter"]) <= 4:
                raise click.UsageError("--groups-delimiter is 1 to 4 characters")
            config["groupsDelimiter"] = options["groups_delimiter"]
        for key, option in (("clientSecret", "client_secret_env"), ("infoUrl", "info_url")):
            value = _secret(options[option], "client secret") if key == "clientSecret" else options[option]
            if value:
                config[key] = value
    with _engine(options["db"]).begin() as conn:
        if get_project(conn, project_id) is None:
            raise click.ClickException(f"no project {project_id!r}: run `docsgen server projects add` first")
        save_auth(conn, project_id, config)
    click.echo(f"readers of {project_id} sign in by {method}", err=True)


@auth.command("clear")
@click.argument("project_id")
@click.option("--db", "db", metavar="URL", default=None, help="Database URL.")
def auth_clear(project_id: str, db: str | None) -> None:
    """Open PROJECT's site to everyone again."""
    from docsgen.server.site_auth import save_auth

    with _engine(db).begin() as conn:
        save_auth(conn, project_id, None)
    click.echo(f"{project_id}: no sign-in", err=True)


@auth.command("show")
@click.argument("project_id")
@click.option("--db", "db", metavar="URL", default=None, help="Database URL.")
def auth_show(project_id: str, db: str | None) -> None:
    """Print PROJECT's sign-in settings as JSON (secrets left out)."""
    from docsgen.server.site_auth import load_auth

    with _engine(db).connect() as conn:
        config = load_auth(conn, project_id)
    hidden = {"passwordHash", "clientSecret"}
    click.echo(
        json.dumps({k: v for k, v in (config or {}).items() if k not in hidden}, indent=2, sort_keys=True)
    )
