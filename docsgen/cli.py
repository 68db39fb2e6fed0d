"""The docsgen command line: argument parsing only; every command calls one function of the package."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import click

from docsgen.common.errors import DocsgenError, Severity


def _progress_printer():
    """Return (progress callback, close) : a rich bar on a terminal, plain lines in CI or pipes."""
    if sys.stderr.isatty() and not os.environ.get("CI"):
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskID,
            TextColumn,
            TimeElapsedColumn,
        )

        bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            transient=True,
        )
        bar.start()
        tasks: dict[str, TaskID] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        return update, bar.stop
    step = {"last": -1}

    def plain(stage: str, done: int, total: int) -> None:
        tenth = done * 10 // max(total, 1)
        if tenth != step["last"]:
            step["last"] = tenth
            click.echo(f"{stage}: {done}/{total}", err=True)

    return plain, lambda: None


def _print_diagnostics(diagnostics, *, verbose: bool = False) -> None:
    for d in diagnostics:
        if d.severity is Severity.INFO and not verbose:
            continue
        click.echo(d.format(), err=True)


# Commands that live with their feature: name -> (module, attribute, one-line help). Their modules are imported
# only when the command runs (or its own --help is asked for), so `docsgen --help` and `docsgen build` start fast.
_FEATURE_COMMANDS = {
    "openapi-check": (
        "docsgen.openapi.check",
        "openapi_check",
        "Validate OpenAPI 3.0/3.1 specs (files or URLs).",
    ),
    "openapi": ("docsgen.openapi.scaffold", "openapi", "Work with OpenAPI specs (scaffold pages)."),
    "dev": ("docsgen.dev.cli", "dev", "Preview the site with live reload."),
    "broken-links": (
        "docsgen.commands.broken_links",
        "broken_links",
        "Check every internal link and anchor (and optionally external ones).",
    ),
    "mcp": ("docsgen.mcp.server", "mcp", "Serve a built site to AI agents over the Model Context Protocol."),
    "a11y": (
        "docsgen.commands.a11y",
        "a11y",
        "Check colour contrast and text alternatives of images and videos.",
    ),
    "server": (
        "docsgen.server.cli",
        "server",
        "Run the optional feedback server and manage its projects and keys.",
    ),
}


class _LazyGroup(click.Group):
    """A click group whose feature commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_FEATURE_COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is not None or name not in _FEATURE_COMMANDS:
            return command
        import importlib

        module_name, attr, _ = _FEATURE_COMMANDS[name]
        command = getattr(importlib.import_module(module_name), attr)
        self.add_command(command, name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, cmd.get_short_help_str(70)) for name, cmd in sorted(self.commands.items())]
        rows += [(name, entry[2]) for name, entry in _FEATURE_COMMANDS.items() if name not in self.commands]
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """--version: the installed package's version (read only when asked: `docsgen build` starts no slower)."""
    if not value or ctx.resilient_parsing:
        return
    from docsgen.common.resources import DISTRIBUTION, version

    click.echo(f"docsgen {version()} ({DISTRIBUTION})")
    ctx.exit()


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
def main() -> None:
    """docsgen: documentation sites from docs.json, MDX and OpenAPI."""


_QUICK_EXIT: list[bool] = []  # set by commands whose process may end without tearing the interpreter down


def entry() -> None:
    """Console script: run the CLI; after a build, end the process without freeing every object one by one.

    A build of a large spec leaves hundreds of MB of parsed objects; freeing them at interpreter shutdown took
    0.3-0.4 s of a 5 s build of GitHub's spec. Output is flushed first; nothing of a build runs at exit.
    """
    try:
        main()
        code: int | str | None = 0
    except SystemExit as exc:
        code = exc.code
    except ModuleNotFoundError as exc:  # an optional feature run without its extra installed
        code = _missing_extra(exc)
    except KeyboardInterrupt:
        code = 130
    except Exception as exc:  # a bug of ours: one readable line, the traceback only when asked for
        if os.environ.get("DOCSGEN_DEBUG"):
            raise
        code = f"docsgen: internal error: {type(exc).__name__}: {exc} (set DOCSGEN_DEBUG=1 for the traceback)"
    if not _QUICK_EXIT:
        sys.exit(code)
    if isinstance(code, str):
        click.echo(code, err=True)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:  # None: started with that descriptor closed
            with contextlib.suppress(OSError, ValueError):  # a reader that went away (`docsgen build | head`)
                stream.flush()
    os._exit(code or 0)


# Optional dependencies by the extra that installs them, for the message when a command needs one that is missing.
_EXTRAS = {
    "httpx": "links",
    "starlette": "server",
    "uvicorn": "server",
    "sqlalchemy": "server",
    "psycopg": "server",
    "mcp": "mcp",
}


def _missing_extra(exc: ModuleNotFoundError) -> str:
    """Return the message for a command whose optional dependency is not installed."""
    from docsgen.common.resources import install_command

    top = (exc.name or "").split(".")[0]
    extra = _EXTRAS.get(top)
    if extra is None:
        return f"docsgen: a required module is missing: {exc.name} (reinstall docsgen: {install_command()})"
    return (
        f"docsgen: this command needs the '{extra}' extra ({top} is not installed): {install_command(extra)}"
    )


@main.command()
@click.argument("docs_dir", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "-o",
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder [default: DOCS_DIR/_site].",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("-v", "--verbose", is_flag=True, help="Also list accepted-but-ignored docs.json fields.")
@click.option("--no-cache", is_flag=True, help="Render every page again instead of reusing unchanged ones.")
@click.option(
    "--workers", type=click.IntRange(min=1), help="Render processes [default: one per CPU; small sites: 1]."
)
@click.option(
    "--site-url",
    envvar="DOCSGEN_SITE_URL",
    help="Public URL of the site (for sitemap.xml, canonical links) [env: DOCSGEN_SITE_URL].",
)
@click.option("--timings", is_flag=True, help="Print the seconds each build stage took.")
def build(
    docs_dir: Path,
    out_dir: Path | None,
    strict: bool,
    verbose: bool,
    no_cache: bool,
    workers: int | None,
    site_url: str | None,
    timings: bool,
) -> None:
    """Build the static site."""
    from docsgen.build import build as run_build

    if not docs_dir.is_dir():
        raise DocsgenError(f"docs folder '{docs_dir}' does not exist")
    out_dir = out_dir or docs_dir / "_site"
    progress, close = _progress_printer()
    try:
        result = run_build(
            docs_dir,
            out_dir,
            strict=strict,
            verbose=verbose,
            progress=progress,
            site_url=site_url,
            cache=False if no_cache else None,
            workers=workers,
        )
    finally:
        close()
    _print_diagnostics(result.diagnostics, verbose=verbose)
    if timings:
        click.echo(result.timings.table(result.seconds), err=True)
    click.echo(result.summary())
    _QUICK_EXIT.append(True)


@main.command()
@click.argument("docs_dir", default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--strict", is_flag=True, help="Treat warnings (such as missing pages) as errors.")
@click.option("-v", "--verbose", is_flag=True, help="List the docs.json fields docsgen accepts but ignores.")
def validate(docs_dir: Path, strict: bool, verbose: bool) -> None:
    """Check docs.json, the navigation and every page without writing a site."""
    from docsgen.commands.validate_site import check_pages
    from docsgen.site.read import read_site

    if not docs_dir.is_dir():
        raise DocsgenError(f"docs folder '{docs_dir}' does not exist")
    from docsgen.config.rules import promote_spec_rules

    site = read_site(docs_dir, verbose=verbose)
    diagnostics = promote_spec_rules(sorted(set(check_pages(site))))  # every page's MDX, as `build` reads it
    if strict:
        diagnostics = [d.as_error() if d.severity is Severity.WARNING else d for d in diagnostics]
    if any(d.is_error for d in diagnostics):
        raise DocsgenError(diagnostics)
    _print_diagnostics(diagnostics, verbose=verbose)
    warnings = sum(1 for d in diagnostics if d.severity is Severity.WARNING)
    pages = f"{len(site.pages)} page{'s' * (len(site.pages) != 1)}"
    if warnings:
        pages = f"with {warnings} warning{'s' * (warnings != 1)} ({pages}; --strict makes them errors)"
    click.echo(f"{docs_dir}: valid {pages if warnings else f'({pages})'}")


@main.command()
@click.option(
    "-o",
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    help="Folder to create the starter site in.",
)
@click.option("--name", default="My Docs", help="Site name.")
@click.option(
    "--ci",
    type=click.Choice(["github-pages", "gitlab-pages", "netlify", "cloudflare"]),
    help="Also write a CI file (in the working directory, the repository root) that installs docsgen, builds "
    "the site with --strict and publishes it. With a docs.json already in FOLDER, only the CI file is written.",
)
def init(out_dir: Path, name: str, ci: str | None) -> None:
    """Write a small working starter site (refuses to overwrite files)."""
    from docsgen.commands.init_site import write_starter

    if ci:
        from docsgen.commands.ci_recipes import init_with_ci

        written = init_with_ci(Path(), out_dir, name, ci)
    else:
        written = write_starter(out_dir, name)
    for path in written:
        click.echo(f"created {path}")
    click.echo(f"Next: docsgen build {out_dir} && docsgen dev {out_dir}")


@main.command()
@click.argument("docs_dir", default=".", type=click.Path(file_okay=False, path_type=Path))
def migrate(docs_dir: Path) -> None:
    """Convert a legacy mint.json into docs.json."""
    from docsgen.config.legacy import migrate_mint_json

    path, diagnostics = migrate_mint_json(docs_dir)
    _print_diagnostics(diagnostics)
    click.echo(f"wrote {path}")
