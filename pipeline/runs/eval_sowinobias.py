"""Evaluation of SoWinoBias datasets: the SoWinoBias kind of :mod:`pipeline.runs.evaluate`.

Gold: the GAP TSV (ID, A-coref, B-coref, set, polarity, pair_id) or Parquet (id, a_coref,
b_coref, set, polarity, pair_id) columns; systems: GAP TSV predictions
(:func:`pipeline.formats.system_outputs.read_system_table`); scoring:
:func:`pipeline.core.sowinobias_scoring.compute_metrics`; writing: ``metrics.json``, ``sowinobias.md``
and ``sowinobias.png`` (:mod:`pipeline.report.sowinobias`), then ``answers.parquet``.

May import: :mod:`pipeline.errors`, :mod:`pipeline.core`, :mod:`pipeline.formats`,
:mod:`pipeline.report`, :mod:`pipeline.systems`.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.core.sowinobias_scoring import DEFAULT_RESAMPLES
from pipeline.core.sowinobias_templates import DEFAULT_SEED
from pipeline.errors import InputError


def evaluate_sowinobias(dataset, systems: dict, out_dir: Path, resamples: int = DEFAULT_RESAMPLES,
                        seed: int = DEFAULT_SEED, allow_missing: bool = False) -> dict:
    """Evaluate systems on a SoWinoBias dataset; write ``sowinobias.md`` and ``sowinobias.png``
    into ``out_dir``; return the metrics (keyed by system name) for ``metrics.json``.

    ``dataset``: the gold frame (see the module doc). ``systems``: name -> frame with ID,
    A-coref, B-coref (TRUE/FALSE strings or booleans). Missing, unknown or duplicate IDs raise
    InputError (``allow_missing=True`` counts missing as wrong).
    """
    from pipeline.core.sowinobias_scoring import compute_metrics

    if not systems:
        raise InputError("no system outputs to evaluate")
    metrics = compute_metrics(dataset, systems, resamples, seed, allow_missing)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    _render(out_dir, metrics, resamples, seed)
    return metrics


def _render(out_dir: Path, metrics: dict, resamples: int, seed: int) -> None:
    from pipeline.formats.files import write_text
    from pipeline.report.sowinobias import markdown, plot_metrics

    write_text(out_dir / "sowinobias.md", markdown(metrics, resamples, seed))
    plot_metrics(metrics, out_dir / "sowinobias.png")


class SoWinoBiasEvaluation:
    """SoWinoBias datasets (:class:`pipeline.runs.evaluate.Evaluation`)."""
    name = "sowinobias"

    def __init__(self, data=None):
        self.data = data        # the dataset already read (a DatasetFile), or None: read it here

    def read_gold(self, s, raw=None):
        from pipeline.formats.dataset_files import load_dataset

        if raw is not None:
            return raw
        return (load_dataset(s.dataset) if self.data is None else self.data).frame()

    def read_systems(self, gold, s) -> dict:
        from pipeline.formats.system_outputs import read_system_table

        return {n: read_system_table(f) for n, f in s.systems}

    def score(self, gold, systems: dict, s) -> dict:
        from pipeline.core.sowinobias_scoring import compute_metrics

        if not systems:
            raise InputError("no system outputs to evaluate")
        extra = {"allow_missing": True} if s.allow_missing else {}
        return compute_metrics(gold, systems, s.resamples, s.seed, **extra)

    def write(self, stage: Path, gold, systems: dict, metrics: dict, s) -> str:
        from pipeline.formats.files import write_json

        stage.mkdir(parents=True, exist_ok=True)
        _render(stage, metrics, s.resamples, s.seed)
        write_json(stage / "metrics.json", metrics)
        return ""

    def after(self, s) -> None:
        from pipeline.systems.run import write_answers

        write_answers(s.out, s.dataset, dict(s.systems), self.data)

    def summary(self, gold, systems: dict, metrics: dict, markdown: str, s, seconds: float) -> str:
        return (f"SoWinoBias dataset: metrics for {len(systems)} system(s) -> {s.out / 'metrics.json'}, "
                "sowinobias.md, sowinobias.png, answers.parquet")
