"""A participant's place in the experiment, read from the database and the plan: the next QA
trial or Maze word, the completion code at the end.

May import: the standard library, :mod:`pipeline.humans.core.pace`, :mod:`pipeline.formats`,
:mod:`pipeline.humans.web`.
"""

from __future__ import annotations

import secrets

from pipeline.humans.core.pace import display_ms
from pipeline.humans.formats import experiment_db as db
from pipeline.humans.web.common import ANSWERS, Experiment, Refused, now


def known_participant(con, key: str):
    row = db.participant(con, key)
    if row is None:
        raise Refused(f"unknown participant key {key!r}: start from the first page", 404)
    return row


def qa_state(exp: Experiment, con, p) -> dict:
    rows = exp.slots[p["slot"]]
    answered = db.answered_positions(con, p["key"])
    shown = db.shown_positions(con, p["key"])
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


def maze_state(exp: Experiment, con, p) -> dict:
    rows = exp.slots[p["slot"]]
    done_words = db.maze_word_counts(con, p["key"])
    finished = sum(done_words.get(r["position"], 0) >= len(r["tokens"]) - 1 for r in rows)
    out = {"answered": finished, "total": len(rows)}
    nxt = next((r for r in rows if done_words.get(r["position"], 0) < len(r["tokens"]) - 1), None)
    if nxt is None:
        return {**out, "done": True}
    trial = {"position": nxt["position"], "words": list(nxt["tokens"]),
             "distractors": list(nxt["distractors"]), "sides": list(nxt["sides"]),
             "next_word": done_words.get(nxt["position"], 0) + 1}
    return {**out, "done": False, "trial": trial}


def state(exp: Experiment, con, key: str) -> dict:
    """The participant's state for the page; at the end, the completion code (made once)."""
    p = known_participant(con, key)
    body = qa_state(exp, con, p) if exp.kind == "qa" else maze_state(exp, con, p)
    if body["done"]:
        code = p["completion_code"]
        if code is None:
            code = db.set_completion_code(con, key, f"CG-{secrets.token_hex(4).upper()}", now())
        body["code"] = code
        if exp.completion_url:
            body["completion_url"] = exp.completion_url.replace("{code}", code)
    return {"key": key, "slot": p["slot"], "experiment": exp.kind, **body}


def current_qa(exp: Experiment, con, p, position: int) -> dict:
    """The plan row of the participant's current QA trial, which must be ``position``."""
    st = qa_state(exp, con, p)
    if st["done"]:
        raise Refused("all trials are answered already", 409)
    if st["trial"]["position"] != position:
        raise Refused(f"trial {position} is not the current one (already answered, perhaps "
                      "in another tab): reload the page", 409)
    return exp.slots[p["slot"]][position]


def current_maze_word(exp: Experiment, con, p, position: int, word_index: int, hint: str) -> dict:
    """The plan row of the participant's current Maze sentence, whose next word must be
    ``word_index`` of sentence ``position``."""
    st = maze_state(exp, con, p)
    if st["done"] or st["trial"]["position"] != position or \
            st["trial"]["next_word"] != word_index:
        raise Refused(f"word {word_index} of sentence {position} is not the current "
                      f"one{hint}: reload", 409)
    return exp.slots[p["slot"]][position]
