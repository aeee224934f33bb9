"""The ``annotate-export`` run (``python -m pipeline annotate-export`` parses the options into
an :class:`AnnotateExportSettings` and calls :func:`annotate_export`, that is :func:`export`):
quadruples -> an Amazon Mechanical Turk batch (CSV + HTML template).

``quadruples`` is ``quadruples.parquet`` of ``generate`` or a GAP TSV file (GAP's files,
Counter-GAP's csv-quoted releases such as ``C-GAP-withdot.dev.tsv``), told apart by content;
for a GAP TSV the persons of each text are found with the spaCy pipeline ``model``
(:mod:`pipeline.annotation.runs.rows`, :mod:`pipeline.annotation.core.gap_persons`), and rows whose A or B
cannot be found as a name are reported (count and first ids) and left out with their
quadruple.

Outputs in ``out``:

* ``batch.csv`` -- one row per task (HIT) with ``per_task`` questions, columns
  ``q1_id, q1_text, q1_spans, ..., qN_spans``. ``qI_id`` is the Counter-GAP ID (or a check
  item's ``check-K``), ``qI_text`` the text, ``qI_spans`` the JSON
  ``{"pronoun": [s, e], "persons": [[[s, e], ...], ...]}`` the browser checks answers with.
  Values are HTML-escaped, because MTurk pastes them verbatim into the template.
* ``task.html`` -- the MTurk layout (``${qI_...}`` placeholders; answers ``qI_spans``,
  ``qI_none``, ``qI_contradiction``).
* ``preview.html`` -- the template filled with the first task, for a look in a browser
  (submitting shows the collected answers instead of sending them).
* ``export.json`` -- the parameters and counts.

Task planning is pure (:func:`pipeline.annotation.core.questions.plan_tasks`): quadruples are
shuffled (seeded), each quadruple's variants too, and laid out round-robin, so two variants of
one quadruple never share a task; each task gets ``n_checks`` known-answer questions from
``resources/annotation_checks.txt`` (or ``check_items``); the last task is topped up with
further check questions, so every row has ``per_task`` questions. The four files are written
all-or-nothing (:func:`pipeline.formats.files.staged_outputs`).

The MTurk files themselves (batch rows, layout, preview) are rendered from the web app's
templates and widget (:func:`pipeline.annotation.web.mturk.mturk_files`), so MTurk and the local
app ask the same question. The web layer sits above the runs, so this run does not import it:
the caller passes the renderer in as ``layout`` (the command does), as
:func:`pipeline.embeddings.formats.load_vectors` is handed spaCy's loader.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.annotation.core.questions`,
:mod:`pipeline.formats` (inside functions); also :mod:`pipeline.annotation.runs.rows`,
:mod:`pipeline.runs.settings`. Never
:mod:`pipeline.web` (the layout is passed in).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pipeline.runs.settings import RunResult, as_paths

# layout(tasks, per_task) -> (batch header, batch rows, task.html, preview.html)
Layout = Callable[[list, int], "tuple[list[str], list[dict], str, str]"]
OUTPUTS = ("batch.csv", "task.html", "preview.html", "export.json")


@dataclass(frozen=True)
class AnnotateExportSettings:
    """What one ``annotate-export`` run is given (the command's options)."""
    quadruples: Path                # quadruples.parquet of generate, or a GAP TSV file
    out: Path
    per_task: int = 10              # questions per task (HIT), check questions included
    checks: int = 1                 # known-answer check questions per task
    check_items: Path | None = None     # default resources/annotation_checks.txt
    assignments: int = 3            # workers per task, recorded in export.json
    seed: int = 0
    model: str | None = None        # the spaCy pipeline for a GAP TSV input

    def __post_init__(self):
        from pipeline.errors import InputError

        as_paths(self, "quadruples", "out", "check_items")
        if self.per_task < 1:
            raise InputError("--per-task must be at least 1")
        if self.checks < 0 or self.checks >= self.per_task:
            raise InputError("--checks must be between 0 and --per-task - 1")


def annotate_export(s: AnnotateExportSettings, *, layout: Layout) -> RunResult:
    """The whole ``annotate-export`` run: :func:`export` with the MTurk ``layout``, its summary
    printed; the result's ``summary`` is :func:`export`'s."""
    summary = export(s.quadruples, s.out, s.per_task, s.checks, s.check_items, s.assignments, s.seed, s.model,
                     layout=layout)
    for line in summary_lines(summary, s.out):
        print(line)
    return RunResult(0, tuple(s.out / name for name in OUTPUTS), summary=summary)


def export(quadruples, out, per_task=10, n_checks=1, check_items=None, assignments=3,
           seed=0, model=None, *, layout: Layout) -> dict:
    """Write the batch into ``out`` (see the module doc); return the parameters and counts
    (``export.json``'s, plus ``reduced`` and ``conversion`` for the summary lines)."""

    from pipeline.annotation.core.questions import CHECKS_RESOURCE, parse_checks, plan_tasks
    from pipeline.errors import InputError
    from pipeline.formats.files import sha256_file, staged_outputs, write_json, write_text
    from pipeline.annotation.formats.mturk_csv import write_batch
    from pipeline.formats.resources import read_commented, resource
    from pipeline.annotation.runs.rows import annotation_rows

    rows, conversion = annotation_rows(quadruples, model)
    if not rows:
        raise InputError("no rows", quadruples)
    checks = []
    if n_checks or check_items:
        source = check_items if check_items else resource(CHECKS_RESOURCE)
        checks = parse_checks(read_commented(source), source)
    try:
        tasks, info = plan_tasks(rows, per_task, n_checks, checks, seed)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    header, recs, template, preview = layout(tasks, per_task)
    n_check_q = sum(1 for t in tasks for q in t if q.gold is not None)
    summary = {
        "quadruples_file": str(quadruples), "quadruples_sha256": sha256_file(quadruples),
        "tasks": len(tasks), "per_task": per_task, "checks_per_task": n_checks,
        "check_items": str(check_items) if check_items else "resources/annotation_checks.txt",
        "assignments": assignments, "seed": seed,
        "quadruples": info["quadruples"], "instance_questions": info["instances"],
        "instances_per_task": info["instances_per_task"], "check_questions": n_check_q,
        "answers_expected": info["instances"] * assignments,
        "input": conversion,
    }
    with staged_outputs(out) as stage:
        write_batch(stage / "batch.csv", header, recs)
        write_text(stage / "task.html", template)
        write_text(stage / "preview.html", preview)
        write_json(stage / "export.json", summary)
    summary["reduced"] = info["reduced"]
    summary["conversion"] = conversion
    return summary


def summary_lines(s: dict, out) -> list[str]:
    """What the command prints after :func:`export` (``s`` is its return value)."""
    from pipeline.annotation.runs.rows import conversion_report

    lines = list(conversion_report(s["conversion"]))
    if s["reduced"]:
        lines.append(f"note: only {s['quadruples']} quadruples, so at most {s['instances_per_task']} "
                     "instance questions per task; the rest are check questions")
    lines.append(f"{s['quadruples']} quadruples, {s['instance_questions']} instance questions -> "
                 f"{s['tasks']} tasks of {s['per_task']} questions ({s['check_questions']} check "
                 f"questions); publish with {s['assignments']} assignments per task "
                 f"= {s['answers_expected']} instance answers")
    lines.append(f"wrote {Path(out) / 'batch.csv'}, task.html, preview.html, export.json")
    return lines
