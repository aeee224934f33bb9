"""Evaluating systems on a pro/anti-stereotype benchmark: tables, plot, and the whole run.

:func:`evaluate_benchmark` is what ``python -m pipeline evaluate --dataset
DIR/benchmark.parquet --system NAME=FILE ... --out EVAL`` does on a benchmark: read the items
and each system's output (cluster JSON lines, CoNLL-2012 responses, or GAP system TSV with A
= main entity, B = other entity), judge every item (:mod:`pipeline.core.benchmark_scoring`),
and write, all or nothing, ``EVAL/metrics.json`` (per system: ``pro``, ``anti``, ``delta`` as
fractions, ``ci_*`` intervals, ``p_delta``, per fine-grained category and source; the same
under the ``loose`` rule), ``EVAL/per_item.parquet`` (``id``, ``system``, ``correct``, ...),
``EVAL/benchmark.md`` and ``EVAL/benchmark.png``. ``metrics.json`` maps each system name to
its metrics (``n_missing`` and ``output`` included).

May import: numpy, matplotlib, :mod:`pipeline.vocab`, :mod:`pipeline.errors`,
:mod:`pipeline.formats`, :mod:`pipeline.core`.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np

from pipeline.errors import InputError
from pipeline.vocab import pct

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
        raise InputError(f"{len(missing)} benchmark item(s) have no prediction (first: {first}); "
                         "--allow-missing counts them as wrong", where)
    present = np.array([i in matched and not getattr(matched[i], "error", None) for i in ids], dtype=bool)
    return judge_all(items, matched, where), present


# ------------------------------------------------------------------------------ report

def _ci(block: dict, key: str) -> str:
    ci = block.get(f"ci_{key}")
    if not ci or ci[0] is None:
        return ""
    signed = key == "delta"
    return f" [{pct(ci[0], signed)}, {pct(ci[1], signed)}]"


def markdown(metrics: dict, title: str = "Pro/anti-stereotype benchmark") -> str:
    """One row per system: pro, anti, Delta (strict rule, 99 % interval, p), loose rule."""
    lines = [f"# {title}", "",
             "Strict rule: the pronoun's cluster holds the main entity and not the other entity. "
             "Loose rule: the main entity's words and the pronoun share a cluster. Delta = pro - anti.",
             "", "| system | pro | anti | Delta (99 % CI) | p | pro (loose) | anti (loose) | Delta (loose) | n pro | n anti |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, m in metrics.items():
        lo = m["loose"]
        p = m.get("p_delta")
        lines.append(f"| {name} | {pct(m['pro'])} | {pct(m['anti'])} | {pct(m['delta'], True)}{_ci(m, 'delta')} "
                     f"| {'' if p is None else f'{p:.4f}'} | {pct(lo['pro'])} | {pct(lo['anti'])} "
                     f"| {pct(lo['delta'], True)} | {m['n_pro']} | {m['n_anti']} |")
    cats = sorted({c for m in metrics.values() for c in m["per_category"]})
    if cats:
        lines += ["", "## Accuracy per fine-grained category (strict rule)", "",
                  "| system | " + " | ".join(f"{c} (n={next(iter(metrics.values()))['per_category'].get(c, {}).get('n', 0)})"
                                          for c in cats) + " |",
                  "|---|" + "---|" * len(cats)]
        for name, m in metrics.items():
            lines.append(f"| {name} | " + " | ".join(pct(m["per_category"].get(c, {}).get("accuracy"))
                                                    for c in cats) + " |")
    sources = sorted({s for m in metrics.values() for s in m["per_source"]})
    if len(sources) > 1:
        lines += ["", "## Per source (strict rule)", "", "| system | source | pro | anti | Delta |",
                  "|---|---|---|---|---|"]
        for name, m in metrics.items():
            for s in sources:
                b = m["per_source"].get(s)
                if b:
                    lines.append(f"| {name} | {s} | {pct(b['pro'])} | {pct(b['anti'])} | {pct(b['delta'], True)} |")
    return "\n".join(lines) + "\n"


def plot(metrics: dict, target: str | os.PathLike) -> None:
    """Pro vs anti accuracy of each system (strict rule, filled; loose, hollow)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls="--")
    for i, (name, m) in enumerate(metrics.items()):
        color = f"C{i % 10}"
        if m["pro"] is not None and m["anti"] is not None:
            ax.scatter(100 * m["anti"], 100 * m["pro"], color=color, label=name)
        lo = m["loose"]
        if lo["pro"] is not None and lo["anti"] is not None:
            ax.scatter(100 * lo["anti"], 100 * lo["pro"], facecolors="none", edgecolors=color)
    ax.set_xlabel("anti-stereotypical accuracy (%)")
    ax.set_ylabel("pro-stereotypical accuracy (%)")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_title("Models on the benchmark (hollow: loose rule)")
    if metrics:
        ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(target, dpi=120)
    plt.close(fig)


# ------------------------------------------------------------------------------ the run

def evaluate_benchmark(dataset_path: str | os.PathLike, systems: dict,
                       out_dir: str | os.PathLike, resamples: int = 10_000, seed: int = 0,
                       allow_missing: bool = False, max_unmatched: float | None = None) -> dict:
    """Score ``systems`` (name -> output file) on a benchmark Parquet; write the outputs of
    the module doc into ``out_dir`` (all or nothing); return the metrics."""
    from pipeline.core.benchmark_scoring import benchmark_metrics
    from pipeline.formats.benchmarks import read_benchmark
    from pipeline.formats.files import staged_outputs, write_json, write_text
    from pipeline.formats.schemas import BENCHMARK_PER_ITEM
    from pipeline.formats.tables import write_records

    if resamples < 0:
        raise InputError(f"resamples must be >= 0, got {resamples}")
    items = read_benchmark(dataset_path)
    correct, present, matching = {}, {}, {}
    for name, path in systems.items():
        matching[name] = {}
        correct[name], present[name] = read_system_correctness(items, path, allow_missing, max_unmatched,
                                                               matching[name])
        n_missing = int((~present[name]).sum())
        if n_missing:
            log.warning("%s: %d item(s) without a prediction, counted as wrong", name, n_missing)
    metrics = benchmark_metrics(items, correct, resamples, seed)
    for name in systems:
        metrics[name]["n_missing"] = int((~present[name]).sum())
        out_files = systems[name] if isinstance(systems[name], (list, tuple)) else [systems[name]]
        metrics[name]["output"] = ", ".join(str(p) for p in out_files)
        for k in ("n_documents", "n_unmatched", "n_duplicates", "n_conflicting"):
            if k in matching[name]:
                metrics[name][k] = matching[name][k]
    per_item = [{"id": it["id"], "system": name, "correct": bool(correct[name]["strict"][i]),
                 "correct_loose": bool(correct[name]["loose"][i]), "present": bool(present[name][i]),
                 "source": it["source"], "category": it["category"], "stereotype": it["stereotype"]}
                for name in systems for i, it in enumerate(items)]
    out = Path(out_dir)
    with staged_outputs(out) as stage:
        write_json(stage / "metrics.json", metrics)
        write_records(per_item, stage / "per_item.parquet", BENCHMARK_PER_ITEM)
        write_text(stage / "benchmark.md", markdown(metrics))
        plot(metrics, stage / "benchmark.png")
    return metrics
