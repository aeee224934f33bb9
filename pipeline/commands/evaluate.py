"""``python -m pipeline evaluate``: bias metrics of system outputs, with report.

Declares the options (click), parses them and calls :func:`pipeline.runs.evaluate.evaluate`, the one evaluation entry
point over every dataset kind: Counter-GAP quadruples and GAP rows (``metrics.json``,
``metrics.md``, ``metrics.png``, ``answers.parquet``; docs/evaluate.md), pro/anti benchmarks
and SoWinoBias datasets. ``--write-conll FILE`` / ``--write-jsonlines FILE`` write the dataset
in a coreference system's input layout.

May import: the standard library, :mod:`pipeline.runs` (inside :func:`run`). Never another command.
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run
RUN_OUTPUTS = ("out", "write_conll", "write_jsonlines")     # each gets its run record (docs/runs.md)

command = opt.command("evaluate", "bias metrics with bootstrap significance", [
    opt.option("--dataset", required=True, type=opt.PATH,
               help="gold dataset: quadruples Parquet, GAP TSV (ours, GAP's, Counter-GAP's), or TSV "
                    "with ID, Pronoun, A-coref, B-coref"),
    opt.name_file("--system", "a system output, format detected by content: GAP TSV predictions (ID, "
                  "A-coref, B-coref; optional A-prob, B-prob), JSON lines with clusters, or a CoNLL-2012 "
                  "response file; or NAME=ADAPTER[:MODEL] to run a system on the fly (as `predict` does, "
                  "into OUT/predictions); on a pro/anti benchmark, a NAME given again adds that system's "
                  "output on another dataset", split=True),
    opt.out_dir("required with --system", required=False),
    opt.resamples(),
    opt.seed("the bootstrap"),
    opt.flag("--allow-missing", "count dataset IDs missing from a system output as wrong (and say how many)"),
    opt.option("--max-unmatched", type=opt.finite_float, default=0.01, metavar="SHARE",
               help="pro/anti benchmarks: share of a system's prediction lines that may match no "
                    "item (counted and left out; default 0.01); more is an error"),
    opt.flag("--ignore-extra", "ignore system rows whose ID is not in the dataset (score a subset, e.g. "
                               "Counter-GAP's development quadruples, with predictions for the whole set); "
                               "say how many"),
    opt.name_file("--weights", "test-set weights (JSON: ID -> weight) for weighted scores",
                  metavar="NAME=W.json", split=True),
    opt.option("--write-conll", type=opt.PATH, default=None, metavar="FILE",
               help="write the dataset as a CoNLL-2012 key file (one document per row, gold clusters)"),
    opt.option("--write-jsonlines", type=opt.PATH, default=None, metavar="FILE",
               help="write the dataset in c2f-coref's GAP jsonlines input layout"),
    opt.option("--jsonlines-vocab", type=opt.PATH, default=None, metavar="VOCAB.txt",
               help="with --write-jsonlines: a BERT vocab.txt; subtokens as c2f-coref's predict.py "
                    "reads them (default: word tokens)"),
    opt.flag("--report", "also write report.md and report.html: metrics with intervals, plots, and the "
                         "quadruples each system gets inconsistent"),
    opt.device(),
    opt.batch_size(8, "texts per call of a system run on the fly (--system NAME=ADAPTER:MODEL)"),
])


def run(args):
    from pipeline.runs.evaluate import EvaluateSettings, evaluate

    return evaluate(EvaluateSettings(
        dataset=args.dataset, systems=args.system, out=args.out, resamples=args.resamples, seed=args.seed,
        allow_missing=args.allow_missing, max_unmatched=args.max_unmatched, ignore_extra=args.ignore_extra,
        weights=args.weights, write_conll=args.write_conll, write_jsonlines=args.write_jsonlines,
        jsonlines_vocab=args.jsonlines_vocab, report=args.report, device=args.device, batch_size=args.batch_size))
