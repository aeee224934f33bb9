"""``weights``: LP test-set weights that balance the masculine and feminine subsets ("The Gap
on GAP", Kocijan et al. 2021). The program, the example sets it keeps and the proof that the
class LP is exact are in :mod:`pipeline.core.weights`; the manual page is docs/weights.md.

Declares the options (click), parses them and calls
:func:`pipeline.diagnostics.runs.weights.weights` (its output file locked;
:func:`pipeline.diagnostics.runs.diagnostics.weights`: the dataset's names and ranks -> the LP ->
the weights JSON {ID: weight} -> a summary).

May import: the standard library, :mod:`pipeline.options`, :mod:`pipeline.runs`. Never another
command.
"""

from __future__ import annotations

from pipeline import options as opt
from pipeline.diagnostics.runs.diagnostics import WEIGHT_VARIANTS as VARIANT_CHOICES

command = opt.command("weights", "LP test-set weights (The Gap on GAP)", [
    opt.dataset_options(),
    opt.option("--variant", choices=VARIANT_CHOICES, default="all",
               help="all = W (N_k and D_k sets), num = W_num, dist = W_dist, trimmed = W_t"),
    opt.flag("--strict", "fail (exit 2) when a set is present in only one gender (which forces its "
                         "examples' weights to 0) instead of warning"),
    opt.option("--unnamed", choices=("own-span", "leave-out"), default="own-span",
               help="a correct candidate that overlaps no name span: ranked by its own span "
                    "(default; the published example sets) or left out of the variants using D_k"),
    opt.out_file("weights JSON {example ID: weight}"),
])


def run(args):
    from pipeline.diagnostics.runs.weights import WeightsSettings, weights

    return weights(WeightsSettings(
        dataset=args.dataset, out=args.out, name_spans=args.name_spans, names_from=args.names_from, model=args.model,
        no_progress=args.no_progress, all_variants=args.all_variants, variant=args.variant, strict=args.strict,
        unnamed=args.unnamed))
