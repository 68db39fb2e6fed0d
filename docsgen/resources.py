"""Find the package data (themes, schemas) whether installed from a wheel or run from a checkout."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


@cache
def data_dir(name: str) -> Path:
    """Return the folder of `themes` or `schemas` (shipped as docsgen.themes / docsgen.schemas)."""
    try:
        found = Path(str(resources.files(f"docsgen.{name}")))
        if found.is_dir() and any(p.name != "__init__.py" for p in found.iterdir()):
            return found
    except ModuleNotFoundError:
        pass
    return _REPO / name


def schema_path() -> Path:
    """Return the path of the docs.json JSON Schema."""
    return data_dir("schemas") / "docs.schema.json"


def themes_dir() -> Path:
    """Return the folder holding every theme."""
    return data_dir("themes")
