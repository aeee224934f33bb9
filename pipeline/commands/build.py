"""Build command: a corpus -> instances -> quadruples in one resumable run
(``python -m pipeline build --corpus DIR --out OUT``).

Parses the options and calls :func:`pipeline.runs.build.build` (extract into ``OUT/extract``,
generate into ``OUT/generate``, the summary into ``OUT/build.json``; manual: ``docs/scale.md``).

May import: :mod:`pipeline.runs` (inside :func:`run`), :mod:`pipeline.formats.books` (its
corpus options), :mod:`pipeline.nlp.load` (the model's name for ``run.json``). Never another
command (the CLI imports this module by name).
"""

from __future__ import annotations

import argparse

COMMAND = "build"
HELP = "corpus -> instances -> quadruples in one resumable run (extract + generate + summary)"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pipeline import options as opt
    from pipeline.options import add_corpus_arguments

    opt.out_dir(p, "OUT/extract, OUT/generate, OUT/build.json; resumable")
    opt.model(p)
    opt.workers(p, "one unit (extract) or book (generate) at a time each")
    p.add_argument("--scheduler", default=None,
                   help="address of a Dask distributed scheduler (tcp://host:8786): both stages run there")
    p.add_argument("--strategy", choices=["prune", "full"], default="prune",
                   help="extract's parsing strategy (default prune; see extract --help)")
    p.add_argument("--no-title-period", action="store_true",
                   help="generate also writes quadruples-nodot.parquet/.tsv (see generate --help)")
    opt.overwrite(p, "the build in OUT (default: resume it, refused when its settings differ)")
    add_corpus_arguments(p)
    opt.cast(p)


def run(args):
    from dataclasses import replace

    from pipeline.commands import corpus_spec
    from pipeline.nlp.load import resolve_model_name
    from pipeline.runs.build import BuildSettings, build

    # run.json's settings: extract's (the resolved model, the strategy), then generate's (its
    # word lists, name-form mode and model) from the run's result
    result = build(BuildSettings(out=args.out, corpus=corpus_spec(args), model=args.model, workers=args.workers,
                                 scheduler=args.scheduler, strategy=args.strategy, cast=args.cast,
                                 no_title_period=args.no_title_period, overwrite=args.overwrite))
    return replace(result, settings={"model": resolve_model_name(args.model), "strategy": args.strategy,
                                     **result.settings})
