"""Extract command: books -> GAP-pattern original instances (``python -m pipeline extract``).

Parses the options and calls :func:`pipeline.runs.extract.extract`, the whole run (the per-book
pipeline, partitions, manifest, resume and merge; docs/extract.md).

May import: :mod:`pipeline.runs` (inside :func:`run`), :mod:`pipeline.formats.books` (its
corpus options). Never another command (the CLI imports this module by name).
"""

from __future__ import annotations

import argparse

COMMAND = "extract"
HELP = "books -> GAP-pattern original instances (Parquet)"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pipeline import options as opt
    from pipeline.options import add_corpus_arguments

    opt.out_dir(p, "resumable; see --overwrite")
    opt.model(p)
    opt.workers(p, "one unit (book, row range) at a time each")
    p.add_argument("--strategy", choices=["prune", "full"], default="prune",
                   help="prune: NER first, parse only promising windows (default); full: parse everything")
    p.add_argument("--scheduler", default=None,
                   help="address of a Dask distributed scheduler (tcp://host:8786): run one task per unit there")
    opt.overwrite(p, "a previous extract run in OUT (default: resume it, refused when its settings differ)")
    add_corpus_arguments(p)
    opt.cast(p)


def run(args):
    from pipeline.commands import corpus_spec
    from pipeline.runs.extract import ExtractSettings, extract

    return extract(ExtractSettings(out=args.out, corpus=corpus_spec(args), model=args.model,
                                   workers=args.workers, strategy=args.strategy, scheduler=args.scheduler,
                                   overwrite=args.overwrite, cast=args.cast))
