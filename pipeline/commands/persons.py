"""Persons command: books -> the cast of every book (``python -m pipeline persons``).

Declares the options (click), parses them and calls :func:`pipeline.runs.persons.persons` (docs/persons.md):
``OUT/persons.parquet``, ``OUT/cast.parquet`` and ``OUT/cast.tsv``, resumable. The resolved
spaCy model goes into ``run.json``'s settings through the run's result, returned to the CLI.

May import: :mod:`pipeline.runs` (inside :func:`run`), :mod:`pipeline.formats` (books: its corpus
options). Never another command.
"""

from __future__ import annotations

from pipeline import options as opt

command = opt.command("persons", "books -> every book's persons, their genders and evidence "
                                 "(persons.parquet, cast.parquet, cast.tsv)", [
    opt.out_dir("resumable; see --overwrite; not needed with --explain", required=False),
    opt.model(),
    opt.workers(),
    opt.cast(),
    opt.overwrite("a previous persons run in OUT"),
    opt.option("--explain", metavar="FORM", default=None,
               help="print every decision about FORM (a name as written) with the evidence behind it, "
                    "and how to override it; writes nothing"),
    opt.option("--book", metavar="ID", default=None, help="with --explain: only this book"),
    opt.corpus_options(),
])


def run(args):
    from pipeline.commands import corpus_spec
    from pipeline.runs.persons import PersonsSettings, persons

    return persons(PersonsSettings(out=args.out, corpus=corpus_spec(args), model=args.model, workers=args.workers,
                                   cast=args.cast, overwrite=args.overwrite, explain=args.explain, book=args.book))
