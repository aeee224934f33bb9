"""Parquet tables: read and write atomically, validated against the schemas in
:mod:`pipeline.formats.schemas`.

May import: pyarrow, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Callable, Iterator

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


class RecordError(ValueError):
    """A row dict does not hold exactly the fields of its schema (a program error: a misspelt
    key would otherwise become an all-null column)."""


def check_records(records: list[dict], schema: pa.Schema, fill_missing: bool = False) -> None:
    """Raise :class:`RecordError` unless every record holds exactly the fields of ``schema``
    (no unknown field, none missing; a field may hold None where the schema allows null).
    ``fill_missing``: missing fields are allowed (written as null): for hand-made partial rows,
    test fixtures; unknown fields are refused all the same."""
    want = set(schema.names)
    for k, rec in enumerate(records):
        if rec.keys() == want:
            continue
        unknown, missing = sorted(set(rec) - want), [] if fill_missing else sorted(want - set(rec))
        if not unknown and not missing:
            continue
        raise RecordError(f"record {k}: " + "; ".join(
            part for part in (f"unknown field(s) {', '.join(unknown)}" if unknown else "",
                              f"missing field(s) {', '.join(missing)}" if missing else "") if part))


def records_to_table(records: list[dict], schema: pa.Schema, fill_missing: bool = False) -> pa.Table:
    """Build a table from row dicts holding exactly the fields of ``schema`` (else
    :class:`RecordError`; see :func:`check_records` for ``fill_missing``), typed by it."""
    check_records(records, schema, fill_missing)
    return pa.Table.from_pylist(records, schema=schema)


def write_records(records: list[dict], target: str | os.PathLike, schema: pa.Schema,
                  fill_missing: bool = False) -> None:
    """Write row dicts (:func:`records_to_table`) to Parquet atomically."""
    write_table(records_to_table(records, schema, fill_missing), target)


@contextlib.contextmanager
def table_streams(folder: str | os.PathLike,
                  files: dict[str, pa.Schema]) -> Iterator[dict[str, Callable[[pa.Table], None]]]:
    """Streaming Parquet writers, one per file name of ``files`` in ``folder``: yields
    {name: write(table)}, each table going to disk as it is written (memory does not grow with
    the file). Not atomic by itself: ``folder`` is a staging directory of
    :func:`pipeline.formats.files.staged_outputs`, which publishes the files together."""
    with contextlib.ExitStack() as stack:
        writers = {name: stack.enter_context(pq.ParquetWriter(Path(folder) / name, schema))
                   for name, schema in files.items()}
        yield {name: writer.write_table for name, writer in writers.items()}


def read_table(path: str | os.PathLike, columns: list[str] | None = None, filters=None,
               schema: pa.Schema | None = None) -> pa.Table:
    """A Parquet file as a table (only ``columns``, and the rows ``filters`` keeps, in
    pyarrow's filter notation, when given; read as ``schema`` when given, as the project's own
    partitions are); a missing, unpublished or unreadable file, or one that does not fit
    ``schema``, is a one-line :class:`InputError` naming it."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    if path.is_dir():
        raise InputError("a directory, not a Parquet file", path)
    check_published(path)
    try:
        if schema is None:
            return pq.read_table(path, columns=columns, filters=filters)
        return pq.read_table(path, columns=columns, filters=filters, schema=schema)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OSError) as exc:
        raise InputError(f"not a readable Parquet file ({' '.join(str(exc).split())})", path) from exc


def count_rows(path: str | os.PathLike) -> int:
    """The number of rows of a Parquet file, from its footer (no column is read); a missing,
    unpublished or unreadable file is a one-line :class:`InputError` naming it."""
    path = Path(path)
    if not path.is_file():
        raise InputError("file not found" if not path.exists() else "a directory, not a Parquet file", path)
    check_published(path)
    try:
        return pq.ParquetFile(path).metadata.num_rows
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"not a readable Parquet file ({' '.join(str(exc).split())})", path) from exc


def check_column_types(table: pa.Table, schema: pa.Schema, names, path) -> None:
    """Refuse a table whose columns ``names`` cannot be read as ``schema`` types them (a
    string where an offset should be a number, ...): one line naming the column."""
    for name in names:
        if name not in table.column_names or name not in schema.names:
            continue
        want, got = schema.field(name).type, table.schema.field(name).type
        if got == want:
            continue
        try:
            table.column(name).cast(want)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
            raise InputError(f"column {name!r} holds {got}, expected {want}", path) from None
        if pa.types.is_string(got) or pa.types.is_large_string(got):
            if not (pa.types.is_string(want) or pa.types.is_large_string(want)):
                raise InputError(f"column {name!r} holds text ({got}), expected {want}", path)


def book_rows(path: Path, book_ids: set[str], columns: list[str] | None = None) -> list[dict]:
    """The rows of ``book_ids`` in the Parquet file ``path`` (extract's evidence or mentions),
    in file order: the row groups whose ``book_id`` statistics exclude them are not read
    (extract writes a book's rows together), the rest filtered here. What
    ``read_table(path, filters=[("book_id", "in", ...)])`` gives, without pyarrow's dataset
    layer and the pandas it imports (about 0.9 CPU seconds that every worker, or the fork
    server they come from, would pay before its first book)."""
    check_published(path)
    wanted = sorted(book_ids)
    try:
        pf = pq.ParquetFile(path)
        meta = pf.metadata
        where = meta.schema.names.index("book_id")
        groups = []
        for g in range(meta.num_row_groups):
            stats = meta.row_group(g).column(where).statistics
            if stats is None or not stats.has_min_max or any(stats.min <= b <= stats.max for b in wanted):
                groups.append(g)
        rows = pf.read_row_groups(groups, columns=columns).to_pylist() if groups else []
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OSError, ValueError) as exc:
        raise InputError(f"not a readable Parquet file ({' '.join(str(exc).split())})", path) from exc
    return [r for r in rows if r["book_id"] in book_ids]
