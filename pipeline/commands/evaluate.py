"""``python -m pipeline evaluate``: bias metrics of system outputs, with report.

Parses the options and calls :func:`pipeline.runs.evaluate.evaluate`, the one evaluation entry
point over every dataset kind: Counter-GAP quadruples and GAP rows (``metrics.json``,
``metrics.md``, ``metrics.png``, ``answers.parquet``; docs/evaluate.md), pro/anti benchmarks
and SoWinoBias datasets. ``--write-conll FILE`` / ``--write-jsonlines FILE`` write the dataset
in a coreference system's input layout.

May import: the standard library, :mod:`pipeline.runs` (inside :func:`run`). Never another command.
"""

from __future__ import annotations

import argparse
from pathlib import Path

COMMAND = "evaluate"
HELP = "bias metrics with bootstrap significance"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run
RUN_OUTPUTS = ("out", "write_conll", "write_jsonlines")     # each gets its run record (docs/runs.md)


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pipeline import options as opt

    p.add_argument("--dataset", required=True, type=Path,
                   help="gold dataset: quadruples Parquet, GAP TSV (ours, GAP's, Counter-GAP's), or TSV "
                        "with ID, Pronoun, A-coref, B-coref")
    opt.name_file(p, "--system", "a system output, format detected by content: GAP TSV predictions (ID, "
                  "A-coref, B-coref; optional A-prob, B-prob), JSON lines with clusters, or a CoNLL-2012 "
                  "response file; or NAME=ADAPTER[:MODEL] to run a system on the fly (as `predict` does, "
                  "into OUT/predictions); on a pro/anti benchmark, a NAME given again adds that system's "
                  "output on another dataset", split=True)
    opt.out_dir(p, "required with --system", required=False)
    opt.resamples(p)
    opt.seed(p, "the bootstrap")
    p.add_argument("--allow-missing", action="store_true",
                   help="count dataset IDs missing from a system output as wrong (and say how many)")
    p.add_argument("--max-unmatched", type=opt.finite_float, default=0.01, metavar="SHARE",
                   help="pro/anti benchmarks: share of a system's prediction lines that may match no "
                        "item (counted and left out; default 0.01); more is an error")
    p.add_argument("--ignore-extra", action="store_true",
                   help="ignore system rows whose ID is not in the dataset (score a subset, e.g. Counter-GAP's "
                        "development quadruples, with predictions for the whole set); say how many")
    opt.name_file(p, "--weights", "test-set weights (JSON: ID -> weight) for weighted scores",
                  metavar="NAME=W.json", split=True)
    p.add_argument("--write-conll", type=Path, default=None, metavar="FILE",
                   help="write the dataset as a CoNLL-2012 key file (one document per row, gold clusters)")
    p.add_argument("--write-jsonlines", type=Path, default=None, metavar="FILE",
                   help="write the dataset in c2f-coref's GAP jsonlines input layout")
    p.add_argument("--jsonlines-vocab", type=Path, default=None, metavar="VOCAB.txt",
                   help="with --write-jsonlines: a BERT vocab.txt; subtokens as c2f-coref's predict.py "
                        "reads them (default: word tokens)")
    p.add_argument("--report", action="store_true",
                   help="also write report.md and report.html: metrics with intervals, plots, and the "
                        "quadruples each system gets inconsistent")
    opt.device(p)
    opt.batch_size(p, 8, "texts per call of a system run on the fly (--system NAME=ADAPTER:MODEL)")


def run(args):
    from pipeline.runs.evaluate import EvaluateSettings, evaluate

    return evaluate(EvaluateSettings(
        dataset=args.dataset, systems=args.system, out=args.out, resamples=args.resamples, seed=args.seed,
        allow_missing=args.allow_missing, max_unmatched=args.max_unmatched, ignore_extra=args.ignore_extra,
        weights=args.weights, write_conll=args.write_conll, write_jsonlines=args.write_jsonlines,
        jsonlines_vocab=args.jsonlines_vocab, report=args.report, device=args.device, batch_size=args.batch_size))
