"""``python -m pipeline benchmark``: WinoBias / Winogender / BUG / SoWinoBias into one benchmark.

Declares the options (click), parses them into :class:`pipeline.humans.runs.benchmark.BenchmarkSettings` and calls
:func:`pipeline.humans.runs.benchmark.benchmark` (docs/benchmarks.md).

May import: the standard library, :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

from pipeline import options as opt
from pipeline.humans.runs.benchmark import SOURCES

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("benchmark", "load WinoBias, Winogender, BUG or SoWinoBias into one pro/anti benchmark"
                                   " (Parquet + TSV)", [
    opt.repeated("--source", required=True, choices=SOURCES,
                 help="benchmark kind; repeat with --path to combine several"),
    opt.repeated("--path", type=opt.FILE, required=True,
                 help="WinoBias/Winogender: the directory as distributed; BUG: its CSV; "
                      "SoWinoBias: the Parquet written by `sowinobias`; cog-wino / cog-bug: "
                      "the sentence lists released by the humans-vs-models study"),
    opt.option("--categories", choices=("entity", "table4", "table4-pair"), default="entity",
               help="how WinoBias categories are decided: entity (default: each entity's "
                    "occupation stereotype), table4 or table4-pair (the two rules that give "
                    "the paper's Table 4 counts; see docs/benchmarks.md)"),
    opt.option("--compare", type=opt.FILE, default=None, metavar="LIST",
               help="the study's Wino sentence list (cog-wino layout): compare its type "
                    "with our category sentence by sentence (OUT/category_comparison.tsv; the "
                    "sentences that disagree are printed); --source cog-wino given next to "
                    "winobias/winogender does the same"),
    opt.out_dir(),
    opt.model("for the verb tags of Maze eligibility"),
])


def run(args):
    from pipeline.humans.runs.benchmark import BenchmarkSettings, benchmark

    return benchmark(BenchmarkSettings(sources=args.source, paths=args.path, out=args.out,
                                       categories=args.categories, compare=args.compare, model=args.model))
