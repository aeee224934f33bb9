"""``python -m pipeline predict``: run coreference systems on every instance text of a dataset.

Thin layer: arguments -> :mod:`pipeline.systems.run` (read the rows, run each system with its
adapter from :mod:`pipeline.systems.registry`, write the outputs) -> summary. Writes into
``--out`` together: ``NAME.jsonl`` (clusters, character offsets), ``NAME.tsv`` (GAP answers,
no header line), ``answers.parquet``, ``predict.json``; ``--out/cache/NAME.jsonl`` is the
resumable cache (docs/evaluate.md, "predict").

May import: :mod:`pipeline.errors`, :mod:`pipeline.systems`; never another command.
"""

from __future__ import annotations

COMMAND = "predict"
HELP = "run coreference systems (adapters) on a dataset's texts"

import argparse
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pipeline import options as opt
    from pipeline.systems.base import DEVICES, parse_spec

    p.add_argument("--dataset", required=True, type=Path,
                   help="quadruples Parquet, GAP TSV, pro/anti benchmark Parquet, or SoWinoBias (Parquet/TSV)")
    p.add_argument("--system", action="append", required=True, type=parse_spec, metavar="NAME=ADAPTER[:MODEL]",
                   help="a system: adapter fastcoref, lingmess, maverick, spacy, allennlp, xrenner, command, or "
                        "one registered by an installed package; MODEL a local path or cache name (never "
                        "downloaded); repeatable")
    opt.out_dir(p)
    opt.device(p, DEVICES)
    opt.batch_size(p, 8, "texts per call of a system")
    p.add_argument("--retry-failed", action="store_true",
                   help="run the documents again that failed in an earlier (cached) run")
    opt.no_progress(p)


def run(args) -> int:
    from pipeline.errors import InputError
    from pipeline.systems.run import read_rows, run_system, write_outputs

    names = [s.name for s in args.system]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise InputError(f"system name(s) given more than once: {', '.join(dupes)}")
    if args.batch_size < 1:
        raise InputError(f"--batch-size must be >= 1, got {args.batch_size}")
    kind, rows = read_rows(args.dataset)
    runs = [run_system(spec, rows, args.out, args.device, args.batch_size, not args.no_progress,
                       args.retry_failed) for spec in args.system]
    summary = write_outputs(args.out, kind, args.dataset, rows, runs)
    for name, s in summary["systems"].items():
        line = (f"{name} ({s['system']}): {s['n_answered']}/{len(rows)} documents answered "
                f"({s['n_cached']} from the cache), {s['seconds']:.1f} s")
        if s["n_failed"]:
            first = "; ".join(f"{f['id']}: {f['error']}" for f in s["failed_first"][:2])
            line += f"; {s['n_failed']} failed, recorded as unanswered (first: {first})"
        print(line)
    print(f"{args.dataset.name}: {len(rows)} {kind} rows -> {args.out}/NAME.jsonl, NAME.tsv, answers.parquet, "
          "predict.json")
    return 0
