"""The ``sowinobias`` run (``python -m pipeline sowinobias`` parses the options into a
:class:`SowinobiasSettings` and calls :func:`sowinobias`, that is :func:`build_test_set`): the
SoWinoBias template test set (Dawkins 2021), its nearest-candidate baseline and that baseline's
evaluation.

Flow: ``occupations.tsv`` and ``adjectives.tsv`` (:func:`load_vocabulary`) ->
:mod:`pipeline.core.sowinobias_templates` (all pairs, a seeded sample, the records and their GAP
rows) -> :mod:`pipeline.sowinobias.core` (the nearest-candidate answers) ->
:func:`pipeline.runs.eval_sowinobias.evaluate_sowinobias` (the metrics, ``sowinobias.md`` and
``sowinobias.png``) -> ``OUT/sowinobias.parquet``, ``sowinobias.tsv``, ``baseline_nearest.tsv``
and ``evaluation/`` (with ``metrics.json``), written all-or-nothing
(:func:`pipeline.formats.files.staged_outputs`). The summary and the Markdown table
(:mod:`pipeline.report.sowinobias`) are returned as text for the command to print.
Manual: docs/sowinobias.md.

May import: :mod:`pipeline.errors`, :mod:`pipeline.formats`, :mod:`pipeline.core`,
:mod:`pipeline.report` (the table), pandas (inside functions); also
:mod:`pipeline.runs.eval_sowinobias`, :mod:`pipeline.runs.settings`; the room's own core.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.core.sowinobias_scoring import DEFAULT_RESAMPLES
from pipeline.core.sowinobias_templates import DEFAULT_SEED
from pipeline.errors import InputError
from pipeline.formats.resources import resource_path
from pipeline.runs.settings import RunResult, as_paths

RESOURCES = resource_path("sowinobias")
OUTPUTS = ("sowinobias.parquet", "sowinobias.tsv", "baseline_nearest.tsv", "evaluation")


@dataclass(frozen=True)
class SowinobiasSettings:
    """What one ``sowinobias`` run is given (the command's options)."""
    out: Path
    sample: int | None = None       # a seeded sample of N pairs; None: all combinations
    seed: int = DEFAULT_SEED        # of the sample and of the bootstrap
    resamples: int = DEFAULT_RESAMPLES
    vocab: Path = RESOURCES         # the directory with occupations.tsv and adjectives.tsv

    def __post_init__(self):
        if self.vocab is None:      # the command's --vocab not given
            object.__setattr__(self, "vocab", RESOURCES)
        as_paths(self, "out", "vocab")
        if self.resamples < 0:
            raise InputError(f"--resamples must be >= 0 (0: no bootstrap), got {self.resamples}")


def sowinobias(s: SowinobiasSettings) -> RunResult:
    """The whole ``sowinobias`` run: :func:`build_test_set`, its summary printed."""
    print(build_test_set(s.out, s.sample, s.seed, s.resamples, s.vocab), end="")
    return RunResult(0, tuple(s.out / name for name in OUTPUTS))


def load_vocabulary(directory: str | Path = RESOURCES):
    """Read ``occupations.tsv`` and ``adjectives.tsv`` from ``directory`` into a
    :class:`pipeline.core.sowinobias_templates.Vocabulary`."""
    from pipeline.core.sowinobias_templates import parse_vocabulary
    from pipeline.formats.files import read_utf8

    directory = Path(directory)
    texts = []
    for name in ("occupations.tsv", "adjectives.tsv"):
        path = directory / name
        if not path.is_file():
            raise InputError("file not found", path)
        texts.append(read_utf8(path, "vocabulary"))
    return parse_vocabulary(texts[0], texts[1], directory / "occupations.tsv", directory / "adjectives.tsv")


def build_test_set(out: Path, sample: int | None = None, seed: int = DEFAULT_SEED,
                   resamples: int = DEFAULT_RESAMPLES, vocab_dir: str | Path = RESOURCES) -> str:
    """Build the test set (``sample`` pairs, all combinations for None), the baseline and its
    evaluation into ``out``; return the summary to print (counts, files, the metrics table)."""
    import json

    import pandas as pd

    from pipeline.sowinobias.core import nearest_baseline
    from pipeline.core.sowinobias_templates import (GAP_EXTRA_COLUMNS, NEGATIVE, POLARITIES, POSITIVE, PRO,
                                                    all_pairs, build_records, gap_rows, sample_pairs)
    from pipeline.formats import schemas
    from pipeline.formats.files import staged_outputs, write_text
    from pipeline.formats.gap_tsv import write_gap_tsv, write_system_tsv
    from pipeline.formats.tables import write_records
    from pipeline.report.sowinobias import format_table
    from pipeline.runs.eval_sowinobias import evaluate_sowinobias

    if resamples < 0:
        raise InputError(f"--resamples must be >= 0 (0: no bootstrap), got {resamples}")
    vocab = load_vocabulary(vocab_dir)
    full = all_pairs(vocab)
    pairs = sample_pairs(full, sample, seed)
    records = build_records(pairs, n_total=len(full))
    rows = gap_rows(records)
    out = Path(out)
    baseline = nearest_baseline(rows)
    with staged_outputs(out) as stage:
        write_records(records, stage / "sowinobias.parquet", schemas.SOWINOBIAS)
        write_gap_tsv(rows, stage / "sowinobias.tsv", GAP_EXTRA_COLUMNS)
        write_system_tsv(baseline, stage / "baseline_nearest.tsv")
        systems = {"baseline_nearest": pd.DataFrame(baseline)}
        metrics = evaluate_sowinobias(pd.DataFrame(rows), systems, stage / "evaluation", resamples, seed)
        write_text(stage / "evaluation" / "metrics.json", json.dumps(metrics, indent=2) + "\n")

    n_pro = sum(r["set"] == PRO for r in records)
    n_anti = len(records) - n_pro
    per_pol = {p: sum(1 for x in pairs if x.polarity == p) for p in POLARITIES}
    how = "all combinations" if sample is None else f"seeded sample of {sample} pairs (seed {seed})"
    lines = [
        f"SoWinoBias: {len(full)} combinations in the vocabulary ({len(vocab.male_occupations)} male x "
        f"{len(vocab.female_occupations)} female occupations x {len(vocab.adjectives())} adjectives); "
        f"kept {how}",
        f"sentences: pro {n_pro}, anti {n_anti} (positive {per_pol[POSITIVE]}, negative {per_pol[NEGATIVE]} "
        f"pairs)",
        f"wrote {out / 'sowinobias.parquet'}, {out / 'sowinobias.tsv'}, {out / 'baseline_nearest.tsv'}, "
        f"{out / 'evaluation'}/{{sowinobias.md,sowinobias.png,metrics.json}}",
    ]
    return "\n".join(lines) + "\n\n" + format_table(metrics)
