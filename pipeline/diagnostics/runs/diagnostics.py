"""The dataset diagnostics of "The Gap on GAP" (Kocijan et al. 2021): ``analyze`` (personal names
per example and the rank of the correct candidate), ``weights`` (LP test-set weights) and
``baseline`` (name-blind system outputs). ``python -m pipeline analyze|weights|baseline``
parse their options (:func:`pipeline.options.dataset_options` and their own) into
:class:`AnalyzeSettings`, :class:`WeightsSettings` or :class:`BaselineSettings` and call
:func:`analyze`, :func:`weights` or :func:`baseline`.

All three start from the same features (:func:`dataset_features`): the dataset and its name spans
(:mod:`pipeline.formats.dataset_files`), spaCy's tokeniser or NER (:mod:`pipeline.nlp.load`), then
:func:`pipeline.diagnostics.core.analysis.analyse_records`, whose progress this run draws
(:func:`pipeline.runs.progress.bar`: the core only reports each example). Then: the summary,
Markdown and histograms (:mod:`pipeline.diagnostics.report`) written together (staged); the LP
(:mod:`pipeline.core.weights`) and its weights JSON; the baselines' GAP system TSV
(:mod:`pipeline.diagnostics.core.baselines`). Manual pages: docs/analyze.md, docs/weights.md,
docs/baselines.md.

May import: the standard library; inside functions: :mod:`pipeline.formats`, :mod:`pipeline.nlp`,
:mod:`pipeline.core`, :mod:`pipeline.report`, :mod:`pipeline.vocab`, :mod:`pipeline.runs.settings`,
:mod:`pipeline.runs.progress`; the room's own cores and report.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline.runs.settings import RunResult, as_paths, check_choice

log = logging.getLogger(__name__)

WEIGHT_VARIANTS = ("all", "num", "dist", "trimmed")     # W, W_num, W_dist, W_t
BASELINE_KINDS = ("random", "dist1", "dist2", "dist3")
NAME_SOURCES = ("auto", "column", "ner")
UNNAMED = ("own-span", "leave-out")


@dataclass(frozen=True, kw_only=True)
class DatasetSettings:
    """The dataset and its names, as the three diagnostics read them
    (:func:`pipeline.options.dataset_options`), and the output."""
    dataset: Path                       # GAP TSV, quadruples Parquet or instances Parquet
    out: Path                           # analyze: a directory; weights, baseline: a file
    name_spans: Path | None = None      # {"ID": [[start, end, text], ...]}
    names_from: str = "auto"            # without name_spans: column, ner, or auto
    model: str | None = None
    all_variants: bool = False          # quadruples: all four variants, not only the originals
    no_progress: bool = False

    def __post_init__(self):
        as_paths(self, "dataset", "out", "name_spans")
        check_choice("--names-from", self.names_from, NAME_SOURCES)


@dataclass(frozen=True, kw_only=True)
class AnalyzeSettings(DatasetSettings):
    """What one ``analyze`` run is given."""


@dataclass(frozen=True, kw_only=True)
class WeightsSettings(DatasetSettings):
    """What one ``weights`` run is given."""
    variant: str = "all"                # all = W, num = W_num, dist = W_dist, trimmed = W_t
    strict: bool = False                # a set present in one gender only is an error, not a warning
    unnamed: str = "own-span"

    def __post_init__(self):
        super().__post_init__()
        check_choice("--variant", self.variant, WEIGHT_VARIANTS)
        check_choice("--unnamed", self.unnamed, UNNAMED)


@dataclass(frozen=True, kw_only=True)
class BaselineSettings(DatasetSettings):
    """What one ``baseline`` run is given (every variant of a quadruple is analysed)."""
    kind: str
    names_from: str = "ner"
    seed: int = 0

    def __post_init__(self):
        super().__post_init__()
        check_choice("--kind", self.kind, BASELINE_KINDS)


def dataset_features(s: DatasetSettings, originals_only: bool):
    """(kind, examples, features, where the names came from) of ``s.dataset``."""
    from pipeline.diagnostics.core.analysis import analyse_records
    from pipeline.formats.dataset_files import read_dataset, read_name_spans
    from pipeline.nlp import load as nlp_load
    from pipeline.runs.progress import bar

    records, kind = read_dataset(s.dataset, originals_only=originals_only)
    spans = read_name_spans(s.name_spans, {r["id"]: r["text"] for r in records}) if s.name_spans else None
    nlp = nlp_load.load(s.model)
    if s.no_progress:
        examples, feats, source = analyse_records(records, nlp, spans, s.names_from, None, s.dataset)
    else:
        with bar(len(records), "analyse", "ex") as shown:     # the core reports, the run draws
            examples, feats, source = analyse_records(records, nlp, spans, s.names_from, shown.update,
                                                      s.dataset)
    return kind, examples, feats, source


def analyze(s: AnalyzeSettings) -> RunResult:
    """summary.json, summary.md, names.png and rank.png in ``s.out``, and a summary."""
    from pipeline.diagnostics.core import analysis as A
    from pipeline.formats.files import jsonable, staged_outputs, write_text
    from pipeline.diagnostics.report import markdown_summary, mean_sd_text, plot_histograms
    from pipeline.vocab import GENDERS

    kind, examples, feats, described = dataset_features(s, originals_only=not s.all_variants)
    summary = A.summarize(feats)
    out = Path(s.out)
    out.mkdir(parents=True, exist_ok=True)
    dataset = Path(s.dataset).name
    with staged_outputs(out) as stage:
        write_text(stage / "summary.json", json.dumps(jsonable({"dataset": str(s.dataset), "kind": kind,
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
    return RunResult(0, tuple(out / n for n in ("summary.json", "summary.md", "names.png", "rank.png")))


def weights(s: WeightsSettings) -> RunResult:
    """The weights JSON {example ID: weight} at ``s.out``, and a summary; the output file is
    locked for the run (:func:`pipeline.formats.files.output_file_lock`: a second run into the
    same file is refused)."""
    from pipeline.formats.files import output_file_lock

    with output_file_lock(s.out):
        return _weights(s)


def _weights(s: WeightsSettings) -> RunResult:
    from pipeline.core import weights as W
    from pipeline.formats.files import write_text

    t0 = time.perf_counter()
    kind, _, feats, source = dataset_features(s, originals_only=not s.all_variants)
    weights, sol, sel = W.compute_weights(feats, s.variant, s.strict, s.unnamed)
    label = W.VARIANTS[s.variant]
    if sel.one_gender_sets:
        listing = ", ".join(f"{name} (only {g}, {n})" for name, g, n in sel.one_gender_sets)
        log.warning("%s: sets present in only one gender: %s; their %d example(s) get weight 0",
                    label, listing, len(sel.forced_zero))
    write_text(s.out, json.dumps(weights, indent=0) + "\n")
    by_reason: dict[str, int] = {}
    for r in sel.dropped.values():
        by_reason[r] = by_reason.get(r, 0) + 1
    dropped = ", ".join(f"{n} {r}" for r, n in sorted(by_reason.items())) or "none"
    nonzero = {g: sum(1 for it in sel.items if it.group == g and weights[it.id] > 0) for g in ("masculine", "feminine")}
    print(f"{label} on {Path(s.dataset).name} ({kind}; names: {source}): {len(sel.items)} of "
          f"{len(feats)} examples in the program (left out: {dropped})")
    print(f"  non-zero weight: {nonzero['masculine']} masculine, {nonzero['feminine']} feminine; "
          f"forced to 0 by one-gender sets: {len(sel.forced_zero)}")
    print(f"  objective {sol.objective:.4f} (LP optimum {sol.optimum:.4f}); {sol.n_classes} classes, "
          f"{sol.n_variables} LP variables; LP time {sol.seconds:.3f} s; total {time.perf_counter() - t0:.2f} s")
    ws = [weights[it.id] for it in sel.items]
    print(f"  weights: min {min(ws):.4g}, max {max(ws):.4g}, zero {sum(w <= 0 for w in ws)}")
    print(f"wrote {s.out}")
    return RunResult(0, (s.out,))


def baseline(s: BaselineSettings) -> RunResult:
    """The GAP system TSV of the baseline ``s.kind`` at ``s.out``, and a summary."""
    from pipeline.diagnostics.core.baselines import system_rows
    from pipeline.formats.gap_tsv import write_system_tsv

    kind, _, feats, source = dataset_features(s, originals_only=False)
    rows = system_rows(s.kind, [f.id for f in feats], [f.ranked for f in feats], s.seed)
    columns = list(rows[0]) if rows else ["ID", "A-coref", "B-coref"]
    write_system_tsv(rows, s.out, columns)
    n_answer = sum(r["A-coref"] == "TRUE" or r["B-coref"] == "TRUE" for r in rows)
    print(f"{s.kind}: {len(rows)} examples of {Path(s.dataset).name} ({kind}; names: {source}); "
          f"{n_answer} answered A or B" + (" in this draw" if s.kind == "random" else ""))
    if s.kind == "random":
        ea = sum(float(r["A-prob"]) + float(r["B-prob"]) - float(r["AB-prob"]) for r in rows)
        print(f"  expected number answering A or B: {ea:.2f}")
    print(f"wrote {s.out}")
    return RunResult(0, (s.out,))
