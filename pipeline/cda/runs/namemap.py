"""The ``namemap`` run (``python -m pipeline namemap`` parses the options into a
:class:`NamemapSettings` and calls :func:`namemap`): gender-guesser's dictionary (:mod:`pipeline.cda.formats.name_map`) -> the optimal
matchings (:mod:`pipeline.cda.core.namemap`) -> ``name_map.parquet`` and ``name_map.tsv`` written
together into ``--out`` -> a summary with the time and peak memory. Manual: docs/cda.md.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats`; inside functions:
:mod:`pipeline.core`, :mod:`pipeline.report` (``memory``), :mod:`pipeline.runs.settings`; the room's own
formats and cores.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline.cda.formats.name_map import DEFAULT_MAP_DIR
from pipeline.runs.settings import RunResult, as_paths


@dataclass(frozen=True)
class NamemapSettings:
    """What one ``namemap`` run is given (the command's options)."""
    out: Path = DEFAULT_MAP_DIR
    alpha: float | None = None          # default pipeline.cda.core.namemap.ALPHA (12/11)
    nam_dict: Path | None = None        # default: the installed gender-guesser's nam_dict.txt

    def __post_init__(self):
        from pipeline.errors import InputError

        as_paths(self, "out", "nam_dict")
        if self.alpha is not None and not math.isfinite(self.alpha):
            raise InputError(f"--alpha must be a finite number, got {self.alpha!r}")


def namemap(args: NamemapSettings) -> RunResult:
    from pipeline.cda.core.namemap import ALPHA, build_name_map, map_records
    from pipeline.formats.files import sha256_file, staged_outputs
    from pipeline.cda.formats.name_map import load_nam_dict, nam_dict_path, write_map

    t0, c0 = time.perf_counter(), time.process_time()
    alpha = ALPHA if args.alpha is None else args.alpha
    path = args.nam_dict or nam_dict_path()
    entries = load_nam_dict(path)
    t_parse = time.perf_counter() - t0
    results = build_name_map(entries, alpha)
    t_match = time.perf_counter() - t0 - t_parse
    rows = map_records(results)
    with staged_outputs(args.out) as stage:
        write_map(rows, stage, {"alpha": repr(alpha), "nam_dict_sha256": sha256_file(path)})
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    print_summary(results, entries, path, alpha, t_parse, t_match, elapsed, cpu)
    print(f"wrote {args.out / 'name_map.parquet'} and {args.out / 'name_map.tsv'} ({len(rows)} rows)")
    return RunResult(0, (args.out / "name_map.parquet", args.out / "name_map.tsv"))


def print_summary(results, entries, path, alpha, t_parse, t_match, elapsed, cpu) -> None:
    from collections import Counter

    from pipeline.report.memory import peak_rss_mb

    counts = Counter(e.cls for e in entries.values())
    print(f"name map from {path} (alpha = {alpha!r})")
    print("  names per class: " + ", ".join(f"{c} {counts[c]}" for c in
                                               ("male", "female", "mostly_male", "mostly_female", "unisex")))
    print(f"  {'pairing':<28} {'pairs':>6} {'classes':>11} {'total cost':>16} {'duality gap':>12}")
    for r in results:
        print(f"  {r.left_class + ' - ' + r.right_class:<28} {len(r.pairs):>6} "
              f"{f'{r.n_left_classes}x{r.n_right_classes}':>11} {r.total:>16.6f} {r.duality_gap:>12.2e}")
    total = sum(r.total for r in results)
    print(f"  total cost {total:.6f} over {sum(len(r.pairs) for r in results)} pairs")
    print(f"  time {elapsed:.2f} s wall, {cpu:.2f} s CPU (parse {t_parse:.2f} s, matching {t_match:.2f} s); "
          f"peak memory {peak_rss_mb():.0f} MB (peak RSS of the process, ru_maxrss)")
