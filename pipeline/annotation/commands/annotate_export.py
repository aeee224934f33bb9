"""``annotate-export``: quadruples -> an Amazon Mechanical Turk batch (CSV + HTML template).

``--quadruples`` takes ``quadruples.parquet`` of ``generate`` or a GAP TSV file (persons found
with ``--model``). Writes ``batch.csv`` (one row per task), ``task.html`` (the MTurk layout),
``preview.html`` (the layout filled with the first task) and ``export.json`` into ``--out``,
all-or-nothing. The options become a :class:`pipeline.annotation.runs.export.AnnotateExportSettings`;
the run is :func:`pipeline.annotation.runs.export.annotate_export` (the outputs in detail: its
module doc; docs/annotate.md); the MTurk layout is rendered from the web app's
templates by :func:`pipeline.annotation.web.mturk.mturk_files`, which this command hands to the
run (a run may not import the web layer).

May import: the standard library; inside functions: :mod:`pipeline.annotation.runs.export`,
:mod:`pipeline.annotation.web.mturk`. Never another command.
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("annotate-export", "export annotation tasks (MTurk CSV + HTML)", [
    opt.option("--quadruples", type=opt.FILE, required=True,
               help="quadruples.parquet from generate, or a GAP TSV file (GAP, Counter-GAP's "
                    "releases): persons found with --model"),
    opt.out_dir(),
    opt.option("--per-task", type=int, default=10,
               help="questions per task (HIT), check questions included (default 10)"),
    opt.option("--checks", type=int, default=1,
               help="known-answer check questions per task (default 1; 0 for none)"),
    opt.option("--check-items", type=opt.FILE, default=None,
               help="file of check items (default: resources/annotation_checks.txt)"),
    opt.option("--assignments", type=int, default=3,
               help="workers per task, recorded in export.json for publishing (default 3)"),
    opt.seed("the shuffling"),
    opt.model("for a GAP TSV input (ignored for Parquet)"),
])


def export(quadruples, out, per_task=10, n_checks=1, check_items=None, assignments=3,
           seed=0, model=None) -> dict:
    """:func:`pipeline.annotation.runs.export.export` with the web app's MTurk layout."""
    from pipeline.annotation.runs.export import export as export_run
    from pipeline.annotation.web.mturk import mturk_files

    return export_run(quadruples, out, per_task, n_checks, check_items, assignments, seed, model,
                      layout=mturk_files)


def run(args):
    from dataclasses import fields

    from pipeline.annotation.runs.export import AnnotateExportSettings, annotate_export
    from pipeline.annotation.web.mturk import mturk_files

    return annotate_export(AnnotateExportSettings(**{f.name: getattr(args, f.name)
                                                     for f in fields(AnnotateExportSettings)}), layout=mturk_files)
