"""``annotate-import``: answers -> votes -> filters -> balanced final dataset + dataset card.

``--quadruples`` is the file that was annotated: ``quadruples.parquet`` or a GAP TSV file
(converted as at export, :mod:`pipeline.annotation.runs.rows`, with the same ``--model``).

Parses the options and calls :func:`pipeline.annotation.runs.import_answers.annotate_import` (the
formats read, the votes, filters and balancing, the outputs: its module doc and docs/annotate.md).

May import: the standard library, :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

COMMAND = "annotate-import"
HELP = "import votes, filter, balance, publish"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run
RUN_UNHASHED = ("salt_file", "annotator_ids")     # private: named in run.json, never hashed into it

import argparse

from pipeline.annotation.runs.import_answers import LICENSE


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pipeline import options as opt

    parser.add_argument("--results", required=True,
                        help="MTurk results CSV or the annotate-serve SQLite file")
    parser.add_argument("--quadruples", required=True,
                        help="the quadruples.parquet annotated, or the GAP TSV file annotated")
    opt.out_dir(parser, "the final dataset")
    parser.add_argument("--assignments", type=int, default=3,
                        help="answers needed per instance (default 3); fewer: left out")
    opt.seed(parser, "the balancing")
    parser.add_argument("--drop-real-people", action="store_true",
                        help="drop quadruples whose names match --real-people")
    parser.add_argument("--real-people", default=None,
                        help="list of real-world people's names, one a line "
                             "(default resources/real_people.txt)")
    parser.add_argument("--check-items", default=None,
                        help="check items used at export (default resources/annotation_checks.txt)")
    parser.add_argument("--min-check-accuracy", type=opt.finite_float, default=None,
                        help="drop all answers of annotators whose check accuracy (0-1) is lower")
    parser.add_argument("--license", default=LICENSE,
                        help="license of the published dataset, a Hugging Face license id such as "
                             f"cc-by-4.0 (default {LICENSE!r}: choose one before publishing)")
    opt.model(parser, "for a GAP TSV --quadruples: the one used at export/serve")
    parser.add_argument("--salt-file", default=None,
                        help="private salt of the annotator pseudonyms for an MTurk CSV (default: "
                             "RESULTS.salt beside it, created when missing; SQLite keeps its own)")
    parser.add_argument("--annotator-ids", default=None, metavar="FILE",
                        help="also write the private key pseudonym -> raw annotator id to FILE (CSV, "
                             "mode 0600, outside --out); the published files never hold raw ids")


def run(args):
    from dataclasses import fields

    from pipeline.annotation.runs.import_answers import ImportSettings, annotate_import

    return annotate_import(ImportSettings(**{f.name: getattr(args, f.name) for f in fields(ImportSettings)}))
