"""SQLite stores of the web apps: one way to open them and one way to write in a transaction.

Both apps (:mod:`pipeline.annotation.web`, :mod:`pipeline.humans.web`) keep every answer in
a SQLite file the moment it is given: explicit transactions (``isolation_level=None``), the WAL
journal (readers never block the writer), ``synchronous=FULL`` (a committed answer survives a
power cut), a 30 s busy timeout.

May import: the standard library.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager


def connect(db_path, row_factory=None) -> sqlite3.Connection:
    """A read-write connection: explicit transactions, WAL journal, synchronous=FULL."""
    con = sqlite3.connect(db_path, timeout=30, isolation_level=None, check_same_thread=False)
    if row_factory is not None:
        con.row_factory = row_factory
    try:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
    except sqlite3.Error:
        con.close()
        raise
    return con


@contextmanager
def immediate(con: sqlite3.Connection):
    """``with immediate(con): ...``: a write transaction taken at once (``BEGIN IMMEDIATE``, so
    two writers never both read a stale state), committed when the block ends normally and
    rolled back when it raises (the exception goes on)."""
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def fetch_one(db_path, sql: str, params: tuple = ()) -> tuple:
    """The first row of one query on a connection opened and closed for it (a count printed
    when a server stops, say)."""
    con = connect(db_path)
    try:
        return tuple(con.execute(sql, params).fetchone())
    finally:
        con.close()
