"""The human experiment app (Flask): timed QA with calibration, or Maze, answers in SQLite.

Serves 127.0.0.1 only (:func:`make_server`) and refuses any request whose peer address is not
loopback (a proxy in front would have to be put there on purpose: see ``docs/experiment.md``).

Flow (one plan = one experiment, from ``experiment-plan``):

* consent and instructions; the participant key is typed or passed in the URL (``?key=``,
  ``?PROLIFIC_PID=`` or ``?workerId=``); letters, digits, ``_`` and ``-`` only (at most 64);
  a new key takes the next free participant slot of the plan (P001, P002, ...);
* QA: the calibration sentences with their question and no time limit (feedback; a wrong
  answer is tried again; the time to the correct answer counts); the reading pace
  (:func:`pipeline.core.pace.reading_pace`) is stored when the last one is answered; then the
  trials: the sentence for alpha x pace x length ms (:func:`pipeline.core.pace.display_ms`;
  the page measures the real display time with ``performance.now()`` and stores it), then the
  question (male / female / neutral / unknown) without a time limit, then feedback;
* Maze: per sentence, the first word alone, then for each next word the true word and its
  distractor left and right (side from the plan); ``e`` = left, ``i`` = right; a wrong choice
  shows an error and the participant tries again (each wrong press stored at once); time to
  the first and to the correct answer stored per word;
* at the end a completion code (stored; ``experiment-export`` lists them).

Every answer is checked on the server (the participant's current trial, the answer options)
and committed at once; UNIQUE constraints make a second tab's answer to the same trial fail
(409) rather than store it twice. A timed sentence is marked as shown before it is displayed,
so after a reload it is never shown again (the page goes straight to its question).

May import: Flask/werkzeug (inside functions), the standard library, :mod:`pipeline.errors`,
:mod:`pipeline.core.pace`, :mod:`pipeline.formats`, :mod:`pipeline.web.experiment`.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
import sqlite3

from pipeline.core.pace import PaceError, display_ms, reading_pace
from pipeline.errors import InputError
from pipeline.formats.experiment_db import connect, open_store
from pipeline.formats.sqlite_store import immediate
from pipeline.formats.files import sha256_file
from pipeline.formats.tables import read_table
from pipeline.web.experiment import STATIC, TEMPLATES
from pipeline.web.serving import protect

KEY_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
ANSWERS = ("male", "female", "neutral", "unknown")
SIDES = ("left", "right")
MAX_MS = 3_600_000.0


class Refused(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")




def check_key(value) -> str:
    key = str(value or "").strip()
    if not key:
        raise Refused("enter your participant key first")
    if not KEY_RE.match(key):
        raise Refused("a participant key may hold only letters, digits, '_' and '-' "
                      "(at most 64 characters)")
    return key


def _ms(value, name: str, optional: bool = False) -> float | None:
    if value is None and optional:
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise Refused(f"{name} must be a number of milliseconds") from None
    if not (0 <= x <= MAX_MS):
        raise Refused(f"{name} must be between 0 and {MAX_MS:.0f} ms")
    return x


def _int(value, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Refused(f"{name} must be a whole number") from None


def load_plan(plan_path) -> tuple[str, dict[str, list[dict]]]:
    """(experiment, slot -> its rows in order) of a plan.parquet."""
    table = read_table(plan_path)
    need = {"participant", "position", "experiment", "item_id", "kind", "text", "tokens"}
    missing = sorted(need - set(table.column_names))
    if missing:
        raise InputError(f"not an experiment plan: missing column(s) {', '.join(missing)}", plan_path)
    rows = table.to_pylist()
    if not rows:
        raise InputError("the plan has no trials", plan_path)
    kinds = {r["experiment"] for r in rows}
    if len(kinds) != 1 or not kinds <= {"qa", "maze"}:
        raise InputError(f"a plan holds one experiment (qa or maze), found {sorted(map(str, kinds))}",
                         plan_path)
    slots: dict[str, list[dict]] = {}
    for r in rows:
        slots.setdefault(r["participant"], []).append(r)
    for s in slots.values():
        s.sort(key=lambda r: r["position"])
        if [r["position"] for r in s] != list(range(len(s))):
            raise InputError(f"participant {s[0]['participant']}: positions are not 0..{len(s) - 1}",
                             plan_path)
    return kinds.pop(), dict(sorted(slots.items()))


def create_app(plan_path, db_path, completion_url: str | None = None):
    """The Flask app; all state is in the SQLite file, the plan is held in memory."""
    from flask import Flask, jsonify, request

    experiment, slots = load_plan(plan_path)
    info = open_store(db_path, plan_path, sha256_file(plan_path), experiment)
    if completion_url is not None and "{code}" not in completion_url:
        raise InputError("--completion-url must contain {code} (where the code goes)")

    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config.update(EXPERIMENT={"db": str(db_path), "experiment": experiment,
                                  "slots": len(slots), "info": info})
    page = (TEMPLATES / "experiment.html").read_text(encoding="utf-8")

    protect(app, "experiment app")

    @app.errorhandler(Refused)
    def refused(exc: Refused):
        return jsonify(error=str(exc)), exc.status

    def participant(con, key: str):
        row = con.execute("SELECT * FROM participants WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise Refused(f"unknown participant key {key!r}: start from the first page", 404)
        return row

    # ------------------------------------------------------------------ state
    def qa_state(con, p) -> dict:
        rows = slots[p["slot"]]
        answered = {r[0] for r in con.execute("SELECT position FROM qa_answers WHERE key = ?",
                                              (p["key"],))}
        shown = {r[0] for r in con.execute("SELECT position FROM shown WHERE key = ?", (p["key"],))}
        n_calib = sum(r["kind"] == "calibration" for r in rows)
        out = {"answered": len(answered), "total": len(rows), "calibration": n_calib,
               "pace": p["pace"]}
        nxt = next((r for r in rows if r["position"] not in answered), None)
        if nxt is None:
            return {**out, "done": True}
        trial = {"position": nxt["position"], "kind": nxt["kind"], "text": nxt["text"],
                 "question": nxt["question"], "answers": list(nxt["answers"] or ANSWERS),
                 "n_words": nxt["n_words"], "alpha": nxt["alpha"],
                 "shown": nxt["position"] in shown}
        if nxt["kind"] != "calibration":
            if p["pace"] is None:
                raise Refused("the calibration is not complete", 409)
            trial["display_ms"] = round(display_ms(nxt["alpha"], p["pace"], nxt["n_words"]), 1)
            if trial["shown"]:
                trial["text"] = None          # never shown twice
        return {**out, "done": False, "trial": trial}

    def maze_state(con, p) -> dict:
        rows = slots[p["slot"]]
        done_words: dict[int, int] = {}
        for pos, n in con.execute("SELECT position, COUNT(*) FROM maze_words WHERE key = ? "
                                  "GROUP BY position", (p["key"],)):
            done_words[pos] = n
        finished = sum(done_words.get(r["position"], 0) >= len(r["tokens"]) - 1 for r in rows)
        out = {"answered": finished, "total": len(rows)}
        nxt = next((r for r in rows if done_words.get(r["position"], 0) < len(r["tokens"]) - 1), None)
        if nxt is None:
            return {**out, "done": True}
        trial = {"position": nxt["position"], "words": list(nxt["tokens"]),
                 "distractors": list(nxt["distractors"]), "sides": list(nxt["sides"]),
                 "next_word": done_words.get(nxt["position"], 0) + 1}
        return {**out, "done": False, "trial": trial}

    def state(con, key: str) -> dict:
        p = participant(con, key)
        body = qa_state(con, p) if experiment == "qa" else maze_state(con, p)
        if body["done"]:
            code = p["completion_code"]
            if code is None:
                code = f"CG-{secrets.token_hex(4).upper()}"
                con.execute("UPDATE participants SET completion_code = ?, completed_at = ? "
                            "WHERE key = ? AND completion_code IS NULL", (code, _now(), key))
                code = con.execute("SELECT completion_code FROM participants WHERE key = ?",
                                   (key,)).fetchone()[0]
            body["code"] = code
            if completion_url:
                body["completion_url"] = completion_url.replace("{code}", code)
        return {"key": key, "slot": p["slot"], "experiment": experiment, **body}

    def with_con(fn):
        con = connect(db_path)
        try:
            return fn(con)
        finally:
            con.close()

    def body_json() -> dict:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise Refused("expected a JSON object")
        return data

    # ------------------------------------------------------------------ routes
    @app.get("/")
    def index():
        return page.replace("{{EXPERIMENT}}", experiment), 200, {"Content-Type": "text/html; charset=utf-8"}

    @app.get("/api/state")
    def api_state():
        key = check_key(request.args.get("key"))
        return jsonify(with_con(lambda con: state(con, key)))

    @app.post("/api/start")
    def api_start():
        data = body_json()
        key = check_key(data.get("key"))
        if data.get("consent") is not True:
            raise Refused("tick the consent box to take part")

        def go(con):
            with immediate(con):
                row = con.execute("SELECT slot FROM participants WHERE key = ?", (key,)).fetchone()
                if row is None:
                    taken = {r[0] for r in con.execute("SELECT slot FROM participants")}
                    free = [s for s in slots if s not in taken]
                    if not free:
                        raise Refused(f"all {len(slots)} participant slots of this plan are taken", 409)
                    con.execute("INSERT INTO participants(key, slot, started_at) VALUES (?, ?, ?)",
                                (key, free[0], _now()))
            return state(con, key)

        return jsonify(with_con(go))

    def current_qa(con, p, position) -> dict:
        st = qa_state(con, p)
        if st["done"]:
            raise Refused("all trials are answered already", 409)
        if st["trial"]["position"] != position:
            raise Refused(f"trial {position} is not the current one (already answered, perhaps "
                          "in another tab): reload the page", 409)
        return slots[p["slot"]][position]

    @app.post("/api/shown")
    def api_shown():
        data = body_json()
        key = check_key(data.get("key"))
        position = _int(data.get("position"), "position")

        def go(con):
            with immediate(con):
                p = participant(con, key)
                row = current_qa(con, p, position)
                if row["kind"] == "calibration":
                    raise Refused("calibration sentences are not timed")
                target = display_ms(row["alpha"], p["pace"], row["n_words"])
                try:
                    con.execute("INSERT INTO shown(key, position, target_ms, shown_at) "
                                "VALUES (?, ?, ?, ?)", (key, position, target, _now()))
                except sqlite3.IntegrityError:
                    raise Refused("this sentence was already shown (reload, or another tab): "
                                  "it is not shown twice", 409) from None
            return {"ok": True, "display_ms": round(target, 1)}

        return jsonify(with_con(go))

    @app.post("/api/hidden")
    def api_hidden():
        data = body_json()
        key = check_key(data.get("key"))
        position = _int(data.get("position"), "position")
        actual = _ms(data.get("actual_ms"), "actual_ms")

        def go(con):
            participant(con, key)
            cur = con.execute("UPDATE shown SET actual_ms = ? WHERE key = ? AND position = ? "
                              "AND actual_ms IS NULL", (actual, key, position))
            if cur.rowcount != 1:
                raise Refused("no displayed sentence waiting for its display time here", 409)
            return {"ok": True}

        return jsonify(with_con(go))

    @app.post("/api/answer")
    def api_answer():
        data = body_json()
        key = check_key(data.get("key"))
        position = _int(data.get("position"), "position")
        answer = str(data.get("answer") or "").strip().lower()
        if answer not in ANSWERS:
            raise Refused(f"the answer must be one of {', '.join(ANSWERS)}")
        question_ms = _ms(data.get("question_ms"), "question_ms", optional=True)
        total_ms = _ms(data.get("total_ms"), "total_ms", optional=True)
        if experiment != "qa":
            raise Refused("this is a Maze experiment")

        def go(con):
            try:
                with immediate(con):
                    p = participant(con, key)
                    row = current_qa(con, p, position)
                    correct = answer == row["correct_answer"]
                    now = _now()
                    if row["kind"] == "calibration":
                        con.execute("INSERT INTO qa_attempts(key, position, answer, correct, ms, at) "
                                    "VALUES (?, ?, ?, ?, ?, ?)", (key, position, answer, int(correct),
                                                                 total_ms, now))
                        if not correct:
                            return {"ok": True, "correct": False, "retry": True,
                                    "correct_answer": None}
                        if total_ms is None or total_ms <= 0:
                            raise Refused("total_ms (sentence shown -> correct answer) is required")
                        attempts = con.execute("SELECT answer, correct FROM qa_attempts WHERE key = ? "
                                               "AND position = ? ORDER BY id", (key, position)).fetchall()
                        n_wrong = sum(1 for a in attempts if not a[1])
                        first = attempts[0][0]
                    else:
                        if not con.execute("SELECT 1 FROM shown WHERE key = ? AND position = ?",
                                           (key, position)).fetchone():
                            raise Refused("the sentence of this trial has not been shown yet", 409)
                        n_wrong, first = (0 if correct else 1), answer
                    con.execute("INSERT INTO qa_answers(key, position, item_id, kind, alpha, answer, "
                                "correct, n_wrong, first_answer, question_ms, total_ms, answered_at) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                (key, position, row["item_id"], row["kind"], row["alpha"], answer,
                                 int(correct if row["kind"] != "calibration" else n_wrong == 0),
                                 n_wrong, first, question_ms, total_ms, now))
                    if row["kind"] == "calibration":
                        rows = slots[p["slot"]]
                        calib = [r for r in rows if r["kind"] == "calibration"]
                        times = {r[0]: r[1] for r in con.execute(
                            "SELECT position, total_ms FROM qa_answers WHERE key = ? AND kind = "
                            "'calibration'", (key,))}
                        if len(times) == len(calib):
                            try:
                                pace = reading_pace([(times[r["position"]] / 1000.0, r["n_words"])
                                                     for r in calib])
                            except PaceError as exc:
                                raise Refused(f"calibration: {exc}") from None
                            con.execute("UPDATE participants SET pace = ? WHERE key = ?", (pace, key))
            except sqlite3.IntegrityError:
                raise Refused("this trial is already answered (another tab?): nothing stored", 409) from None
            return {"ok": True, "correct": correct, "retry": False,
                    "correct_answer": row["correct_answer"]}

        return jsonify(with_con(go))

    @app.post("/api/maze-error")
    def api_maze_error():
        data = body_json()
        key = check_key(data.get("key"))
        if experiment != "maze":
            raise Refused("this is a QA experiment")
        position = _int(data.get("position"), "position")
        word_index = _int(data.get("word_index"), "word_index")
        ms = _ms(data.get("ms"), "ms")

        def go(con):
            with immediate(con):
                p = participant(con, key)
                st = maze_state(con, p)
                if st["done"] or st["trial"]["position"] != position or \
                        st["trial"]["next_word"] != word_index:
                    raise Refused(f"word {word_index} of sentence {position} is not the current "
                                  "one: reload", 409)
                row = slots[p["slot"]][position]
                chosen = "left" if row["sides"][word_index] == "right" else "right"
                con.execute("INSERT INTO maze_errors(key, position, word_index, chosen, ms, at) "
                            "VALUES (?, ?, ?, ?, ?, ?)", (key, position, word_index, chosen, ms, _now()))
            return {"ok": True}

        return jsonify(with_con(go))

    @app.post("/api/maze")
    def api_maze():
        data = body_json()
        key = check_key(data.get("key"))
        if experiment != "maze":
            raise Refused("this is a QA experiment")
        try:
            position, word_index = int(data.get("position")), int(data.get("word_index"))
            n_errors = int(data.get("n_errors"))
        except (TypeError, ValueError):
            raise Refused("position, word_index and n_errors must be whole numbers") from None
        first_ms = _ms(data.get("first_ms"), "first_ms")
        correct_ms = _ms(data.get("correct_ms"), "correct_ms")
        side = data.get("side")
        if n_errors < 0 or correct_ms < first_ms:
            raise Refused("n_errors >= 0 and correct_ms >= first_ms, please")

        def go(con):
            try:
                with immediate(con):
                    p = participant(con, key)
                    st = maze_state(con, p)
                    if st["done"] or st["trial"]["position"] != position or \
                            st["trial"]["next_word"] != word_index:
                        raise Refused(f"word {word_index} of sentence {position} is not the current "
                                      "one (already answered, perhaps in another tab): reload", 409)
                    row = slots[p["slot"]][position]
                    if side != row["sides"][word_index]:
                        raise Refused(f"side must be the plan's {row['sides'][word_index]!r}")
                    con.execute("INSERT INTO maze_words(key, position, item_id, word_index, word, "
                                "distractor, side, is_pronoun, first_correct, n_errors, first_ms, "
                                "correct_ms, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                (key, position, row["item_id"], word_index, row["tokens"][word_index],
                                 row["distractors"][word_index], side,
                                 int(word_index == row["pronoun_index"]), int(n_errors == 0),
                                 n_errors, first_ms, correct_ms, _now()))
            except sqlite3.IntegrityError:
                raise Refused("this word is already answered (another tab?): nothing stored", 409) from None
            return {"ok": True}

        return jsonify(with_con(go))

    return app


