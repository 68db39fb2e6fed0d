"""Diagnostics as data: every problem a user can cause is a Diagnostic, never a traceback."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from enum import StrEnum

import click


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One located problem: code, message, file, line, column, JSON path, severity."""

    path: str = ""  # file relative to the docs folder (or a URL), "" when not about a file
    line: int = 0  # 1-based; 0 when unknown
    column: int = 0  # 1-based; 0 when unknown
    code: str = ""  # e.g. "config.schema", "nav.missing-page", "mdx.unknown-component"
    message: str = ""
    severity: Severity = Severity.ERROR
    json_path: str = ""  # e.g. navigation.tabs[1].groups[0].pages[3]
    hint: str = field(default="", compare=False)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def location(self) -> str:
        """Return `file:line:column` (as much as is known)."""
        loc = self.path or "<site>"
        if self.line:
            loc += f":{self.line}"
            if self.column:
                loc += f":{self.column}"
        return loc

    def format(self) -> str:
        """Return the one-line human form printed by the CLI."""
        text = f"{self.location()}: {self.severity.value}: {self.message}"
        if self.json_path:
            text += f" (at {self.json_path})"
        text += f" [{self.code}]" if self.code else ""
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text

    def to_json(self) -> dict:
        """Return a JSON-ready dict for --format json."""
        data = asdict(self)
        data["severity"] = self.severity.value
        return data

    def as_warning(self) -> Diagnostic:
        """Return this diagnostic as a warning (a page's own problem in a plain build)."""
        return dataclasses.replace(self, severity=Severity.WARNING)

    def as_error(self) -> Diagnostic:
        """Return this diagnostic promoted to an error (for --strict)."""
        return Diagnostic(
            self.path,
            self.line,
            self.column,
            self.code,
            self.message,
            Severity.ERROR,
            self.json_path,
            self.hint,
        )


def error(
    code: str,
    message: str,
    path: str = "",
    line: int = 0,
    column: int = 0,
    json_path: str = "",
    hint: str = "",
) -> Diagnostic:
    """Build an error diagnostic."""
    return Diagnostic(path, line, column, code, message, Severity.ERROR, json_path, hint)


def warning(
    code: str,
    message: str,
    path: str = "",
    line: int = 0,
    column: int = 0,
    json_path: str = "",
    hint: str = "",
) -> Diagnostic:
    """Build a warning diagnostic."""
    return Diagnostic(path, line, column, code, message, Severity.WARNING, json_path, hint)


def info(
    code: str,
    message: str,
    path: str = "",
    line: int = 0,
    column: int = 0,
    json_path: str = "",
    hint: str = "",
) -> Diagnostic:
    """Build an informational diagnostic (shown with --verbose)."""
    return Diagnostic(path, line, column, code, message, Severity.INFO, json_path, hint)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """Tell whether any diagnostic is an error."""
    return any(d.is_error for d in diagnostics)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Order diagnostics by file, line and column, removing exact duplicates."""
    return sorted(set(diagnostics))


class DocsgenError(click.ClickException):
    """A user error: printed as located diagnostics, exit code 1, no traceback."""

    exit_code = 1

    def __init__(self, diagnostics: list[Diagnostic] | str):
        if isinstance(diagnostics, str):
            diagnostics = [error("docsgen.error", diagnostics)]
        self.diagnostics = sort_diagnostics(diagnostics)
        errors = [d for d in self.diagnostics if d.is_error]
        super().__init__(f"{len(errors)} error(s)")

    def format_message(self) -> str:
        lines = [d.format() for d in self.diagnostics]
        errors = sum(1 for d in self.diagnostics if d.is_error)
        warnings = sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)
        lines.append(f"{errors} error(s), {warnings} warning(s)")
        return "\n".join(lines)

    def show(self, file=None) -> None:  # click's hook
        click.echo(self.format_message(), err=True, file=file)

    def to_json(self) -> str:
        """Return the diagnostics as a JSON document."""
        return json.dumps([d.to_json() for d in self.diagnostics], indent=2)
