"""What the experiment app's routes share: the refusal error, the checks of request values,
and the running experiment (plan, database, completion URL) attached to the Flask app.

May import: Flask (inside functions), the standard library, :mod:`pipeline.formats`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.formats.experiment_db import connect

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
    page: str                          # the HTML of the one page

    def connected(self, fn):
        """``fn(con)`` on a fresh connection, closed afterwards."""
        con = connect(self.db_path)
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
    if value is None and optional:
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise Refused(f"{name} must be a number of milliseconds") from None
    if not (0 <= x <= MAX_MS):
        raise Refused(f"{name} must be between 0 and {MAX_MS:.0f} ms")
    return x


def whole_number(value, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Refused(f"{name} must be a whole number") from None


def body_json() -> dict:
    """The request's JSON object (anything else refused)."""
    from flask import request

    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise Refused("expected a JSON object")
    return data
