"""The dataset diagnostics of "The Gap on GAP" (Kocijan et al. 2021): ``analyze`` (personal names
per example and the rank of the correct candidate), ``weights`` (LP test-set weights) and
``baseline`` (name-blind system outputs). ``python -m pipeline analyze|weights|baseline``
parse their options (:func:`pipeline.options.add_dataset_arguments` and their own) and call
:func:`analyze`, :func:`weights` or :func:`baseline`.

All three start from the same features (:func:`features`): the dataset and its name spans
(:mod:`pipeline.formats.datasets`), spaCy's tokeniser or NER (:mod:`pipeline.nlp.load`), then
:func:`pipeline.core.analysis.analyse_records`, whose progress this run draws
(:func:`pipeline.runs.progress.bar`: the core only reports each example). Then: the summary,
Markdown and histograms (:mod:`pipeline.report.analysis`) written together (staged); the LP
(:mod:`pipeline.core.weights`) and its weights JSON; the baselines' GAP system TSV
(:mod:`pipeline.core.baselines`). Manual pages: docs/analyze.md, docs/weights.md,
docs/baselines.md.

May import: the standard library; inside functions: :mod:`pipeline.formats`, :mod:`pipeline.nlp`,
:mod:`pipeline.core`, :mod:`pipeline.report`, :mod:`pipeline.vocab`.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

log = logging.getLogger(__name__)

WEIGHT_VARIANTS = ("all", "num", "dist", "trimmed")     # W, W_num, W_dist, W_t
BASELINE_KINDS = ("random", "dist1", "dist2", "dist3")


def features(args, originals_only: bool):
    """(kind, examples, features, where the names came from) of ``args.dataset``."""
    from pipeline.core.analysis import analyse_records
    from pipeline.formats.datasets import read_dataset_args
    from pipeline.nlp import load as nlp_load
    from pipeline.runs.progress import bar

    records, kind, spans = read_dataset_args(args, originals_only=originals_only)
    nlp = nlp_load.load(args.model)
    if args.no_progress:
        examples, feats, source = analyse_records(records, nlp, spans, args.names_from, None, args.dataset)
    else:
        with bar(len(records), "analyse", "ex") as shown:     # the core reports, the run draws
            examples, feats, source = analyse_records(records, nlp, spans, args.names_from, shown.update,
                                                      args.dataset)
    return kind, examples, feats, source


def analyze(args) -> int:
    """summary.json, summary.md, names.png and rank.png in ``args.out``, and a summary."""
    from pipeline.core import analysis as A
    from pipeline.formats.files import jsonable, staged_outputs, write_text
    from pipeline.report.analysis import markdown_summary, mean_sd_text, plot_histograms
    from pipeline.vocab import GENDERS

    kind, examples, feats, described = features(args, originals_only=not args.all_variants)
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


def weights(args) -> int:
    """The weights JSON {example ID: weight} at ``args.out``, and a summary."""
    from pipeline.core import weights as W
    from pipeline.formats.files import write_text

    t0 = time.perf_counter()
    kind, _, feats, source = features(args, originals_only=not args.all_variants)
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


def baseline(args) -> int:
    """The GAP system TSV of the baseline ``args.kind`` at ``args.out``, and a summary."""
    from pipeline.core.baselines import system_rows
    from pipeline.formats.gap_tsv import write_system_tsv

    kind, _, feats, source = features(args, originals_only=False)
    rows = system_rows(args.kind, [f.id for f in feats], [f.ranked for f in feats], args.seed)
    columns = list(rows[0]) if rows else ["ID", "A-coref", "B-coref"]
    write_system_tsv(rows, args.out, columns)
    n_answer = sum(r["A-coref"] == "TRUE" or r["B-coref"] == "TRUE" for r in rows)
    print(f"{args.kind}: {len(rows)} examples of {Path(args.dataset).name} ({kind}; names: {source}); "
          f"{n_answer} answered A or B" + (" in this draw" if args.kind == "random" else ""))
    if args.kind == "random":
        ea = sum(float(r["A-prob"]) + float(r["B-prob"]) - float(r["AB-prob"]) for r in rows)
        print(f"  expected number answering A or B: {ea:.2f}")
    print(f"wrote {args.out}")
    return 0
