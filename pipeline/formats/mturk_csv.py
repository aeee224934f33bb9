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

May import: the standard library.
"""

from __future__ import annotations

import re

INPUT_FIELDS = ("id", "text", "spans")                  # batch values per question
ANSWER_FIELDS = ("spans", "none", "contradiction")      # answer boxes per question
ASSIGNMENT_COLUMNS = ("HITId", "AssignmentId", "WorkerId", "AssignmentStatus")
REQUIRED_ASSIGNMENT_COLUMNS = ("WorkerId", "AssignmentId")
REJECTED = "rejected"                                   # AssignmentStatus, case-insensitive

_BATCH_ID = re.compile(r"q(\d+)_id")
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


def results_header(batch_columns: list[str], numbers) -> list[str]:
    """A results header as MTurk writes it: the assignment columns, the batch columns as
    ``Input.*``, the answer boxes of the questions ``numbers``."""
    return list(ASSIGNMENT_COLUMNS) + [f"Input.{h}" for h in batch_columns] + answer_columns(numbers)


def batch_question_numbers(header) -> list[int]:
    """The question numbers I of a batch header (its ``qI_id`` columns), in order."""
    return sorted({int(m.group(1)) for h in header if (m := _BATCH_ID.fullmatch(h))})


def results_question_numbers(header) -> list[int]:
    """The question numbers I of a results header (its ``Input.qI_id`` columns), in order."""
    return sorted({int(m.group(1)) for h in header if (m := _INPUT_ID.fullmatch(h))})
