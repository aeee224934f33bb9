"""The LP weights measured on GAP test (manual name spans): ``python -m pipeline.perf.weights``.

Prints, per variant, the median LP time (build + solve over equivalence classes) and the
objective; then, side by side on random subsets of GAP test, the class LP against the literal
pairwise LP (one auxiliary variable per pair of examples) with their time ratio. Skips when
../shared is absent.

May import: the standard library; inside :func:`main`: :mod:`pipeline.formats.dataset_files`,
:mod:`pipeline.nlp.load`, :mod:`pipeline.diagnostics.core.analysis` and from :mod:`pipeline.core` its ``weights``.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))
REPEATS = 5


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.weights", __doc__.split("\n\n")[0], [
        opt.option("--shared", type=opt.PATH, default=SHARED,
                   help="the shared data folder (default: ../shared beside the checkout, or $COUNTER_GAP_SHARED)"),
        opt.option("--repeats", type=int, default=REPEATS, help="LP solves per variant; the median is printed"),
    ])
    gap = args.shared / "reference" / "gap"
    if not (gap / "gap-test.tsv").exists():
        print(f"skipped: {gap} is absent")
        return 0
    from pipeline.core import weights as W
    from pipeline.diagnostics.core.analysis import analyse_records
    from pipeline.formats.dataset_files import read_dataset, read_name_spans
    from pipeline.nlp.load import load

    t0 = time.perf_counter()
    records, _ = read_dataset(gap / "gap-test.tsv")
    spans = read_name_spans(gap / "gap-test-name-spans.json", {r["id"]: r["text"] for r in records})
    _, feats, _ = analyse_records(records, load(None), spans, progress=False)
    print(f"GAP test: {len(feats)} examples; loading + tokenising {time.perf_counter() - t0:.2f} s")
    print(f"{'variant':8s} {'unnamed':9s} {'kept':>5s} {'non-zero M/F':>12s} {'classes':>7s} {'LP vars':>8s} "
          f"{'median LP s':>11s} {'optimum F*':>15s} {'objective':>15s}")
    for unnamed in W.UNNAMED_CHOICES:
        for variant, label in W.VARIANTS.items():
            times, sol, sel, weights = [], None, None, None
            for _ in range(args.repeats):
                weights, sol, sel = W.compute_weights(feats, variant, unnamed=unnamed)
                times.append(sol.seconds)
            nz = [it.group for it in sel.items if weights[it.id] > 0]
            counts = f"{nz.count('masculine')}/{nz.count('feminine')}"
            print(f"{label:8s} {unnamed:9s} {len(sel.items):5d} {counts:>12s} {sol.n_classes:7d} {sol.n_variables:8d} "
                  f"{statistics.median(times):11.3f} {sol.optimum:15.4f} {sol.objective:15.4f}")

    print("\nclass LP vs full pairwise LP (variant W, random subsets of GAP test, median of 3):")
    print(f"{'examples':>8s} {'class s':>8s} {'pairwise s':>10s} {'ratio':>7s} {'pairwise vars':>13s} {'same objective':>14s}")
    rng = random.Random(0)
    for size in (50, 100, 200):
        sub = rng.sample(feats, size)
        sel = W.select_examples(sub, "all")
        forced, _ = W.forced_zeros(sel.items)
        sel.items = [it for it in sel.items if it.id not in forced]
        tc, tp, c, p = [], [], None, None
        for _ in range(3):
            c = W.solve_classes(sel.items)
            tc.append(c.seconds)
            p = W.solve_pairwise(sel.items)
            tp.append(p.seconds)
        same = abs(c.objective - p.objective) <= 1e-6 * max(1.0, abs(p.objective))
        mc, mp = statistics.median(tc), statistics.median(tp)
        print(f"{len(sel.items):8d} {mc:8.3f} {mp:10.3f} {mp / mc:7.1f} {p.n_variables:13d} {str(same):>14s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
