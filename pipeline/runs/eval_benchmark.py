"""Evaluation of pro/anti-stereotype benchmarks: the benchmark kind of :mod:`pipeline.runs.evaluate`.

:func:`evaluate_benchmark` is what ``python -m pipeline evaluate --dataset
DIR/benchmark.parquet --system NAME=FILE ... --out EVAL`` does on a benchmark: read the items
and each system's output (cluster JSON lines, CoNLL-2012 responses, or GAP system TSV with A
= main entity, B = other entity), judge every item (:mod:`pipeline.core.benchmark_scoring`),
and write, all or nothing, ``EVAL/metrics.json`` (per system: ``pro``, ``anti``, ``delta`` as
fractions, ``ci_*`` intervals, ``p_delta``, per fine-grained category and source; the same
under the ``loose`` rule), ``EVAL/per_item.parquet`` (``id``, ``system``, ``correct``, ...),
``EVAL/benchmark.md`` and ``EVAL/benchmark.png`` (rendered by :mod:`pipeline.report.benchmark`).
``metrics.json`` maps each system name to its metrics (``n_missing`` and ``output`` included).

May import: numpy, :mod:`pipeline.errors`, :mod:`pipeline.formats`, :mod:`pipeline.core`,
:mod:`pipeline.report`, :mod:`pipeline.systems`.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pipeline.errors import InputError

log = logging.getLogger(__name__)
MAX_LISTED = 5


# ------------------------------------------------------------------------------ reading

def read_system_correctness(items: list[dict], path, allow_missing: bool = False,
                            max_unmatched: float | None = None, report: dict | None = None
                            ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """``({"strict": ..., "loose": ...}, present)`` of one system output, in item order.

    ``path`` may be a list of files (one system's outputs on several datasets): their cluster
    documents are matched together (a sentence in two files counts once). ``report`` receives
    the matching counts (:func:`pipeline.core.benchmark_scoring.match_documents`)."""
    from pipeline.core.benchmark_scoring import MAX_UNMATCHED, judge_all, match_documents
    from pipeline.formats.system_outputs import (detect_system_format, read_cluster_conll,
                                                 read_cluster_jsonl, read_gap_predictions)

    paths = list(path) if isinstance(path, (list, tuple)) else [path]
    fmts = [detect_system_format(p) for p in paths]
    ids = [it["id"] for it in items]
    if "gap-tsv" in fmts:
        if len(paths) > 1:
            raise InputError("GAP TSV predictions: give one file per system", paths[0])
        pred = read_gap_predictions(paths[0], ids, allow_missing=allow_missing)
        has_other = np.array([it.get("other_entity") is not None for it in items])
        strict = pred.present & pred.a & ~(pred.b & has_other)
        return {"strict": strict, "loose": pred.present & pred.a}, pred.present
    docs = []
    for p, fmt in zip(paths, fmts):
        got = read_cluster_jsonl(p) if fmt == "jsonl-clusters" else read_cluster_conll(p)
        for d in got:
            d.path = str(p)
        docs.extend(got)
    where = paths[0] if len(paths) == 1 else ", ".join(str(p) for p in paths)
    rep = report if report is not None else {}
    matched, missing = match_documents(items, docs, where,
                                       MAX_UNMATCHED if max_unmatched is None else max_unmatched, rep)
    if rep.get("n_unmatched"):
        log.warning("%s: %d of %d prediction line(s) match no benchmark item, left out (first: %s, line %s: %r)",
                    where, rep["n_unmatched"], rep["n_documents"], *rep["unmatched"][0])
    if rep.get("n_duplicates"):
        log.warning("%s: %d further prediction(s) for items already matched, left out (%d with other "
                    "clusters)", where, rep["n_duplicates"], rep["n_conflicting"])
    if missing and not allow_missing:
        first = ", ".join(repr(i) for i in missing[:MAX_LISTED])
        raise InputError(f"{len(missing)} of {len(ids)} benchmark item(s) have no prediction (first: "
                         f"{first}); to score anyway, rerun with --allow-missing (they count as wrong "
                         "and the report says how many)", where)
    present = np.array([i in matched and not getattr(matched[i], "error", None) for i in ids], dtype=bool)
    return judge_all(items, matched, where), present


# ------------------------------------------------------------------------------ the kind

class BenchmarkEvaluation:
    """Pro/anti-stereotype benchmarks (:class:`pipeline.runs.evaluate.Evaluation`). A system
    name given again adds that system's output on another dataset (its files are matched
    together)."""
    name = "benchmark"

    def __init__(self, data=None):
        self.data = data        # the dataset already read (a DatasetFile), or None: read it here

    def read_gold(self, s) -> list[dict]:
        from pipeline.formats.benchmarks import read_benchmark

        if s.resamples < 0:
            raise InputError(f"resamples must be >= 0, got {s.resamples}")
        return read_benchmark(s.dataset) if self.data is None else self.data.benchmark_items()

    def read_systems(self, items: list[dict], s) -> dict:
        """name -> {"files", "correct", "present", "matching"}."""
        systems: dict = {}
        for name, path in _files(s.systems).items():
            matching: dict = {}
            correct, present = read_system_correctness(items, path, s.allow_missing, s.max_unmatched, matching)
            n_missing = int((~present).sum())
            if n_missing:
                log.warning("%s: %d item(s) without a prediction, counted as wrong", name, n_missing)
            systems[name] = {"files": path, "correct": correct, "present": present, "matching": matching}
        return systems

    def score(self, items: list[dict], systems: dict, s) -> dict:
        from pipeline.core.benchmark_scoring import benchmark_metrics

        metrics = benchmark_metrics(items, {n: v["correct"] for n, v in systems.items()}, s.resamples, s.seed)
        for name, v in systems.items():
            metrics[name]["n_missing"] = int((~v["present"]).sum())
            out_files = v["files"] if isinstance(v["files"], (list, tuple)) else [v["files"]]
            metrics[name]["output"] = ", ".join(str(p) for p in out_files)
            for k in ("n_documents", "n_unmatched", "n_duplicates", "n_conflicting"):
                if k in v["matching"]:
                    metrics[name][k] = v["matching"][k]
        return metrics

    def write(self, stage: Path, items: list[dict], systems: dict, metrics: dict, s) -> str:
        from pipeline.formats.files import write_json, write_text
        from pipeline.formats.schemas import BENCHMARK_PER_ITEM
        from pipeline.formats.tables import write_records
        from pipeline.report.benchmark import markdown, plot

        per_item = [{"id": it["id"], "system": name, "correct": bool(v["correct"]["strict"][i]),
                     "correct_loose": bool(v["correct"]["loose"][i]), "present": bool(v["present"][i]),
                     "source": it["source"], "category": it["category"], "stereotype": it["stereotype"]}
                    for name, v in systems.items() for i, it in enumerate(items)]
        table = markdown(metrics)
        write_json(stage / "metrics.json", metrics)
        write_records(per_item, stage / "per_item.parquet", BENCHMARK_PER_ITEM)
        write_text(stage / "benchmark.md", table)
        plot(metrics, stage / "benchmark.png")
        return table

    def after(self, s) -> None:
        """Per-row answers from each system's first file (the further files of a NAME given
        again are other datasets' outputs)."""
        from pipeline.systems.run import write_answers

        write_answers(s.out, s.dataset, {name: paths[0] for name, paths in _files(s.systems).items()}, self.data)

    def summary(self, items, systems: dict, metrics: dict, markdown: str, s, seconds: float) -> str:
        missing = ", ".join(f"{n} {m['n_missing']:,}" for n, m in metrics.items() if m.get("n_missing"))
        note = (f"\nitems without a prediction (--allow-missing, counted as wrong) of {len(items):,}: {missing}"
                if missing else "")
        return (f"{markdown}{note}\nbenchmark: {len(metrics)} system(s) -> {s.out}/metrics.json, per_item.parquet, "
                f"benchmark.md, benchmark.png, answers.parquet")


def _files(systems: list[tuple[str, str]]) -> dict[str, list]:
    files: dict[str, list] = {}
    for name, path in systems:      # one name given again: that system's further files
        files.setdefault(name, []).extend(path if isinstance(path, (list, tuple)) else [path])
    return files


@dataclass(frozen=True)
class BenchmarkScoreSettings:
    """The part of :class:`pipeline.runs.evaluate.EvaluateSettings` that :func:`evaluate_benchmark`
    gives the benchmark kind (which reads only these fields)."""
    dataset: Path
    systems: list = field(default_factory=list)         # (name, file or files)
    resamples: int = 10_000
    seed: int = 0
    allow_missing: bool = False
    max_unmatched: float | None = None


def evaluate_benchmark(dataset_path: str | os.PathLike, systems: dict,
                       out_dir: str | os.PathLike, resamples: int = 10_000, seed: int = 0,
                       allow_missing: bool = False, max_unmatched: float | None = None) -> dict:
    """Score ``systems`` (name -> output file, or list of files) on a benchmark Parquet; write
    the outputs of the module doc into ``out_dir`` (all or nothing); return the metrics."""
    from dataclasses import replace

    from pipeline.formats.files import staged_outputs

    s = BenchmarkScoreSettings(dataset=Path(dataset_path), resamples=resamples, seed=seed,
                               allow_missing=allow_missing, max_unmatched=max_unmatched)
    kind = BenchmarkEvaluation()
    items = kind.read_gold(s)
    read = {}
    for name, path in systems.items():
        read.update(kind.read_systems(items, replace(s, systems=[(name, path)])))
        read[name]["files"] = path
    metrics = kind.score(items, read, s)
    with staged_outputs(Path(out_dir)) as stage:
        kind.write(stage, items, read, metrics, s)
    return metrics
