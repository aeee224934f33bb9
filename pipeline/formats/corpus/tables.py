"""Table corpora: one book per row of a Parquet file, a JSON-lines file, a CSV file or a Hugging
Face dataset directory (``Dataset.save_to_disk``: ``*.arrow`` files + ``dataset_info.json`` +
``state.json``).

Columns: ``--text-column`` (default ``text``) holds the book's text; ``--id-column`` (default
``id``, else ``book_id``, else none: ids ``row-N``), ``--title-column`` (default ``title``
when present); an ``author`` and a ``language`` column are used when present. A missing text
(or named) column is an error naming the file (nothing can be read); a row with a null or
empty text, a non-string text, a null id, a line that is not JSON or not an object, a CSV
record with the wrong number of fields or bytes that are not UTF-8 is skipped with that
reason, and the rest goes on. The text of a row is read like a .txt book (a Gutenberg header
and licence are stripped when present).

Units (what one task reads, so that no worker is sent the table): a Parquet row group; a run
of record batches of an HF arrow file of at most ``ROWS_PER_UNIT`` rows; a byte range of about
``UNIT_BYTES`` of a JSON-lines or CSV file, cut at a line end (CSV: at a record end, found by
quote parity, since quoted fields may hold line breaks). The main process reads only the
Parquet footer, the arrow batch headers (memory-mapped), or scans JSON-lines/CSV bytes once for
line ends; the workers read their own range. Row numbers are 1-based: the line of a JSON-lines
file, the record after the header of a CSV file, the row of a Parquet file / HF dataset.

May import: the standard library, pyarrow, :mod:`pipeline.errors`, :mod:`.base`, :mod:`.text`.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Iterator

from pipeline.errors import InputError
from pipeline.formats.corpus.base import SKIPPED, Book, BookSkipped, CorpusSpec, Skip, Unit, bounded_lines
from pipeline.formats.corpus.text import parse_text

UNIT_BYTES = 16 * 1024 * 1024
ROWS_PER_UNIT = 64
MAX_FIELD = 256 * 1024 * 1024
TABLE_KINDS = ("parquet", "jsonl", "csv", "arrow")


def table_kind(path: Path) -> str | None:
    """parquet | jsonl | csv | arrow (an HF dataset directory) | None."""
    if path.is_dir():
        hf = ((path / "state.json").exists() and (path / "dataset_info.json").exists()
              or (path / "dataset_dict.json").exists())
        return "arrow" if hf else None
    low = path.name.lower()
    for suffix, kind in ((".parquet", "parquet"), (".jsonl", "jsonl"), (".ndjson", "jsonl"), (".csv", "csv")):
        if low.endswith(suffix):
            return kind
    return None


# ------------------------------------------------------------------ columns --------------

def resolve_columns(names: list[str], spec: CorpusSpec, path) -> tuple:
    """(text, id, title, author, language) column names of a table with columns ``names``
    ("" = none); an InputError names the file when a required or named column is missing."""
    def pick(given: str, defaults: tuple, what: str) -> str:
        if given:
            if given not in names:
                raise InputError(f"no {what} column {given!r} (columns: {', '.join(names)})", path)
            return given
        return next((d for d in defaults if d in names), "")

    if spec.text_column not in names:
        raise InputError(f"no text column {spec.text_column!r} (columns: {', '.join(names) or 'none'}); "
                         "name it with --text-column", path)
    return (spec.text_column, pick(spec.id_column, ("id", "book_id"), "id"),
            pick(spec.title_column, ("title",), "title"), pick("", ("author",), "author"),
            pick("", ("language",), "language"))


# ------------------------------------------------------------------ planning -------------

def plan_table(path: Path, kind: str, spec: CorpusSpec, rel: str, row_cut: int | None = None) -> list[Unit]:
    """The units of a table corpus. ``row_cut``: cut at multiples of that many rows (the
    sentences layout, one pseudo-book per unit) instead of by row group / size."""
    planner = {"parquet": _plan_parquet, "jsonl": _plan_lines, "csv": _plan_lines, "arrow": _plan_arrow}[kind]
    return planner(path, kind, spec, rel, row_cut)


def _ranges(total: int, step: int) -> list[tuple[int, int]]:
    return [(s, min(s + step, total)) for s in range(0, total, step)]


def _plan_parquet(path: Path, kind, spec, rel, row_cut) -> list[Unit]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"not a readable Parquet file ({exc})", path) from None
    cols = resolve_columns(pf.schema_arrow.names, spec, path)
    meta = pf.metadata
    total = meta.num_rows
    units, start = [], 0
    if row_cut:
        return [Unit(key=f"{rel}#rows{s}-{e}of{total}", kind=kind, path=str(path), rel=rel, start=s, stop=e,
                     books=e - s, size=0, columns=cols) for s, e in _ranges(total, row_cut)]
    for k in range(meta.num_row_groups):
        rg = meta.row_group(k)
        if rg.num_rows:
            units.append(Unit(key=f"{rel}#rows{start}-{start + rg.num_rows}of{total}", kind=kind, path=str(path),
                              rel=rel, start=start, stop=start + rg.num_rows, group=k, books=rg.num_rows,
                              size=rg.total_byte_size, columns=cols))
        start += rg.num_rows
    return units


def _arrow_files(folder: Path) -> list[Path]:
    if (folder / "dataset_dict.json").exists():
        raise InputError("a DatasetDict: give the folder of one split (e.g. DIR/train)", folder)
    try:
        state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
        files = [folder / f["filename"] for f in state["_data_files"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"not a Hugging Face dataset folder: state.json unreadable ({exc})", folder) from None
    for f in files:
        if not f.is_file():
            raise InputError("listed in state.json but missing", f)
    return files


def _arrow_batches(path: Path):
    """Record batches of an arrow file (IPC stream, as ``datasets`` writes, or IPC file),
    memory-mapped: skipping a batch reads no data."""
    import pyarrow as pa

    source = pa.memory_map(str(path))
    try:
        reader = pa.ipc.open_stream(source)
        return reader.schema, iter(reader)
    except pa.ArrowInvalid:
        source = pa.memory_map(str(path))
        reader = pa.ipc.open_file(source)
        return reader.schema, (reader.get_batch(i) for i in range(reader.num_record_batches))


def _plan_arrow(folder: Path, kind, spec, rel, row_cut) -> list[Unit]:
    import pyarrow as pa

    units, offset, cols = [], 0, None
    step = row_cut or ROWS_PER_UNIT
    for file_no, f in enumerate(_arrow_files(folder)):
        try:
            schema, batches = _arrow_batches(f)
            sizes = [b.num_rows for b in batches]
        except (pa.ArrowInvalid, OSError) as exc:
            raise InputError(f"not a readable arrow file ({exc})", f) from None
        cols = cols or resolve_columns(schema.names, spec, f)
        rows = sum(sizes)
        frel = f"{rel}/{f.name}"
        for s, e in _ranges(rows, step):
            units.append(Unit(key=f"{frel}#rows{s}-{e}of{rows}", kind=kind, path=str(f), rel=frel,
                              start=s, stop=e, group=offset, books=e - s, size=0, columns=cols))
        offset += rows
    return units


def _first_record_text(path: Path, kind: str) -> tuple[bytes, int]:
    """The first record (CSV header / first JSON line) and the byte offset after it; one longer
    than :data:`MAX_FIELD` is an InputError, never read whole."""
    with open(path, "rb") as f:
        records = _bounded_records(f, MAX_FIELD, csv_quotes=kind == "csv")
        data, size = next(records, (b"", 0))
        if data is None:
            raise InputError(f"the first record is {size:,} bytes (more than {MAX_FIELD:,}): not a table header",
                             path, 1)
        return data, size


def _bounded_records(f, limit: int, csv_quotes: bool = False):
    """(record, its length in bytes) for each record of the binary stream ``f`` from where it
    is: a line, or with ``csv_quotes`` the lines up to one closing every quoted field. A
    record longer than ``limit`` is ``(None, length)``, read in 1 MiB pieces and never held
    whole (a 1 GiB cell); the planner counts records the same way."""
    while True:
        chunks, n, parity, held = [], 0, 0, True
        while True:
            piece = f.readline(1 << 20)
            if not piece:
                break
            n += len(piece)
            if csv_quotes:
                parity ^= piece.count(b'"') & 1
            if held:
                chunks.append(piece)
                if n > limit:
                    chunks, held = [], False
            if piece.endswith(b"\n") and not parity:
                break
        if not n:
            return
        yield (b"".join(chunks) if held else None), n


def csv_header(path: Path) -> tuple[list[str], int]:
    data, end = _first_record_text(path, "csv")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("CSV header is not UTF-8", path, 1) from None
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows or not rows[0]:
        raise InputError("no CSV header", path, 1)
    return rows[0], end


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def json_object(line: bytes):
    """``json.loads`` of one JSON-lines line, refusing Python's extensions ``NaN`` and
    ``Infinity`` (a ``ValueError``); a line nested too deep raises ``RecursionError``."""
    return json.loads(line, parse_constant=_no_constant)


def _jsonl_columns(path: Path) -> list[str]:
    """The keys of the first JSON object of the file (the first 1,000 lines are looked at)."""
    with open(path, "rb") as f:
        for n, (line, _) in enumerate(bounded_lines(f, MAX_FIELD), 1):
            if n > 1000:
                break
            if line is None or not line.strip():         # over the cap: never held, not a header either
                continue
            try:
                obj = json_object(line)
            except (ValueError, RecursionError):
                continue
            if isinstance(obj, dict):
                return list(obj)
    raise InputError("no JSON object in the first 1,000 lines: not a JSON-lines file", path)


def _plan_lines(path: Path, kind, spec, rel, row_cut) -> list[Unit]:
    """JSON lines / CSV: scan once for line (record) ends, cut about every ``UNIT_BYTES`` (or
    every ``row_cut`` rows)."""
    if kind == "csv":
        names, offset = csv_header(path)
    else:
        names, offset = _jsonl_columns(path), 0
    cols = resolve_columns(names, spec, path)
    cuts = [(0, offset)]                      # (row index, byte offset) where a unit starts
    row, pos, unit_start = 0, offset, offset
    with open(path, "rb") as f:
        f.seek(offset)
        for _, size in _bounded_records(f, 0, csv_quotes=kind == "csv"):     # counted, never held
            pos += size
            row += 1
            if (row_cut and row % row_cut == 0) or (not row_cut and pos - unit_start >= UNIT_BYTES):
                cuts.append((row, pos))
                unit_start = pos
    if cuts[-1][0] != row:
        cuts.append((row, pos))
    total = row
    units = []
    for (s, so), (e, eo) in zip(cuts, cuts[1:]):
        if e > s:
            units.append(Unit(key=f"{rel}#rows{s}-{e}of{total}", kind=kind, path=str(path), rel=rel, start=s,
                              stop=e, offset=so, books=e - s, size=eo - so, columns=cols))
    return units


# ------------------------------------------------------------------ reading --------------

def iter_rows(unit: Unit) -> Iterator[tuple[int, dict | None, str]]:
    """(1-based row number, the row's used columns or None, reason when None) of the unit's
    rows ``start``..``stop``."""
    reader = {"parquet": _rows_parquet, "arrow": _rows_arrow, "jsonl": _rows_jsonl, "csv": _rows_csv}[unit.kind]
    yield from reader(unit)


def _wanted(unit: Unit) -> list[str]:
    return [c for c in dict.fromkeys(unit.columns) if c]


def _rows_parquet(unit: Unit):
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(unit.path)
    meta, cols, first = pf.metadata, _wanted(unit), 0
    for k in range(meta.num_row_groups):
        n = meta.row_group(k).num_rows
        lo, hi = max(unit.start, first), min(unit.stop, first + n)
        if lo < hi:
            table = pf.read_row_group(k, columns=cols).slice(lo - first, hi - lo)
            yield from _bounded_rows(table, unit.columns[0], lo + 1)
        first += n
        if first >= unit.stop:
            break


def _rows_arrow(unit: Unit):
    _schema, batches = _arrow_batches(Path(unit.path))
    cols, first = _wanted(unit), 0
    for batch in batches:
        n = batch.num_rows
        lo, hi = max(unit.start, first), min(unit.stop, first + n)
        if lo < hi:
            part = batch.slice(lo - first, hi - lo).select(cols)
            # rows are numbered across the dataset's arrow files (group = rows before this file)
            yield from _bounded_rows(part, unit.columns[0], unit.group + lo + 1)
        first += n
        if first >= unit.stop:
            break


ROWS_AT_ONCE = 64        # rows turned into Python objects at a time (not a whole row group)


def _bounded_rows(table, text_column: str, first_row: int):
    """(row number, row, reason) of an Arrow table or batch, a few rows at a time; a row whose
    text cell is over :data:`MAX_FIELD` bytes is skipped with the reason, never turned into a
    Python string."""
    import pyarrow.compute as pc

    sizes = None
    if text_column in table.column_names:
        col = table.column(text_column)
        if str(col.type) in ("string", "large_string", "binary", "large_binary"):
            sizes = pc.fill_null(pc.binary_length(col), 0).to_pylist()
    for lo in range(0, table.num_rows, ROWS_AT_ONCE):
        chunk = table.slice(lo, ROWS_AT_ONCE)
        big = [k for k in range(chunk.num_rows) if sizes is not None and sizes[lo + k] > MAX_FIELD]
        recs = chunk.to_pylist() if not big else [
            None if k in big else chunk.slice(k, 1).to_pylist()[0] for k in range(chunk.num_rows)]
        for k, rec in enumerate(recs):
            if rec is None:
                yield first_row + lo + k, None, f"too large: a {text_column} cell of {sizes[lo + k]:,} bytes " \
                                                  f"(more than {MAX_FIELD:,})"
            else:
                yield first_row + lo + k, rec, ""


def _rows_jsonl(unit: Unit):
    cols = _wanted(unit)
    with open(unit.path, "rb") as f:
        f.seek(unit.offset)
        lines = bounded_lines(f, MAX_FIELD)
        for i in range(unit.start, unit.stop):
            line, size = next(lines, (b"", 0))
            if not size:
                break
            if line is None:
                yield i + 1, None, f"too large: a line of {size:,} bytes (more than {MAX_FIELD:,})"
                continue
            if not line.strip():
                continue
            try:
                obj = json_object(line)
            except UnicodeDecodeError:          # a ValueError too, without .msg: first
                yield i + 1, None, "not UTF-8"
                continue
            except ValueError as exc:
                yield i + 1, None, f"not JSON ({getattr(exc, 'msg', exc)} at column {getattr(exc, 'colno', '?')})"
                continue
            except RecursionError:
                yield i + 1, None, "not JSON (nested too deep)"
                continue
            if not isinstance(obj, dict):
                yield i + 1, None, f"not a JSON object ({type(obj).__name__})"
                continue
            if unit.columns[0] not in obj:
                yield i + 1, None, f"no {unit.columns[0]!r} field"
                continue
            yield i + 1, {c: obj.get(c) for c in cols}, ""


def _rows_csv(unit: Unit):
    names, _ = csv_header(Path(unit.path))
    index = {c: names.index(c) for c in _wanted(unit)}
    csv.field_size_limit(MAX_FIELD)
    with open(unit.path, "rb") as f:
        f.seek(unit.offset)
        records = _bounded_records(f, MAX_FIELD, csv_quotes=True)
        for i in range(unit.start + 1, unit.stop + 1):
            data, size = next(records, (b"", 0))
            if not size:
                break
            if data is None:
                yield i, None, f"too large: a record of {size:,} bytes (more than {MAX_FIELD:,})"
                continue
            if data.count(b'"') & 1:        # only the end of the file ends such a record
                yield i, None, "a quoted field never closed (the file ends inside it)"
                continue
            try:
                recs = list(csv.reader(io.StringIO(data.decode("utf-8", errors="surrogateescape"), newline="")))
            except csv.Error as exc:
                yield i, None, f"CSV error: {exc}"
                continue
            if len(recs) > 1:               # a bare carriage return ends a record for the csv module
                yield i, None, f"{len(recs)} records in one line (a carriage return outside quotes)"
                continue
            yield from _csv_row(i, recs[0] if recs else [], names, index)


def _csv_row(i: int, rec: list, names: list, index: dict):
    """(row number, row, reason) of one CSV record, or nothing for a blank line."""
    if rec:
        if len(rec) != len(names):
            yield i, None, f"{len(rec)} fields, the header has {len(names)}"
            return
        row = {c: rec[j] for c, j in index.items()}
        if any(_has_surrogates(v) for v in row.values()):
            yield i, None, "not UTF-8"
        elif any("\x00" in v for v in row.values()):
            yield i, None, "a NUL byte in a field (binary data)"
        else:
            yield i, row, ""


def _has_surrogates(value: str) -> bool:
    try:
        value.encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


def _cell(value) -> str:
    return "" if value is None else str(value).strip()


def row_book(unit: Unit, number: int, row: dict) -> Book:
    """One row -> a book; raises :class:`BookSkipped` for an unusable row."""
    text_col, id_col, title_col, author_col, lang_col = unit.columns
    book_id = f"row-{number}"
    if id_col:
        value = row.get(id_col)
        if value is None or _cell(value) == "":
            raise BookSkipped("null id", f"column {id_col!r}")
        if isinstance(value, (bool, list, dict)) or (isinstance(value, float) and not math.isfinite(value)):
            raise BookSkipped("id is not a string or a number", f"column {id_col!r}: {_cell(value)[:40]}")
        book_id = _cell(value)
    text = row.get(text_col)
    if text is None:
        raise BookSkipped("null text", f"column {text_col!r}")
    if not isinstance(text, str):
        raise BookSkipped("text is not a string", type(text).__name__)
    if not text.strip():
        raise BookSkipped("empty")
    if "\x00" in text:
        raise BookSkipped("binary", f"NUL character at offset {text.index(chr(0))}")
    book = parse_text(text, book_id, unit.rel, book_id)
    if title_col and _cell(row.get(title_col)):
        book.title = _cell(row.get(title_col))
    elif not book.format == "gutenberg":
        book.title = ""
    if author_col and _cell(row.get(author_col)):
        book.author = _cell(row.get(author_col))
    if lang_col and _cell(row.get(lang_col)):
        book.language = _cell(row.get(lang_col))
    book.encoding, book.encoding_source, book.row = "utf-8", "container", number
    return book


def read_table_unit(unit: Unit) -> Iterator[Book | Skip]:
    for number, row, reason in iter_rows(unit):
        book_id = f"{unit.rel}#row-{number}"
        if row is None:
            yield Skip(unit.rel, book_id, SKIPPED, reason, row=number)
            continue
        try:
            yield row_book(unit, number, row)
        except BookSkipped as exc:
            if unit.columns[1] and row.get(unit.columns[1]) not in (None, ""):
                book_id = _cell(row.get(unit.columns[1]))
            elif not unit.columns[1]:
                book_id = f"row-{number}"
            yield Skip(unit.rel, book_id, exc.status, str(exc), row=number)
