"""``experiment-plan``: a seeded balanced plan of the human QA or Maze experiment.

Declares the options (click), parses them into :class:`pipeline.humans.runs.plan.ExperimentPlanSettings` and calls
:func:`pipeline.humans.runs.plan.experiment_plan` (the plan: its module doc and
docs/experiment.md).

May import: the standard library, :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("experiment-plan", "seeded balanced plan of the human QA or Maze experiment "
                                         "(plan.parquet + plan.tsv)", [
    opt.option("--benchmark", type=opt.FILE, required=True, help="benchmark.parquet (command benchmark)"),
    opt.option("--experiment", required=True, choices=("qa", "maze")),
    opt.option("--participants", type=opt.bounded_int(1, opt.MAX_PARTICIPANTS, "the cap of --participants"),
               required=True, help=f"participant slots (1 to {opt.MAX_PARTICIPANTS:,})"),
    opt.seed(),
    opt.out_dir(),
    opt.option("--targets", type=opt.bounded_int(0, 1000, "the cap of --targets"), default=20,
               help="QA: target questions per participant, as many fillers (default 20)"),
    opt.option("--calibration", type=opt.bounded_int(0, 1000, "the cap of --calibration"), default=4,
               help="QA: calibration sentences per participant (default 4)"),
    opt.option("--items", type=opt.bounded_int(0, 1000, "the cap of --items"), default=10,
               help="Maze: sentences per participant (default 10)"),
    opt.option("--lexicon-size", type=int, default=20000,
               help="Maze: distractors come from this many most frequent English words"),
    opt.model("for the verb tags of Maze distractors"),
])


def run(args):
    from dataclasses import fields

    from pipeline.humans.runs.plan import ExperimentPlanSettings, experiment_plan

    return experiment_plan(ExperimentPlanSettings(**{f.name: getattr(args, f.name)
                                                     for f in fields(ExperimentPlanSettings)}))
