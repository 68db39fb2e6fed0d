"""`docsgen openapi-check`: validate specs, printing every problem with its JSON path and line:column."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from jsonschema.exceptions import best_match

from docsgen.common.errors import Diagnostic, Severity, sort_diagnostics, warning
from docsgen.openapi.limits import MAX_TREE_WORK
from docsgen.openapi.load import is_url
from docsgen.openapi.messages import json_type, short
from docsgen.openapi.render import ApiSettings
from docsgen.openapi.render.endpoint import trees_cut
from docsgen.openapi.spec import Operation, Spec
from docsgen.openapi.store import SpecStore

MAX_MESSAGE = 200


def check_sources(
    sources: list[str], *, reference: bool = False, timeout: float = 20, cwd: Path | None = None
) -> tuple[list[Spec], list[Diagnostic]]:
    """Load and validate specs given on the command line (files relative to cwd, or URLs)."""
    cwd = (cwd or Path.cwd()).resolve()
    specs: list[Spec] = []
    problems: list[Diagnostic] = []
    stores: dict[Path, SpecStore] = {}
    for source in sources:
        if is_url(source):
            docs_dir, ref = cwd, source
        else:
            target = (cwd / source).resolve()
            docs_dir = cwd if target.is_relative_to(cwd) else target.parent
            ref = target.relative_to(docs_dir).as_posix()
        store = stores.setdefault(docs_dir, SpecStore(docs_dir, timeout=timeout, use_cache=False))
        spec, found = store.load(ref)
        if docs_dir != cwd:  # outside the working directory: name the file as the user wrote it
            found = [replace(d, path=source) if d.path == ref else d for d in found]
            if spec is not None:
                spec.source = source
        if spec is None:
            # In a site a spec that cannot be read only costs its pages (a warning); here it is the whole point.
            problems += [d.as_error() for d in found]
            continue
        problems += found
        specs.append(spec)
        problems += store.validate(spec, keep_errors=True)
        problems += fanout_problems(spec)
        if reference:
            problems += reference_problems(spec)
    if len(specs) > 1:
        problems += next(iter(stores.values())).validate_together(specs)
    return specs, sort_diagnostics(problems)


def too_large(spec: Spec, op: Operation) -> Diagnostic:
    """The warning of an operation whose schema trees exceed a page's work budget (the build's and the check's)."""
    line, column = spec.line_of(op.json_path)
    return warning(
        "openapi.too-large",
        f"the schemas of {op.method.upper()} {op.path} are too large to show in full "
        f"(more than {MAX_TREE_WORK:,} schema objects and alternatives expanded); the rest is shown collapsed",
        spec.source,
        line,
        column,
        spec.format_path(op.json_path),
        hint="a dense graph of oneOf/anyOf alternatives: give the alternatives fewer, flatter schemas",
    )


def fanout_problems(spec: Spec) -> list[Diagnostic]:
    """Operations and webhooks whose schema trees a build could not show in full: measured as the build does,
    by making their trees within the same per-page work budget (limits.MAX_TREE_WORK)."""
    settings = ApiSettings()
    problems = []
    for op in spec.operations():
        if trees_cut(spec.data, "paths", op.path, op.method, settings):
            problems.append(too_large(spec, op))
    for name in spec.webhooks():
        hook = spec.webhook_operation(name)
        if hook is not None and trees_cut(spec.data, "webhooks", name, None, settings):
            problems.append(too_large(spec, hook))
    return problems


def reference_problems(spec: Spec) -> list[Diagnostic]:
    """Run openapi-spec-validator (the slow reference) and report its findings located, in our words."""
    from openapi_spec_validator import OpenAPIV30SpecValidator, OpenAPIV31SpecValidator

    cls = OpenAPIV31SpecValidator if spec.is_31 else OpenAPIV30SpecValidator
    problems = []
    try:
        for found in cls(spec.data).iter_errors():
            err = best_match(found.context) if getattr(found, "context", None) else found
            path = tuple(getattr(err, "absolute_path", None) or ())
            line, column = spec.line_of(path)
            problems.append(
                warning(
                    "openapi.reference",
                    f"openapi-spec-validator: {_short_message(err)}",
                    spec.source,
                    line,
                    column,
                    spec.format_path(path) if path else "",
                )
            )
    except Exception as exc:  # noqa: BLE001 - a reference validator crash is a finding, not our crash
        problems.append(
            warning(
                "openapi.reference",
                f"openapi-spec-validator stopped: {exc.__class__.__name__}: {_short_message(exc)}",
                spec.source,
            )
        )
    return problems


def _short_message(err: Any) -> str:
    """Return the validator's message without the document it may embed."""
    message = str(
        getattr(err, "message", "") or (err.args[0] if getattr(err, "args", None) else err.__class__.__name__)
    )
    message = " ".join(message.split())
    keyword = getattr(err, "validator", None)
    if not isinstance(keyword, str):
        schema_path = list(getattr(err, "schema_path", None) or [])
        keyword = str(schema_path[-1]) if schema_path else None
    if len(message) > 120 and keyword:
        # jsonschema puts the instance first: "<the whole object> is not valid under ...". Say it in our words.
        expected = getattr(err, "validator_value", None)
        detail = f" {short(expected)}" if isinstance(expected, (str, int, float, bool)) else ""
        instance = getattr(err, "instance", None)
        return f"{json_type(instance)} here fails `{keyword}`{detail}"
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


def _summary(specs: list[Spec], problems: list[Diagnostic], elapsed: float) -> dict:
    """Counts and the verdict: valid when there is no error (with --strict, warnings were made errors first)."""
    errors = sum(1 for d in problems if d.severity is Severity.ERROR)
    warnings = sum(1 for d in problems if d.severity is Severity.WARNING)
    return {
        "valid": errors == 0,
        "errors": errors,
        "warnings": warnings,
        "seconds": round(elapsed, 3),
        "specs": [
            {
                "source": s.source,
                "version": s.version,
                "operations": len(s.operations()),
                "schemas": len(s.schemas()),
            }
            for s in specs
        ],
    }


@click.command("openapi-check")
@click.argument("sources", nargs=-1, required=True, metavar="FILE_OR_URL...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option(
    "--strict-reference",
    is_flag=True,
    help="Also run openapi-spec-validator, the slow reference validator (minutes on very large specs).",
)
@click.option("--timeout", type=float, default=20, show_default=True, help="Seconds to wait for a spec URL.")
@click.option(
    "--strict", is_flag=True, help="Treat warnings as errors (the spec is invalid when there is one)."
)
def openapi_check(
    sources: tuple[str, ...], fmt: str, strict_reference: bool, timeout: float, strict: bool
) -> None:
    """Validate OpenAPI 3.0/3.1 specs (files or URLs); exit 1 when there is an error (or, with --strict, a
    warning), else 0."""
    started = time.perf_counter()
    specs, problems = check_sources(list(sources), reference=strict_reference, timeout=timeout)
    if strict:
        problems = [d.as_error() if d.severity is Severity.WARNING else d for d in problems]
    summary = _summary(specs, problems, time.perf_counter() - started)
    if fmt == "json":
        click.echo(json.dumps({**summary, "problems": [d.to_json() for d in problems]}, indent=2))
    else:
        for diagnostic in problems:
            click.echo(diagnostic.format())
        for spec in summary["specs"]:
            click.echo(
                f"{spec['source']}: OpenAPI {spec['version']}, {spec['operations']} operations, {spec['schemas']} schemas"
            )
        verdict = (
            "invalid" if not summary["valid"] else "valid with warnings" if summary["warnings"] else "valid"
        )
        click.echo(
            f"{verdict}: {summary['errors']} error(s), {summary['warnings']} warning(s) in {summary['seconds']:.2f} s"
        )
    if not summary["valid"]:
        raise SystemExit(1)
