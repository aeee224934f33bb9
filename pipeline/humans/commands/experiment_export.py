"""``experiment-export``: the experiment database -> CSV files.

Parses the options into :class:`pipeline.humans.runs.export.ExperimentExportSettings` and
calls :func:`pipeline.humans.runs.export.experiment_export` (the files: its module doc and
docs/experiment.md).

May import: the standard library, :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

COMMAND = "experiment-export"
HELP = "export the experiment database: qa_results.csv / maze_trials.csv, maze_words.csv, codes.csv"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pipeline import options as opt

    parser.add_argument("--db", required=True, help="SQLite file of experiment-serve")
    opt.out_dir(parser)
    parser.add_argument("--plan", default=None,
                        help="plan.parquet (default: the path stored in the database)")


def run(args):
    from pipeline.humans.runs.export import ExperimentExportSettings, experiment_export

    return experiment_export(ExperimentExportSettings(db=args.db, out=args.out, plan=args.plan))
