"""Cookie-less analytics: validating the events a built site reports, hashing visitors, storing events in batches.

A visitor is a keyed hash of the UTC day's salt, the project, the client address and the user agent; the salt is
random, kept in the database for its day only and deleted afterwards, so yesterday's hashes can never be
recomputed and the address is never stored. Known AI agents are recognised by their user agent and counted apart;
other crawlers are not counted at all.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from docsgen.server.apierror import unprocessable
from docsgen.server.db import analytics_events, analytics_salts, assistant_messages, assistant_threads, now_ms

KINDS = ("view", "search", "click", "notfound")
MAX_EVENTS = 25  # events in one POST
MAX_PATH = 2048
MAX_QUERY = 200
MAX_RESULTS = 100_000
DAY_MS = 86_400_000
# AI agents and assistants (their crawlers and their browsing tools), by a word of their user agent.
AI_AGENTS = re.compile(
    r"GPTBot|ChatGPT-User|OAI-SearchBot|ChatGPT Agent|ClaudeBot|Claude-User|Claude-SearchBot|Claude-Web|"
    r"anthropic-ai|PerplexityBot|Perplexity-User|Google-Extended|Google-CloudVertexBot|GoogleAgent|"
    r"Gemini-Deep-Research|CCBot|Bytespider|Amazonbot|Applebot-Extended|meta-externalagent|"
    r"meta-externalfetcher|FacebookBot|cohere-ai|cohere-training-data-crawler|DuckAssistBot|YouBot|"
    r"MistralAI-User|Diffbot|AI2Bot|Timpibot|PetalBot|Kangaroo Bot|Devin|Cursor|"
    r"\bmcp\b|Manus|Operator",
    re.IGNORECASE,
)
# Other automated clients: search engine crawlers, monitors, scripts. Their events are not stored.
CRAWLERS = re.compile(
    r"bot\b|crawl|spider|slurp|headless|lighthouse|pingdom|uptime|curl/|wget/|python-|httpx|"
    r"go-http-client|okhttp|java/|libwww",
    re.IGNORECASE,
)


def traffic_of(user_agent: str) -> str | None:
    """Return 'ai' for a known AI agent, None for another crawler (not counted), else 'human'."""
    if AI_AGENTS.search(user_agent):
        return "ai"
    if not user_agent or CRAWLERS.search(user_agent):
        return None
    return "human"


def utc_day(ms: int) -> str:
    """Return the UTC day of a time in epoch milliseconds, as YYYY-MM-DD."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d")


class Salts:
    """The salt of the current UTC day, shared through the database by every server process.

    A new day's salt is random; the salts of earlier days are deleted as soon as a new day's is read."""

    def __init__(self) -> None:
        self._day = ""
        self._salt = ""

    def cached(self, at_ms: int) -> str | None:
        """Return the day's salt when this process already read it (no database round trip), else None."""
        return self._salt if self._day == utc_day(at_ms) else None

    def today(self, conn: Connection, at_ms: int) -> str:
        day = utc_day(at_ms)
        if day == self._day:
            return self._salt
        salt = conn.execute(select(analytics_salts.c.salt).where(analytics_salts.c.day == day)).scalar()
        if salt is None:
            try:
                with conn.begin_nested():
                    conn.execute(insert(analytics_salts).values(day=day, salt=secrets.token_hex(32)))
            except IntegrityError:  # another process created it first
                pass
            salt = conn.execute(select(analytics_salts.c.salt).where(analytics_salts.c.day == day)).scalar()
        conn.execute(delete(analytics_salts).where(analytics_salts.c.day < day))
        self._day, self._salt = day, str(salt)
        return self._salt


def visitor_hash(salt: str, project_id: str, address: str, user_agent: str) -> str:
    """Return the day's pseudonymous visitor id: HMAC-SHA256 under the day's salt, 32 hex digits."""
    message = "\x1f".join((project_id, address, user_agent)).encode("utf-8", "replace")
    return hmac.new(salt.encode(), message, hashlib.sha256).hexdigest()[:32]


def referrer_host(value: object, own_origin: str | None) -> str | None:
    """Keep only the host of an external referrer (never its path or query)."""
    if not isinstance(value, str) or not value:
        return None
    try:
        parts = urlsplit(value[:2048])
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not host:
        return None
    if own_origin:
        own = (urlsplit(own_origin).hostname or "").lower()
        if host == own:
            return None
    return host[:255]


ASCII_SPACE = re.compile(r"[ \t\n\r\f\v]+")


def normalize_query(text: str) -> str:
    """Collapse ASCII spaces and lower-case a search query, so 'Auth ' and 'auth' count as one term."""
    return ASCII_SPACE.sub(" ", text).strip(" ").lower()[:MAX_QUERY]


def _text(event: dict, name: str, limit: int, index: int, required: bool = True) -> str | None:
    value = event.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value.strip(" \t\n\r\f\v")):
        raise unprocessable(f"events[{index}].{name} must be a non-empty string", f"events[{index}].{name}")
    if "\x00" in value:
        raise unprocessable(f"events[{index}].{name} must not contain NUL", f"events[{index}].{name}")
    return value[:limit]


def validate_batch(body: object) -> list[dict]:
    """Check a batch `{"events": [...]}`; return one dict of columns per event (without visitor and time)."""
    if not isinstance(body, dict) or set(body) - {"events"} or not isinstance(body.get("events"), list):
        raise unprocessable('the body must be {"events": [...]}', "events")
    events = body["events"]
    if not 1 <= len(events) <= MAX_EVENTS:
        raise unprocessable(f"send 1 to {MAX_EVENTS} events at a time", "events")
    out = []
    for i, event in enumerate(events):
        if not isinstance(event, dict) or event.get("kind") not in KINDS:
            raise unprocessable(f"events[{i}].kind must be one of {', '.join(KINDS)}", f"events[{i}].kind")
        extra = set(event) - {"kind", "path", "referrer", "query", "results"}
        if extra:
            raise unprocessable(f"events[{i}] has unknown field {sorted(extra)[0]!r}", f"events[{i}]")
        kind = event["kind"]
        row: dict = {
            "kind": kind,
            "path": "",
            "query": None,
            "results": None,
            "referrer": event.get("referrer"),
        }
        if kind in ("view", "notfound", "click"):
            path = _text(event, "path", MAX_PATH, i)
            if not str(path).startswith("/"):
                raise unprocessable(f"events[{i}].path must start with '/'", f"events[{i}].path")
            row["path"] = path
        if kind in ("search", "click"):
            row["query"] = normalize_query(_text(event, "query", 4 * MAX_QUERY, i) or "")
            if not row["query"]:
                raise unprocessable(f"events[{i}].query must not be blank", f"events[{i}].query")
        if kind == "search":
            results = event.get("results")
            if isinstance(results, float) and results.is_integer():  # 3.0 is an integer in JSON Schema
                results = int(results)
            if not isinstance(results, int) or isinstance(results, bool) or not 0 <= results <= MAX_RESULTS:
                raise unprocessable(f"events[{i}].results must be an integer >= 0", f"events[{i}].results")
            row["results"] = results
        out.append(row)
    return out


def parse_body(raw: bytes) -> object:
    """Parse a beacon body (sent as text/plain so browsers need no preflight)."""
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise unprocessable("the body must be JSON") from None


@dataclass
class _Pending:
    rows: Sequence[dict]
    done: asyncio.Future


class EventWriter:
    """Group commit: requests arriving while a transaction runs are written together in the next one.

    Each request's `write` returns only after the transaction holding its rows has committed, so an event the
    server acknowledged is on disk (SQLite synchronous=FULL, PostgreSQL's commit); a failed transaction fails
    every request in it (they answer 503 and the browser may send again)."""

    def __init__(self, engine: Engine, max_rows: int = 2000):
        self.engine = engine
        self.max_rows = max_rows
        self._queue: list[_Pending] = []
        self._running = False

    async def write(self, rows: Sequence[dict]) -> None:
        pending = _Pending(rows, asyncio.get_running_loop().create_future())
        self._queue.append(pending)
        if not self._running:
            self._running = True
            asyncio.get_running_loop().create_task(self._drain())
        await pending.done

    async def _drain(self) -> None:
        try:
            while self._queue:
                group: list[_Pending] = []
                count = 0
                while self._queue and (not group or count + len(self._queue[0].rows) <= self.max_rows):
                    item = self._queue.pop(0)
                    group.append(item)
                    count += len(item.rows)
                try:
                    await run_in_threadpool(self._insert, [r for item in group for r in item.rows])
                except Exception as exc:  # noqa: BLE001 - handed to every waiting request
                    for item in group:
                        item.done.set_exception(exc)
                else:
                    for item in group:
                        item.done.set_result(None)
        finally:
            self._running = False

    def _insert(self, rows: list[dict]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(analytics_events), rows)


def prune(conn: Connection, retention_days: int, at_ms: int | None = None) -> int:
    """Delete events and assistant threads older than the retention (in days; 0 keeps everything); return how
    many events went."""
    if retention_days <= 0:
        return 0
    cutoff = (now_ms() if at_ms is None else at_ms) - retention_days * DAY_MS
    result = conn.execute(delete(analytics_events).where(analytics_events.c.created_ms < cutoff))
    # Assistant conversations follow the same retention: whole threads started before the cutoff.
    old = select(assistant_threads.c.id).where(assistant_threads.c.created_ms < cutoff)
    conn.execute(delete(assistant_messages).where(assistant_messages.c.thread_id.in_(old)))
    conn.execute(delete(assistant_threads).where(assistant_threads.c.created_ms < cutoff))
    return int(result.rowcount or 0)
