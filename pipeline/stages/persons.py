"""Persons command: books -> the cast of every book (``python -m pipeline persons``).

Parses the options and calls :func:`pipeline.runs.persons.persons` (docs/persons.md):
``OUT/persons.parquet``, ``OUT/cast.parquet`` and ``OUT/cast.tsv``, resumable.

May import: :mod:`pipeline.runs` (inside :func:`run`), :mod:`pipeline.formats` (books: its corpus
options; run_record), :mod:`pipeline.nlp.load`. Never another command.
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


def run(args) -> int:
    from pipeline.formats import run_record
    from pipeline.formats.books import corpus_spec
    from pipeline.nlp.load import resolve_model_name
    from pipeline.runs.persons import PersonsSettings, persons

    run_record.note(model=resolve_model_name(args.model))
    return persons(PersonsSettings(out=args.out, corpus=corpus_spec(args), model=args.model, workers=args.workers,
                                   cast=args.cast, overwrite=args.overwrite, explain=args.explain, book=args.book))
