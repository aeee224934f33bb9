"""What the experiment app's routes share: the refusal error, the checks of request values,
and the running experiment (plan, database, completion URL) attached to the Flask app.

May import: Flask (inside functions), the standard library, :mod:`pipeline.formats`,
:mod:`pipeline.web.validate`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.humans.formats.experiment_db import connect_rows

KEY_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
ANSWERS = ("male", "female", "neutral", "unknown")
MAX_MS = 3_600_000.0
EXTENSION = "counter_gap_experiment"      # the key of :class:`Experiment` in ``app.extensions``


class Refused(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Experiment:
    """One running experiment: the plan held in memory, the SQLite file holding all state."""
    kind: str                          # "qa" or "maze"
    slots: dict[str, list[dict]]       # the plan's participant slot -> its rows in order
    db_path: Path
    completion_url: str | None

    def connected(self, fn):
        """``fn(con)`` on a fresh connection, closed afterwards."""
        con = connect_rows(self.db_path)
        try:
            return fn(con)
        finally:
            con.close()


def current() -> Experiment:
    """The experiment of the app serving this request."""
    from flask import current_app

    return current_app.extensions[EXTENSION]


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")


def check_key(value) -> str:
    key = str(value or "").strip()
    if not key:
        raise Refused("enter your participant key first")
    if not KEY_RE.match(key):
        raise Refused("a participant key may hold only letters, digits, '_' and '-' "
                      "(at most 64 characters)")
    return key


def milliseconds(value, name: str, optional: bool = False) -> float | None:
    """A JSON number of milliseconds, finite, 0..MAX_MS."""
    from pipeline.web.validate import number

    if value is None and optional:
        return None
    return number(value, name, Refused, 0.0, MAX_MS)


def whole_number(value, name: str, lo: int = 0, hi: int | None = None) -> int:
    """A JSON integer (not 0.9, "3", true or 1e400) in ``lo..hi``."""
    from pipeline.web.validate import MAX_INDEX, integer

    return integer(value, name, Refused, lo, MAX_INDEX if hi is None else hi)


def body_json() -> dict:
    """The request's JSON object (anything else refused)."""
    from flask import request

    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise Refused("expected a JSON object")
    return data
