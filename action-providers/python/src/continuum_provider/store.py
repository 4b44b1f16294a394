"""Durable action records: SQLite by default (PostgreSQL with Debian's python3-psycopg2), so a provider that is
killed and restarted loses nothing.

Each change is one transaction, committed (SQLite: and synced, ``synchronous=FULL``) before the HTTP answer that
reports it is written, so what a caller was told survives a SIGKILL of the process right after.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field, replace

_SCHEMA = """
CREATE TABLE IF NOT EXISTS actions (
    action_id   TEXT PRIMARY KEY,
    creator_id  TEXT NOT NULL,
    request_id  TEXT NOT NULL,
    request     TEXT NOT NULL,
    body        TEXT NOT NULL,
    status      TEXT NOT NULL,
    callback    TEXT,
    finished    INTEGER NOT NULL DEFAULT 0,
    released    INTEGER NOT NULL DEFAULT 0,
    release_at  DOUBLE PRECISION,
    UNIQUE (creator_id, request_id)
);
CREATE INDEX IF NOT EXISTS actions_unfinished ON actions (finished) WHERE finished = 0;
CREATE INDEX IF NOT EXISTS actions_release_at ON actions (release_at) WHERE release_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS action_log (
    action_id TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    entry     TEXT NOT NULL,
    PRIMARY KEY (action_id, seq)
);
"""


@dataclass(frozen=True)
class StoredAction:
    """One action as stored: its status document, the request that made it, its callback and release times."""
    status: dict
    request: dict
    body: str  # canonical JSON of request["body"]: decides "same body" for a repeated request_id
    callback_url: str | None = None
    released: bool = False
    release_at: float | None = None
    new_log: tuple = field(default=(), compare=False)  # entries to append with this change

    @property
    def action_id(self):
        return self.status["action_id"]

    @property
    def creator_id(self):
        return self.status["creator_id"]

    @property
    def finished(self):
        return self.status["status"] in ("SUCCEEDED", "FAILED")

    def with_log(self, *entries):
        return replace(self, new_log=self.new_log + tuple(entries))


class _SqlActionStore:
    """The store's SQL, written once for SQLite and PostgreSQL; a subclass opens the database and runs transactions."""

    _lock: threading.RLock

    def _tx(self, work):
        raise NotImplementedError

    def _query(self, sql, params=()):
        """Rows of one read, in a transaction of its own."""
        return self._tx(lambda db: self._run(db, sql, params).fetchall())

    def _run(self, db, sql, params=()):
        raise NotImplementedError

    @staticmethod
    def _row(row):
        if row is None:
            return None
        status, request, body, callback, released, release_at = row
        return StoredAction(json.loads(status), json.loads(request), body, callback, bool(released), release_at)

    _COLUMNS = "status, request, body, callback, released, release_at"
    _FOR_UPDATE = ""

    def insert_if_absent(self, action):
        """Stores ``action`` unless this creator already used its request_id; answers the action that holds it."""
        def work(db):
            found = self._run(db, f"SELECT {self._COLUMNS} FROM actions WHERE creator_id = ? AND request_id = ?",
                              (action.creator_id, action.request["request_id"])).fetchone()
            if found is not None:
                return self._row(found)
            self._run(db, "INSERT INTO actions (action_id, creator_id, request_id, request, body, status, callback,"
                       " finished, released, release_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (action.action_id, action.creator_id, action.request["request_id"], json.dumps(action.request),
                        action.body, json.dumps(action.status), action.callback_url, int(action.finished),
                        int(action.released), action.release_at))
            self._append(db, action.action_id, action.new_log)
            return replace(action, new_log=())
        return self._tx(work)

    def find(self, action_id):
        rows = self._query(f"SELECT {self._COLUMNS} FROM actions WHERE action_id = ?", (action_id,))
        return self._row(rows[0]) if rows else None

    def find_by_request(self, creator_id, request_id):
        rows = self._query(f"SELECT {self._COLUMNS} FROM actions WHERE creator_id = ? AND request_id = ?",
                           (creator_id, request_id))
        return self._row(rows[0]) if rows else None

    def update(self, action_id, change):
        """Applies ``change(current) -> new`` atomically; answers the action after it, None when it is unknown."""
        def work(db):
            current = self._row(self._run(db, f"SELECT {self._COLUMNS} FROM actions WHERE action_id = ?"
                                          f"{self._FOR_UPDATE}", (action_id,)).fetchone())
            if current is None:
                return None
            after = change(current)
            if after is current:
                return current
            self._run(db, "UPDATE actions SET status = ?, callback = ?, finished = ?, released = ?, release_at = ?"
                       " WHERE action_id = ?", (json.dumps(after.status), after.callback_url, int(after.finished),
                                                int(after.released), after.release_at, action_id))
            self._append(db, action_id, after.new_log)
            return replace(after, new_log=())
        return self._tx(work)

    def _append(self, db, action_id, entries):
        if not entries:
            return
        (last,) = self._run(db, "SELECT COALESCE(MAX(seq), -1) FROM action_log WHERE action_id = ?",
                            (action_id,)).fetchone()
        for i, e in enumerate(entries):
            self._run(db, "INSERT INTO action_log (action_id, seq, entry) VALUES (?, ?, ?)",
                      (action_id, last + 1 + i, json.dumps(e)))

    def log(self, action_id, offset, limit):
        """Log entries from ``offset`` (oldest first), at most ``limit``; and whether more follow."""
        rows = self._query("SELECT entry FROM action_log WHERE action_id = ? ORDER BY seq LIMIT ? OFFSET ?",
                           (action_id, limit + 1, offset))
        return [json.loads(r[0]) for r in rows[:limit]], len(rows) > limit

    def remove(self, action_id):
        def work(db):
            self._run(db, "DELETE FROM action_log WHERE action_id = ?", (action_id,))
            self._run(db, "DELETE FROM actions WHERE action_id = ?", (action_id,))
        self._tx(work)

    def drop_log(self, action_id):
        self._tx(lambda db: self._run(db, "DELETE FROM action_log WHERE action_id = ?", (action_id,)))

    def unfinished(self):
        return [self._row(r) for r in self._query(f"SELECT {self._COLUMNS} FROM actions WHERE finished = 0 AND released = 0")]

    def releasable(self, now):
        """Ids of finished actions past their release time, and of released ones past the request_id retention."""
        return [r[0] for r in self._query("SELECT action_id FROM actions WHERE release_at IS NOT NULL AND release_at <= ?",
                                          (now,))]


class SqliteActionStore(_SqlActionStore):
    """Actions in one SQLite file (``":memory:"`` for a store that forgets on exit). Thread-safe; one provider
    process at a time per file."""

    def __init__(self, path="actions.sqlite3"):
        self.path = str(path)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self):
        with self._lock:
            self._db.close()

    def _run(self, db, sql, params=()):
        return db.execute(sql, params)

    def _tx(self, work):
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                result = work(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return result


class PostgresActionStore(_SqlActionStore):
    """Actions in PostgreSQL (Debian's python3-psycopg2), e.g. ``PostgresActionStore("host=db dbname=greet")``; the
    tables are created when missing. One provider instance at a time per database (or ``search_path`` schema): the
    Java SDK's leases, which let several instances share one store, are not here."""

    _FOR_UPDATE = " FOR UPDATE"

    def __init__(self, dsn):
        import psycopg2  # optional: only this store needs it

        self._lock = threading.RLock()
        self._db = psycopg2.connect(dsn)
        self._tx(lambda db: db.execute(_SCHEMA))

    def close(self):
        with self._lock:
            self._db.close()

    def _run(self, db, sql, params=()):
        db.execute(sql.replace("?", "%s"), params)
        return db

    def _tx(self, work):
        with self._lock, self._db:  # commits, or rolls back on an exception
            with self._db.cursor() as cursor:
                return work(cursor)
