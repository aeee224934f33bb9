"""Thin I/O shared by every stage: errors, atomic writes, Parquet and GAP TSV.

Nothing here knows about a stage's logic. Writers write to a temporary name beside the target
and rename it into place, so a killed run never leaves a truncated file behind.
"""

from __future__ import annotations

import contextlib
import csv
import os
import tempfile
from pathlib import Path
from typing import Iterator

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq


class InputError(Exception):
    """Bad user input. The CLI prints it as one line and exits with status 2."""

    def __init__(self, message: str, path: str | os.PathLike | None = None, row: int | str | None = None):
        where = ""
        if path is not None:
            where = str(path)
            if row is not None:
                where += f", row {row}"
            where += ": "
        super().__init__(where + message)
        self.path = path
        self.row = row


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``target``; rename it onto ``target`` on success.

    On any exception the temporary file is removed and ``target`` is left untouched.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".tmp-{target.name}.", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp_path, 0o666 & ~umask)   # mkstemp creates 0600; outputs are ordinary files
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def write_text(target: str | os.PathLike, text: str) -> None:
    with atomic_path(target) as tmp:
        tmp.write_text(text, encoding="utf-8")


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
    try:
        return pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"not a readable Parquet file ({exc})", path) from exc


def read_json(path: str | os.PathLike):
    """Parse a JSON file; a missing or unreadable file is an :class:`InputError`."""
    import json

    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"not readable JSON ({exc})", path) from exc


# ----------------------------------------------------------------------------------------
# GAP TSV: ID, Text, Pronoun, Pronoun-offset, A, A-offset, A-coref, B, B-offset, B-coref, URL
# ----------------------------------------------------------------------------------------

GAP_COLUMNS = ["ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref",
               "B", "B-offset", "B-coref", "URL"]
GAP_OFFSET_COLUMNS = ["Pronoun-offset", "A-offset", "B-offset"]


def parse_bool(value: object, path=None, row=None, column: str = "") -> bool | None:
    """GAP booleans: TRUE/FALSE in any case; empty means unknown (None)."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    if isinstance(value, bool):
        return value
    text = str(value).strip().upper()
    if text == "TRUE":
        return True
    if text == "FALSE":
        return False
    if text == "":
        return None
    raise InputError(f"column {column!r} must be TRUE or FALSE, got {value!r}", path, row)


def read_tsv(path: str | os.PathLike, required: list[str]) -> pd.DataFrame:
    """Read a tab-separated file with a header as strings; check the required columns."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    try:
        df = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, quoting=csv.QUOTE_NONE,
                         encoding="utf-8")
    except (UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise InputError(f"not a readable TSV file ({exc})", path) from exc
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}", path)
    return df


def validate_gap_row(row: dict, path=None, rowno=None) -> dict:
    """Check one GAP TSV row: integer offsets that point at their strings. Returns typed row."""
    out = dict(row)
    for col in GAP_OFFSET_COLUMNS:
        try:
            out[col] = int(str(row[col]).strip())
        except ValueError:
            raise InputError(f"{col} is not an integer: {row[col]!r}", path, rowno) from None
    text = row["Text"]
    for name_col, off_col in (("Pronoun", "Pronoun-offset"), ("A", "A-offset"), ("B", "B-offset")):
        off = out[off_col]
        if text[off:off + len(row[name_col])] != row[name_col]:
            raise InputError(f"{off_col} {off} does not point at {name_col} {row[name_col]!r}", path, rowno)
    for col in ("A-coref", "B-coref"):
        if col in row:
            out[col] = parse_bool(row[col], path, rowno, col)
    return out


def read_gap_tsv(path: str | os.PathLike, skip_bad_rows: bool = False,
                 warn=None) -> tuple[list[dict], int]:
    """Read and validate a GAP TSV file. Returns (rows, number of bad rows skipped).

    Row numbers in errors count the header as row 1, like a spreadsheet.
    """
    df = read_tsv(path, [c for c in GAP_COLUMNS if c != "URL"])
    rows, bad = [], 0
    for i, rec in enumerate(df.to_dict("records"), start=2):
        try:
            rows.append(validate_gap_row(rec, path, i))
        except InputError as exc:
            if not skip_bad_rows:
                raise
            bad += 1
            if warn is not None:
                warn(f"warning: {exc}")
    return rows, bad


def gap_bool(value: bool | None) -> str:
    return "" if value is None else ("TRUE" if value else "FALSE")


def write_gap_tsv(rows: list[dict], target: str | os.PathLike, extra_columns: list[str] = ()) -> None:
    """Write GAP TSV (plus extra columns such as Book) atomically. Tabs/newlines in text are
    replaced by spaces only if present (our texts never contain them)."""
    cols = GAP_COLUMNS + list(extra_columns)
    with atomic_path(target) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            fh.write("\t".join(cols) + "\n")
            for r in rows:
                vals = []
                for c in cols:
                    v = r.get(c, "")
                    if c in ("A-coref", "B-coref"):
                        v = gap_bool(v) if not isinstance(v, str) else v
                    vals.append(str(v).replace("\t", " ").replace("\n", " "))
                fh.write("\t".join(vals) + "\n")
