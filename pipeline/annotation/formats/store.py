"""The SQLite file of the annotation web app: schema, connection, and the guard that ties it
to one quadruples file.

Written by the app (:mod:`pipeline.annotation.web.app`), read by ``annotate-import``::

    answers(id INTEGER PRIMARY KEY, annotator TEXT, instance_id TEXT,
            spans TEXT  -- JSON [[start, end, text], ...], code-point offsets into the text
            no_names INTEGER  -- 1: "no names are coreferent" ticked
            contradiction TEXT, answered_at TEXT, UNIQUE(annotator, instance_id))
    meta(key TEXT PRIMARY KEY, value TEXT)   -- quadruples (path), quadruples_sha256, assignments,
                                             -- annotator_salt (private: pseudonyms of annotate-import)
    leases(instance_id TEXT, annotator TEXT, expires REAL, PRIMARY KEY(instance_id, annotator))
                                             -- a question handed out and not answered yet

Safety: the file keeps the sha256 of the quadruples file it was started with. Starting the
app on another quadruples file is refused (:func:`open_store`), and the import checks the
hash and that every stored highlight still reads the same text in the quadruples file
(:func:`read_answers`), so answers can never be counted against the offsets of a
regenerated file. A file without a stored hash (made by hand, or by an older version) is
accepted with a warning; its stored highlights are still checked.

Read and written through here by the app and by the annotation import (formats only read and write):
every SQL statement of the annotation app is a named function below (the app only serves). The
functions that take ``con`` run inside the caller's write transaction
(:func:`pipeline.formats.sqlite_store.immediate`), so handing out a lease or storing an answer
is decided and written at once.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.sqlite_store`.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import secrets
import sqlite3
from pathlib import Path

from pipeline.errors import InputError
from pipeline.formats.sqlite_store import connect, fetch_one, immediate

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    annotator TEXT NOT NULL,
    instance_id TEXT NOT NULL,
    spans TEXT NOT NULL,
    no_names INTEGER NOT NULL,
    contradiction TEXT NOT NULL DEFAULT '',
    answered_at TEXT NOT NULL,
    UNIQUE (annotator, instance_id)
);
CREATE INDEX IF NOT EXISTS answers_instance ON answers (instance_id);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS leases (
    instance_id TEXT NOT NULL,
    annotator TEXT NOT NULL,
    expires REAL NOT NULL,
    PRIMARY KEY (instance_id, annotator)
);
"""
SALT_KEY = "annotator_salt"
ANSWER_COLUMNS = ("annotator", "instance_id", "spans", "no_names", "contradiction")
HASH_KEY = "quadruples_sha256"


def _mismatch(db_path, stored: dict, quadruples_path, sha: str) -> InputError:
    return InputError(
        f"started with another quadruples file ({stored.get('quadruples', '?')}, sha256 "
        f"{stored[HASH_KEY][:12]}...) than {quadruples_path} (sha256 {sha[:12]}...); its answers "
        "point into the other file's texts: use the original file or a new database", db_path)


def open_store(db_path, quadruples_path, quadruples_sha256: str, assignments: int) -> dict:
    """Create the tables, or check an existing file against the quadruples file.

    A new file records the quadruples path and sha256; an existing file with another sha256
    is refused (:class:`InputError`) and left unchanged. Returns ``{"answers": n}``."""
    try:
        con = connect(db_path)
    except sqlite3.DatabaseError as exc:
        raise InputError(f"not a usable SQLite database ({exc})", db_path) from None
    try:
        con.executescript(SCHEMA)
    except sqlite3.DatabaseError as exc:
        con.close()
        raise InputError(f"not a usable SQLite database ({exc})", db_path) from None
    try:
        with immediate(con):
            stored = dict(con.execute("SELECT key, value FROM meta").fetchall())
            if stored.get(HASH_KEY) and stored[HASH_KEY] != quadruples_sha256:
                raise _mismatch(db_path, stored, quadruples_path, quadruples_sha256)
            if not stored.get(HASH_KEY):
                if con.execute("SELECT COUNT(*) FROM answers").fetchone()[0]:
                    log.warning("%s holds answers but no quadruples hash; recording the hash of %s",
                                db_path, quadruples_path)
                con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('quadruples', ?)",
                            (str(quadruples_path),))
                con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                            (HASH_KEY, quadruples_sha256))
            con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('assignments', ?)",
                        (str(assignments),))
            con.execute("INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)",
                        (SALT_KEY, secrets.token_hex(16)))
        n = con.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    finally:
        con.close()
    return {"answers": n}


def read_answers(db_path, quadruples_path, quadruples_sha256: str,
                 texts: dict[str, str]) -> list[dict]:
    """The stored answers, checked against the quadruples file the import was given.

    ``texts``: item id -> text (instances and check items). Refused with a one-line
    :class:`InputError`: a file that is not an annotate-serve database, another stored
    quadruples hash, an answer to an unknown id, spans that are not JSON, and a stored
    highlight whose offsets read another text in the given file (naming the row).
    Returns dicts ``{row, annotator, item, spans, none, contradiction}`` (``spans`` the
    parsed JSON list) in row order.
    """
    path = Path(db_path)
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise InputError(f"not a readable SQLite database ({exc})", path) from None
    try:
        cols = [r[1] for r in con.execute("PRAGMA table_info(answers)")]
        if not cols:
            raise InputError("no table 'answers' (not an annotate-serve database)", path)
        missing = [c for c in ANSWER_COLUMNS if c not in cols]
        if missing:
            raise InputError(f"table answers: missing column(s) {', '.join(missing)}", path)
        has_meta = bool(con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                                    "AND name = 'meta'").fetchone())
        stored = dict(con.execute("SELECT key, value FROM meta").fetchall()) if has_meta else {}
        rows = con.execute("SELECT rowid, annotator, instance_id, spans, no_names, contradiction "
                           "FROM answers ORDER BY rowid").fetchall()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"not a readable SQLite database ({exc})", path) from None
    finally:
        con.close()
    if stored.get(HASH_KEY) and stored[HASH_KEY] != quadruples_sha256:
        raise _mismatch(path, stored, quadruples_path, quadruples_sha256)
    if not stored.get(HASH_KEY):
        log.warning("%s has no stored quadruples hash; checking the stored highlights only", path)
    out = []
    for rowid, annotator, qid, spans, none, contradiction in rows:
        if qid not in texts:
            raise InputError(f"answer to unknown instance {qid!r}", path, rowid)
        try:
            parsed = json.loads(spans) if spans and spans.strip() else []
            if not isinstance(parsed, list):
                raise ValueError("not a list")
        except (ValueError, TypeError, RecursionError) as exc:
            raise InputError(f"spans is not a JSON list of spans ({exc})", path, rowid) from None
        text = texts[qid]
        for span in parsed:
            if (isinstance(span, list) and len(span) >= 3 and isinstance(span[0], int)
                    and isinstance(span[1], int) and text[span[0]:span[1]] != span[2]):
                raise InputError(
                    f"the highlight {span[2]!r} of {qid!r} at [{span[0]}, {span[1]}) reads "
                    f"{text[span[0]:span[1]]!r} in {quadruples_path}: answers given on "
                    "another quadruples file", path, rowid)
        out.append({"row": rowid, "annotator": str(annotator), "item": qid, "spans": parsed,
                    "none": bool(none), "contradiction": (contradiction or "").strip()})
    return out


def answer_counts(db_path) -> tuple[int, int]:
    """(answers, distinct annotators) stored."""
    return fetch_one(db_path, "SELECT COUNT(*), COUNT(DISTINCT annotator) FROM answers")


def annotator_salt(db_path) -> str:
    """The database's private salt for annotator pseudonyms (created when missing: a database
    of an older version)."""
    con = connect(db_path)
    try:
        with immediate(con):
            con.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            con.execute("INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)", (SALT_KEY, secrets.token_hex(16)))
            return con.execute("SELECT value FROM meta WHERE key = ?", (SALT_KEY,)).fetchone()[0]
    finally:
        con.close()


# ------------------------------------------------------------- the annotation app's queries ----

def answered_instance_ids(db_path) -> list[str]:
    """The ids of the instances with an answer stored, each once."""
    con = connect(db_path)
    try:
        return [r[0] for r in con.execute("SELECT DISTINCT instance_id FROM answers")]
    finally:
        con.close()


def drop_expired_leases(con: sqlite3.Connection, now: float) -> None:
    """Remove the leases that expired before ``now`` (seconds since the epoch)."""
    con.execute("DELETE FROM leases WHERE expires < ?", (now,))


def answer_counts_per_instance(con: sqlite3.Connection) -> dict[str, int]:
    """Instance id -> its number of stored answers (instances without one left out)."""
    return dict(con.execute("SELECT instance_id, COUNT(*) FROM answers GROUP BY instance_id"))


def answered_by(con: sqlite3.Connection, annotator: str) -> set[str]:
    """The instances ``annotator`` has answered."""
    return {r[0] for r in con.execute("SELECT instance_id FROM answers WHERE annotator = ?", (annotator,))}


def leased_by(con: sqlite3.Connection, annotator: str) -> set[str]:
    """The instances leased to ``annotator`` now."""
    return {r[0] for r in con.execute("SELECT instance_id FROM leases WHERE annotator = ?", (annotator,))}


def lease_counts_of_others(con: sqlite3.Connection, annotator: str) -> dict[str, int]:
    """Instance id -> the number of leases other annotators hold on it."""
    return dict(con.execute("SELECT instance_id, COUNT(*) FROM leases WHERE annotator != ? "
                            "GROUP BY instance_id", (annotator,)))


def release_leases(con: sqlite3.Connection, annotator: str, instance_id: str | None = None) -> None:
    """End ``annotator``'s leases (only the one on ``instance_id`` when given)."""
    if instance_id is None:
        con.execute("DELETE FROM leases WHERE annotator = ?", (annotator,))
    else:
        con.execute("DELETE FROM leases WHERE annotator = ? AND instance_id = ?", (annotator, instance_id))


def add_lease(con: sqlite3.Connection, instance_id: str, annotator: str, expires: float) -> None:
    """Lease one of ``instance_id``'s slots to ``annotator`` until ``expires``."""
    con.execute("INSERT INTO leases (instance_id, annotator, expires) VALUES (?, ?, ?)",
                (instance_id, annotator, expires))


def has_answered(con: sqlite3.Connection, annotator: str, instance_id: str) -> bool:
    """Whether ``annotator`` has answered ``instance_id``."""
    return con.execute("SELECT 1 FROM answers WHERE annotator = ? AND instance_id = ?",
                       (annotator, instance_id)).fetchone() is not None


def answers_to(con: sqlite3.Connection, instance_id: str) -> int:
    """The number of answers stored for ``instance_id``."""
    return con.execute("SELECT COUNT(*) FROM answers WHERE instance_id = ?", (instance_id,)).fetchone()[0]


def add_answer(con: sqlite3.Connection, annotator: str, instance_id: str, spans: list, no_names: bool,
               contradiction: str) -> None:
    """Store an answer: ``spans`` as ``[[start, end, text], ...]`` (JSON), the time in UTC."""
    con.execute("INSERT INTO answers (annotator, instance_id, spans, no_names, "
                "contradiction, answered_at) VALUES (?, ?, ?, ?, ?, ?)",
                (annotator, instance_id, json.dumps(spans, ensure_ascii=False), int(no_names), contradiction,
                 dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")))
