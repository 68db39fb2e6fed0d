"""Feedback entries: validating what readers send, storing it verbatim, listing it page by page, moving statuses."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.engine import Connection

from docsgen.server.apierror import ApiError, bad_request, unprocessable
from docsgen.server.db import feedback, now_ms, status_changes
from docsgen.server.limits import MAX_LENGTH

SOURCES = ("code_snippet", "contextual", "agent", "thumbs_only")  # Mintlify's order
STATUSES = ("pending", "in_progress", "resolved", "dismissed")
# Allowed status changes (documented in docs/feedback-server.md); anything else is a 409.
TRANSITIONS: dict[str, frozenset[str]] = {
    "pending": frozenset({"in_progress", "resolved", "dismissed"}),
    "in_progress": frozenset({"pending", "resolved", "dismissed"}),
    "resolved": frozenset({"pending"}),
    "dismissed": frozenset({"pending"}),
}
DEFAULT_LIMIT = 50
MAX_LIMIT = 100
# Which body fields each source accepts, and which of them it requires.
FIELDS = {
    "thumbs_only": ({"helpful", "contact", "comment"}, {"helpful"}),
    "contextual": ({"helpful", "contact", "comment"}, {"helpful", "comment"}),
    "code_snippet": ({"comment", "code", "filename", "lang"}, {"comment", "code"}),
    # Feedback an AI agent sends (e.g. through `docsgen mcp`): a comment, optionally whether the page helped.
    "agent": ({"helpful", "comment"}, {"comment"}),
}
EMAIL_RE = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@"
    r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
)
LIST_PARAMS = ("dateFrom", "dateTo", "source", "status", "limit", "cursor")


def new_id() -> str:
    """Return a new entry id: `fb_` and 24 lowercase hex characters."""
    return "fb_" + secrets.token_hex(12)


def format_time(ms: int | None) -> str | None:
    """Format epoch milliseconds as ISO 8601 UTC with milliseconds, e.g. 2026-11-22T10:15:30.123Z."""
    if ms is None:
        return None
    moment = datetime.fromtimestamp(ms // 1000, UTC).replace(microsecond=(ms % 1000) * 1000)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def validate_submission(body: object) -> dict:
    """Check a reader's POST body against the rules of its source; return the columns to store."""
    if not isinstance(body, dict):
        raise unprocessable("the body must be a JSON object")
    source = body.get("source")
    if source not in SOURCES:
        raise unprocessable(f"source must be one of {', '.join(SOURCES)}", "source")
    allowed, required = FIELDS[source]
    for name in body:
        if name not in allowed | {"path", "source"}:
            raise unprocessable(f"field {name!r} is not accepted for source {source}", name)
    values: dict = {"source": source}
    path = body.get("path")
    if not isinstance(path, str) or not path.startswith("/"):
        raise unprocessable("path must be the page's URL path, a string starting with '/'", "path")
    values["path"] = path
    for name in ("comment", "contact", "code", "filename", "lang"):
        value = body.get(name)
        if value is None:
            continue
        if not isinstance(value, str):
            raise unprocessable(f"{name} must be a string", name)
        if len(value) > MAX_LENGTH[name]:
            raise unprocessable(f"{name} is longer than {MAX_LENGTH[name]} characters", name)
        values[name] = value
    if "helpful" in body and body["helpful"] is not None:
        if not isinstance(body["helpful"], bool):
            raise unprocessable("helpful must be true or false", "helpful")
        values["helpful"] = body["helpful"]
    for name in sorted(required):
        value = values.get(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            raise unprocessable(f"{name} is required for source {source}", name)
    if source == "thumbs_only" and values.get("comment", "").strip():
        raise unprocessable("a thumbs_only entry carries no comment: send source contextual", "comment")
    if len(path) > MAX_LENGTH["path"]:
        raise unprocessable(f"path is longer than {MAX_LENGTH['path']} characters", "path")
    if "contact" in values and not EMAIL_RE.match(values["contact"]):
        raise unprocessable("contact must be an e-mail address", "contact")
    for name, value in values.items():
        if isinstance(value, str) and "\x00" in value:
            raise unprocessable(f"{name} must not contain NUL characters", name)
    values.setdefault("comment", "")
    return values


def store(
    conn: Connection,
    project_id: str,
    values: dict,
    created_ms: int | None = None,
    entry_id: str | None = None,
) -> dict:
    """Insert one entry with status pending and return it as the API shows it."""
    row = {
        "id": entry_id or new_id(),
        "project_id": project_id,
        "status": "pending",
        "created_ms": now_ms() if created_ms is None else created_ms,
        **values,
    }
    conn.execute(insert(feedback).values(**row))
    return to_json(row)


def to_json(row) -> dict:
    """Render a stored row as an entry: the section 2.1 fields plus the fields of its source, and no others."""
    get = row.get if isinstance(row, dict) else row._mapping.get
    entry = {
        "id": get("id"),
        "path": get("path"),
        "comment": get("comment") or "",
        "createdAt": format_time(get("created_ms")),
        "source": get("source"),
        "status": get("status"),
    }
    if entry["source"] == "code_snippet":
        entry.update(code=get("code"), filename=get("filename"), lang=get("lang"))
    else:
        entry.update(helpful=get("helpful"), contact=get("contact"))
    return entry


@dataclass(frozen=True)
class ListQuery:
    """Validated listing filters; `after` is the (createdAt ms, id) keyset position from the cursor."""

    date_from: int | None
    date_to: int | None
    source: str | None
    statuses: tuple[str, ...]
    limit: int
    after: tuple[int, str] | None

    def fingerprint(self, project_id: str) -> str:
        """Identify the filters, so a cursor only continues the listing it came from."""
        parts = [
            project_id,
            str(self.date_from),
            str(self.date_to),
            str(self.source),
            ",".join(self.statuses),
        ]
        return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]


def parse_time(value: str, param: str) -> int:
    """Parse YYYY-MM-DD (midnight UTC) or ISO 8601 (naive means UTC) into epoch milliseconds."""
    text = value.upper()  # RFC 3339 allows a lower-case t and z
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            moment = datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC)
        elif re.fullmatch(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}.*", text):
            moment = datetime.fromisoformat(text)
            moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment  # naive means UTC
        else:
            raise ValueError(value)
    except (ValueError, OverflowError):
        raise bad_request(
            f"{param} must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got {value!r}", param
        ) from None
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return delta // timedelta(milliseconds=1)


def parse_list_query(params: list[tuple[str, str]], secret: str, project_id: str) -> ListQuery:
    """Validate the query string of the listing endpoint; every problem is a 400 naming the parameter."""
    seen: dict[str, str] = {}
    for name, value in params:
        if name not in LIST_PARAMS:
            raise bad_request(f"unknown query parameter {name!r}; accepted: {', '.join(LIST_PARAMS)}", name)
        if name in seen:
            raise bad_request(f"query parameter {name} is given more than once", name)
        seen[name] = value
    date_from = parse_time(seen["dateFrom"], "dateFrom") if "dateFrom" in seen else None
    date_to = parse_time(seen["dateTo"], "dateTo") if "dateTo" in seen else None
    source = seen.get("source")
    if source is not None and source not in SOURCES:
        raise bad_request(f"source must be one of {', '.join(SOURCES)}, got {source!r}", "source")
    statuses: tuple[str, ...] = ()
    if "status" in seen:
        items = [item.strip() for item in seen["status"].split(",")]
        for item in items:
            if item not in STATUSES:
                raise bad_request(
                    f"status must be a comma-separated list of {', '.join(STATUSES)}; got {item!r}", "status"
                )
        statuses = tuple(sorted(set(items)))
    limit = DEFAULT_LIMIT
    if "limit" in seen:
        raw = seen["limit"]
        if not re.fullmatch(r"[0-9]{1,4}", raw) or not 1 <= int(raw) <= MAX_LIMIT:
            raise bad_request(f"limit must be an integer from 1 to {MAX_LIMIT}, got {raw!r}", "limit")
        limit = int(raw)
    query = ListQuery(date_from, date_to, source, statuses, limit, None)
    if "cursor" in seen:
        after = decode_cursor(seen["cursor"], secret, query.fingerprint(project_id))
        query = ListQuery(date_from, date_to, source, statuses, limit, after)
    return query


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode_cursor(created_ms: int, entry_id: str, secret: str, fingerprint: str) -> str:
    """Return an opaque cursor: the keyset position and filter fingerprint, signed with HMAC-SHA256."""
    payload = json.dumps([1, created_ms, entry_id, fingerprint], separators=(",", ":")).encode()
    signature = hmac.new(secret.encode(), payload, hashlib.sha256).digest()[:16]
    return _b64(payload) + "." + _b64(signature)


def decode_cursor(cursor: str, secret: str, fingerprint: str, allow_offset: bool = False) -> tuple[int, str]:
    """Check a cursor's signature and filters; any modification is a 400."""
    invalid = ApiError(
        400, "invalid_cursor", "cursor is not one this server issued (or was modified)", "cursor"
    )
    try:
        payload_text, signature_text = cursor.split(".")
        payload, signature = _unb64(payload_text), _unb64(signature_text)
    except (ValueError, TypeError):
        raise invalid from None
    expected = hmac.new(secret.encode(), payload, hashlib.sha256).digest()[:16]
    if not hmac.compare_digest(expected, signature):
        raise invalid
    version, created_ms, entry_id, issued_for = json.loads(payload)
    if version != 1 or not isinstance(created_ms, int) or not isinstance(entry_id, str):
        raise invalid
    if entry_id == "by-page" and fingerprint == issued_for and not allow_offset:
        raise ApiError(
            400, "invalid_cursor", "cursor belongs to the by-page summary, not this listing", "cursor"
        )
    if issued_for != fingerprint:
        raise ApiError(400, "invalid_cursor", "cursor belongs to a listing with other filters", "cursor")
    return created_ms, entry_id


def list_page(conn: Connection, project_id: str, query: ListQuery, secret: str) -> dict:
    """Return one feedback page, newest first, by keyset on (createdAt, id) so concurrent inserts never shift it."""
    c = feedback.c
    conditions = [c.project_id == project_id]
    if query.date_from is not None:
        conditions.append(c.created_ms >= query.date_from)
    if query.date_to is not None:
        conditions.append(c.created_ms < query.date_to)
    if query.source:
        conditions.append(c.source == query.source)
    if query.statuses:
        conditions.append(c.status.in_(query.statuses))
    if query.after is not None:
        at, after_id = query.after
        conditions.append(or_(c.created_ms < at, and_(c.created_ms == at, c.id < after_id)))
    rows = conn.execute(
        select(feedback).where(*conditions).order_by(c.created_ms.desc(), c.id.desc()).limit(query.limit + 1)
    ).all()
    has_more = len(rows) > query.limit
    rows = rows[: query.limit]
    next_cursor = None
    if has_more:
        last = rows[-1]
        next_cursor = encode_cursor(last.created_ms, last.id, secret, query.fingerprint(project_id))
    return {"feedback": [to_json(r) for r in rows], "nextCursor": next_cursor, "hasMore": has_more}


def get_entry(conn: Connection, project_id: str, entry_id: str) -> dict:
    """Return one entry with its status history, or raise 404."""
    row = conn.execute(
        select(feedback).where(feedback.c.id == entry_id, feedback.c.project_id == project_id)
    ).first()
    if row is None:
        raise ApiError(404, "not_found", f"no feedback entry {entry_id!r} in this project", "id")
    history = conn.execute(
        select(status_changes).where(status_changes.c.feedback_id == entry_id).order_by(status_changes.c.seq)
    ).all()
    entry = to_json(row)
    entry["history"] = [
        {"from": h.from_status, "to": h.to_status, "changedAt": format_time(h.changed_ms)} for h in history
    ]
    return entry


def change_status(conn: Connection, project_id: str, entry_id: str, body: object, key_id: str) -> dict:
    """Move an entry to a new status if the transition is allowed (409 otherwise) and record when it happened."""
    if not isinstance(body, dict) or set(body) != {"status"}:
        raise unprocessable("the body must be a JSON object with exactly one field, status", "status")
    target = body["status"]
    if target not in STATUSES:
        raise unprocessable(f"status must be one of {', '.join(STATUSES)}", "status")
    current = get_entry(conn, project_id, entry_id)["status"]
    if target not in TRANSITIONS[current]:
        allowed = ", ".join(sorted(TRANSITIONS[current]))
        raise ApiError(
            409,
            "invalid_transition",
            f"cannot change status from {current} to {target}; allowed: {allowed}",
            "status",
        )
    at = now_ms()
    # The status in the WHERE clause makes a concurrent change lose cleanly instead of being overwritten.
    result = conn.execute(
        update(feedback)
        .where(feedback.c.id == entry_id, feedback.c.status == current)
        .values(status=target, status_changed_ms=at)
    )
    if result.rowcount != 1:
        raise ApiError(
            409, "invalid_transition", "the status changed concurrently; read the entry and retry", "status"
        )
    conn.execute(
        insert(status_changes).values(
            feedback_id=entry_id, from_status=current, to_status=target, changed_ms=at, key_id=key_id
        )
    )
    return get_entry(conn, project_id, entry_id)
