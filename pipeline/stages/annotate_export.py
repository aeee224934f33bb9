"""``annotate-export``: quadruples -> an Amazon Mechanical Turk batch (CSV + HTML template).

``--quadruples`` takes ``quadruples.parquet`` of ``generate`` or a GAP TSV file (GAP's files,
Counter-GAP's csv-quoted releases such as ``C-GAP-withdot.dev.tsv``), told apart by content;
for a GAP TSV the persons of each text are found with the spaCy pipeline ``--model``
(:mod:`pipeline.runs.annotation_rows`, :mod:`pipeline.core.gap_persons`), and rows whose A or B
cannot be found as a name are reported (count and first ids) and left out with their
quadruple.

Outputs in ``--out``:

* ``batch.csv`` -- one row per task (HIT) with ``--per-task`` questions, columns
  ``q1_id, q1_text, q1_spans, ..., qN_spans``. ``qI_id`` is the Counter-GAP ID (or a check
  item's ``check-K``), ``qI_text`` the text, ``qI_spans`` the JSON
  ``{"pronoun": [s, e], "persons": [[[s, e], ...], ...]}`` the browser checks answers with.
  Values are HTML-escaped, because MTurk pastes them verbatim into the template.
* ``task.html`` -- the MTurk layout (``${qI_...}`` placeholders; answers ``qI_spans``,
  ``qI_none``, ``qI_contradiction``).
* ``preview.html`` -- the template filled with the first task, for a look in a browser
  (submitting shows the collected answers instead of sending them).
* ``export.json`` -- the parameters and counts.

Task planning is pure (:func:`pipeline.core.annotation_questions.plan_tasks`): quadruples are shuffled
(seeded), each quadruple's variants too, and laid out round-robin, so two variants of one
quadruple never share a task; each task gets ``--checks`` known-answer questions from
``resources/annotation_checks.txt`` (or ``--check-items FILE``); the last task is topped up
with further check questions, so every row has ``--per-task`` questions. The MTurk files
are made by :mod:`pipeline.web.annotate.mturk`. The four files are written all-or-nothing
(:func:`pipeline.formats.files.staged_outputs`).

May import: the standard library; inside functions: :mod:`pipeline.core.annotation_questions`,
:mod:`pipeline.formats`, :mod:`pipeline.web.annotate.mturk`, :mod:`pipeline.runs.annotation_rows`,
:mod:`pipeline.errors`.
"""

from __future__ import annotations

COMMAND = "annotate-export"
HELP = "export annotation tasks (MTurk CSV + HTML)"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pipeline import options as opt

    parser.add_argument("--quadruples", required=True,
                        help="quadruples.parquet from generate, or a GAP TSV file (GAP, Counter-GAP's "
                             "releases): persons found with --model")
    opt.out_dir(parser)
    parser.add_argument("--per-task", type=int, default=10,
                        help="questions per task (HIT), check questions included (default 10)")
    parser.add_argument("--checks", type=int, default=1,
                        help="known-answer check questions per task (default 1; 0 for none)")
    parser.add_argument("--check-items", default=None,
                        help="file of check items (default: resources/annotation_checks.txt)")
    parser.add_argument("--assignments", type=int, default=3,
                        help="workers per task, recorded in export.json for publishing (default 3)")
    opt.seed(parser, "the shuffling")
    opt.model(parser, "for a GAP TSV input (ignored for Parquet)")


def export(quadruples, out, per_task=10, n_checks=1, check_items=None, assignments=3,
           seed=0, model=None) -> dict:
    import csv

    from pipeline.core.annotation_questions import CHECKS_RESOURCE, parse_checks, plan_tasks
    from pipeline.errors import InputError
    from pipeline.formats.files import dumps_json, sha256_file, staged_outputs
    from pipeline.formats.resources import read_commented, resource
    from pipeline.web.annotate.mturk import batch_rows, preview_page, render_template
    from pipeline.runs.annotation_rows import annotation_rows

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
    header, recs = batch_rows(tasks, per_task)
    template = render_template(per_task)
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
        with open(stage / "batch.csv", "w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=header)
            writer.writeheader()
            writer.writerows(recs)
        (stage / "task.html").write_text(template, encoding="utf-8")
        (stage / "preview.html").write_text(preview_page(template, recs[0]), encoding="utf-8")
        (stage / "export.json").write_text(dumps_json(summary), encoding="utf-8")
    summary["reduced"] = info["reduced"]
    summary["conversion"] = conversion
    return summary


def run(args) -> int:
    from pipeline.runs.annotation_rows import conversion_report

    s = export(args.quadruples, args.out, args.per_task, args.checks, args.check_items,
               args.assignments, args.seed, args.model)
    for line in conversion_report(s["conversion"]):
        print(line)
    if s["reduced"]:
        print(f"note: only {s['quadruples']} quadruples, so at most {s['instances_per_task']} "
              "instance questions per task; the rest are check questions")
    print(f"{s['quadruples']} quadruples, {s['instance_questions']} instance questions -> "
          f"{s['tasks']} tasks of {s['per_task']} questions ({s['check_questions']} check "
          f"questions); publish with {s['assignments']} assignments per task "
          f"= {s['answers_expected']} instance answers")
    print(f"wrote {Path(args.out) / 'batch.csv'}, task.html, preview.html, export.json")
    return 0
