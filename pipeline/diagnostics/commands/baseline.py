"""``baseline``: name-blind baseline system outputs (Random, Dist-1..3 of "The Gap on GAP")
in GAP system format; the predictions are :mod:`pipeline.diagnostics.core.baselines` (docs/baselines.md).
Declares the options (click), parses them and calls
:func:`pipeline.diagnostics.runs.diagnostics.baseline`.

May import: the standard library, :mod:`pipeline.options`, :mod:`pipeline.runs`. Never another
command.
"""

from __future__ import annotations

from pipeline import options as opt
from pipeline.diagnostics.runs.diagnostics import BASELINE_KINDS as KINDS

# "detected" personal names: spaCy NER on every text (each variant of a quadruple is
# parsed on its own) unless spans are given
command = opt.command("baseline", "name-blind baseline system outputs", [
    opt.dataset_options(originals_flag=False, names_default="ner"),
    opt.option("--kind", required=True, choices=KINDS),
    opt.seed("the one draw in A-coref/B-coref of --kind random (the probabilities are exact)"),
    opt.out_file("system output TSV, GAP system format"),
])


def run(args):
    from pipeline.diagnostics.runs.diagnostics import BaselineSettings, baseline

    return baseline(BaselineSettings(
        dataset=args.dataset, out=args.out, name_spans=args.name_spans, names_from=args.names_from, model=args.model,
        no_progress=args.no_progress, kind=args.kind, seed=args.seed))
