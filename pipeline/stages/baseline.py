"""``baseline``: name-blind baseline system outputs (Random, Dist-1..3 of "The Gap on GAP")
in GAP system format; the predictions are :mod:`pipeline.core.baselines` (docs/baselines.md).

May import: :mod:`pipeline.formats`, :mod:`pipeline.nlp`, :mod:`pipeline.core`; never another command.
"""

from __future__ import annotations

COMMAND = "baseline"
HELP = "name-blind baseline system outputs"

import argparse
from pathlib import Path

KINDS = ("random", "dist1", "dist2", "dist3")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pipeline import options as opt
    from pipeline.options import add_dataset_arguments

    # "detected" personal names: spaCy NER on every text (each variant of a quadruple is
    # parsed on its own) unless spans are given
    add_dataset_arguments(parser, originals_flag=False, names_default="ner")
    parser.add_argument("--kind", required=True, choices=KINDS)
    opt.seed(parser, "the one draw in A-coref/B-coref of --kind random (the probabilities are exact)")
    opt.out_file(parser, "system output TSV, GAP system format")


def run(args) -> int:
    from pipeline.core.analysis import analyse_records
    from pipeline.core.baselines import system_rows
    from pipeline.formats.datasets import read_dataset_args
    from pipeline.formats.gap_tsv import write_system_tsv
    from pipeline.nlp import load as nlp_load

    records, kind, spans = read_dataset_args(args, originals_only=False)
    examples, feats, source = analyse_records(records, nlp_load.load(args.model), spans, args.names_from,
                                              not args.no_progress, args.dataset)
    rows = system_rows(args.kind, [f.id for f in feats], [f.ranked for f in feats], args.seed)
    columns = list(rows[0]) if rows else ["ID", "A-coref", "B-coref"]
    write_system_tsv(rows, args.out, columns)
    n_answer = sum(r["A-coref"] == "TRUE" or r["B-coref"] == "TRUE" for r in rows)
    print(f"{args.kind}: {len(rows)} examples of {Path(args.dataset).name} ({kind}; names: {source}); "
          f"{n_answer} answered A or B" + (" in this draw" if args.kind == "random" else ""))
    if args.kind == "random":
        ea = sum(float(r["A-prob"]) + float(r["B-prob"]) - float(r["AB-prob"]) for r in rows)
        print(f"  expected number answering A or B: {ea:.2f}")
    print(f"wrote {args.out}")
    return 0
