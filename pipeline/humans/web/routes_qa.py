"""Routes of the timed QA experiment: a sentence marked as shown before it is displayed, its
measured display time, and the answer (calibration answers tried again until correct; the
reading pace stored when the last calibration sentence is answered).

May import: Flask (imported only by :func:`pipeline.humans.web.app.create_app`), the
standard library, :mod:`pipeline.humans.core.pace`, :mod:`pipeline.formats`,
:mod:`pipeline.humans.web`, :mod:`pipeline.web.validate`.
"""

from __future__ import annotations

import sqlite3

from flask import Blueprint, jsonify

from pipeline.humans.core.pace import PaceError, display_ms, reading_pace
from pipeline.humans.formats import experiment_db as db
from pipeline.formats.sqlite_store import immediate
from pipeline.humans.web.common import (ANSWERS, Refused, body_json, check_key, current,
                                            milliseconds, now, whole_number)
from pipeline.humans.web.state import current_qa, known_participant
from pipeline.web.validate import text

qa = Blueprint("qa", __name__)


@qa.post("/api/shown")
def api_shown():
    exp = current()
    data = body_json()
    key = check_key(data.get("key"))
    position = whole_number(data.get("position"), "position")

    def go(con):
        with immediate(con):
            p = known_participant(con, key)
            row = current_qa(exp, con, p, position)
            if row["kind"] == "calibration":
                raise Refused("calibration sentences are not timed")
            target = display_ms(row["alpha"], p["pace"], row["n_words"])
            try:
                db.mark_shown(con, key, position, target, now())
            except sqlite3.IntegrityError:
                raise Refused("this sentence was already shown (reload, or another tab): "
                              "it is not shown twice", 409) from None
        return {"ok": True, "display_ms": round(target, 1)}

    return jsonify(exp.connected(go))


@qa.post("/api/hidden")
def api_hidden():
    exp = current()
    data = body_json()
    key = check_key(data.get("key"))
    position = whole_number(data.get("position"), "position")
    actual = milliseconds(data.get("actual_ms"), "actual_ms")

    def go(con):
        known_participant(con, key)
        if not db.set_actual_ms(con, key, position, actual):
            raise Refused("no displayed sentence waiting for its display time here", 409)
        return {"ok": True}

    return jsonify(exp.connected(go))


def _store_pace(exp, con, p, key: str) -> None:
    """Once every calibration sentence is answered: the participant's reading pace."""
    calib = [r for r in exp.slots[p["slot"]] if r["kind"] == "calibration"]
    times = db.calibration_times(con, key)
    if len(times) == len(calib):
        try:
            pace = reading_pace([(times[r["position"]] / 1000.0, r["n_words"]) for r in calib])
        except PaceError as exc:
            raise Refused(f"calibration: {exc}") from None
        db.set_pace(con, key, pace)


@qa.post("/api/answer")
def api_answer():
    exp = current()
    data = body_json()
    key = check_key(data.get("key"))
    position = whole_number(data.get("position"), "position")
    answer = text(data.get("answer"), "answer", Refused, 40).strip().lower()
    if answer not in ANSWERS:
        raise Refused(f"the answer must be one of {', '.join(ANSWERS)}")
    question_ms = milliseconds(data.get("question_ms"), "question_ms", optional=True)
    total_ms = milliseconds(data.get("total_ms"), "total_ms", optional=True)
    if exp.kind != "qa":
        raise Refused("this is a Maze experiment")

    def go(con):
        try:
            with immediate(con):
                p = known_participant(con, key)
                row = current_qa(exp, con, p, position)
                correct = answer == row["correct_answer"]
                at = now()
                if row["kind"] == "calibration":
                    db.add_qa_attempt(con, key, position, answer, correct, total_ms, at)
                    if not correct:
                        return {"ok": True, "correct": False, "retry": True,
                                "correct_answer": None}
                    if total_ms is None or total_ms <= 0:
                        raise Refused("total_ms (sentence shown -> correct answer) is required")
                    attempts = db.qa_attempts(con, key, position)
                    n_wrong = sum(1 for a in attempts if not a[1])
                    first = attempts[0][0]
                else:
                    if not db.was_shown(con, key, position):
                        raise Refused("the sentence of this trial has not been shown yet", 409)
                    n_wrong, first = (0 if correct else 1), answer
                db.add_qa_answer(con, key, position, row["item_id"], row["kind"], row["alpha"], answer,
                                 int(correct if row["kind"] != "calibration" else n_wrong == 0),
                                 n_wrong, first, question_ms, total_ms, at)
                if row["kind"] == "calibration":
                    _store_pace(exp, con, p, key)
        except sqlite3.IntegrityError:
            raise Refused("this trial is already answered (another tab?): nothing stored", 409) from None
        return {"ok": True, "correct": correct, "retry": False,
                "correct_answer": row["correct_answer"]}

    return jsonify(exp.connected(go))
