"""The MTurk CSV layout of the annotation tasks, defined once: the batch file that
``annotate-export`` writes and the results file MTurk returns for it (``annotate-import``).

Batch (``batch.csv``): one row per task (HIT); for every question I = 1 .. per task the
columns ``qI_id``, ``qI_text``, ``qI_spans`` (:data:`INPUT_FIELDS`), which MTurk pastes into
the layout's ``${qI_...}`` placeholders.

Results (MTurk's "Download CSV"): one row per assignment; MTurk's own columns (among them
:data:`ASSIGNMENT_COLUMNS`), every batch column again as ``Input.<column>``, and the answer
boxes of every question as ``Answer.qI_spans`` (JSON ``[[start, end, text], ...]``),
``Answer.qI_none`` (``true``/``false``), ``Answer.qI_contradiction`` (:data:`ANSWER_FIELDS`).
An assignment whose ``AssignmentStatus`` is ``Rejected`` is skipped by the import.
:func:`read_results` reads a results file with these definitions (the one reader of it).

May import: the standard library, :mod:`pipeline.errors`; inside functions:
:mod:`pipeline.formats.files` (``read_text_any``), :mod:`pipeline.formats.gap_tsv`
(``parse_bool``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from pipeline.errors import InputError

INPUT_FIELDS = ("id", "text", "spans")                  # batch values per question
ANSWER_FIELDS = ("spans", "none", "contradiction")      # answer boxes per question
ASSIGNMENT_COLUMNS = ("HITId", "AssignmentId", "WorkerId", "AssignmentStatus")
REQUIRED_ASSIGNMENT_COLUMNS = ("WorkerId", "AssignmentId")
REJECTED = "rejected"                                   # AssignmentStatus, case-insensitive

_INPUT_ID = re.compile(r"Input\.q(\d+)_id")


def batch_column(i: int, field: str) -> str:
    """The batch column (and layout placeholder name) of question ``i``'s ``field``."""
    return f"q{i}_{field}"


def input_column(i: int, field: str) -> str:
    """The results column holding the batch value ``batch_column(i, field)``."""
    return f"Input.{batch_column(i, field)}"


def answer_column(i: int, field: str) -> str:
    """The results column of question ``i``'s answer box ``field``."""
    return f"Answer.q{i}_{field}"


def batch_header(per_task: int) -> list[str]:
    return [batch_column(i, f) for i in range(1, per_task + 1) for f in INPUT_FIELDS]


def answer_columns(numbers) -> list[str]:
    return [answer_column(i, f) for i in numbers for f in ANSWER_FIELDS]


def results_question_numbers(header) -> list[int]:
    """The question numbers I of a results header (its ``Input.qI_id`` columns), in order."""
    return sorted({int(m.group(1)) for h in header if (m := _INPUT_ID.fullmatch(h))})


# ----------------------------------------------------------------- writing a batch ---------

def write_batch(path, header: list[str], rows: list[dict]) -> None:
    """The batch file MTurk's "Publish batch" takes: UTF-8, a header line, one row per task,
    csv-quoted as the csv module quotes (a text with commas, quotes or line breaks survives)."""
    import csv

    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)


# ----------------------------------------------------------------- reading results ---------

def parse_flag(value, path, row, column) -> bool:
    """An answer box ``Answer.qI_none``: ``true``/``false`` in any case (the project's boolean
    parser, :func:`pipeline.formats.gap_tsv.parse_bool`), ``on``/``off`` as an HTML check box
    sends it; empty means unticked."""
    from pipeline.formats.gap_tsv import parse_bool

    text = str(value or "").strip().lower()
    if text in ("on", "off"):
        return text == "on"
    try:
        return bool(parse_bool(text, path, row, column))
    except InputError:
        raise InputError(f"column {column!r} must be true or false, got {value!r}", path, row) from None


def read_results(path, texts: dict[str, str], parse_spans: Callable) -> tuple[list[dict], int, str]:
    """The answers of an MTurk results file -> (answers, rejected assignments skipped, the
    encoding read: UTF-8, or UTF-16 with a BOM, or Excel's cp1252, as
    :func:`pipeline.formats.files.read_text_any` reads them).

    ``texts``: item id -> text of every item the batch could hold; ``parse_spans`` turns an
    ``Answer.qI_spans`` value into spans (the caller's, raising ValueError, KeyError or
    TypeError on a bad value). Each answer is a dict ``{row, annotator, item, spans, none,
    contradiction}`` (the keys of :func:`pipeline.annotation.formats.store.read_answers`), in
    file order. Refused with a one-line :class:`InputError` naming the row: a missing
    required column, a row of more fields than the header, an assignment given twice (its
    votes would count twice), an empty ``WorkerId``, an answer to an id not in ``texts``, an
    ``Input.qI_text`` that is not that item's text (results of another quadruples file), bad
    spans (not a list, an offset of 1e400, past the end of the text) or a bad ``none`` box, a
    file the csv module cannot read. An empty ``Input.qI_id``
    is an unused slot of a short task.
    """
    import csv
    import html
    import io

    from pipeline.formats.files import read_text_any

    path = Path(path)
    text, encoding = read_text_any(path, "CSV")
    answers, rejected = [], 0
    try:
        with io.StringIO(text, newline="") as fh:
            reader = csv.DictReader(fh)
            header = reader.fieldnames or []
            numbers = results_question_numbers(header)
            required = list(REQUIRED_ASSIGNMENT_COLUMNS) + ([] if numbers else [input_column(1, "id")])
            required += answer_columns(numbers)
            missing = [c for c in required if c not in header]
            if missing:
                raise InputError(f"missing column(s) {', '.join(missing)}", path)
            assignments: dict[str, int] = {}
            for row, rec in enumerate(reader, start=2):
                if None in rec:
                    raise InputError(f"{len(header) + len(rec[None])} fields, the header has {len(header)}", path, row)
                if (rec.get("AssignmentStatus") or "").strip().lower() == REJECTED:
                    rejected += 1
                    continue
                assignment = (rec["AssignmentId"] or "").strip()
                if assignment and assignment in assignments:
                    raise InputError(f"assignment {assignment!r} given twice (first on row {assignments[assignment]}): "
                                     "its votes would count twice", path, row)
                assignments[assignment] = row
                worker = (rec["WorkerId"] or "").strip()
                if not worker:
                    raise InputError("empty WorkerId", path, row)
                if any(ch < " " or ch == "\x7f" or ch in "\u2028\u2029\x85" for ch in worker):
                    # a worker id reaches the dataset card ("model:NAME" answers): one line only
                    raise InputError(f"WorkerId {worker[:40]!r} holds a line break or a control character",
                                     path, row)
                for i in numbers:
                    item = html.unescape((rec[input_column(i, "id")] or "").strip())
                    if not item:
                        continue
                    if item not in texts:
                        raise InputError(f"answer to unknown instance {item!r} ({input_column(i, 'id')})", path, row)
                    shown = rec.get(input_column(i, "text"))
                    if shown is not None and html.unescape(shown) != texts[item]:
                        raise InputError(f"{input_column(i, 'text')} differs from the text of {item!r}: "
                                         "results of another quadruples file?", path, row)
                    try:
                        spans = parse_spans(rec[answer_column(i, "spans")])
                    except (ValueError, KeyError, TypeError, OverflowError) as exc:   # 1e400: int(inf)
                        raise InputError(f"{answer_column(i, 'spans')} is not a JSON list of spans ({exc})",
                                         path, row) from None
                    past = [(a, b) for a, b in spans if b > len(texts[item])]
                    if past:
                        raise InputError(f"{answer_column(i, 'spans')}: span {list(past[0])} is past the end of the "
                                         f"text of {item!r} ({len(texts[item])} characters)", path, row)
                    none = parse_flag(rec[answer_column(i, "none")], path, row, answer_column(i, "none"))
                    answers.append({"row": row, "annotator": worker, "item": item, "spans": spans, "none": none,
                                    "contradiction": (rec[answer_column(i, "contradiction")] or "").strip()})
    except csv.Error as exc:
        raise InputError(f"not a readable CSV file ({exc})", path) from None
    return answers, rejected, encoding
