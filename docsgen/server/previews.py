"""Preview deployments: a branch, pull request or posted archive built into a URL prefix of its own,
`/previews/<project>/<name>/`, listed in the dashboard and removed when it expires.

Each preview lives in `.<out>.previews/` beside the project's published folder: `<name>` is a symlink to a
finished build (swapped atomically when the preview is rebuilt), `<name>.json` its record. A name is
`[a-z0-9-]`, so no preview can reach another's folder or the published site, and one name builds at a time.
Builds run in the isolated child process of deployments (time and memory limits).
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docsgen.server.apierror import ApiError, unprocessable
from docsgen.server.feedback import format_time
from docsgen.server.isolated_build import DEFAULT_TARGET, BuildLimits, Outcome, outcome_of, run_isolated
from docsgen.server.preview_sources import SourceError, docs_root, export_ref, unpack

log = logging.getLogger("docsgen.server")
NAME_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")
DEFAULT_TTL_HOURS = 7 * 24.0
MAX_TTL_HOURS = 90 * 24.0
MAX_ARCHIVE = 64 * 2**20  # bytes of a posted archive


def previews_dir(out_dir: Path) -> Path:
    """Return the folder beside `out_dir` holding a project's previews."""
    return out_dir.parent / f".{out_dir.name}.previews"


def check_name(name: str) -> str:
    if not NAME_RE.match(name):
        raise unprocessable(
            "a preview name is 1-63 lowercase letters, digits and '-' (pr-12, feature-x)", "name"
        )
    return name


def check_ttl(value: Any) -> float:
    if value is None:
        return DEFAULT_TTL_HOURS
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= MAX_TTL_HOURS:
        raise unprocessable(f"ttlHours is a number above 0 and at most {MAX_TTL_HOURS:g}", "ttlHours")
    return float(value)


class Previews:
    """Build, list, expire and delete previews; `build_fn` as for deployments (a callable runs in this process)."""

    def __init__(
        self, build_fn: Callable[..., object] | str | None = None, limits: BuildLimits | None = None
    ):
        self.build_fn = build_fn or DEFAULT_TARGET
        self.limits = limits or BuildLimits()
        self.lock = threading.Lock()
        self.running: dict[tuple[str, str], threading.Thread] = {}

    # records ------------------------------------------------------------------------------------------------
    @staticmethod
    def _record_path(folder: Path, name: str) -> Path:
        return folder / f"{name}.json"

    def _write(self, folder: Path, record: dict) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        path = self._record_path(folder, record["name"])
        part = path.with_suffix(f".{secrets.token_hex(4)}.part")
        part.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")
        part.replace(path)

    def _read(self, folder: Path, name: str) -> dict | None:
        try:
            return json.loads(self._record_path(folder, name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def _shown(self, project, record: dict, busy: bool) -> dict:
        """The API's view of a record; `busy` must be read BEFORE the record: a build that ends between the
        two writes its final record first and only then leaves `running`, so a stale "building" record read
        after `busy` was taken can never be mistaken for a build the server abandoned."""
        status = record["status"]
        if status in ("queued", "building") and not busy:  # the server stopped mid-build
            status = "failed"
        return {
            "name": record["name"],
            "projectId": project.id,
            "source": record["source"],
            "commit": record.get("commit"),
            "status": status,
            "path": f"/previews/{project.id}/{record['name']}/",
            "createdAt": format_time(record["created_ms"]),
            "expiresAt": format_time(record["expires_ms"]),
            "summary": record.get("summary", ""),
            "errors": record.get("errors", []),
        }

    # the API's operations ---------------------------------------------------------------------------------------
    def start(
        self, project, name: str, ttl_hours: float, *, ref: str | None = None, archive: bytes | None = None
    ) -> dict:
        """Queue a build of `ref` (from the project's git repository) or of `archive` as preview `name`."""
        if not project.out_dir or (ref is not None and not project.docs_dir):
            raise ApiError(
                409,
                "deployment_not_configured",
                f"project {project.id} has no docs and output folders: "
                f"run `docsgen server projects add {project.id} --docs DIR --out DIR`",
            )
        folder = previews_dir(Path(project.out_dir))
        key = (project.id, name)
        now = int(time.time() * 1000)
        record = {
            "name": name,
            "source": f"git:{ref}" if ref is not None else "archive",
            "status": "queued",
            "created_ms": now,
            "expires_ms": now + int(ttl_hours * 3600 * 1000),
        }
        with self.lock:
            if key in self.running:
                raise ApiError(
                    409, "preview_in_progress", f"preview {name} of {project.id} is still building"
                )
            thread = threading.Thread(
                target=self._run,
                args=(project, folder, record, ref, archive),
                name=f"preview-{name}",
                daemon=True,
            )
            self.running[key] = thread  # before the record is written: see _shown
            try:
                self._write(folder, record)
            except BaseException:
                self.running.pop(key)
                raise
        thread.start()
        return self._shown(project, record, busy=True)

    def get(self, project, name: str) -> dict:
        busy = (project.id, name) in self.running
        record = self._read(previews_dir(Path(project.out_dir)), name) if project.out_dir else None
        if record is None:
            raise ApiError(404, "not_found", f"no preview {name!r} in project {project.id}", "name")
        return self._shown(project, record, busy)

    def all(self, project, now_ms: int | None = None) -> list[dict]:
        """Return the project's previews, newest first, after removing the expired ones."""
        if not project.out_dir:
            return []
        folder = previews_dir(Path(project.out_dir))
        self.expire(project, now_ms)
        with self.lock:
            busy = {name for (pid, name) in self.running if pid == project.id}
        records = [r for p in sorted(folder.glob("*.json")) if (r := self._read(folder, p.stem)) is not None]
        ordered = sorted(records, key=lambda r: -r["created_ms"])
        return [self._shown(project, r, r["name"] in busy) for r in ordered]

    def expire(self, project, now_ms: int | None = None) -> list[str]:
        """Delete the previews whose time is up (not one that is building); return their names."""
        if not project.out_dir:
            return []
        folder = previews_dir(Path(project.out_dir))
        now = now_ms if now_ms is not None else int(time.time() * 1000)
        gone = []
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            record = self._read(folder, path.stem)
            if record and record["expires_ms"] <= now and (project.id, record["name"]) not in self.running:
                self._remove(folder, record["name"])
                gone.append(record["name"])
        return gone

    def delete(self, project, name: str) -> None:
        folder = previews_dir(Path(project.out_dir)) if project.out_dir else None
        if folder is None or self._read(folder, name) is None:
            raise ApiError(404, "not_found", f"no preview {name!r} in project {project.id}", "name")
        if (project.id, name) in self.running:
            raise ApiError(409, "preview_in_progress", f"preview {name} is still building")
        self._remove(folder, name)

    def _remove(self, folder: Path, name: str) -> None:
        link = folder / name
        target = link.resolve() if link.is_symlink() else None
        self._record_path(folder, name).unlink(missing_ok=True)
        if link.is_symlink():
            link.unlink()
        if target is not None and target.parent == (folder / ".builds").resolve():
            shutil.rmtree(target, ignore_errors=True)

    def wait(self, project_id: str, name: str, timeout: float | None = None) -> None:
        thread = self.running.get((project_id, name))
        if thread is not None:
            thread.join(timeout)

    # the build ------------------------------------------------------------------------------------------------
    def _build(self, docs: Path, out: Path) -> Outcome:
        if callable(self.build_fn):
            return outcome_of(self.build_fn, docs, out, False)
        return run_isolated(docs, out, False, self.limits, self.build_fn)

    def _run(self, project, folder: Path, record: dict, ref: str | None, archive: bytes | None) -> None:
        name = record["name"]
        builds = folder / ".builds"
        builds.mkdir(parents=True, exist_ok=True)
        output = builds / f"{name}-{secrets.token_hex(6)}"
        try:
            record["status"] = "building"
            self._write(folder, record)
            with tempfile.TemporaryDirectory(prefix="docsgen-preview-") as tmp:
                source = Path(tmp) / "src"
                source.mkdir()
                if ref is not None:
                    docs, record["commit"] = export_ref(Path(project.docs_dir), ref, source)
                else:
                    assert archive is not None
                    unpack(archive, source)
                    docs = docs_root(source)
                outcome = self._build(docs, output)
            if outcome.ok:
                self._publish(folder, name, output)
            record.update(
                status="ready" if outcome.ok else "failed",
                summary=outcome.summary,
                errors=outcome.errors[:50],
            )
        except SourceError as exc:
            record.update(
                status="failed", summary=str(exc), errors=[{"code": "preview.source", "message": str(exc)}]
            )
        except Exception as exc:
            log.exception("preview %s of %s failed", name, project.id)
            record.update(status="failed", summary=f"internal error: {exc}", errors=[])
        finally:
            if record["status"] != "ready":
                shutil.rmtree(output, ignore_errors=True)
            self._write(folder, record)
            with self.lock:
                self.running.pop((project.id, name), None)

    @staticmethod
    def _publish(folder: Path, name: str, output: Path) -> None:
        """Point `<name>` at the new build with one atomic rename, then delete the build it replaced."""
        link = folder / name
        old = link.resolve() if link.is_symlink() else None
        temp = folder / f".{name}.link-{secrets.token_hex(4)}"
        os.symlink(os.path.relpath(output, folder), temp)
        os.replace(temp, link)
        if old is not None and old != output.resolve():
            shutil.rmtree(old, ignore_errors=True)
