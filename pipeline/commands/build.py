"""Build command: a corpus -> instances -> quadruples in one resumable run
(``python -m pipeline build --corpus DIR --out OUT``).

Declares the options and calls :func:`pipeline.runs.build.build` (extract into ``OUT/extract``,
generate into ``OUT/generate``, the summary into ``OUT/build.json``; manual: ``docs/scale.md``).

May import: :mod:`pipeline.options`, :mod:`pipeline.runs` (inside :func:`run`), :mod:`pipeline.nlp.load`
(the model's name for ``run.json``). Never another command (the CLI imports this module by name).
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("build", "corpus -> instances -> quadruples in one resumable run (extract + generate +"
                               " summary)", [
    opt.out_dir("OUT/extract, OUT/generate, OUT/build.json; resumable"),
    opt.model(),
    opt.workers("one unit (extract) or book (generate) at a time each"),
    opt.option("--scheduler", default=None,
               help="address of a Dask distributed scheduler (tcp://host:8786): both stages run there"),
    opt.option("--strategy", choices=["prune", "full"], default="prune",
               help="extract's parsing strategy (default prune; see extract --help)"),
    opt.flag("--no-title-period", "generate also writes quadruples-nodot.parquet/.tsv (see generate --help)"),
    opt.overwrite("the build in OUT (default: resume it, refused when its settings differ)"),
    opt.corpus_options(),
    opt.cast(),
])


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
