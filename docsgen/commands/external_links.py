"""External link checks: concurrent HEAD (then GET) requests, one at a time per host, within a time bound."""

from __future__ import annotations

import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from docsgen.common.errors import Diagnostic

if TYPE_CHECKING:
    import httpx


@dataclass(frozen=True, order=True)
class Finding:
    """One broken link, located in the file that holds it (line and column 0 when unknown)."""

    path: str
    line: int
    column: int
    message: str
    code: str = "link.broken"  # link.broken, link.missing-anchor, link.broken-external

    def format(self) -> str:
        """Return `file:line:col: error: message [code]`, as every docsgen problem is printed."""
        return self.diagnostic().format()

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.path, self.line, self.column if self.line else 0, self.code, self.message)


USER_AGENT = "docsgen-broken-links (+https://pypi.org/project/docsgen-sites/)"
_RETRY_WITH_GET = {403, 405, 501}


@dataclass
class ExternalResults:
    """Broken external links as findings, plus notes (URLs left unchecked when time ran out)."""

    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    statuses: dict[str, int | str] = field(default_factory=dict)  # url -> HTTP status or error text


class HostPacer:
    """Let one request at a time reach each host, at least `interval` seconds apart."""

    def __init__(self, interval: float):
        self.interval = interval
        self._locks: dict[str, threading.Lock] = {}
        self._next: dict[str, float] = {}
        self._guard = threading.Lock()

    def lock(self, host: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(host, threading.Lock())

    def wait_turn(self, host: str) -> None:
        """Sleep until the host may be asked again (call with the host's lock held)."""
        delay = self._next.get(host, 0.0) - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    def done(self, host: str) -> None:
        self._next[host] = time.monotonic() + self.interval


def fetch_status(client: httpx.Client, url: str, timeout: float) -> int | str:
    """Return the final HTTP status of a URL (HEAD, then GET when HEAD is refused), or an error text."""
    import httpx

    try:
        response = client.head(url, timeout=timeout)
        if response.status_code in _RETRY_WITH_GET or response.status_code >= 500:
            with client.stream("GET", url, timeout=timeout) as streamed:
                return streamed.status_code
        return response.status_code
    except httpx.TimeoutException:
        return "timed out"
    except httpx.HTTPError as exc:
        return type(exc).__name__


def check_urls(
    urls: dict[str, list[tuple[str, int, int]]],
    *,
    timeout: float = 10.0,
    max_time: float = 120.0,
    workers: int = 8,
    per_host_interval: float = 0.5,
) -> ExternalResults:
    """Check external URLs concurrently; report those answering >= 400 or failing, at every place they appear."""
    import httpx  # the test extra: `docsgen broken-links --external` without it says what to install

    results = ExternalResults()
    deadline = time.monotonic() + max_time
    pacer = HostPacer(per_host_interval)
    headers = {"User-Agent": USER_AGENT, "Accept": "*/*"}

    def one(client: httpx.Client, url: str) -> int | str | None:
        host = urlsplit(url).netloc.lower()
        with pacer.lock(host):
            remaining = deadline - time.monotonic()
            if remaining <= 0.05:
                return None
            pacer.wait_turn(host)
            remaining = deadline - time.monotonic()
            if remaining <= 0.05:
                return None
            status = fetch_status(client, url, min(timeout, remaining))
            pacer.done(host)
            return status

    with httpx.Client(follow_redirects=True, headers=headers, max_redirects=10) as client:
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="linkcheck")
        futures: dict[Future, str] = {pool.submit(one, client, url): url for url in sorted(urls)}
        pending = set(futures)
        while pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            done, pending = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            for future in done:
                status = future.result()
                if status is not None:
                    results.statuses[futures[future]] = status
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
    unchecked = sorted(u for u in urls if u not in results.statuses)
    for url, status in sorted(results.statuses.items()):
        if isinstance(status, int) and status < 400:
            continue
        reason = f"HTTP {status}" if isinstance(status, int) else str(status)
        for path, line, column in urls[url]:
            message = f"broken external link '{url}' ({reason})"
            results.findings.append(Finding(path, line, column, message, "link.broken-external"))
    if unchecked:
        results.notes.append(
            f"{len(unchecked)} external URL(s) not checked within {max_time:g}s: " + ", ".join(unchecked[:5])
        )
    return results
