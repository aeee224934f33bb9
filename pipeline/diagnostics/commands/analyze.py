"""``analyze``: dataset diagnostics ("The Gap on GAP", Kocijan et al. 2021): personal names per
example and the rank of the correct candidate, per pronoun gender (definitions in
:mod:`pipeline.diagnostics.core.analysis`; manual page docs/analyze.md).

Declares the options (click), parses them and calls
:func:`pipeline.diagnostics.runs.diagnostics.analyze`. The dataset options are
:func:`pipeline.options.dataset_options` (shared with ``weights`` and ``baseline``).

May import: the standard library, :mod:`pipeline.options`, :mod:`pipeline.runs`. Never another
command.
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("analyze", "dataset diagnostics: names per example, candidate rank", [
    opt.dataset_options(),
    opt.out_dir("summary.md, summary.json, *.png"),
])


def run(args):
    from pipeline.diagnostics.runs.diagnostics import AnalyzeSettings, analyze

    return analyze(AnalyzeSettings(
        dataset=args.dataset, out=args.out, name_spans=args.name_spans, names_from=args.names_from, model=args.model,
        no_progress=args.no_progress, all_variants=args.all_variants))
