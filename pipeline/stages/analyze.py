"""``analyze``: dataset diagnostics ("The Gap on GAP", Kocijan et al. 2021): personal names per
example and the rank of the correct candidate, per pronoun gender (definitions in
:mod:`pipeline.core.analysis`; manual page docs/analyze.md).

Flow: arguments -> :mod:`pipeline.formats.datasets` (dataset, name spans) -> spaCy tokeniser
(:mod:`pipeline.nlp.load`) -> :mod:`pipeline.core.analysis` -> :mod:`pipeline.report.analysis`
(Markdown, PNG) written together (staged) -> a summary.

May import: :mod:`pipeline.formats`, :mod:`pipeline.nlp`, :mod:`pipeline.core`,
:mod:`pipeline.report`, :mod:`pipeline.errors`, :mod:`pipeline.vocab`; never another command.
The dataset options are :func:`pipeline.options.add_dataset_arguments` (shared with
``weights`` and ``baseline``).
"""

from __future__ import annotations

COMMAND = "analyze"
HELP = "dataset diagnostics: names per example, candidate rank"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

import argparse
import json
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pipeline import options as opt
    from pipeline.options import add_dataset_arguments

    add_dataset_arguments(parser)
    opt.out_dir(parser, "summary.md, summary.json, *.png")


def run(args) -> int:
    from pipeline.core import analysis as A
    from pipeline.formats.datasets import read_dataset_args
    from pipeline.formats.files import jsonable, staged_outputs, write_text
    from pipeline.nlp import load as nlp_load
    from pipeline.report.analysis import markdown_summary, mean_sd_text, plot_histograms
    from pipeline.vocab import GENDERS

    records, kind, spans = read_dataset_args(args, originals_only=not args.all_variants)
    examples, feats, described = A.analyse_records(records, nlp_load.load(args.model), spans,
                                                   args.names_from, not args.no_progress, args.dataset)
    summary = A.summarize(feats)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    dataset = Path(args.dataset).name
    with staged_outputs(out) as stage:
        write_text(stage / "summary.json", json.dumps(jsonable({"dataset": str(args.dataset), "kind": kind,
                                                                   "names": described, "genders": summary}),
                                                       indent=2) + "\n")
        write_text(stage / "summary.md", markdown_summary(summary, dataset, described))
        plot_histograms(summary, "names", "Personal names per example", stage / "names.png")
        plot_histograms(summary, "rank", "Rank of the correct candidate", stage / "rank.png")
    print(f"{dataset} ({kind}, {len(examples)} examples; names: {described})")
    for g in GENDERS:
        e = summary[g]
        print(f"  {g:9s} {e['examples']:5d} examples  names {mean_sd_text(e['names']['mean'], e['names']['sd'])}  "
              f"rank of correct candidate {mean_sd_text(e['rank']['mean'], e['rank']['sd'])} (n={e['rank']['n']}, "
              f"{e['correct_candidate_not_a_name']} ranked by their own span)")
    print(f"wrote {out}/summary.md, summary.json, names.png, rank.png")
    return 0
