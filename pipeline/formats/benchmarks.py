"""The benchmark file: the one layout of pro/anti-stereotype items (schema ``BENCHMARK``).

:func:`read_benchmark` reads a benchmark Parquet (another layout is an InputError);
:func:`write_benchmark` writes ``benchmark.parquet`` and the GAP-style ``benchmark.tsv``
(A = main entity, A-coref TRUE; B = other entity, B-coref FALSE; empty when there is none).
The loaders of the distributed benchmarks are in :mod:`pipeline.lang.benchmarks`.

May import: the standard library, pyarrow, :mod:`pipeline.errors`, :mod:`pipeline.formats`
(tables, schemas, gap_tsv).
"""

from __future__ import annotations

import os
from pathlib import Path

from pipeline.errors import InputError

TSV_COLUMNS = ["ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref", "B",
               "B-offset", "B-coref", "source", "split", "pronoun_gender", "main_occupation",
               "other_occupation", "category", "stereotype", "maze_eligible"]


# ------------------------------------------------------------------------------ benchmark file

def is_benchmark_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a Parquet file with every BENCHMARK column (schema only is read)."""
    import pyarrow.parquet as pq

    from pipeline.formats.schemas import BENCHMARK

    p = Path(path)
    if not p.is_file() or p.suffix.lower() != ".parquet":
        return False
    try:
        names = set(pq.read_schema(p).names)
    except Exception:  # noqa: BLE001 -- not Parquet: not a benchmark
        return False
    return set(BENCHMARK.names) <= names


def read_benchmark(path: str | os.PathLike) -> list[dict]:
    """The items of a benchmark Parquet; another layout is an :class:`InputError`."""
    from pipeline.formats.tables import read_table

    return benchmark_items(read_table(path), path)


def benchmark_items(table, path: str | os.PathLike) -> list[dict]:
    """The items of a benchmark table read from ``path``; another layout is an :class:`InputError`."""
    from pipeline.formats.schemas import BENCHMARK

    missing = [c for c in BENCHMARK.names if c not in table.column_names]
    if missing:
        raise InputError(f"not a benchmark table: missing column(s) {', '.join(missing)} "
                         f"(write one with `python -m pipeline benchmark`)", path)
    items = table.select(BENCHMARK.names).to_pylist()
    if not items:
        raise InputError("no items", path)
    return items


def tsv_rows(items: list[dict]) -> list[dict]:
    rows = []
    for it in items:
        has_other = it.get("other_entity") is not None
        rows.append({
            "ID": it["id"], "Text": it["text"], "Pronoun": it["pronoun"],
            "Pronoun-offset": it["pronoun_start"], "A": it["main_entity"], "A-offset": it["main_start"],
            "A-coref": "TRUE", "B": it["other_entity"] if has_other else "",
            "B-offset": it["other_start"] if has_other else "", "B-coref": "FALSE" if has_other else "",
            "source": it["source"], "split": it["split"], "pronoun_gender": it["pronoun_gender"],
            "main_occupation": it["main_occupation"], "other_occupation": it.get("other_occupation") or "",
            "category": it["category"], "stereotype": it["stereotype"],
            "maze_eligible": "TRUE" if it["maze_eligible"] else "FALSE",
        })
    return rows


def write_benchmark(items: list[dict], out_dir: str | os.PathLike) -> tuple[Path, Path]:
    """``out_dir/benchmark.parquet`` and ``out_dir/benchmark.tsv`` (write into a staging dir)."""
    from pipeline.formats.gap_tsv import write_tsv
    from pipeline.formats.schemas import BENCHMARK
    from pipeline.formats.tables import write_records

    out = Path(out_dir)
    pq_path, tsv_path = out / "benchmark.parquet", out / "benchmark.tsv"
    write_records(items, pq_path, BENCHMARK)
    write_tsv(tsv_rows(items), tsv_path, TSV_COLUMNS)
    return pq_path, tsv_path
