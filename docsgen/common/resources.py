"""Find the package data (themes, schemas) and the version, whether installed from a wheel or run from a checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]
_REPO = _PACKAGE.parent

# The distribution's name on the package index (`docsgen` there is an unrelated project); the command and the
# import name are `docsgen`.
DISTRIBUTION = "docsgen-sites"


def install_command(extra: str | None = None) -> str:
    """Return the pip command that installs docsgen (with an extra): every message and doc names this one."""
    return f"pip install '{DISTRIBUTION}[{extra}]'" if extra else f"pip install {DISTRIBUTION}"


@cache
def version() -> str:
    """Return docsgen's version from the installed package's metadata, else from the checkout's pyproject.toml.

    importlib.metadata is imported here only (with email, zipfile, csv...: ~25 ms of every start-up): `--version`
    and `docsgen ci` ask for the version, a build does not."""
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed (PYTHONPATH)
        pass
    import tomllib  # only here: a checkout run without installing

    try:
        project = tomllib.loads((_REPO / "pyproject.toml").read_text(encoding="utf-8")).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return "unknown"
    if project.get("name") != DISTRIBUTION or not isinstance(project.get("version"), str):
        return "unknown"
    return f"{project['version']}+checkout"


@cache
def data_dir(name: str) -> Path:
    """Return the folder of `themes` or `schemas`: shipped inside the package (docsgen/themes, docsgen/schemas) by a
    wheel, beside it in a checkout. (Found by path, as importlib.resources.files finds a package installed in a
    folder, without importing importlib.resources: every build asks.)"""
    found = _PACKAGE / name
    if found.is_dir() and any(p.name != "__init__.py" for p in found.iterdir()):
        return found
    return _REPO / name


def schema_path() -> Path:
    """Return the path of the docs.json JSON Schema."""
    return data_dir("schemas") / "docs.schema.json"


def themes_dir() -> Path:
    """Return the folder holding every theme."""
    return data_dir("themes")
