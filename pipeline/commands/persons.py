"""Persons command: books -> the cast of every book (``python -m pipeline persons``).

Parses the options and calls :func:`pipeline.runs.persons.persons` (docs/persons.md):
``OUT/persons.parquet``, ``OUT/cast.parquet`` and ``OUT/cast.tsv``, resumable. The resolved
spaCy model goes into ``run.json``'s settings through the run's result, returned to the CLI.

May import: :mod:`pipeline.runs` (inside :func:`run`), :mod:`pipeline.formats` (books: its corpus
options). Never another command.
"""

from __future__ import annotations

import argparse

COMMAND = "persons"
HELP = "books -> every book's persons, their genders and evidence (persons.parquet, cast.parquet, cast.tsv)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pipeline import options as opt
    from pipeline.options import add_corpus_arguments

    opt.out_dir(p, "resumable; see --overwrite; not needed with --explain", required=False)
    opt.model(p)
    opt.workers(p)
    opt.cast(p)
    opt.overwrite(p, "a previous persons run in OUT")
    p.add_argument("--explain", metavar="FORM", default=None,
                   help="print every decision about FORM (a name as written) with the evidence behind it, "
                        "and how to override it; writes nothing")
    p.add_argument("--book", metavar="ID", default=None, help="with --explain: only this book")
    add_corpus_arguments(p)


def run(args):
    from pipeline.commands import corpus_spec
    from pipeline.runs.persons import PersonsSettings, persons

    return persons(PersonsSettings(out=args.out, corpus=corpus_spec(args), model=args.model, workers=args.workers,
                                   cast=args.cast, overwrite=args.overwrite, explain=args.explain, book=args.book))
