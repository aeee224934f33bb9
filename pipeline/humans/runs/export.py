"""The ``experiment-export`` run: the experiment database as the results files (the command
parses the options into an :class:`ExperimentExportSettings` and calls :func:`experiment_export`).

Writes, all-or-nothing, into ``--out``:

* QA plan: ``qa_results.csv`` (one row per trial answer, targets and fillers, the layout of
  :data:`pipeline.humans.formats.results.QA_COLUMNS`, read by ``python -m pipeline humans qa``)
  and ``qa_answers.csv`` (every answer incl. calibration, with the intended and the measured
  display time);
* Maze plan: ``maze_trials.csv`` (one row per pronoun trial,
  :data:`pipeline.humans.formats.results.MAZE_COLUMNS`, read by ``humans maze``) and
  ``maze_words.csv`` (one row per word);
* always ``codes.csv``: participant key, slot, completion code (empty: not finished).

The plan is the one the database was started with (its stored path), or ``--plan``; its
sha256 must match the one stored.

May import: the standard library; inside :func:`experiment_export`: :mod:`pipeline.formats`,
:mod:`pipeline.errors`, :mod:`pipeline.runs.settings`; the room's own formats.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.runs.settings import RunResult, as_paths


@dataclass(frozen=True)
class ExperimentExportSettings:
    """What one ``experiment-export`` run is given (the command's options)."""
    db: Path                        # the SQLite file of experiment-serve
    out: Path
    plan: Path | None = None        # plan.parquet; default: the path stored in the database

    def __post_init__(self):
        as_paths(self, "db", "out", "plan")


QA_ANSWER_COLUMNS = ["key", "slot", "position", "item_id", "kind", "alpha", "n_words", "pace",
                     "question", "answer", "first_answer", "correct_answer", "correct", "n_wrong",
                     "target_ms", "actual_ms", "question_ms", "total_ms", "answered_at"]


MAZE_WORD_COLUMNS = ["key", "slot", "position", "sentence_id", "word_index", "word", "distractor",
                     "side", "is_pronoun", "first_correct", "n_errors", "first_ms", "correct_ms",
                     "answered_at"]


CODE_COLUMNS = ["key", "slot", "started_at", "completed_at", "completion_code", "pace"]


def slot_number(slot: str) -> int:
    return int(slot.lstrip("P") or 0)


def export_rows(db: dict, plan: dict[tuple[str, int], dict]) -> dict[str, list[dict]]:
    """Rows of every output file from the database tables and the plan ((slot, position) -> row)."""
    people = {p["key"]: p for p in db["participants"]}
    shown = {(s["key"], s["position"]): s for s in db["shown"]}
    out: dict[str, list[dict]] = {"qa_results": [], "qa_answers": [], "maze_trials": [],
                                  "maze_words": [], "codes": []}
    for a in db["qa_answers"]:
        p = people[a["key"]]
        row = plan[(p["slot"], a["position"])]
        s = shown.get((a["key"], a["position"]), {})
        out["qa_answers"].append({
            "key": a["key"], "slot": p["slot"], "position": a["position"], "item_id": a["item_id"],
            "kind": a["kind"], "alpha": a["alpha"], "n_words": row["n_words"], "pace": p["pace"],
            "question": row["question"], "answer": a["answer"], "first_answer": a["first_answer"],
            "correct_answer": row["correct_answer"], "correct": bool(a["correct"]),
            "n_wrong": a["n_wrong"], "target_ms": s.get("target_ms"), "actual_ms": s.get("actual_ms"),
            "question_ms": a["question_ms"], "total_ms": a["total_ms"], "answered_at": a["answered_at"]})
        if a["kind"] == "calibration":
            continue
        out["qa_results"].append({
            "ID": len(out["qa_results"]), "id_sentence": a["item_id"], "sentence": row["text"],
            "question": row["question"], "user_answer": a["answer"],
            "correct_answer": row["correct_answer"],
            "main_entity_gender": row["main_entity_gender"] or "",
            "is_correct": a["answer"] == row["correct_answer"],
            "question_category": row["question_category"], "time_fraction": float(a["alpha"]),
            "batch_number": slot_number(p["slot"]), "index_in_batch": a["position"],
            "mturk_id": a["key"], "hash_id": p["completion_code"] or "",
            "avg_sec_for_token": p["pace"]})
    for w in db["maze_words"]:
        p = people[w["key"]]
        row = plan[(p["slot"], w["position"])]
        out["maze_words"].append({
            "key": w["key"], "slot": p["slot"], "position": w["position"],
            "sentence_id": w["item_id"], "word_index": w["word_index"], "word": w["word"],
            "distractor": w["distractor"], "side": w["side"], "is_pronoun": bool(w["is_pronoun"]),
            "first_correct": bool(w["first_correct"]), "n_errors": w["n_errors"],
            "first_ms": w["first_ms"], "correct_ms": w["correct_ms"], "answered_at": w["answered_at"]})
        if not w["is_pronoun"]:
            continue
        out["maze_trials"].append({
            "pronoun": w["word"], "gender": row["main_entity_gender"] or "",
            "main_entity": row["main_entity"] or "", "other_entity": row["other_entity"] or "",
            "relation_to_main": row["relation_to_main"], "relation_to_other": row["relation_to_other"],
            "dist_to_main": row["dist_to_main"], "dist_to_other": row["dist_to_other"],
            "time_to_answer": float(w["correct_ms"]), "correct": bool(w["first_correct"]),
            "user_ip": w["key"], "sentence_id": w["item_id"], "sentence": row["text"]})
    for p in db["participants"]:
        out["codes"].append({c: p.get(c) if c != "completion_code" else (p[c] or "")
                             for c in CODE_COLUMNS})
    return out


def experiment_export(args: ExperimentExportSettings) -> RunResult:
    from pipeline.errors import InputError
    from pipeline.humans.formats import results as human_results
    from pipeline.humans.formats.experiment_db import HASH_KEY, read_all
    from pipeline.formats.files import sha256_file, staged_outputs, write_csv_rows
    from pipeline.formats.tables import read_table

    db = read_all(args.db)
    plan_path = args.plan or db["meta"].get("plan")
    if not plan_path:
        raise InputError("the database names no plan: pass --plan", args.db)
    stored = db["meta"].get(HASH_KEY)
    if stored and sha256_file(plan_path) != stored:
        raise InputError(f"the database was started with another plan (sha256 {stored[:12]}...)",
                         plan_path)
    plan = {(r["participant"], r["position"]): r for r in read_table(plan_path).to_pylist()}
    experiment = db["meta"].get("experiment") or next(iter(plan.values()))["experiment"]
    for table in ("qa_answers", "maze_words"):
        for i, a in enumerate(db[table], start=1):
            p = next((q for q in db["participants"] if q["key"] == a["key"]), None)
            if p is None or (p["slot"], a["position"]) not in plan:
                raise InputError(f"{table}: an answer of {a['key']!r} at position {a['position']} "
                                 "is not in the plan", args.db, i)
    rows = export_rows(db, plan)
    with staged_outputs(args.out) as stage:
        if experiment == "qa":
            human_results.write_qa_results(rows["qa_results"], stage / "qa_results.csv")
            write_csv_rows(stage / "qa_answers.csv", rows["qa_answers"], QA_ANSWER_COLUMNS)
            written = ["qa_results.csv", "qa_answers.csv"]
        else:
            human_results.write_maze_trials(rows["maze_trials"], stage / "maze_trials.csv")
            write_csv_rows(stage / "maze_words.csv", rows["maze_words"], MAZE_WORD_COLUMNS)
            written = ["maze_trials.csv", "maze_words.csv"]
        write_csv_rows(stage / "codes.csv", rows["codes"], CODE_COLUMNS)
    done = sum(1 for c in rows["codes"] if c["completion_code"])
    if experiment == "qa":
        print(f"{len(rows['qa_results'])} trial answers ({len(rows['qa_answers'])} with calibration) "
              f"from {len(rows['codes'])} participant(s), {done} completed")
    else:
        print(f"{len(rows['maze_trials'])} pronoun trials, {len(rows['maze_words'])} words from "
              f"{len(rows['codes'])} participant(s), {done} completed")
    print(f"wrote {', '.join(written + ['codes.csv'])} in {args.out}")
    return RunResult(0, tuple(args.out / name for name in written + ["codes.csv"]))
