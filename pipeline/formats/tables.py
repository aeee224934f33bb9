"""Parquet tables: read and write atomically, validated against the schemas in
:mod:`pipeline.formats.schemas`.

May import: pyarrow, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import InputError
from pipeline.formats.files import atomic_path, check_published


def write_table(table: pa.Table, target: str | os.PathLike, schema: pa.Schema | None = None) -> None:
    """Write a pyarrow table (cast to ``schema`` when given) to Parquet atomically."""
    if schema is not None:
        table = table.select(schema.names).cast(schema)
    with atomic_path(target) as tmp:
        pq.write_table(table, tmp)


def records_to_table(records: list[dict], schema: pa.Schema) -> pa.Table:
    """Build a table from row dicts, validating them against ``schema``."""
    return pa.Table.from_pylist(records, schema=schema)


def write_records(records: list[dict], target: str | os.PathLike, schema: pa.Schema) -> None:
    write_table(records_to_table(records, schema), target)


def read_table(path: str | os.PathLike) -> pa.Table:
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    if path.is_dir():
        raise InputError("a directory, not a Parquet file", path)
    check_published(path)
    try:
        return pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"not a readable Parquet file ({exc})", path) from exc
