"""Pagefind: run the indexer as a service and make its bundle deterministic."""

from __future__ import annotations

import base64
import contextlib
import contextvars
import importlib.util
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from docsgen.outputs.pagefind_bundle import stable_bundle
from docsgen.site.policies import INDEX_DIR  # Pagefind's output folder, and where bundles go in the site


@dataclass(frozen=True)
class SearchRecord:
    """One page as the index sees it: URL, language, title, body HTML, filters, metadata, weight."""

    url: str
    lang: str
    html: str


# Pagefind's time grows with the square of a word's length (a 2 MB word: 71 s, 4 MB: 257 s): what it indexes is
# bounded. A longer run of characters is cut (nobody searches for its 201st character), and so is a record.
MAX_TOKEN_CHARS = 200
MAX_RECORD_CHARS = 4_000_000
_LONG_TOKEN = re.compile(rf"(?<![^<>\s\"'])[^<>\s\"']{{{MAX_TOKEN_CHARS + 1},}}")


def bounded_record(html: str) -> str:
    """A record's HTML with every run of more than MAX_TOKEN_CHARS characters cut (quotes and tags kept whole),
    and cut at a tag's end before MAX_RECORD_CHARS.

    Such a run holds no whitespace, so it lies within one whitespace-separated chunk as long: the regex runs only
    for a record that has one (almost none). Splitting costs a third of the regex's scan (9 vs 25 ms a thousand
    pages, in the thread feeding Pagefind)."""
    if len(html) > MAX_TOKEN_CHARS and max(map(len, html.split())) > MAX_TOKEN_CHARS:
        html = _LONG_TOKEN.sub(lambda m: m.group(0)[:MAX_TOKEN_CHARS], html)
    if len(html) > MAX_RECORD_CHARS:
        html = html[: html.rfind(">", 0, MAX_RECORD_CHARS) + 1]
    return html


# What the browser needs from Pagefind's output: its search API, the WebAssembly, the index chunks.
_KEEP = re.compile(
    r"^(pagefind\.js|pagefind-worker\.js|pagefind-entry\.json|pagefind\.[^/]+\.pf_meta|wasm\.[^/]+\.pagefind"
    r"|index/.*|fragment/.*|filter/.*)$"
)


def pagefind_binary() -> str:
    """Return the Pagefind executable shipped by the `pagefind[extended]` wheel (or PAGEFIND_BINARY).

    Found as `pagefind.service.get_executable` finds it ($PAGEFIND_BINARY_PATH, the extended binary's wheel, the
    plain one's, then the PATH), without importing `pagefind.service`: it imports asyncio (and ssl), 0.04-0.06 s
    of CPU in every build for a file name.
    """
    override = os.environ.get("PAGEFIND_BINARY")
    if override:
        return override
    named = os.environ.get("PAGEFIND_BINARY_PATH")
    if named is not None:
        return named
    for package in ("pagefind_bin_extended", "pagefind_bin"):
        found = _wheel_binary(package)
        if found is not None:
            return found
    external = shutil.which("pagefind_extended") or shutil.which("pagefind")
    if external is None:
        raise FileNotFoundError("Could not find pagefind binary")
    return external


def _wheel_binary(package: str) -> str | None:
    """Return the binary a Pagefind binary wheel holds beside its module (as its get_executable looks), or None
    when the wheel is not installed; raise FileNotFoundError when it is but holds none."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent
    extensions = ("", ".exe") if sys.platform == "win32" else ("",)
    candidates = [folder / (name + ext) for name in ("pagefind_extended", "pagefind") for ext in extensions]
    for candidate in candidates:
        if candidate.exists():
            if candidate.is_file():
                return str(candidate)
            raise FileNotFoundError(f"{candidate} is not a file")
    raise FileNotFoundError(f"Could not find any of {candidates}")


def _message(message_id: int, payload: dict) -> bytes:
    """Encode one request of Pagefind's service protocol: base64 JSON, ended by a comma."""
    request = {"message_id": message_id, "payload": payload}
    return base64.b64encode(json.dumps(request, ensure_ascii=False).encode("utf-8")) + b","


class RunGroup:
    """The Pagefind runs started while the group is active (in one thread); cancel() stops them all at once.

    The dev server builds inside its group, so Ctrl-C can kill an index being built by a rebuild running on
    another thread (the build then gets its usual "search index could not be built" warning).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: list[PagefindRun] = []
        self.cancelled = False

    @contextlib.contextmanager
    def active(self) -> Iterator[RunGroup]:
        """Make runs started in this thread (until the block ends) members of the group."""
        token = _GROUP.set(self)
        try:
            yield self
        finally:
            _GROUP.reset(token)

    def start(self, run: PagefindRun, binary: str | None) -> None:
        """Start a run as a member (under the lock: a cancel() never misses a run being started)."""
        with self._lock:
            if self.cancelled:
                raise RuntimeError("Pagefind was not started: the build is being stopped")
            run._start(binary)
            self._runs.append(run)

    def discard(self, run: PagefindRun) -> None:
        """Forget a run that has ended."""
        with self._lock:
            if run in self._runs:
                self._runs.remove(run)

    def cancel(self) -> None:
        """Kill every member still running, and refuse to start new ones."""
        with self._lock:
            self.cancelled = True
            runs, self._runs = self._runs, []
        for run in runs:
            run.cancel()


_GROUP: contextvars.ContextVar[RunGroup | None] = contextvars.ContextVar("pagefind_group", default=None)


class PagefindRun:
    """One Pagefind service process indexing records in memory (no temp tree), fed and read on threads.

    The service handles requests in order, on its own core: the build goes on while it indexes, and
    result() collects the bundle. The protocol is the one the `pagefind` Python package speaks, without its
    asyncio client (which polls every 100 ms per response: minutes for a thousand pages).
    """

    def __init__(self, records: Iterable[SearchRecord] | None = None, binary: str | None = None) -> None:
        """Start the service; with `records`, index them (else add() records as they come, then finish())."""
        self.urls: list[str] = []  # each record's URL, by message number (to locate Pagefind's errors)
        self._queue: queue.SimpleQueue[SearchRecord | None] = queue.SimpleQueue()
        self._last: int | None = None  # message id of the bundle request, once every record is sent
        self._errors: list[str] = []
        self._files: list[dict] | None = None
        self.added_seconds: float | None = None  # perf_counter() of the latest page Pagefind finished adding
        self._cancelled = False
        # Given records are sent by the writer thread as it reads them (a spooled iterable is never held whole).
        self._streaming = records is None
        self._records: Iterator[SearchRecord] = (
            iter(self._queue.get, None) if records is None else iter(records)
        )
        self._group = _GROUP.get()
        if self._group is None:
            self._start(binary)
        else:
            self._group.start(self, binary)  # refused once the group is cancelled

    def _start(self, binary: str | None) -> None:
        """Start the service process and the threads feeding and reading it."""
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._proc = subprocess.Popen(
            [binary or pagefind_binary(), "--service"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
        )
        self._writer = threading.Thread(target=self._write, name="pagefind-writer", daemon=True)
        self._reader = threading.Thread(target=self._read, name="pagefind-reader", daemon=True)
        self._writer.start()
        self._reader.start()

    def add(self, record: SearchRecord) -> None:
        """Queue one more page for indexing (Pagefind indexes it while the build goes on)."""
        self._queue.put(record)

    def finish(self) -> None:
        """Say that every record is added: Pagefind then writes the bundle."""
        self._queue.put(None)

    def _write(self) -> None:
        """Send: a new index, every record as an HTML file at its URL, then a request for the bundle."""
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            stdin.write(_message(0, {"type": "NewIndex", "config": None}))
            number = 0
            for record in self._records:
                if self._cancelled:
                    break
                self.urls.append(record.url)
                number += 1
                html = bounded_record(record.html)
                payload = {"type": "AddFile", "index_id": 0, "url": record.url, "file_contents": html}
                stdin.write(_message(number, payload))
                if self._streaming and self._queue.empty():
                    stdin.flush()  # streaming: hand Pagefind what there is before waiting for more
            self._last = number + 1
            stdin.write(_message(number + 1, {"type": "GetFiles", "index_id": 0}))
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError) as exc:  # the reader reports why Pagefind stopped
            self._errors.append(f"Pagefind stopped reading: {exc}")
        except Exception as exc:  # noqa: BLE001 - records that could not be read back: reported by result()
            self._errors.append(f"the search records could not be read: {exc}")
            with contextlib.suppress(OSError):
                self._proc.kill()

    def _read(self) -> None:
        """Read responses until the bundle arrives (or Pagefind exits), noting errors."""
        stdout = self._proc.stdout
        assert stdout is not None
        buffer = bytearray()
        try:
            while self._files is None:
                chunk = stdout.read1(1 << 20)  # type: ignore[attr-defined]  # a BufferedReader: Popen(bufsize=-1)
                if not chunk:
                    return
                buffer += chunk
                start = 0
                while self._files is None and (end := buffer.find(b",", start)) != -1:
                    self._handle(bytes(buffer[start:end]))
                    start = end + 1
                del buffer[:start]
        except (OSError, ValueError) as exc:  # closed under us (cancelled) or an unreadable answer
            self._errors.append(f"unreadable answer from Pagefind: {exc}")
            return
        # The bundle is here: end Pagefind's input now, so the service exits and frees its index at once
        # instead of idling until the build collects it (a split site runs one service per version).
        self._writer.join(5)
        with contextlib.suppress(OSError, ValueError):
            if self._proc.stdin:
                self._proc.stdin.close()

    def _handle(self, raw: bytes) -> None:
        """Record one response: an error (with the page it concerns) or the bundle."""
        response = json.loads(base64.b64decode(raw))
        payload, number = response.get("payload") or {}, response.get("message_id")
        if payload.get("type") == "Error":
            where = ""
            if isinstance(number, int) and 1 <= number <= len(self.urls):
                where = f" ({self.urls[number - 1]})"
            self._errors.append(f"{payload.get('message', 'error')}{where}")
        elif payload.get("type") == "GetFiles" and number == self._last:
            self._files = payload.get("files") or []
        else:  # a page added (responses come in order: after result(), this is when the last one was)
            self.added_seconds = time.perf_counter()

    @property
    def ready(self) -> bool:
        """Tell whether result() would return at once: the bundle has arrived, or Pagefind stopped."""
        return not self._reader.is_alive()

    def result(self, timeout: float = 600) -> dict[str, bytes]:
        """Wait for the bundle and return {path under pagefind/: bytes}; raise RuntimeError when it failed."""
        try:
            self._reader.join(timeout)
        except BaseException:  # Ctrl-C while waiting: Pagefind must not outlive the build
            self.close()
            raise
        timed_out = self._reader.is_alive()
        self._stop()
        if self._cancelled:
            self._stderr.close()
            raise RuntimeError("Pagefind was stopped: the build is being stopped")
        if self._files is None or self._errors:
            self._stderr.seek(0)
            stderr = self._stderr.read().decode("utf-8", "replace").strip()
            self._stderr.close()
            reasons = [*self._errors, stderr[-500:]] if stderr else self._errors
            if timed_out:
                reasons.insert(0, f"Pagefind took longer than {timeout:g} s")
            raise RuntimeError("; ".join(reasons) or f"Pagefind exited with status {self._proc.returncode}")
        # The answer is let go once read: a split site keeps each version's run until the build ends, and 35
        # versions' answers (each its bundle in base64, 3-4 MB) held on to 120 MB of the main process.
        answer, self._files = self._files, []
        self.urls = []
        files = {}
        for item in sorted(answer, key=lambda f: f["path"]):
            rel = item["path"].removeprefix(f"{INDEX_DIR}/")
            if _KEEP.match(rel):
                files[rel] = base64.b64decode(item.pop("content"))
        del answer
        return stable_bundle(files)

    def cancel(self) -> None:
        """Kill the service from any thread: result() then raises at once (its thread cleans up)."""
        self._cancelled = True
        self._queue.put(None)  # a writer waiting for more records ends
        with contextlib.suppress(OSError):
            self._proc.kill()  # the reader sees end of output; a waiting result() returns
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)  # reaped here: the thread that owns the run may never get to _stop()

    def close(self) -> None:
        """Stop the service at once (the build no longer wants the bundle) and release everything."""
        self._queue.put(None)  # a writer waiting for more records ends
        self._stop(kill=True)
        self._stderr.close()

    def _stop(self, kill: bool = False) -> None:
        """Stop the service: end of input makes it exit; killed first when it is still busy."""
        if self._group is not None:
            self._group.discard(self)
        if kill or self._reader.is_alive():
            self._proc.kill()  # the reader then sees end of output and returns
        self._reader.join(5)
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


def build_index(records: list[SearchRecord]) -> dict[str, bytes]:
    """Run Pagefind over the records and return {path under pagefind/: bytes} of the browser bundle."""
    return PagefindRun(records).result()
