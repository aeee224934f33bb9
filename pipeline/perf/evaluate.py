"""Benchmark of the evaluate stage on the published Counter-GAP predictions.

``python -m pipeline.perf.evaluate [--runs N] [--resamples B]``

Prints medians over several runs, side by side:
- core: every metric of the four systems with B bootstrap resamples (inputs already parsed);
- naive: the same bootstrap for ONE system as a per-resample Python loop (rebuilding each
  resample with fancy indexing), to show what the vectorised matrix product saves;
- end to end: the whole ``evaluate`` command (reading, validating, metrics, JSON, Markdown, PNG);
- cluster outputs: aligning an oracle cluster file (regex tokens, lower-cased) with the 300
  texts of the published development quadruples and applying the coreference rule.

The target: core < 2 s for four systems and 10,000 resamples. Skips with a message
when ../shared is absent.

May import: the standard library; inside functions: numpy (the naive bootstrap),
from :mod:`pipeline.runs` its ``eval_quadruples`` (the evaluation's parts, timed one by one),
:mod:`pipeline.core.alignment`, :mod:`pipeline.formats.system_outputs` and :mod:`pipeline.cli`
(the ``evaluate`` command run end to end).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))
REF = SHARED / "reference" / "counter-gap-predictions"
SYSTEMS = ["bert_base", "bert_large", "spanbert_base", "spanbert_large"]


def _median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def naive_bootstrap(correct, gender, resamples: int, seed: int) -> None:
    """Per-resample loop over explicit index arrays (the obvious, slow way)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    q = len(correct)
    for _ in range(resamples):
        idx = rng.integers(0, q, size=q)
        c, g = correct[idx], gender[idx]
        acc_m = c[g == 1].mean()
        acc_f = c[g == -1].mean()
        within = (np.abs(c[:, 0] - c[:, 1]) + np.abs(c[:, 2] - c[:, 3])).mean() / 2
        across = (np.abs(c[:, 0] - c[:, 2]) + np.abs(c[:, 1] - c[:, 3]) + np.abs(c[:, 0] - c[:, 3])
                  + np.abs(c[:, 1] - c[:, 2])).mean() / 4
        _ = (acc_m - acc_f, across - within, c[:, :2].mean() - c[:, 2:].mean())


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.evaluate", __doc__.splitlines()[0], [
        opt.option("--runs", type=int, default=7, help="timed runs per measurement (median)"),
        opt.option("--resamples", type=int, default=10_000),
    ])
    if not REF.is_dir():
        print(f"skipped: {REF} is absent (the reference predictions live outside the repository)")
        return 0

    from pipeline.runs import eval_quadruples as E
    from pipeline.cli import main as cli_main

    gold = E.normalise_dataset(E.read_dataset_frame(REF / "gold-labels.tsv"), REF / "gold-labels.tsv")
    systems = {n: E.read_system(REF / f"{n}_output.tsv", gold) for n in SYSTEMS}
    E.compute(gold, systems, 100, 0)                      # warm up imports (scipy)

    core = _median_time(lambda: E.compute(gold, systems, args.resamples, 0), args.runs)
    P = gold.positions
    one = systems[SYSTEMS[0]].correct[P]
    gender = gold.frame["gender"].to_numpy()[P]
    naive_runs = max(1, min(3, args.runs))
    naive = _median_time(lambda: naive_bootstrap(one, gender, args.resamples, 0), naive_runs)

    with tempfile.TemporaryDirectory() as tmp:
        argv = ["evaluate", "--dataset", str(REF / "gold-labels.tsv"), "--out", tmp,
                "--resamples", str(args.resamples)]
        for n in SYSTEMS:
            argv += ["--system", f"{n}={REF / f'{n}_output.tsv'}"]
        devnull = open(os.devnull, "w")
        stdout, sys.stdout = sys.stdout, devnull
        try:
            end_to_end = _median_time(lambda: cli_main(argv), max(1, min(3, args.runs)))
        finally:
            sys.stdout = stdout
            devnull.close()

    print(f"evaluate benchmark: {len(gold.quadruple_ids)} quadruples, {len(SYSTEMS)} systems, "
          f"{args.resamples} resamples, cpu count {os.cpu_count()}")
    print(f"  core, 4 systems, vectorised      median {core:7.3f} s  over {args.runs} runs "
          f"(target < 2 s: {'met' if core < 2 else 'NOT met'})")
    print(f"  naive loop, 1 system             median {naive:7.3f} s  over {naive_runs} runs "
          f"(x{naive / core * len(SYSTEMS):.0f} slower per system than vectorised)")
    print(f"  end to end (read, metrics, JSON, Markdown, PNG)  median {end_to_end:7.3f} s")
    dev = SHARED / "reference" / "counter-gap-dev" / "C-GAP-withdot.dev.tsv"
    if dev.is_file():
        docs, dev_gold = _oracle_clusters(E, dev)
        align = _median_time(lambda: E.predictions_from_clusters(docs, dev_gold, dev, "jsonl-clusters"),
                             max(1, min(3, args.runs)))
        pred = E.predictions_from_clusters(docs, dev_gold, dev, "jsonl-clusters")
        acc = E.score_rows(pred, dev_gold).correct.mean()
        print(f"  cluster output, {len(docs)} rows aligned + rule   median {align:7.3f} s "
              f"(oracle accuracy {100 * acc:.2f} %, {pred.n_unaligned} unaligned)")
    return 0


def _oracle_clusters(E, dev: Path):
    """An oracle cluster output of the development quadruples: lower-cased regex tokens,
    clusters from the gold labels."""
    from pipeline.core.alignment import gold_clusters, simple_tokens
    from pipeline.formats.system_outputs import ClusterDoc

    gold = E.normalise_dataset(E.read_dataset_frame(dev), dev)
    docs = []
    for k, sp in enumerate(gold.spans.itertuples(index=False)):
        tokens, spans = simple_tokens(sp.text)
        clusters = gold_clusters(spans, *E.row_spans(sp), bool(gold.frame["A-coref"].iat[k]),
                                 bool(gold.frame["B-coref"].iat[k]))
        docs.append(ClusterDoc(str(gold.frame["ID"].iat[k]), k + 1, [t.lower() for t in tokens], clusters))
    return docs, gold


if __name__ == "__main__":
    raise SystemExit(main())
