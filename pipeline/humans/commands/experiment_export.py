"""``experiment-export``: the experiment database -> CSV files.

Declares the options (click), parses them into :class:`pipeline.humans.runs.export.ExperimentExportSettings` and
calls :func:`pipeline.humans.runs.export.experiment_export` (the files: its module doc and
docs/experiment.md).

May import: the standard library, :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("experiment-export", "export the experiment database: qa_results.csv / "
                                           "maze_trials.csv, maze_words.csv, codes.csv", [
    opt.option("--db", type=opt.FILE, required=True, help="SQLite file of experiment-serve"),
    opt.out_dir(),
    opt.option("--plan", type=opt.FILE, default=None,
               help="plan.parquet (default: the path stored in the database)"),
])


def run(args):
    from pipeline.humans.runs.export import ExperimentExportSettings, experiment_export

    return experiment_export(ExperimentExportSettings(db=args.db, out=args.out, plan=args.plan))
