"""Database access for the feedback server: one engine, the tables, and a schema the server migrates itself."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import time
from pathlib import Path

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    text,
)
from sqlalchemy.engine import Connection, make_url

DEFAULT_SQLITE_FILE = "docsgen-feedback.sqlite3"
ENV_URL = "DOCSGEN_DATABASE_URL"
SCHEMA_VERSION = 4

metadata = MetaData()

schema_version = Table("schema_version", metadata, Column("version", Integer, nullable=False))

settings = Table(
    "server_settings",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

projects = Table(
    "projects",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("origins", Text, nullable=False, default="[]"),  # JSON list of allowed browser origins
    Column("docs_dir", Text),
    Column("out_dir", Text),
    Column("created_ms", BigInteger, nullable=False),
)

api_keys = Table(
    "api_keys",
    metadata,
    Column("id", String(16), primary_key=True),  # the public key id: first characters after the prefix
    Column("project_id", String(64), ForeignKey("projects.id"), nullable=False, index=True),
    Column(
        "key_hash", String(64), nullable=False
    ),  # hex SHA-256 of the whole key; the key itself is never stored
    Column("created_ms", BigInteger, nullable=False),
    Column("revoked_ms", BigInteger),
)

feedback = Table(
    "feedback",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("project_id", String(64), ForeignKey("projects.id"), nullable=False),
    Column("source", String(16), nullable=False),
    Column("status", String(16), nullable=False),
    Column("path", Text, nullable=False),
    Column("comment", Text, nullable=False, default=""),
    Column("helpful", Boolean),
    Column("contact", Text),
    Column("code", Text),
    Column("filename", Text),
    Column("lang", Text),
    Column("created_ms", BigInteger, nullable=False),  # milliseconds since the Unix epoch, UTC
    Column("status_changed_ms", BigInteger),
    # Newest-first keyset pagination walks this index: (project, createdAt, id).
    Index("ix_feedback_page", "project_id", "created_ms", "id"),
)

status_changes = Table(
    "feedback_status_changes",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("feedback_id", String(32), ForeignKey("feedback.id"), nullable=False, index=True),
    Column("from_status", String(16), nullable=False),
    Column("to_status", String(16), nullable=False),
    Column("changed_ms", BigInteger, nullable=False),
    Column("key_id", String(16)),
)

deployments = Table(
    "deployments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("project_id", String(64), ForeignKey("projects.id"), nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("started_ms", BigInteger),
    Column("finished_ms", BigInteger),
    Column("summary", Text, nullable=False, default=""),
    Column("log", Text, nullable=False, default="{}"),  # JSON: {"errors": [...], "warnings": [...]}
)
# The database itself guarantees one active deployment per project, even with several server processes.
Index(
    "ux_deployments_active",
    deployments.c.project_id,
    unique=True,
    sqlite_where=deployments.c.status.in_(["queued", "running"]),
    postgresql_where=deployments.c.status.in_(["queued", "running"]),
)


# Version 2 (the dashboard): signed-in browser sessions (only a hash of the cookie is stored) and key last use.
dashboard_sessions = Table(
    "dashboard_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),  # hex SHA-256 of the session cookie's value
    Column("project_id", String(64), ForeignKey("projects.id"), nullable=False),
    Column("key_id", String(16), nullable=False),  # the key signed in with: revoking it ends the session
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
)

api_key_uses = Table(
    "api_key_uses",
    metadata,
    Column("key_id", String(16), primary_key=True),
    Column("last_used_ms", BigInteger, nullable=False),
)


# Version 3: the Idempotency-Key of feedback POSTs, so a retried request is answered without storing twice.
idempotency_keys = Table(
    "feedback_idempotency_keys",
    metadata,
    Column("project_id", String(64), ForeignKey("projects.id"), primary_key=True),
    Column("key", String(255), primary_key=True),
    Column("body_hash", String(64), nullable=False),  # hex SHA-256 of the canonical JSON body
    # No foreign key: the key row is written first, so a concurrent duplicate fails before storing anything.
    Column("feedback_id", String(32), nullable=False),
    Column("created_ms", BigInteger, nullable=False, index=True),
)


# Version 4: cookie-less analytics and the assistant (docsgen/server/events.py, assistant.py).
analytics_events = Table(
    "analytics_events",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("project_id", String(64), ForeignKey("projects.id"), nullable=False),
    Column("kind", String(8), nullable=False),  # view, search, click, notfound
    Column("created_ms", BigInteger, nullable=False),
    Column("path", Text, nullable=False, default=""),
    # Hex of a keyed hash of (day's salt, project, address, user agent): the address itself is never stored.
    Column("visitor", String(32), nullable=False),
    Column("traffic", String(8), nullable=False),  # human or ai
    Column("referrer", String(255)),  # the referring host only, never the full URL
    Column("query", Text),
    Column("results", Integer),
    Index("ix_analytics_events_range", "project_id", "kind", "created_ms"),
)

analytics_salts = Table(
    "analytics_salts",
    metadata,
    Column("day", String(10), primary_key=True),  # UTC day, YYYY-MM-DD; older days are deleted
    Column("salt", String(64), nullable=False),
)

assistant_threads = Table(
    "assistant_threads",
    metadata,
    Column("id", String(26), primary_key=True),  # a ULID
    Column("project_id", String(64), ForeignKey("projects.id"), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("page_url", Text),
    Column("caller", String(8), nullable=False),  # web, api, other
    Index("ix_assistant_threads_project", "project_id", "created_ms"),
)

assistant_messages = Table(
    "assistant_messages",
    metadata,
    Column("id", String(26), primary_key=True),  # a ULID: sorts by creation time
    Column("thread_id", String(26), ForeignKey("assistant_threads.id"), nullable=False, index=True),
    Column("project_id", String(64), ForeignKey("projects.id"), nullable=False),
    Column("role", String(16), nullable=False),  # user or assistant
    Column("content", Text, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("sources", Text, nullable=False, default="[]"),  # JSON [{"title", "url"}] of an answer
    Column("answered", Boolean),  # False: the site's pages had nothing on the question
    Column("question_id", String(26)),  # on an answer: the user message it answers
    Column("helpful", Boolean),  # the reader's rating of an answer
    Index("ix_assistant_messages_turns", "project_id", "role", "id"),
)


def now_ms() -> int:
    """Return the current UTC time in whole milliseconds (the precision of createdAt)."""
    return time.time_ns() // 1_000_000


def resolve_url(url: str | None = None) -> str:
    """Pick the database URL: the argument, else $DOCSGEN_DATABASE_URL, else a SQLite file in the working directory."""
    url = url or os.environ.get(ENV_URL) or ""
    if not url:
        return f"sqlite:///{Path.cwd() / DEFAULT_SQLITE_FILE}"
    if url.startswith(("postgres://", "postgresql://")):
        # psycopg 3 is the driver we ship; plain URLs would make SQLAlchemy look for psycopg2.
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:  # a bare file path
        url = f"sqlite:///{Path(url).resolve()}"
    return url


def prepare_sqlite_file(path: Path) -> None:
    """Create the SQLite file readable by its owner only (0600), in a folder others cannot write to.

    The database holds admin key hashes, sessions and readers' e-mail addresses. SQLite gives its -wal and -shm
    files the mode of the database file, so they are private too. A folder anyone may write to (such as /tmp)
    would let another user replace or pre-create those files: it is refused.
    """
    folder = path.parent
    if not folder.exists():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    mode = folder.stat().st_mode
    if mode & stat.S_IWOTH:
        raise ValueError(
            f"the database folder {folder} is writable by every user (mode {stat.S_IMODE(mode):o}): "
            "put the database in a folder only the server's user can write to"
        )
    with contextlib.suppress(FileExistsError):  # an existing database keeps the mode its owner gave it
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def make_engine(url: str | None = None) -> Engine:
    """Create an engine for SQLite (WAL, durable commits, busy timeout) or PostgreSQL (psycopg 3)."""
    resolved = make_url(resolve_url(url))
    if resolved.get_backend_name() == "sqlite":
        database = resolved.database or ""
        if database in ("", ":memory:"):
            raise ValueError("the feedback server needs a SQLite file, not an in-memory database")
        prepare_sqlite_file(Path(database))
        engine = create_engine(resolved, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
            cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged POST survives a crash
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    if resolved.get_backend_name() == "postgresql":
        return create_engine(resolved, pool_size=10, max_overflow=10, pool_pre_ping=True)
    raise ValueError(
        f"unsupported database URL {resolved.render_as_string()!r}: use sqlite:/// or postgresql://"
    )


def _migrate_to_1(conn: Connection) -> None:
    """Version 1: every table of this module, and the secret that signs pagination cursors."""
    metadata.create_all(conn, checkfirst=True)
    # Idempotent: pysqlite runs DDL outside the transaction, so a rerun after a crash must not fail.
    if get_setting(conn, "cursor_secret") is None:
        conn.execute(insert(settings).values(name="cursor_secret", value=secrets.token_hex(32)))


def _migrate_to_2(conn: Connection) -> None:
    """Version 2: the dashboard's session and key-use tables (additive; create_all skips existing tables)."""
    metadata.create_all(conn, checkfirst=True)


def _migrate_to_3(conn: Connection) -> None:
    """Version 3: the idempotency keys of feedback POSTs (additive)."""
    metadata.create_all(conn, checkfirst=True)


def _migrate_to_4(conn: Connection) -> None:
    """Version 4: analytics events, the daily salts of visitor hashes, assistant threads and messages (additive)."""
    metadata.create_all(conn, checkfirst=True)


MIGRATIONS = {1: _migrate_to_1, 2: _migrate_to_2, 3: _migrate_to_3, 4: _migrate_to_4}


def current_version(conn: Connection) -> int:
    """Return the schema version stored in the database (0 for an empty database)."""
    if not conn.dialect.has_table(conn, "schema_version"):
        return 0
    return conn.execute(select(schema_version.c.version)).scalar() or 0


def migrate(engine: Engine) -> int:
    """Create or upgrade the schema to SCHEMA_VERSION, safely when several servers start at once."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(7171717)"))
        version = current_version(conn)
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"the database has schema version {version}, newer than this docsgen ({SCHEMA_VERSION}): upgrade docsgen"
            )
        if version == 0:
            schema_version.create(conn, checkfirst=True)
            conn.execute(insert(schema_version).values(version=0))
        for target in range(version + 1, SCHEMA_VERSION + 1):
            MIGRATIONS[target](conn)
            conn.execute(schema_version.update().values(version=target))
        return SCHEMA_VERSION


def open_database(url: str | None = None) -> Engine:
    """Return a migrated engine ready for use."""
    engine = make_engine(url)
    migrate(engine)
    return engine


def get_setting(conn: Connection, name: str) -> str | None:
    """Read one server setting."""
    return conn.execute(select(settings.c.value).where(settings.c.name == name)).scalar()
