"""``label``: gold A-coref/B-coref for extracted instances (or generated quadruples) from
coreference-annotated text (``python -m pipeline label --instances OUT_OR_FILE --coref
DIR_OR_FILE --out DIR``).

Parses the options into :class:`pipeline.runs.label.LabelSettings` and calls
:func:`pipeline.runs.label.label` (manual: docs/label.md).

May import: the standard library, :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

COMMAND = "label"
HELP = "gold A/B labels from coreference-annotated text (LitBank, OntoNotes CoNLL-2012)"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

import argparse

from pipeline.runs.label import CONLL_SUFFIXES


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pipeline import options as opt

    p.add_argument("--instances", required=True, metavar="OUT_OR_FILE",
                   help="instances.parquet (extract) or quadruples.parquet (generate), or the directory "
                        "holding one")
    p.add_argument("--coref", required=True, metavar="DIR_OR_FILE",
                   help="a CoNLL-2012 file with coreference clusters, or a directory of them "
                        f"({', '.join(CONLL_SUFFIXES)})")
    opt.out_dir(p, "labelled.parquet and label_summary.json")


def run(args):
    from pipeline.runs.label import LabelSettings, label

    return label(LabelSettings(instances=args.instances, coref=args.coref, out=args.out))
