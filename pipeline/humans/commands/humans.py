"""``python -m pipeline humans qa|maze``: analyse human experiment results.

Declares the options (click), parses them into :class:`pipeline.humans.runs.humans.QaSettings` or
:class:`pipeline.humans.runs.humans.MazeSettings` and calls :func:`pipeline.humans.runs.humans.humans` (the
outputs: its module doc and docs/benchmarks.md).

May import: the standard library, :mod:`pipeline.runs` (inside :func:`run`). Never another command.
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

_QA = "QA results: pro/anti accuracy and Delta_QA per alpha"
_MAZE = "Maze trials: response-time quantiles and Delta_MAZE"

command = opt.group("humans", "analyse human QA and Maze experiment results (Delta_QA per alpha, Delta_MAZE "
                              "quantiles)", [
    opt.command("qa", _QA, [
        opt.repeated("--results", required=True, type=opt.PATH,
                     help="QA results CSV (one row per answer): the project's export or the study's "
                          "released Wino or BUG file (detected); repeat to analyse several together"),
        opt.repeated("--participants", type=opt.PATH, default_none=True,
                     help="CSV with an mturk_id column, or the study's enrollment file (one row per "
                          "worker and batch): only these workers are analysed; repeat to join several lists"),
        opt.option("--questions", choices=("main", "all"), default="main",
                   help="which Wino gender questions count as pro/anti: those on the main entity "
                        "(default) or also those on the other entity"),
        opt.option("--min-filler-accuracy", type=opt.finite_float, default=None, metavar="PERCENT",
                   help="also leave out the batches (a worker's answers in one batch) whose filler "
                        "accuracy is below PERCENT"),
        opt.option("--benchmark", type=opt.PATH,
                   help="benchmark.parquet the sentences come from (needed with --models)"),
        opt.option("--models", type=opt.PATH,
                   help="per_item.parquet of `evaluate` on that benchmark: models on the same sentences; "
                        "or metrics.json of `evaluate` on a benchmark: models' rows of Table 2"),
        opt.repeated("--maze", type=opt.PATH, default_none=True,
                     help="Maze trials CSV (our export or the study's processed Wino or BUG trials): "
                          "Delta_MAZE per quantile under Table 2; repeat for each dataset"),
        opt.out_dir(),
    ]),
    opt.command("maze", _MAZE, [
        opt.repeated("--results", required=True, type=opt.PATH,
                     help="Maze trials CSV (one row per pronoun trial): our export or the study's "
                          "processed Wino or BUG trials (detected); repeat to analyse several together"),
        opt.option("--models", type=opt.PATH,
                   help="metrics.json of `evaluate` on a benchmark: where humans meet each model"),
        opt.option("--benchmark", type=opt.PATH,
                   help="benchmark.parquet of the sentences: synthetic vs natural by item source "
                        "(default: by the sentence_id prefix, winobias-/winogender-/bug-...)"),
        opt.out_dir(),
    ]),
], dest="action")


def run(args):
    from pipeline.humans.runs.humans import MazeSettings, QaSettings, humans

    if args.action == "maze":
        return humans(MazeSettings(results=args.results, out=args.out, models=args.models, benchmark=args.benchmark))
    return humans(QaSettings(results=args.results, out=args.out, participants=args.participants,
                             questions=args.questions, min_filler_accuracy=args.min_filler_accuracy,
                             benchmark=args.benchmark, models=args.models, maze=args.maze))
