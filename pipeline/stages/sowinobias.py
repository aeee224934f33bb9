"""``sowinobias``: build the SoWinoBias template test set (Dawkins 2021), its nearest-candidate
baseline and that baseline's evaluation. The construction is
:mod:`pipeline.core.sowinobias_templates`, the baseline :mod:`pipeline.core.sowinobias_baseline`,
the metrics :mod:`pipeline.core.sowinobias_scoring`; the table, plot and Markdown
:mod:`pipeline.report.sowinobias` (docs/sowinobias.md).

May import: :mod:`pipeline.formats`, :mod:`pipeline.core`, :mod:`pipeline.report`; never another command; also :mod:`pipeline.runs.eval_sowinobias`.
"""

from __future__ import annotations

COMMAND = "sowinobias"
HELP = "build the SoWinoBias template test set"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

import argparse
from pathlib import Path

from pipeline.core.sowinobias_scoring import DEFAULT_RESAMPLES
from pipeline.core.sowinobias_templates import DEFAULT_SEED, PUBLISHED_SIZE
from pipeline.errors import InputError
from pipeline.formats.resources import resource_path

RESOURCES = resource_path("sowinobias")


def load_vocabulary(directory: str | Path = RESOURCES):
    """Read ``occupations.tsv`` and ``adjectives.tsv`` from ``directory`` into a
    :class:`pipeline.core.sowinobias_templates.Vocabulary`."""
    from pipeline.core.sowinobias_templates import parse_vocabulary

    directory = Path(directory)
    texts = []
    for name in ("occupations.tsv", "adjectives.tsv"):
        path = directory / name
        if not path.is_file():
            raise InputError("file not found", path)
        texts.append(path.read_text(encoding="utf-8"))
    return parse_vocabulary(texts[0], texts[1], directory / "occupations.tsv", directory / "adjectives.tsv")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pipeline import options as opt

    opt.out_dir(parser)
    parser.add_argument("--sample", type=int, default=None, metavar="N",
                        help=f"keep a seeded sample of N pairs, i.e. N sentences per set (the published "
                             f"set has {PUBLISHED_SIZE}); default: all combinations (8,192 per set)")
    opt.seed(parser, "the sample and of the bootstrap", DEFAULT_SEED)
    opt.resamples(parser, DEFAULT_RESAMPLES)
    parser.add_argument("--vocab", type=Path, default=RESOURCES,
                        help="directory with occupations.tsv and adjectives.tsv (default: resources/sowinobias)")


def run(args) -> int:
    import json

    import pandas as pd

    from pipeline.core.sowinobias_baseline import nearest_baseline
    from pipeline.core.sowinobias_templates import (GAP_EXTRA_COLUMNS, NEGATIVE, POLARITIES, POSITIVE, PRO,
                                                    all_pairs, build_records, gap_rows, sample_pairs)
    from pipeline.errors import InputError
    from pipeline.formats import schemas
    from pipeline.formats.files import staged_outputs, write_text
    from pipeline.formats.gap_tsv import write_gap_tsv, write_system_tsv
    from pipeline.formats.tables import write_records
    from pipeline.report.sowinobias import format_table
    from pipeline.runs.eval_sowinobias import evaluate_sowinobias

    if args.resamples < 0:
        raise InputError(f"--resamples must be >= 0 (0: no bootstrap), got {args.resamples}")
    vocab = load_vocabulary(args.vocab)
    full = all_pairs(vocab)
    pairs = sample_pairs(full, args.sample, args.seed)
    records = build_records(pairs, n_total=len(full))
    rows = gap_rows(records)
    out: Path = args.out
    baseline = nearest_baseline(rows)
    with staged_outputs(out) as stage:
        write_records(records, stage / "sowinobias.parquet", schemas.SOWINOBIAS)
        write_gap_tsv(rows, stage / "sowinobias.tsv", GAP_EXTRA_COLUMNS)
        write_system_tsv(baseline, stage / "baseline_nearest.tsv")
        systems = {"baseline_nearest": pd.DataFrame(baseline)}
        metrics = evaluate_sowinobias(pd.DataFrame(rows), systems, stage / "evaluation", args.resamples, args.seed)
        write_text(stage / "evaluation" / "metrics.json", json.dumps(metrics, indent=2) + "\n")

    n_pro = sum(r["set"] == PRO for r in records)
    n_anti = len(records) - n_pro
    per_pol = {p: sum(1 for x in pairs if x.polarity == p) for p in POLARITIES}
    how = "all combinations" if args.sample is None else f"seeded sample of {args.sample} pairs (seed {args.seed})"
    print(f"SoWinoBias: {len(full)} combinations in the vocabulary ({len(vocab.male_occupations)} male x "
          f"{len(vocab.female_occupations)} female occupations x {len(vocab.adjectives())} adjectives); "
          f"kept {how}")
    print(f"sentences: pro {n_pro}, anti {n_anti} (positive {per_pol[POSITIVE]}, negative {per_pol[NEGATIVE]} "
          f"pairs)")
    print(f"wrote {out / 'sowinobias.parquet'}, {out / 'sowinobias.tsv'}, {out / 'baseline_nearest.tsv'}, "
          f"{out / 'evaluation'}/{{sowinobias.md,sowinobias.png,metrics.json}}")
    print()
    print(format_table(metrics), end="")
    return 0
