"""The SQLite file of the experiment app: schema, connection, the plan guard, and reading it
back for ``experiment-export``.

Written by the routes of :mod:`pipeline.humans.web` through the functions at the end of
this module, which hold every SQL statement of the app (every answer committed at once; WAL
journal, ``synchronous=FULL``), read by ``experiment-export``::

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

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats` (``sqlite_store``).
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


def connect_rows(db_path) -> sqlite3.Connection:
    """A read-write connection (:func:`pipeline.formats.sqlite_store.connect`), rows as
    :class:`sqlite3.Row`."""
    return sqlite_store.connect(db_path, row_factory=sqlite3.Row)


def open_experiment_db(db_path, plan_path, plan_sha256: str, experiment: str) -> dict:
    """Create the tables, or check an existing file against the plan (another plan: refused)."""
    con = connect_rows(db_path)
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


def participant_counts(db_path) -> tuple[int, int]:
    """(participants started, participants who completed: got a completion code)."""
    return sqlite_store.fetch_one(db_path, "SELECT COUNT(*), COUNT(completion_code) FROM participants")


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


# ------------------------------------------------------------------ the app's reads and writes
# Every statement of the experiment app, on a connection from :func:`connect_rows` (the app opens one
# per request and wraps the writing steps in :func:`pipeline.formats.sqlite_store.immediate`).
# The UNIQUE constraints raise :class:`sqlite3.IntegrityError` on a second answer to one trial.

def participant(con, key: str):
    """The participant's row (:class:`sqlite3.Row`), or None for an unknown key."""
    return con.execute("SELECT * FROM participants WHERE key = ?", (key,)).fetchone()


def participant_slot(con, key: str) -> str | None:
    row = con.execute("SELECT slot FROM participants WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def taken_slots(con) -> set[str]:
    return {r[0] for r in con.execute("SELECT slot FROM participants")}


def add_participant(con, key: str, slot: str, started_at: str) -> None:
    con.execute("INSERT INTO participants(key, slot, started_at) VALUES (?, ?, ?)",
                (key, slot, started_at))


def set_completion_code(con, key: str, code: str, completed_at: str) -> str:
    """Store ``code`` unless the participant has one already; return the stored code."""
    con.execute("UPDATE participants SET completion_code = ?, completed_at = ? "
                "WHERE key = ? AND completion_code IS NULL", (code, completed_at, key))
    return con.execute("SELECT completion_code FROM participants WHERE key = ?", (key,)).fetchone()[0]


def set_pace(con, key: str, pace: float) -> None:
    con.execute("UPDATE participants SET pace = ? WHERE key = ?", (pace, key))


def answered_positions(con, key: str) -> set[int]:
    """Positions of the participant's QA trials with a stored answer."""
    return {r[0] for r in con.execute("SELECT position FROM qa_answers WHERE key = ?", (key,))}


def shown_positions(con, key: str) -> set[int]:
    return {r[0] for r in con.execute("SELECT position FROM shown WHERE key = ?", (key,))}


def was_shown(con, key: str, position: int) -> bool:
    return con.execute("SELECT 1 FROM shown WHERE key = ? AND position = ?",
                       (key, position)).fetchone() is not None


def mark_shown(con, key: str, position: int, target_ms: float, shown_at: str) -> None:
    """Raises :class:`sqlite3.IntegrityError` when the sentence was shown already."""
    con.execute("INSERT INTO shown(key, position, target_ms, shown_at) "
                "VALUES (?, ?, ?, ?)", (key, position, target_ms, shown_at))


def set_actual_ms(con, key: str, position: int, actual_ms: float) -> bool:
    """Store the measured display time of a shown sentence that has none yet; False if none."""
    cur = con.execute("UPDATE shown SET actual_ms = ? WHERE key = ? AND position = ? "
                      "AND actual_ms IS NULL", (actual_ms, key, position))
    return cur.rowcount == 1


def add_qa_attempt(con, key: str, position: int, answer: str, correct: bool, ms: float | None,
                   at: str) -> None:
    con.execute("INSERT INTO qa_attempts(key, position, answer, correct, ms, at) "
                "VALUES (?, ?, ?, ?, ?, ?)", (key, position, answer, int(correct), ms, at))


def qa_attempts(con, key: str, position: int) -> list[tuple[str, int]]:
    """(answer, correct) of every calibration attempt at one trial, in order."""
    return [tuple(r) for r in con.execute("SELECT answer, correct FROM qa_attempts WHERE key = ? "
                                          "AND position = ? ORDER BY id", (key, position)).fetchall()]


def add_qa_answer(con, key: str, position: int, item_id: str, kind: str, alpha, answer: str,
                  correct: int, n_wrong: int, first_answer: str, question_ms: float | None,
                  total_ms: float | None, answered_at: str) -> None:
    """Raises :class:`sqlite3.IntegrityError` when the trial is answered already."""
    con.execute("INSERT INTO qa_answers(key, position, item_id, kind, alpha, answer, "
                "correct, n_wrong, first_answer, question_ms, total_ms, answered_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, position, item_id, kind, alpha, answer, correct, n_wrong, first_answer,
                 question_ms, total_ms, answered_at))


def calibration_times(con, key: str) -> dict[int, float]:
    """Position -> total_ms of the participant's answered calibration trials."""
    return {r[0]: r[1] for r in con.execute(
        "SELECT position, total_ms FROM qa_answers WHERE key = ? AND kind = "
        "'calibration'", (key,))}


def maze_word_counts(con, key: str) -> dict[int, int]:
    """Position -> the number of answered words of that Maze sentence."""
    return {pos: n for pos, n in con.execute("SELECT position, COUNT(*) FROM maze_words WHERE key = ? "
                                             "GROUP BY position", (key,))}


def add_maze_error(con, key: str, position: int, word_index: int, chosen: str, ms: float,
                   at: str) -> None:
    con.execute("INSERT INTO maze_errors(key, position, word_index, chosen, ms, at) "
                "VALUES (?, ?, ?, ?, ?, ?)", (key, position, word_index, chosen, ms, at))


def add_maze_word(con, key: str, position: int, item_id: str, word_index: int, word: str,
                  distractor: str, side: str, is_pronoun: bool, first_correct: bool, n_errors: int,
                  first_ms: float, correct_ms: float, answered_at: str) -> None:
    """Raises :class:`sqlite3.IntegrityError` when the word is answered already."""
    con.execute("INSERT INTO maze_words(key, position, item_id, word_index, word, "
                "distractor, side, is_pronoun, first_correct, n_errors, first_ms, "
                "correct_ms, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, position, item_id, word_index, word, distractor, side, int(is_pronoun),
                 int(first_correct), n_errors, first_ms, correct_ms, answered_at))
