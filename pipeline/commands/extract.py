"""Extract command: books -> GAP-pattern original instances (``python -m pipeline extract``).

Declares the options and calls :func:`pipeline.runs.extract.extract`, the whole run (the per-book
pipeline, partitions, manifest, resume and merge; docs/extract.md).

May import: :mod:`pipeline.options`, :mod:`pipeline.runs` (inside :func:`run`). Never another
command (the CLI imports this module by name).
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("extract", "books -> GAP-pattern original instances (Parquet)", [
    opt.out_dir("resumable; see --overwrite"),
    opt.model(),
    opt.workers("one unit (book, row range) at a time each"),
    opt.option("--strategy", choices=["prune", "full"], default="prune",
               help="prune: NER first, parse only promising windows (default); full: parse everything"),
    opt.option("--scheduler", default=None,
               help="address of a Dask distributed scheduler (tcp://host:8786): run one task per unit there"),
    opt.overwrite("a previous extract run in OUT (default: resume it, refused when its settings differ)"),
    opt.corpus_options(),
    opt.cast(),
])


def run(args):
    from pipeline.commands import corpus_spec
    from pipeline.runs.extract import ExtractSettings, extract

    return extract(ExtractSettings(out=args.out, corpus=corpus_spec(args), model=args.model,
                                   workers=args.workers, strategy=args.strategy, scheduler=args.scheduler,
                                   overwrite=args.overwrite, cast=args.cast))
