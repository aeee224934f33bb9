"""Routes of the Maze experiment: every wrong key press (stored at once), and the word once
chosen correctly (times to the first and to the correct answer).

May import: Flask (imported only by :func:`pipeline.humans.web.app.create_app`), the
standard library, :mod:`pipeline.formats`, :mod:`pipeline.humans.web`.
"""

from __future__ import annotations

import sqlite3

from flask import Blueprint, jsonify

from pipeline.humans.formats import experiment_db as db
from pipeline.formats.sqlite_store import immediate
from pipeline.humans.web.common import (Refused, body_json, check_key, current, milliseconds,
                                            now, whole_number)
from pipeline.humans.web.state import current_maze_word, known_participant

maze = Blueprint("maze", __name__)


@maze.post("/api/maze-error")
def api_maze_error():
    exp = current()
    data = body_json()
    key = check_key(data.get("key"))
    if exp.kind != "maze":
        raise Refused("this is a QA experiment")
    position = whole_number(data.get("position"), "position")
    word_index = whole_number(data.get("word_index"), "word_index")
    ms = milliseconds(data.get("ms"), "ms")

    def go(con):
        with immediate(con):
            p = known_participant(con, key)
            row = current_maze_word(exp, con, p, position, word_index, "")
            chosen = "left" if row["sides"][word_index] == "right" else "right"
            db.add_maze_error(con, key, position, word_index, chosen, ms, now())
        return {"ok": True}

    return jsonify(exp.connected(go))


@maze.post("/api/maze")
def api_maze():
    exp = current()
    data = body_json()
    key = check_key(data.get("key"))
    if exp.kind != "maze":
        raise Refused("this is a QA experiment")
    position = whole_number(data.get("position"), "position")
    word_index = whole_number(data.get("word_index"), "word_index")
    n_errors = whole_number(data.get("n_errors"), "n_errors")
    first_ms = milliseconds(data.get("first_ms"), "first_ms")
    correct_ms = milliseconds(data.get("correct_ms"), "correct_ms")
    side = data.get("side")
    if not isinstance(side, str):
        raise Refused("side must be 'left' or 'right'")
    if n_errors < 0 or correct_ms < first_ms:
        raise Refused("n_errors >= 0 and correct_ms >= first_ms, please")

    def go(con):
        try:
            with immediate(con):
                p = known_participant(con, key)
                row = current_maze_word(exp, con, p, position, word_index,
                                        " (already answered, perhaps in another tab)")
                if side != row["sides"][word_index]:
                    raise Refused(f"side must be the plan's {row['sides'][word_index]!r}")
                db.add_maze_word(con, key, position, row["item_id"], word_index,
                                 row["tokens"][word_index], row["distractors"][word_index], side,
                                 word_index == row["pronoun_index"], n_errors == 0, n_errors,
                                 first_ms, correct_ms, now())
        except sqlite3.IntegrityError:
            raise Refused("this word is already answered (another tab?): nothing stored", 409) from None
        return {"ok": True}

    return jsonify(exp.connected(go))
