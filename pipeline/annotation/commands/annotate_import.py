"""``annotate-import``: answers -> votes -> filters -> balanced final dataset + dataset card.

``--quadruples`` is the file that was annotated: ``quadruples.parquet`` or a GAP TSV file
(converted as at export, :mod:`pipeline.annotation.runs.rows`, with the same ``--model``).

Declares the options (click), parses them and calls :func:`pipeline.annotation.runs.import_answers.annotate_import` (the
formats read, the votes, filters and balancing, the outputs: its module doc and docs/annotate.md).

May import: the standard library, :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

from pipeline import options as opt
from pipeline.annotation.runs.import_answers import LICENSE

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run
RUN_UNHASHED = ("salt_file", "annotator_ids")     # private: named in run.json, never hashed into it

command = opt.command("annotate-import", "import votes, filter, balance, publish", [
    opt.option("--results", type=opt.FILE, required=True,
               help="MTurk results CSV or the annotate-serve SQLite file"),
    opt.option("--quadruples", type=opt.FILE, required=True,
               help="the quadruples.parquet annotated, or the GAP TSV file annotated"),
    opt.out_dir("the final dataset"),
    opt.option("--assignments", type=int, default=3,
               help="answers needed per instance (default 3); fewer: left out"),
    opt.seed("the balancing"),
    opt.flag("--drop-real-people", "drop quadruples whose names match --real-people"),
    opt.option("--real-people", type=opt.FILE, default=None,
               help="list of real-world people's names, one a line (default resources/real_people.txt)"),
    opt.option("--check-items", type=opt.FILE, default=None,
               help="check items used at export (default resources/annotation_checks.txt)"),
    opt.option("--min-check-accuracy", type=opt.finite_float, default=None,
               help="drop all answers of annotators whose check accuracy (0-1) is lower"),
    opt.option("--license", default=LICENSE,
               help="license of the published dataset, a Hugging Face license id such as "
                    f"cc-by-4.0 (default {LICENSE!r}: choose one before publishing)"),
    opt.model("for a GAP TSV --quadruples: the one used at export/serve"),
    opt.option("--salt-file", type=opt.FILE, default=None,
               help="private salt of the annotator pseudonyms for an MTurk CSV (default: "
                    "RESULTS.salt beside it, created when missing; SQLite keeps its own)"),
    opt.option("--annotator-ids", type=opt.FILE, default=None, metavar="FILE",
               help="also write the private key pseudonym -> raw annotator id to FILE (CSV, "
                    "mode 0600, outside --out); the published files never hold raw ids"),
])


def run(args):
    from dataclasses import fields

    from pipeline.annotation.runs.import_answers import ImportSettings, annotate_import

    return annotate_import(ImportSettings(**{f.name: getattr(args, f.name) for f in fields(ImportSettings)}))
