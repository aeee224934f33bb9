"""Predict run: coreference systems over every instance text of a dataset (``python -m pipeline
predict`` parses its options into :class:`PredictSettings` and calls :func:`predict`).

The work is :mod:`pipeline.systems.run`'s: :func:`~pipeline.systems.run.read_rows` (the dataset
read once), :func:`~pipeline.systems.run.run_system` per system (its adapter from
:mod:`pipeline.systems.registry`, a resumable cache), :func:`~pipeline.systems.run.write_outputs`
(``NAME.jsonl``, ``NAME.tsv``, ``answers.parquet``, ``predict.json`` written together); this run
checks the settings, calls them and prints a line per system.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.systems`,
:mod:`pipeline.runs.settings`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import InputError
from pipeline.runs.settings import RunResult, as_paths


@dataclass(frozen=True)
class PredictSettings:
    """What one predict run is given (the command's options). ``systems``: parsed
    :class:`pipeline.systems.base.SystemSpec` values or ``NAME=ADAPTER[:MODEL]`` strings;
    checked when built (names given twice, ``batch_size`` below 1, an unknown device)."""
    dataset: Path
    systems: tuple = ()
    out: Path | None = None
    device: str = "cpu"
    batch_size: int = 8
    retry_failed: bool = False
    progress: bool = True

    def __post_init__(self):
        from pipeline.systems.base import SystemSpec, check_device, parse_spec

        as_paths(self, "dataset", "out")
        if self.out is None:
            raise InputError("--out is required")
        specs = []
        for spec in self.systems:
            if not isinstance(spec, SystemSpec):
                spec = parse_spec(str(spec))        # a bad spec is parse_spec's InputError line
            specs.append(spec)
        object.__setattr__(self, "systems", tuple(specs))
        names = [s.name for s in specs]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise InputError(f"system name(s) given more than once: {', '.join(dupes)}")
        if self.batch_size < 1:
            raise InputError(f"--batch-size must be >= 1, got {self.batch_size}")
        check_device(self.device)


def predict(s: PredictSettings) -> RunResult:
    """Every system of ``s`` over the dataset's rows into ``s.out`` (:func:`pipeline.systems.run.
    run_system`, :func:`pipeline.systems.run.write_outputs`), then a line per system -> a
    :class:`pipeline.runs.settings.RunResult`: the exit status, ``s.out`` and the counts of each
    system (``summary``: ``predict.json``'s); ``run.json``'s settings: none of its own."""
    from pipeline.systems.run import read_rows, run_system, write_outputs

    kind, rows = read_rows(s.dataset)
    runs = [run_system(spec, rows, s.out, s.device, s.batch_size, s.progress, s.retry_failed)
            for spec in s.systems]
    summary = write_outputs(s.out, kind, s.dataset, rows, runs)
    for name, info in summary["systems"].items():
        line = (f"{name} ({info['system']}): {info['n_answered']}/{len(rows)} documents answered "
                f"({info['n_cached']} from the cache), {info['seconds']:.1f} s")
        if info["n_failed"]:
            first = "; ".join(f"{f['id']}: {f['error']}" for f in info["failed_first"][:2])
            line += (f"; {info['n_failed']} failed, recorded as unanswered (first: {first}); every failed row and "
                     "its error: answers.parquet (answered = false, column error); --retry-failed runs them again")
        print(line)
    if not summary["labelled"]:
        names = " ".join(f"--system {n}={Path(s.out) / n}.jsonl" for n in summary["systems"])
        print(f"no gold labels in {s.dataset}: answers only (answers.parquet's gold and correct are empty); "
              f"the bias figures that need no labels: python -m pipeline evaluate --dataset {s.dataset} "
              f"{names} --out OUT")
    print(f"{Path(s.dataset).name}: {len(rows)} {kind} rows -> {s.out}/NAME.jsonl, NAME.tsv, answers.parquet, "
          "predict.json")
    return RunResult(0, outputs=(s.out,), summary=summary)
