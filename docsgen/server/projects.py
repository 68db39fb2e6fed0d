"""Projects: the id readers post to, the browser origins allowed to post, and the folders a deployment builds."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Row

from docsgen.server.db import now_ms, projects

PROJECT_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def normalize_origin(origin: str) -> str:
    """Return `scheme://host[:port]` in lower case, or raise ValueError for anything that is not an origin."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise ValueError(f"not an origin (scheme://host[:port]): {origin!r}")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"not an origin (scheme://host[:port]): {origin!r}")
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{parts.hostname.lower()}{port}"


def add_project(
    conn: Connection,
    project_id: str,
    origins: list[str] | None = None,
    docs_dir: Path | None = None,
    out_dir: Path | None = None,
) -> bool:
    """Create a project, or update the given settings of an existing one; return True when it was created."""
    if not PROJECT_ID_RE.match(project_id):
        raise ValueError(
            f"project id must be 1-64 letters, digits, '_' or '-', starting with a letter or digit: {project_id!r}"
        )
    values: dict = {}
    if origins:
        values["origins"] = json.dumps(sorted({normalize_origin(o) for o in origins}))
    if docs_dir is not None:
        values["docs_dir"] = str(docs_dir.resolve())
    if out_dir is not None:
        values["out_dir"] = str(out_dir.resolve())
    exists = conn.execute(select(projects.c.id).where(projects.c.id == project_id)).scalar() is not None
    if exists:
        if values:
            conn.execute(update(projects).where(projects.c.id == project_id).values(**values))
        return False
    conn.execute(insert(projects).values(id=project_id, created_ms=now_ms(), **{"origins": "[]", **values}))
    return True


def get_project(conn: Connection, project_id: str):
    """Return the project's row, or None."""
    return conn.execute(select(projects).where(projects.c.id == project_id)).first()


def list_projects(conn: Connection) -> Sequence[Row]:
    """Return every project row, by id."""
    return conn.execute(select(projects).order_by(projects.c.id)).all()


def origins_of(project) -> list[str]:
    """Return a project's allowed origins."""
    return json.loads(project.origins or "[]")
