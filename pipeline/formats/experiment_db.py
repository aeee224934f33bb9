"""The SQLite file of the experiment app: schema, connection, the plan guard, and reading it
back for ``experiment-export``.

Written by :mod:`pipeline.web.experiment.app` (every answer committed at once; WAL journal,
``synchronous=FULL``), read by ``experiment-export``::

    meta(key TEXT PRIMARY KEY, value TEXT)     -- plan (path), plan_sha256, experiment
    participants(key TEXT PRIMARY KEY,         -- the participant key (MTurk worker / Prolific id)
                 slot TEXT UNIQUE,             -- the plan's participant (P001, ...)
                 started_at, pace REAL,        -- seconds per word, set after the calibration
                 completed_at, completion_code)
    shown(key, position, target_ms, actual_ms, shown_at, UNIQUE(key, position))
                                               -- a timed sentence was displayed (and hidden)
    qa_answers(key, position, item_id, kind, alpha, answer, correct INTEGER, n_wrong INTEGER,
               first_answer, question_ms, total_ms, answered_at, UNIQUE(key, position))
                                               -- calibration: total_ms = sentence shown -> correct
    qa_attempts(key, position, answer, correct, ms, at)   -- every calibration attempt
    maze_errors(key, position, word_index, chosen, ms, at)   -- every wrong Maze key press, at once
    maze_words(key, position, item_id, word_index, word, distractor, side TEXT,
               is_pronoun INTEGER, first_correct INTEGER, n_errors INTEGER,
               first_ms REAL, correct_ms REAL, answered_at, UNIQUE(key, position, word_index))

Safety: the file keeps the sha256 of the plan it was started with; another plan is refused.
UNIQUE constraints make a second answer to the same trial (a second browser tab) fail
instead of storing it twice.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.sqlite_store`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pipeline.errors import InputError
from pipeline.formats import sqlite_store

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS participants (
    key TEXT PRIMARY KEY,
    slot TEXT NOT NULL UNIQUE,
    started_at TEXT NOT NULL,
    pace REAL,
    completed_at TEXT,
    completion_code TEXT UNIQUE
);
CREATE TABLE IF NOT EXISTS shown (
    key TEXT NOT NULL,
    position INTEGER NOT NULL,
    target_ms REAL NOT NULL,
    actual_ms REAL,
    shown_at TEXT NOT NULL,
    UNIQUE (key, position)
);
CREATE TABLE IF NOT EXISTS qa_answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    position INTEGER NOT NULL,
    item_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    alpha REAL,
    answer TEXT NOT NULL,
    correct INTEGER NOT NULL,
    n_wrong INTEGER NOT NULL DEFAULT 0,
    first_answer TEXT NOT NULL,
    question_ms REAL,
    total_ms REAL,
    answered_at TEXT NOT NULL,
    UNIQUE (key, position)
);
CREATE TABLE IF NOT EXISTS qa_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    position INTEGER NOT NULL,
    answer TEXT NOT NULL,
    correct INTEGER NOT NULL,
    ms REAL,
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS maze_errors (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    position INTEGER NOT NULL,
    word_index INTEGER NOT NULL,
    chosen TEXT NOT NULL,
    ms REAL NOT NULL,
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS maze_words (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    position INTEGER NOT NULL,
    item_id TEXT NOT NULL,
    word_index INTEGER NOT NULL,
    word TEXT NOT NULL,
    distractor TEXT NOT NULL,
    side TEXT NOT NULL,
    is_pronoun INTEGER NOT NULL,
    first_correct INTEGER NOT NULL,
    n_errors INTEGER NOT NULL,
    first_ms REAL NOT NULL,
    correct_ms REAL NOT NULL,
    answered_at TEXT NOT NULL,
    UNIQUE (key, position, word_index)
);
"""
HASH_KEY = "plan_sha256"
TABLES = ("meta", "participants", "shown", "qa_answers", "qa_attempts", "maze_errors",
          "maze_words")


def connect(db_path) -> sqlite3.Connection:
    """A read-write connection (:func:`pipeline.formats.sqlite_store.connect`), rows as
    :class:`sqlite3.Row`."""
    return sqlite_store.connect(db_path, row_factory=sqlite3.Row)


def open_store(db_path, plan_path, plan_sha256: str, experiment: str) -> dict:
    """Create the tables, or check an existing file against the plan (another plan: refused)."""
    con = connect(db_path)
    try:
        con.executescript(SCHEMA)
        con.execute("BEGIN IMMEDIATE")
        stored = {r[0]: r[1] for r in con.execute("SELECT key, value FROM meta")}
        if stored.get(HASH_KEY) and stored[HASH_KEY] != plan_sha256:
            con.execute("ROLLBACK")
            raise InputError(
                f"started with another plan ({stored.get('plan', '?')}, sha256 "
                f"{stored[HASH_KEY][:12]}...) than {plan_path} (sha256 {plan_sha256[:12]}...): "
                "use that plan or a new database", db_path)
        if not stored.get(HASH_KEY):
            con.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                            [("plan", str(plan_path)), (HASH_KEY, plan_sha256),
                             ("experiment", experiment)])
        con.execute("COMMIT")
        n = con.execute("SELECT COUNT(*) FROM participants").fetchone()[0]
    finally:
        con.close()
    return {"participants": n}


def read_all(db_path) -> dict[str, list[dict]]:
    """Every table of an experiment database as lists of dicts (read-only)."""
    path = Path(db_path)
    if not path.exists():
        raise InputError("file not found", path)
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        con.row_factory = sqlite3.Row
    except sqlite3.Error as exc:
        raise InputError(f"not a readable SQLite database ({exc})", path) from None
    try:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = [t for t in TABLES if t not in names]
        if missing:
            raise InputError(f"not an experiment-serve database (no table {missing[0]!r})", path)
        out = {t: [dict(r) for r in con.execute(f"SELECT * FROM {t} ORDER BY rowid")]
               for t in TABLES}
    except sqlite3.DatabaseError as exc:
        raise InputError(f"not a readable SQLite database ({exc})", path) from None
    finally:
        con.close()
    out["meta"] = {r["key"]: r["value"] for r in out["meta"]}
    return out
