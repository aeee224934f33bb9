"""Human experiment results: the QA answers CSV and the Maze trials CSV.

Both layouts are those of the released results of "Comparing Humans and Models on a Similar
Scale" (Lior & Stanovsky); the project's experiment app (``pipeline/humans/web``) writes
them with :func:`write_qa_results` and :func:`write_maze_trials`, and ``python -m pipeline
humans`` reads them with :func:`read_qa_results` and :func:`read_maze_trials`.

* QA: one row per answer, columns :data:`QA_COLUMNS`. ``user_answer`` / ``correct_answer`` of a
  gender question are one of :data:`ANSWERS` (male, female, neutral, unknown; case-insensitive
  on reading); of a filler question free text (the released files answer "who was being
  questioned?" with an occupation); ``time_fraction`` is alpha (0.75, 0.5, 0.25, nothing else);
  ``is_correct`` is the recorded judgement (True/False, 1/0); ``question_category`` is
  ``filler`` or a stereotype category (checked by :mod:`pipeline.humans.core.stereotypes` in the
  analysis, not here).
* Enrollment (the study's, one row per worker and batch): :data:`ENROLLMENT_COLUMNS`
  (:func:`read_enrollment`). A worker who did several batches has one row per batch (each with
  its own ``ID`` and ``hash_id``); the key of a row is (``mturk_id``, ``batch_number``),
  equivalently ``hash_id``; the same key twice is an error naming the row.
  :func:`read_participants` reads its ``mturk_id`` too.
* Maze: one row per pronoun trial, in one of three layouts (:data:`MAZE_LAYOUTS`, detected from
  the header by :func:`maze_layout`): ``project`` (:data:`MAZE_COLUMNS`, what the experiment
  app exports), ``released Wino`` (:data:`MAZE_WINO_COLUMNS`: two entities, ``word_side`` and the
  ``closer_*`` columns) and ``released BUG`` (:data:`MAZE_BUG_COLUMNS`: one entity). The
  released files start with an unnamed pandas index column (tolerated, ignored). Every column of
  the detected layout is required. ``time_to_answer`` in ms (a float); ``correct`` True/False
  (or 1/0); ``relation_to_main`` one of :data:`RELATIONS` (``pro-stereotype`` and the like
  read as ``pro``); ``relation_to_other`` one of them or empty (no other entity; always None in
  the BUG layout); distances in tokens (empty when there is no other entity); ``gender``
  lower-cased, male / female / neutral when the cell holds a pronoun (BUG: "his") or is empty
  (then from ``pronoun``);
  ``word_side`` 0/1 (``0.0``/``1.0``). Each row carries ``_layout``.

Readers return lists of dicts with typed values (floats, ints, bools, ``None`` for empty
optional cells). A bad cell is an :class:`pipeline.errors.InputError` naming the file and its
line (the header is line 1). Files may be UTF-8 (with or without BOM) or, failing that,
Latin-1. Writers are atomic.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import csv
import io
import math
import os
from pathlib import Path
from typing import Iterable

from pipeline.errors import InputError
from pipeline.formats.files import atomic_path

QA_COLUMNS = [
    "ID", "id_sentence", "sentence", "question", "user_answer", "correct_answer",
    "main_entity_gender", "is_correct", "question_category", "time_fraction", "batch_number",
    "index_in_batch", "mturk_id", "hash_id", "avg_sec_for_token",
]
MAZE_COLUMNS = [
    "pronoun", "gender", "main_entity", "other_entity", "relation_to_main", "relation_to_other",
    "dist_to_main", "dist_to_other", "time_to_answer", "correct", "user_ip", "sentence_id",
    "sentence",
]
# the study's processed Maze trials, one CSV per dataset (after a leading unnamed index column)
MAZE_WINO_COLUMNS = [
    "pronoun", "gender", "main_entity", "other_entity", "relation_to_main", "relation_to_other",
    "dist_to_main", "dist_to_other", "time_to_answer", "correct", "user_ip", "sentence_id",
    "sentence", "word_side", "closer_entity", "closer_distance", "closer_relation",
]
MAZE_BUG_COLUMNS = [
    "pronoun", "gender", "main_entity", "relation_to_main", "dist_to_main", "time_to_answer",
    "correct", "user_ip", "sentence_id", "sentence", "word_side",
]
MAZE_LAYOUTS = {"project": MAZE_COLUMNS, "released Wino": MAZE_WINO_COLUMNS,
                "released BUG": MAZE_BUG_COLUMNS}
# a gendered pronoun in the gender cell (the BUG layout writes the pronoun itself)
PRONOUN_GENDER = {
    "he": "male", "him": "male", "his": "male", "himself": "male",
    "she": "female", "her": "female", "hers": "female", "herself": "female",
    "they": "neutral", "them": "neutral", "their": "neutral", "theirs": "neutral",
    "themself": "neutral", "themselves": "neutral",
}

ANSWERS = ("male", "female", "neutral", "unknown")
RELATIONS = ("pro", "anti", "neutral", "pronoun-neutral")
RELATION_ALIASES = {"pro-stereotype": "pro", "anti-stereotype": "anti", "neutral-stereotype": "neutral",
                    "pro-stereotypical": "pro", "anti-stereotypical": "anti"}
PARTICIPANT_COLUMN = "mturk_id"

_TRUE = {"true", "1", "yes", "t", "1.0"}
_FALSE = {"false", "0", "no", "f", "0.0"}


# ------------------------------------------------------------------------------ cells

def _bool(value: str, path, line: int, column: str) -> bool:
    v = (value or "").strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise InputError(f"{column} must be True or False, got {value!r}", path, line)


def _float(value: str, path, line: int, column: str, optional: bool = False) -> float | None:
    v = (value or "").strip()
    if not v and optional:
        return None
    try:
        x = float(v)
    except ValueError:
        raise InputError(f"{column} must be a number, got {value!r}", path, line) from None
    if not math.isfinite(x):
        raise InputError(f"{column} must be a finite number, got {value!r}", path, line)
    return x


def _int(value: str, path, line: int, column: str, optional: bool = False) -> int | None:
    x = _float(value, path, line, column, optional)
    if x is None:
        return None
    if x != int(x):
        raise InputError(f"{column} must be a whole number, got {value!r}", path, line)
    return int(x)


def _answer(value: str, path, line: int, column: str) -> str:
    v = (value or "").strip().lower()
    if v not in ANSWERS:
        raise InputError(f"{column} must be one of {', '.join(ANSWERS)}, got {value!r}", path, line)
    return v


# ------------------------------------------------------------------------------ reading

INDEX_NAMES = ("", "Unnamed: 0")      # a pandas index column written without a name


def _read_header(path: str | os.PathLike) -> list[str]:
    """The column names of a CSV (stripped; a leading unnamed index column is ``_index``)."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    with open(path, "rb") as fh:
        raw = fh.readline()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    try:
        header = next(csv.reader([text]))
    except StopIteration:
        raise InputError("empty file", path) from None
    header = [h.strip() for h in header]
    if header and header[0] in INDEX_NAMES:
        header[0] = "_index"
    return header


def _read_rows(path: str | os.PathLike, columns: list[str], layout: str | None = None
               ) -> list[tuple[int, dict]]:
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError("empty file", path) from None
    header = [h.strip() for h in header]
    if header and header[0] in INDEX_NAMES:       # a pandas index column without a name
        header[0] = "_index"
    missing = [c for c in columns if c not in header]
    if missing:
        what = f"the {layout} layout" if layout else "this layout"
        raise InputError(f"not {what}: missing column(s) {', '.join(missing)} "
                         f"(expected {', '.join(columns)})", path, 1)
    rows = []
    try:
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                raise InputError(f"{len(cells)} cells, the header has {len(header)}", path, line)
            rows.append((line, dict(zip(header, cells))))
    except csv.Error as exc:
        raise InputError(f"not a CSV row ({exc})", path, reader.line_num) from None
    return rows


FILLER = "filler"
TIME_FRACTIONS = (0.75, 0.5, 0.25)        # the experiment's alphas (as humans.core.pace.ALPHAS)
ENROLLMENT_COLUMNS = ["ID", "mturk_id", "batch_number", "total_performance", "hash_id"]


def read_qa_results(path: str | os.PathLike) -> list[dict]:
    """The rows of a QA results CSV, typed; ``_line`` holds each row's line number.

    The project's export and the study's released files share the columns; the reader takes
    what the released files hold: a filler question (``question_category`` ``filler``) has
    free-text answers (an occupation, "The patient"), kept as written (stripped); a gender
    question's answers must be gender words (any case, trailing spaces); ``main_entity_gender``
    is lower-cased; ``time_fraction`` must be one of :data:`TIME_FRACTIONS`.
    """
    out = []
    for line, r in _read_rows(path, QA_COLUMNS):
        row = {c: r[c] for c in QA_COLUMNS}
        row["question_category"] = (r["question_category"] or "").strip()
        if not row["question_category"]:
            raise InputError("question_category is empty", path, line)
        if row["question_category"].lower() == FILLER:
            row["question_category"] = FILLER
            row["user_answer"] = " ".join((r["user_answer"] or "").split())
            row["correct_answer"] = " ".join((r["correct_answer"] or "").split())
            if not row["correct_answer"]:
                raise InputError("correct_answer of a filler question is empty", path, line)
        else:
            row["user_answer"] = _answer(r["user_answer"], path, line, "user_answer")
            row["correct_answer"] = _answer(r["correct_answer"], path, line, "correct_answer")
        row["main_entity_gender"] = (r["main_entity_gender"] or "").strip().lower()
        row["is_correct"] = _bool(r["is_correct"], path, line, "is_correct")
        row["time_fraction"] = _float(r["time_fraction"], path, line, "time_fraction")
        if not any(abs(row["time_fraction"] - a) < 1e-9 for a in TIME_FRACTIONS):
            raise InputError(f"unknown time_fraction {r['time_fraction']!r} (expected "
                             f"{', '.join(str(a) for a in TIME_FRACTIONS)})", path, line)
        row["batch_number"] = _int(r["batch_number"], path, line, "batch_number", optional=True)
        row["index_in_batch"] = _int(r["index_in_batch"], path, line, "index_in_batch", optional=True)
        row["avg_sec_for_token"] = _float(r["avg_sec_for_token"], path, line, "avg_sec_for_token",
                                          optional=True)
        row["mturk_id"] = (r["mturk_id"] or "").strip()
        if not row["mturk_id"]:
            raise InputError("mturk_id (the participant) is empty", path, line)
        row["_line"] = line
        out.append(row)
    if not out:
        raise InputError("no answers in the file", path)
    return out


def read_enrollment(path: str | os.PathLike) -> list[dict]:
    """The study's enrollment file (one row per worker and batch: :data:`ENROLLMENT_COLUMNS`),
    typed: ``batch_number`` int, ``total_performance`` float; ``_line`` the line.

    A worker may have several rows, one per batch. The same (``mturk_id``, ``batch_number``)
    twice, or the same non-empty ``hash_id`` twice, is an error naming the second row."""
    out, seen, hashes = [], {}, {}
    for line, r in _read_rows(path, ENROLLMENT_COLUMNS):
        pid = (r["mturk_id"] or "").strip()
        if not pid:
            raise InputError("mturk_id (the participant) is empty", path, line)
        batch = _int(r["batch_number"], path, line, "batch_number", optional=True)
        key = (pid, batch)
        if key in seen:
            what = "without a batch number" if batch is None else f"in batch {batch}"
            raise InputError(f"participant {pid!r} enrolled twice {what} (first on row {seen[key]})",
                             path, line)
        seen[key] = line
        hash_id = (r["hash_id"] or "").strip()
        if hash_id:
            if hash_id in hashes:
                raise InputError(f"hash_id {hash_id!r} given twice (first on row {hashes[hash_id]})",
                                 path, line)
            hashes[hash_id] = line
        out.append({"ID": (r["ID"] or "").strip(), "mturk_id": pid, "batch_number": batch,
                    "total_performance": _float(r["total_performance"], path, line, "total_performance",
                                                optional=True),
                    "hash_id": hash_id, "_line": line})
    if not out:
        raise InputError("no participants in the enrollment file", path)
    return out


def maze_layout(header: list[str]) -> str:
    """Which Maze layout a header is (a key of :data:`MAZE_LAYOUTS`): columns of the other
    entity make it ``released Wino`` when the study's own columns (``word_side``, ``closer_*``,
    the index column) are there too, else ``project``; without them it is ``released BUG``."""
    cols = set(header)
    released = bool(cols & {"_index", "word_side", "closer_entity", "closer_distance", "closer_relation"})
    if cols & {"other_entity", "relation_to_other", "dist_to_other"}:
        return "released Wino" if released else "project"
    return "released BUG"


def _maze_gender(value: str, pronoun: str) -> str:
    """The gender cell, lower-cased; a pronoun in it (the BUG layout's "his") read as its
    gender; an empty cell from the trial's pronoun; anything else kept as written (the
    analysis does not use it)."""
    v = (value or "").strip().lower() or (pronoun or "").strip().lower()
    return PRONOUN_GENDER.get(v, v)


def read_maze_trials(path: str | os.PathLike) -> list[dict]:
    """The rows of a Maze trials CSV in any layout of :data:`MAZE_LAYOUTS`, typed, with the
    :data:`MAZE_COLUMNS` keys (None where the layout has no such column), ``word_side`` (0, 1
    or None), ``_layout`` and ``_line`` (each row's line number)."""
    layout = maze_layout(_read_header(path))
    columns = MAZE_LAYOUTS[layout]
    out = []
    for line, r in _read_rows(path, columns, layout):
        row = {c: r.get(c) for c in MAZE_COLUMNS}
        for col, optional in (("relation_to_main", False), ("relation_to_other", True)):
            v = (r.get(col) or "").strip().lower()
            v = RELATION_ALIASES.get(v, v)
            if not v and optional:
                row[col] = None
                continue
            if v not in RELATIONS:
                raise InputError(f"{col} must be one of {', '.join(RELATIONS)}, got {r[col]!r}",
                                 path, line)
            row[col] = v
        row["gender"] = _maze_gender(r["gender"], r["pronoun"])
        row["other_entity"] = (r.get("other_entity") or "").strip() or None
        row["dist_to_main"] = _float(r["dist_to_main"], path, line, "dist_to_main", optional=True)
        row["dist_to_other"] = _float(r.get("dist_to_other"), path, line, "dist_to_other", optional=True)
        row["time_to_answer"] = _float(r["time_to_answer"], path, line, "time_to_answer")
        if row["time_to_answer"] < 0:
            raise InputError(f"time_to_answer must not be negative, got {r['time_to_answer']!r}",
                             path, line)
        row["correct"] = _bool(r["correct"], path, line, "correct")
        row["user_ip"] = (r["user_ip"] or "").strip()
        if not row["user_ip"]:
            raise InputError("user_ip (the participant key) is empty", path, line)
        row["sentence_id"] = (r["sentence_id"] or "").strip()
        row["word_side"] = None
        if "word_side" in r:
            side = _int(r["word_side"], path, line, "word_side", optional=True)
            if side not in (None, 0, 1):
                raise InputError(f"word_side must be 0 or 1, got {r['word_side']!r}", path, line)
            row["word_side"] = side
        for col in ("closer_entity", "closer_distance", "closer_relation"):
            if col in r:
                row[col] = (r[col] or "").strip() or None
        row["_layout"] = layout
        row["_line"] = line
        out.append(row)
    if not out:
        raise InputError("no trials in the file", path)
    return out


def read_participant_rows(path: str | os.PathLike) -> list[dict]:
    """A participant list CSV (those who passed qualification) as rows with ``mturk_id``,
    ``batch_number`` and ``hash_id``: a file in the study's enrollment layout is read (and
    checked) as one (:func:`read_enrollment`, one row per worker and batch); a plain list needs
    only an ``mturk_id`` column (``batch_number`` and ``hash_id`` None)."""
    header = _read_header(path)
    if all(c in header for c in ENROLLMENT_COLUMNS):
        return read_enrollment(path)
    out, seen = [], set()
    for line, r in _read_rows(path, [PARTICIPANT_COLUMN]):
        pid = r[PARTICIPANT_COLUMN].strip()
        if pid and pid not in seen:
            seen.add(pid)
            out.append({"mturk_id": pid, "batch_number": None, "hash_id": None, "_line": line})
    if not out:
        raise InputError("no participants in the list", path)
    return out


def read_participants(path: str | os.PathLike) -> set[str]:
    """The workers (``mturk_id``) of a participant list or enrollment file
    (:func:`read_participant_rows`)."""
    return {r["mturk_id"] for r in read_participant_rows(path)}


# ------------------------------------------------------------------------------ writing

def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return repr(value)          # "0.5", "1200.0": keeps floats recognisable
    return str(value)


def _write(rows: Iterable[dict], path: str | os.PathLike, columns: list[str]) -> None:
    with atomic_path(path) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(columns)
            for i, row in enumerate(rows):
                missing = [c for c in columns if c not in row]
                if missing:
                    raise ValueError(f"row {i}: missing column(s) {', '.join(missing)}")
                w.writerow([_cell(row[c]) for c in columns])


def write_qa_results(rows: Iterable[dict], path: str | os.PathLike) -> None:
    """Write QA answers (dicts with every key of :data:`QA_COLUMNS`; extra keys ignored)."""
    _write(rows, path, QA_COLUMNS)


def write_maze_trials(rows: Iterable[dict], path: str | os.PathLike) -> None:
    """Write Maze trials (dicts with every key of :data:`MAZE_COLUMNS`; extra keys ignored)."""
    _write(rows, path, MAZE_COLUMNS)
