"""One evaluation entry point over every dataset kind: :func:`evaluate`.

Every kind of dataset is evaluated behind one interface, :class:`Evaluation`, in four steps:
``read_gold`` (the dataset), ``read_systems`` (each system's output, checked against the gold),
``score`` (the metrics, by the cores) and ``write`` (into a staging directory: all outputs are
published together, or none); ``after`` writes what follows publication (per-row answers) and
``summary`` is the text printed. The kinds:

- Counter-GAP quadruples and GAP rows: :class:`pipeline.runs.eval_quadruples.QuadrupleEvaluation`;
- pro/anti-stereotype benchmarks: :class:`pipeline.runs.eval_benchmark.BenchmarkEvaluation`;
- SoWinoBias: :class:`pipeline.runs.eval_sowinobias.SoWinoBiasEvaluation`.

The kind is found from the dataset (a benchmark file by its columns; SoWinoBias by its ``set``
column of pro/anti values; anything else is read as quadruples or GAP rows). ``--system
NAME=ADAPTER[:MODEL]`` values that are no file but name a registered adapter are run first
(:mod:`pipeline.systems.run`, as ``predict`` does) into ``OUT/predictions``.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats`,
:mod:`pipeline.core`, :mod:`pipeline.systems`, :mod:`pipeline.runs` (its evaluation kinds).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from pipeline.errors import InputError


@dataclass(frozen=True)
class EvaluateSettings:
    """What one evaluation is given (``python -m pipeline evaluate``'s options): paths become
    :class:`Path`, the (name, value) lists tuples; checked when built (one
    :class:`pipeline.errors.InputError` line, the command's messages). What depends on the
    dataset's kind (a system name given twice, ``max_unmatched`` of a benchmark) is checked by
    the run once the dataset is read."""
    dataset: Path
    systems: tuple[tuple[str, str], ...] = ()      # (name, file or ADAPTER[:MODEL])
    out: Path | None = None
    resamples: int = 10_000
    seed: int = 0
    allow_missing: bool = False
    max_unmatched: float = 0.01
    ignore_extra: bool = False
    weights: tuple[tuple[str, str], ...] = ()      # (name, W.json)
    write_conll: Path | None = None
    write_jsonlines: Path | None = None
    jsonlines_vocab: Path | None = None
    report: bool = False
    device: str = "cpu"
    batch_size: int = 8

    def __post_init__(self):
        from pipeline.runs.settings import as_paths, check_at_least

        as_paths(self, "dataset", "out", "write_conll", "write_jsonlines", "jsonlines_vocab")
        for name in ("systems", "weights"):
            object.__setattr__(self, name, tuple(tuple(pair) for pair in getattr(self, name)))
        check_at_least("--resamples", self.resamples, 0)
        if not self.systems and self.write_conll is None and self.write_jsonlines is None:
            raise InputError("nothing to do: give --system NAME=FILE (and --out), --write-conll FILE or "
                             "--write-jsonlines FILE")
        if self.systems and self.out is None:
            raise InputError("--out is required with --system")

    @property
    def outputs(self) -> tuple[Path, ...]:
        """The outputs an evaluation with these settings writes: ``out`` (with systems), the
        CoNLL key file, the jsonlines file."""
        return tuple(p for p in ((self.out if self.systems else None), self.write_conll, self.write_jsonlines)
                     if p is not None)


class Evaluation(Protocol):
    """One kind of dataset, evaluated in the four steps of the module doc."""
    name: str

    def read_gold(self, s: EvaluateSettings) -> Any: ...

    def read_systems(self, gold: Any, s: EvaluateSettings) -> dict: ...

    def score(self, gold: Any, systems: dict, s: EvaluateSettings) -> dict: ...

    def write(self, stage: Path, gold: Any, systems: dict, metrics: dict, s: EvaluateSettings) -> str: ...

    def after(self, s: EvaluateSettings) -> None: ...

    def summary(self, gold: Any, systems: dict, metrics: dict, markdown: str, s: EvaluateSettings,
                seconds: float) -> str: ...


def run_evaluation(kind: Evaluation, s: EvaluateSettings, gold: Any = None, t0: float | None = None) -> dict:
    """Read (unless ``gold`` is given), score and write one evaluation; print its summary;
    return the metrics."""
    from pipeline.formats.files import staged_outputs

    t0 = time.perf_counter() if t0 is None else t0
    gold = kind.read_gold(s) if gold is None else gold
    systems = kind.read_systems(gold, s)
    metrics = kind.score(gold, systems, s)
    with staged_outputs(s.out) as stage:
        markdown = kind.write(stage, gold, systems, metrics, s)
    kind.after(s)
    print(kind.summary(gold, systems, metrics, markdown, s, time.perf_counter() - t0))
    return metrics


def evaluate(s: EvaluateSettings):
    """The whole ``evaluate`` run -> a :class:`pipeline.runs.settings.RunResult`: the exit
    status and the outputs written (``run.json``'s settings: none of its own)."""
    from pipeline.runs.settings import RunResult

    return RunResult(_evaluate(s), outputs=s.outputs)


def _evaluate(s: EvaluateSettings) -> int:
    from pipeline.core.gold import is_sowinobias
    from pipeline.formats.dataset_files import load_dataset
    from pipeline.runs.eval_benchmark import BenchmarkEvaluation
    from pipeline.runs.eval_quadruples import QuadrupleEvaluation
    from pipeline.runs.eval_sowinobias import SoWinoBiasEvaluation

    t0 = time.perf_counter()
    names = [n for n, _ in s.systems]
    dupes = sorted({n for n in names if names.count(n) > 1})
    data = load_dataset(s.dataset)     # read once, its kind found once; a bad file raises where it is used
    if s.systems:
        s = replace(s, systems=run_adapters(s, data))
    if s.systems and data.is_benchmark:   # pro/anti benchmark
        if not 0 <= s.max_unmatched <= 1:
            raise InputError(f"--max-unmatched must lie in [0, 1], got {s.max_unmatched}")
        run_evaluation(BenchmarkEvaluation(data), s)
        return 0
    if dupes:
        raise InputError(f"system name(s) given more than once: {', '.join(dupes)}")

    raw = data.frame()
    if s.systems and is_sowinobias(raw):
        run_evaluation(SoWinoBiasEvaluation(data), s, gold=raw)
        return 0
    kind = QuadrupleEvaluation()
    gold = kind.read_gold(s, raw)
    kind.write_inputs(gold, s)
    if s.systems:
        run_evaluation(kind, s, gold=gold, t0=t0)
    return 0


def run_adapters(s: EvaluateSettings, data=None) -> tuple[tuple[str, str], ...]:
    """``--system NAME=ADAPTER[:MODEL]`` values that are no file but name a registered adapter
    are run on the fly (:mod:`pipeline.systems.run`, as ``predict`` does) into
    ``OUT/predictions``; returns the (name, file) pairs to score (``data``: the dataset
    already read, :func:`pipeline.formats.dataset_files.load_dataset`)."""
    from pipeline.systems.base import parse_spec
    from pipeline.systems.registry import is_adapter

    specs = {}
    for name, value in s.systems:
        head = value.partition(":")[0]
        if not Path(value).exists() and is_adapter(head):
            specs[name] = parse_spec(f"{name}={value}")
    if not specs:
        return s.systems
    from pipeline.systems.run import read_rows, run_system, write_outputs

    pred_dir = s.out / "predictions"
    kind, rows = read_rows(s.dataset, data)
    runs = [run_system(spec, rows, pred_dir, s.device, max(1, s.batch_size), True) for spec in specs.values()]
    summary = write_outputs(pred_dir, kind, s.dataset, rows, runs)
    for name, info in summary["systems"].items():
        print(f"{name} ({info['system']}): ran on {len(rows)} documents, {info['n_failed']} failed "
              f"({info['n_cached']} from the cache), {info['seconds']:.1f} s -> {pred_dir}/{name}.jsonl")
    return tuple((n, str(pred_dir / f"{n}.{'tsv' if kind in ('sowinobias',) else 'jsonl'}")) if n in specs else (n, v)
                 for n, v in s.systems)
