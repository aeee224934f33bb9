"""``label``: gold A-coref/B-coref for extracted instances (or generated quadruples) from
coreference-annotated text (``python -m pipeline label --instances OUT_OR_FILE --coref
DIR_OR_FILE --out DIR``).

Declares the options, parses them into :class:`pipeline.runs.label.LabelSettings` and calls
:func:`pipeline.runs.label.label` (manual: docs/label.md).

May import: the standard library, :mod:`pipeline.options`, :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

from pipeline import options as opt
from pipeline.runs.label import CONLL_SUFFIXES

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("label", "gold A/B labels from coreference-annotated text (LitBank, OntoNotes "
                               "CoNLL-2012)", [
    opt.option("--instances", type=opt.FILE, required=True, metavar="OUT_OR_FILE",
               help="instances.parquet (extract) or quadruples.parquet (generate), or the directory holding one"),
    opt.option("--coref", type=opt.FILE, required=True, metavar="DIR_OR_FILE",
               help="a CoNLL-2012 file with coreference clusters, or a directory of them "
                    f"({', '.join(CONLL_SUFFIXES)})"),
    opt.out_dir("labelled.parquet and label_summary.json"),
])


def run(args):
    from pipeline.runs.label import LabelSettings, label

    return label(LabelSettings(instances=args.instances, coref=args.coref, out=args.out))
