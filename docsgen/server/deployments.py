"""Trigger deployment: rebuild a project's docs in the background and swap the published site atomically."""

from __future__ import annotations

import json
import logging
import os
import secrets
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from docsgen.server.apierror import ApiError
from docsgen.server.db import deployments, now_ms
from docsgen.server.feedback import format_time
from docsgen.server.isolated_build import (
    DEFAULT_TARGET,
    BuildLimits,
    Outcome,
    failure,
    outcome_of,
    run_isolated,
)

log = logging.getLogger("docsgen.server")
# A callable runs in the server's own thread (tests use fakes); a "module:function" name runs in a child process.
BuildFn = Callable[..., object] | str
ACTIVE = ("queued", "running")
KEEP_RELEASES = 2  # the published one and the one before it (for a manual rollback)


def releases_dir(out_dir: Path) -> Path:
    """Return the hidden folder beside `out_dir` that holds complete builds."""
    return out_dir.parent / f".{out_dir.name}.releases"


def publish(release: Path, out_dir: Path) -> None:
    """Point `out_dir` (a symlink) at a finished build with one atomic rename."""
    if out_dir.exists() and not out_dir.is_symlink():
        # One-time conversion of a plain folder: keep it as a release; later swaps are atomic symlink renames.
        os.rename(out_dir, releases_dir(out_dir) / f"initial-{now_ms()}")
    link = out_dir.parent / f".{out_dir.name}.link-{secrets.token_hex(4)}"
    os.symlink(os.path.relpath(release, out_dir.parent), link)
    os.replace(link, out_dir)


def prune_releases(out_dir: Path) -> None:
    """Delete old releases, keeping the published one and its predecessor."""
    folder = releases_dir(out_dir)
    current = out_dir.resolve()
    others = sorted((p for p in folder.iterdir() if p.resolve() != current), key=lambda p: p.stat().st_mtime)
    for old in others[: max(0, len(others) - (KEEP_RELEASES - 1))]:
        shutil.rmtree(old, ignore_errors=True)


class Deployer:
    """Start builds from background threads; the database allows one queued or running deployment per project.

    Each build runs in a child process within `limits` (see isolated_build), so a crashing, hanging or
    memory-hungry build fails its deployment and nothing else.
    """

    def __init__(self, engine: Engine, build_fn: BuildFn | None = None, limits: BuildLimits | None = None):
        self.engine = engine
        self.build_fn = build_fn or DEFAULT_TARGET
        self.limits = limits or BuildLimits()
        self.threads: dict[str, threading.Thread] = {}

    def recover(self) -> None:
        """Fail deployments left queued or running by a server that stopped mid-build."""
        with self.engine.begin() as conn:
            conn.execute(
                update(deployments)
                .where(deployments.c.status.in_(ACTIVE))
                .values(
                    status="failed",
                    finished_ms=now_ms(),
                    summary="interrupted: the server stopped during the build",
                )
            )

    def start(self, project, strict: bool = False) -> dict:
        """Queue a rebuild of `project` (a projects row) and return the deployment; 409 if one is active."""
        if not project.docs_dir or not project.out_dir:
            raise ApiError(
                409,
                "deployment_not_configured",
                f"project {project.id} has no docs and output folders: "
                f"run `docsgen server projects add {project.id} --docs DIR --out DIR`",
            )
        dep_id = "dep_" + secrets.token_hex(8)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(deployments).values(
                        id=dep_id,
                        project_id=project.id,
                        status="queued",
                        created_ms=now_ms(),
                        summary="",
                        log="{}",
                    )
                )
        except IntegrityError:
            with self.engine.connect() as conn:
                active = conn.execute(
                    select(deployments.c.id).where(
                        deployments.c.project_id == project.id, deployments.c.status.in_(ACTIVE)
                    )
                ).scalar()
            raise ApiError(
                409, "deployment_in_progress", f"deployment {active} of project {project.id} is still running"
            ) from None
        thread = threading.Thread(
            target=self._run,
            args=(dep_id, Path(project.docs_dir), Path(project.out_dir), strict),
            name=f"deploy-{dep_id}",
            daemon=True,
        )
        self.threads[dep_id] = thread
        thread.start()
        return self.get(project.id, dep_id)

    def get(self, project_id: str, dep_id: str) -> dict:
        """Return a deployment as the API shows it, or raise 404."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(deployments).where(deployments.c.id == dep_id, deployments.c.project_id == project_id)
            ).first()
        if row is None:
            raise ApiError(404, "not_found", f"no deployment {dep_id!r} in project {project_id}", "id")
        details = json.loads(row.log or "{}")
        return {
            "id": row.id,
            "projectId": row.project_id,
            "status": row.status,
            "createdAt": format_time(row.created_ms),
            "startedAt": format_time(row.started_ms),
            "finishedAt": format_time(row.finished_ms),
            "summary": row.summary,
            "errors": details.get("errors", []),
            "warnings": details.get("warnings", []),
        }

    def wait(self, dep_id: str, timeout: float | None = None) -> None:
        """Block until a deployment's thread ends (for tests and the CLI)."""
        thread = self.threads.get(dep_id)
        if thread is not None:
            thread.join(timeout)

    def _finish(self, dep_id: str, status: str, summary: str, errors: list, warnings: list) -> None:
        with self.engine.begin() as conn:
            conn.execute(  # only a running deployment finishes: a restart may have failed it meanwhile
                update(deployments)
                .where(deployments.c.id == dep_id, deployments.c.status == "running")
                .values(
                    status=status,
                    finished_ms=now_ms(),
                    summary=summary,
                    log=json.dumps({"errors": errors, "warnings": warnings}),
                )
            )

    def _build(self, docs_dir: Path, release: Path, strict: bool) -> Outcome:
        if callable(self.build_fn):
            return outcome_of(self.build_fn, docs_dir, release, strict)
        return run_isolated(docs_dir, release, strict, self.limits, self.build_fn)

    def _run(self, dep_id: str, docs_dir: Path, out_dir: Path, strict: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(deployments)
                .where(deployments.c.id == dep_id)
                .values(status="running", started_ms=now_ms())
            )
        release = releases_dir(out_dir) / dep_id
        try:
            release.parent.mkdir(parents=True, exist_ok=True)
            outcome = self._build(docs_dir, release, strict)
            if outcome.ok:
                publish(release, out_dir)
        except Exception as exc:  # a bug or an I/O problem: report it, keep the last good site
            log.exception("deployment %s failed", dep_id)
            outcome = failure("deploy.internal", "internal error", f"{type(exc).__name__}: {exc}")
        if not outcome.ok:
            shutil.rmtree(release, ignore_errors=True)
            self._finish(dep_id, "failed", outcome.summary, outcome.errors, outcome.warnings)
            return
        try:
            prune_releases(out_dir)
        except OSError:
            log.warning("could not prune old releases of %s", out_dir, exc_info=True)
        self._finish(dep_id, "succeeded", outcome.summary, [], outcome.warnings)
