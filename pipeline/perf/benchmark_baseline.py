"""Name-blind baseline on WinoBias and Winogender: the pro/anti table.

``python -m pipeline.perf.benchmark_baseline [--benchmark FILE] [--out DIR] [--resamples B]``

The baseline links every pronoun with the nearest occupation mention that ends before it
(:func:`pipeline.core.benchmark_scoring.nearest_before_clusters`), without looking at any
word. Its clusters are written as cluster JSON lines (``doc_key`` = item id, ``document`` =
the item's tokens) and scored by the same code as any system
(:func:`pipeline.runs.eval_benchmark.evaluate_benchmark`), so the run also exercises the whole
evaluation path. Without ``--benchmark`` the items are loaded from ../shared (WinoBias +
Winogender; Maze eligibility is not needed here, so no spaCy run); skips with a message when
../shared is absent.

May import: the standard library; inside functions: :mod:`pipeline.lang.benchmarks` (the
benchmarks as distributed), :mod:`pipeline.formats.benchmarks`, :mod:`pipeline.humans.core.stereotypes`,
:mod:`pipeline.core.benchmark_scoring` (the baseline), :mod:`pipeline.runs.eval_benchmark` (the
evaluation) and :mod:`pipeline.report.benchmark` (the table).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))


def _items_from_shared() -> list[dict]:
    from pipeline.humans.core.stereotypes import categorize
    from pipeline.lang.benchmarks import load_winobias, load_winogender

    items = load_winobias(SHARED / "reference" / "winobias")
    items += load_winogender(SHARED / "reference" / "winogender")
    categorize(items)
    for it in items:
        it["maze_eligible"] = False
    return items


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.benchmark_baseline", __doc__.splitlines()[0], [
        opt.option("--benchmark", type=opt.PATH, help="benchmark.parquet (default: build from ../shared)"),
        opt.option("--out", type=opt.PATH, help="keep the evaluation here (default: a temporary directory)"),
        opt.option("--resamples", type=int, default=10_000),
        opt.option("--seed", type=int, default=0),
    ])

    from pipeline.core.benchmark_scoring import nearest_before_clusters
    from pipeline.formats.benchmarks import read_benchmark, write_benchmark
    from pipeline.report.benchmark import markdown
    from pipeline.runs.eval_benchmark import evaluate_benchmark

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if args.benchmark is None:
            if not (SHARED / "reference" / "winobias").is_dir():
                print(f"skipped: {SHARED} is absent")
                return 0
            items = _items_from_shared()
            write_benchmark(items, tmp)
            bench = tmp / "benchmark.parquet"
        else:
            bench = args.benchmark
            items = read_benchmark(bench)
        t0 = time.perf_counter()
        with open(tmp / "nearest.jsonl", "w", encoding="utf-8") as fh:
            for it in items:
                clusters = nearest_before_clusters(it, it["tokens"])
                fh.write(json.dumps({"doc_key": it["id"], "document": list(it["tokens"]),
                                     "clusters": [[list(m) for m in c] for c in clusters]}) + "\n")
        out = args.out or tmp / "eval"
        metrics = evaluate_benchmark(bench, {"nearest-before": tmp / "nearest.jsonl"}, out,
                                     args.resamples, args.seed)
        seconds = time.perf_counter() - t0
        print(markdown(metrics, "Name-blind baseline: nearest occupation before the pronoun"))
        print(f"{len(items)} items; predictions + evaluation ({args.resamples} resamples) in {seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
