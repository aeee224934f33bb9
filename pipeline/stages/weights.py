"""``weights``: LP test-set weights that balance the masculine and feminine subsets ("The Gap
on GAP", Kocijan et al. 2021). The program, the example sets it keeps and the proof that the
class LP is exact are in :mod:`pipeline.core.weights`; the manual page is docs/weights.md.

Flow: arguments -> :mod:`pipeline.formats.datasets` -> spaCy tokeniser ->
:mod:`pipeline.core.analysis` (names, ranks) -> :mod:`pipeline.core.weights` (LP) -> the
weights JSON {ID: weight} -> a summary.

May import: :mod:`pipeline.formats`, :mod:`pipeline.nlp`, :mod:`pipeline.core`; never another command.
"""

from __future__ import annotations

COMMAND = "weights"
HELP = "LP test-set weights (The Gap on GAP)"

import argparse
import json
import logging
import time
from pathlib import Path

VARIANT_CHOICES = ("all", "num", "dist", "trimmed")
log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pipeline import options as opt
    from pipeline.options import add_dataset_arguments

    add_dataset_arguments(parser)
    parser.add_argument("--variant", choices=VARIANT_CHOICES, default="all",
                        help="all = W (N_k and D_k sets), num = W_num, dist = W_dist, trimmed = W_t")
    parser.add_argument("--strict", action="store_true",
                        help="fail (exit 2) when a set is present in only one gender (which forces its "
                             "examples' weights to 0) instead of warning")
    parser.add_argument("--unnamed", choices=("own-span", "leave-out"), default="own-span",
                        help="a correct candidate that overlaps no name span: ranked by its own span "
                             "(default; the published example sets) or left out of the variants using D_k")
    opt.out_file(parser, "weights JSON {example ID: weight}")


def run(args) -> int:
    from pipeline.core import weights as W
    from pipeline.core.analysis import analyse_records
    from pipeline.formats.datasets import read_dataset_args
    from pipeline.formats.files import write_text
    from pipeline.nlp import load as nlp_load

    t0 = time.perf_counter()
    records, kind, spans = read_dataset_args(args, originals_only=not args.all_variants)
    examples, feats, source = analyse_records(records, nlp_load.load(args.model), spans, args.names_from,
                                              not args.no_progress, args.dataset)
    weights, sol, sel = W.compute_weights(feats, args.variant, args.strict, args.unnamed)
    label = W.VARIANTS[args.variant]
    if sel.one_gender_sets:
        listing = ", ".join(f"{s} (only {g}, {n})" for s, g, n in sel.one_gender_sets)
        log.warning("%s: sets present in only one gender: %s; their %d example(s) get weight 0",
                    label, listing, len(sel.forced_zero))
    write_text(args.out, json.dumps(weights, indent=0) + "\n")
    by_reason: dict[str, int] = {}
    for r in sel.dropped.values():
        by_reason[r] = by_reason.get(r, 0) + 1
    dropped = ", ".join(f"{n} {r}" for r, n in sorted(by_reason.items())) or "none"
    nonzero = {g: sum(1 for it in sel.items if it.group == g and weights[it.id] > 0) for g in ("masculine", "feminine")}
    print(f"{label} on {Path(args.dataset).name} ({kind}; names: {source}): {len(sel.items)} of "
          f"{len(feats)} examples in the program (left out: {dropped})")
    print(f"  non-zero weight: {nonzero['masculine']} masculine, {nonzero['feminine']} feminine; "
          f"forced to 0 by one-gender sets: {len(sel.forced_zero)}")
    print(f"  objective {sol.objective:.4f} (LP optimum {sol.optimum:.4f}); {sol.n_classes} classes, "
          f"{sol.n_variables} LP variables; LP time {sol.seconds:.3f} s; total {time.perf_counter() - t0:.2f} s")
    ws = [weights[it.id] for it in sel.items]
    print(f"  weights: min {min(ws):.4g}, max {max(ws):.4g}, zero {sum(w <= 0 for w in ws)}")
    print(f"wrote {args.out}")
    return 0
