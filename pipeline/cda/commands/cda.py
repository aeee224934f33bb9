"""``cda``: counterfactual data augmentation of CoNLL-2012 coreference training files.

Parses the options and calls :func:`pipeline.cda.runs.cda.cda` (a-CDA or n-CDA of one CoNLL-2012
file: the originals followed by the augmented copies, PERSON spans from the NE column or the
person detection, a summary; docs/cda.md). The mode and the resolved spaCy model go into
``run.json``'s settings through the run's result, returned to the CLI.

May import: the standard library, :mod:`pipeline.runs`, :mod:`pipeline.formats` (name_map).
Never another command.
"""

from __future__ import annotations

COMMAND = "cda"
HELP = "a-CDA / n-CDA of CoNLL-2012 training files"

import argparse
from pathlib import Path

from pipeline.cda.formats.name_map import DEFAULT_MAP_DIR
from pipeline.cda.runs.cda import MODES, PERSON_CHOICES, POS_CHOICES

def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pipeline import options as opt

    parser.add_argument("--conll", type=Path, required=True,
                        help="CoNLL-2012 file (OntoNotes *_gold_conll, WinoBias *.v4_auto_conll, LitBank *.conll)")
    parser.add_argument("--mode", choices=MODES, required=True,
                        help="acda: gendered words + every word of a name -> E1, E2, ...; ncda: gendered words, "
                             "first names by the name map (a fallback of the other gender for names it lacks), "
                             "surnames by surnames (resources/surnames.tsv)")
    opt.out_path(parser, "output file: the originals followed by the augmented copies")
    parser.add_argument("--name-map", type=Path, default=None,
                        help="ncda: name_map.parquet or .tsv (default: built on first use and cached)")
    parser.add_argument("--name-map-cache", type=Path, default=DEFAULT_MAP_DIR,
                        help=f"ncda: where the built map is cached (default {DEFAULT_MAP_DIR})")
    parser.add_argument("--pos", choices=POS_CHOICES, default="auto",
                        help="auto (default): predict POS tags with spaCy for documents whose POS column "
                             "holds none (- or _); file: always use the file's column; predict: always predict")
    parser.add_argument("--persons", choices=PERSON_CHOICES, default="auto",
                        help="where the PERSON spans (the only tokens replaced as names) come from: auto "
                             "(default): the named-entity column when the document has one (OntoNotes), "
                             "else the project's person detection; column: the column only (error "
                             "without one); detect: always the person detection")
    opt.cast(parser, "for the person detection, the book id being the CoNLL document id (* = every "
                     "document); not used where the NE column decides")
    parser.add_argument("--books", type=Path, default=None, metavar="DIR",
                        help="a folder of the whole books behind the documents (e.g. LitBank's novels): the "
                             "person detection takes each document's evidence from its whole book (matched "
                             "by id: 105_persuasion_brat -> 105_persuasion.txt), as extract does")
    opt.model(parser, "for predicted tags and person detection")
    parser.add_argument("--min-columns", type=int, default=None,
                        help="fewest columns of a token line (default 12, the CoNLL-2012 minimum)")
    opt.no_progress(parser)


def run(args):
    from dataclasses import fields

    from pipeline.cda.runs.cda import CdaSettings, cda

    return cda(CdaSettings(**{f.name: getattr(args, f.name) for f in fields(CdaSettings)}))
