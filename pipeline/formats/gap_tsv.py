"""GAP TSV and the other tab-separated files: one reader and one writer, on top of :mod:`csv`.

GAP TSV columns: ID, Text, Pronoun, Pronoun-offset, A, A-offset, A-coref, B, B-offset,
B-coref, and optionally URL (GAP) or Book (Counter-GAP); other extra columns are kept.

Two ways of writing such a file are in use:

* **raw** (GAP's original files): fields are split at tabs, records at line ends, nothing is
  quoted; a text may begin with a double quote that is part of the text;
* **csv quoting** (Python's ``csv`` module with ``delimiter='\\t'``, as Counter-GAP's releases
  and spreadsheets write them, and as GAP's ``gap_scorer.py`` reads them): a field holding a
  tab, a line end or a double quote is wrapped in double quotes and its inner quotes doubled.

The two readings differ only on files where some field starts with a double quote.
:func:`read_gap_tsv` decides per file and proves the choice by the offsets: both readings are
made (the csv one strictly: a quote in the middle of an unquoted field, or text after a
closing quote, makes that reading fail), and the one under which more rows have every
Pronoun/A/B offset pointing at its string is taken (ties: the csv reading, when it parsed).
Rows that are still bad under the chosen reading are bad input, as before. A quoted field
that never closes (the csv reading ends inside it) while the raw reading has bad rows is
reported as an unterminated quote at the line where the field opens.

:func:`write_tsv` writes with ``csv.QUOTE_MINIMAL`` (tab delimiter, ``\\n`` line ends, UTF-8,
atomically): ``csv.DictReader(f, delimiter='\\t')`` reads back every field exactly, and a
file in which no field needed quoting is byte for byte what the raw layout would be.

Row numbers in errors are 1-based line numbers of the file (the header is line 1); a record
with a quoted multi-line field is named by the line where it starts. A Text longer than
:data:`MAX_TEXT` characters (spaCy's ``max_length``: no pipeline would take it) is a bad row;
so are an offset that is not plain ASCII decimal digits (``1_23``, ``+12``, Arabic-Indic
digits: :func:`parse_offset`), a Pronoun-offset inside a longer word ("her" in "Catherine"),
and A-coref and B-coref both TRUE. A NUL byte anywhere refuses the file (reading and
writing). :func:`check_unique_ids` refuses an ID given twice.

May import: the standard library, pandas, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from pipeline.errors import InputError
from pipeline.formats.files import atomic_path, check_published

GAP_COLUMNS = ["ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref",
               "B", "B-offset", "B-coref", "URL"]
GAP_REQUIRED = [c for c in GAP_COLUMNS if c != "URL"]
GAP_OFFSET_COLUMNS = ["Pronoun-offset", "A-offset", "B-offset"]
MAX_TEXT = 1_000_000            # spaCy's default max_length: a longer Text is a bad row
SYSTEM_COLUMNS = ["ID", "A-coref", "B-coref"]
RAW, CSV = "raw", "csv"


# ------------------------------------------------------------------------------ booleans

def parse_bool(value: object, path=None, row=None, column: str = "") -> bool | None:
    """The project's one boolean parser. GAP booleans: TRUE/FALSE in any case (also Python
    bools); empty or missing means unknown (None); anything else is bad input."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and value != value:          # NaN from pandas
        return None
    if type(value).__name__ in ("bool_", "NAType"):            # numpy bool, pandas NA
        return None if type(value).__name__ == "NAType" else bool(value)
    text = str(value).strip().upper()
    if text == "TRUE":
        return True
    if text == "FALSE":
        return False
    if text == "":
        return None
    raise InputError(f"column {column!r} must be TRUE or FALSE, got {value!r}", path, row)


def gap_bool(value: bool | None) -> str:
    return "" if value is None else ("TRUE" if value else "FALSE")


# ------------------------------------------------------------------------------ parsing

@dataclass
class Parsed:
    """One reading of a tab-separated file: header, records (lists of fields) and the line
    where each record starts."""
    quoting: str
    header: list[str]
    records: list[list[str]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


class _Unterminated(Exception):
    def __init__(self, line: int):
        self.line = line


def _read_text(path: Path) -> str:
    if not path.exists():
        raise InputError("file not found", path)
    if path.is_dir():
        raise InputError("is a directory, expected a tab-separated file", path)
    check_published(path)
    with open(path, "rb") as fh:
        return decode_text(path, fh.read())


def decode_text(path: Path, data: bytes) -> str:
    """The text of a tab-separated file read as bytes (UTF-8, a BOM dropped, line ends kept);
    not UTF-8, or a NUL byte, is a one-line :class:`InputError` naming ``path``."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 ({exc.reason} at byte {exc.start})", path) from None
    nul = text.find("\x00")
    if nul >= 0:
        raise InputError("a NUL byte in a field (binary data, not a tab-separated file)", path,
                         text.count("\n", 0, nul) + 1)
    return text


def _parse_raw(text: str) -> Parsed:
    lines = text.split("\n")
    out: Parsed | None = None
    for no, line in enumerate(lines, start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line.strip():
            continue
        fields = line.split("\t")
        if out is None:
            out = Parsed(RAW, fields)
        else:
            out.records.append(fields)
            out.lines.append(no)
    return out or Parsed(RAW, [])


def _parse_csv(text: str) -> Parsed:
    """Strict csv reading (QUOTE_MINIMAL conventions). Raises csv.Error (with the line) on a
    malformed quote and :class:`_Unterminated` when the file ends inside a quoted field."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t", strict=True)
    out: Parsed | None = None
    prev = 0
    while True:
        start = prev + 1
        try:
            rec = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            if "unexpected end of data" in str(exc):
                raise _Unterminated(start) from None
            raise csv.Error(f"{exc} (line {reader.line_num})") from None
        prev = reader.line_num
        if not rec or (len(rec) == 1 and not rec[0].strip()):
            continue
        if out is None:
            out = Parsed(CSV, rec)
        else:
            out.records.append(rec)
            out.lines.append(start)
    return out or Parsed(CSV, [])


def _needs_choice(text: str) -> bool:
    """True when some field starts with a double quote (only then do the readings differ)."""
    return text.startswith('"') or '\t"' in text or '\n"' in text


def _check_header(parsed: Parsed, required: Iterable[str], path) -> None:
    if not parsed.header:
        raise InputError("empty file (no header line)", path)
    dup = sorted({c for c in parsed.header if parsed.header.count(c) > 1})
    if dup:
        raise InputError(f"column(s) {', '.join(dup)} appear more than once in the header", path, 1)
    missing = [c for c in required if c not in parsed.header]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}", path)


def _as_dict(header: list[str], rec: list[str], path, line: int) -> dict:
    if len(rec) != len(header):
        raise InputError(f"{len(rec)} tab-separated fields, the header has {len(header)}", path, line)
    return dict(zip(header, rec))


def read_tsv_records(path: str | os.PathLike, required: Iterable[str] = (),
                     headerless=None, text: str | None = None) -> tuple[list[str], list[dict], list[int]]:
    """A tab-separated file with a header, read as :mod:`csv` reads it (strict), falling back
    to the raw reading when the csv reading fails on a quote that is part of a field (GAP's
    own files). Returns (header, rows as dicts of strings, the line of each row).

    ``headerless``: a function (first record's fields -> column names or None); when it gives
    names, the file has no header line and its first line is data (GAP system outputs).
    ``text``: the file already read (:func:`decode_text`)."""
    path = Path(path)
    text = _read_text(path) if text is None else text
    parsed = _parse_raw(text)
    if _needs_choice(text):
        try:
            parsed = _parse_csv(text)
        except _Unterminated as exc:
            raise InputError("unterminated quote: the quoted field that opens on this line never "
                             "closes", path, exc.line) from None
        except csv.Error:
            pass                                    # a quote inside a raw field: raw reading
    names = headerless(parsed.header) if headerless is not None and parsed.header else None
    if names:
        first = next((i for i, ln in enumerate(text.split("\n"), start=1) if ln.strip()), 1)
        parsed.records.insert(0, parsed.header)
        parsed.lines.insert(0, first)
        parsed.header = list(names)
    _check_header(parsed, required, path)
    rows = [_as_dict(parsed.header, rec, path, line) for rec, line in zip(parsed.records, parsed.lines)]
    return parsed.header, rows, parsed.lines


def read_tsv(path: str | os.PathLike, required: list[str], text: str | None = None):
    """A tab-separated file with a header as a pandas DataFrame of strings (see
    :func:`read_tsv_records`; ``text``: the file already read); checks the required columns."""
    import pandas as pd

    header, rows, _ = read_tsv_records(path, required, text=text)
    return pd.DataFrame(rows, columns=header, dtype=object).astype(str) if rows else \
        pd.DataFrame({c: pd.Series([], dtype=str) for c in header})


# ------------------------------------------------------------------------------ GAP rows

def validate_gap_row(row: dict, path=None, rowno=None) -> dict:
    """Check one GAP TSV row: integer offsets that point at their strings. Returns typed row
    (offsets int, A-coref/B-coref bool or None)."""
    out = dict(row)
    for col in GAP_OFFSET_COLUMNS:
        out[col] = parse_offset(row[col], col, path, rowno)
    text = row["Text"]
    if len(text) > MAX_TEXT:
        raise InputError(f"Text of {len(text):,} characters is longer than {MAX_TEXT:,} (spaCy's "
                         "max_length): not a GAP example", path, rowno)
    for name_col, off_col in (("Pronoun", "Pronoun-offset"), ("A", "A-offset"), ("B", "B-offset")):
        off = out[off_col]
        if off < 0 or text[off:off + len(row[name_col])] != row[name_col] or not row[name_col]:
            raise InputError(f"{off_col} {off} does not point at {name_col} {row[name_col]!r}", path, rowno)
    off, pronoun = out["Pronoun-offset"], row["Pronoun"]
    if _word_char(text[off - 1:off]) or _word_char(text[off + len(pronoun):off + len(pronoun) + 1]):
        raise InputError(f"Pronoun-offset {off} is inside the word "
                         f"{_word_around(text, off, len(pronoun))!r}, not at a pronoun of its own", path, rowno)
    for col in ("A-coref", "B-coref"):
        if col in row:
            out[col] = parse_bool(row[col], path, rowno, col)
    if out.get("A-coref") is True and out.get("B-coref") is True:
        raise InputError("A-coref and B-coref are both TRUE: the pronoun refers to one of A and B at "
                         "most", path, rowno)
    return out


_ASCII_DIGITS = frozenset("0123456789")


def parse_offset(value: object, column: str, path=None, rowno=None) -> int:
    """A character offset: a plain ASCII decimal integer (an int, or a string of the digits
    0-9 only, surrounding spaces allowed). ``1_23``, ``+12``, ``١٢`` (Arabic-Indic digits),
    ``1e3``, ``12.0`` are refused although :func:`int` would take some of them."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if type(value).__name__.startswith("int") and hasattr(value, "item"):     # numpy integers
        return int(value)
    text = str(value).strip() if isinstance(value, str) else None
    if not text or not _ASCII_DIGITS.issuperset(text) or len(text) > 18:
        raise InputError(f"{column} is not an integer (plain ASCII digits): {value!r}", path, rowno)
    return int(text)


def _word_char(ch: str) -> bool:
    return bool(ch) and (ch.isalnum() or ch == "_")


def _word_around(text: str, off: int, length: int) -> str:
    start, end = off, off + length
    while start > 0 and _word_char(text[start - 1]):
        start -= 1
    while end < len(text) and _word_char(text[end]):
        end += 1
    return text[start:end]


def _validate_all(parsed: Parsed, path) -> tuple[list[tuple[int, dict | InputError]], int]:
    results, good = [], 0
    for rec, line in zip(parsed.records, parsed.lines):
        try:
            row = validate_gap_row(_as_dict(parsed.header, rec, path, line), path, line)
            good += 1
            results.append((line, row))
        except InputError as exc:
            results.append((line, exc))
    return results, good


@dataclass
class GapFile:
    """What :func:`read_gap_file` found: the rows, the header, the reading it chose."""
    rows: list[dict]
    n_bad: int
    header: list[str]
    quoting: str                   # "raw" or "csv"
    lines: list[int]               # line of each kept row


def read_gap_file(path: str | os.PathLike, skip_bad_rows: bool = False, warn=None,
                  text: str | None = None) -> GapFile:
    """Read and validate a GAP TSV file, deciding the quoting by the offsets (module doc;
    ``text``: the file already read, :func:`decode_text`)."""
    path = Path(path)
    text = _read_text(path) if text is None else text
    raw = _parse_raw(text)
    _check_header(raw, [], path)
    chosen = raw
    if _needs_choice(text):
        raw_res, raw_good = _validate_all(raw, path) if set(GAP_REQUIRED) <= set(raw.header) else ([], -1)
        try:
            quoted = _parse_csv(text)
        except _Unterminated as exc:
            if raw_good == len(raw.records):
                quoted = None
            else:
                raise InputError("unterminated quote: the quoted field that opens on this line "
                                 "never closes", path, exc.line) from None
        except csv.Error:
            quoted = None
        if quoted is not None:
            _check_header(quoted, GAP_REQUIRED, path)
            _, csv_good = _validate_all(quoted, path)
            if csv_good >= raw_good:
                chosen = quoted
    _check_header(chosen, GAP_REQUIRED, path)
    results, _ = _validate_all(chosen, path)
    rows, lines, bad = [], [], 0
    for line, res in results:
        if isinstance(res, InputError):
            if not skip_bad_rows:
                raise res
            bad += 1
            if warn is not None:
                warn(f"warning: {res}")
        else:
            rows.append(res)
            lines.append(line)
    return GapFile(rows, bad, chosen.header, chosen.quoting, lines)


def check_unique_ids(rows: list[dict], path, lines: list[int] | None = None) -> None:
    """Refuse a GAP file whose ``ID`` column names one example twice (row numbers of both)."""
    seen: dict[str, int] = {}
    for k, row in enumerate(rows):
        line = lines[k] if lines else k + 2
        key = str(row["ID"])
        if not key.strip() or row["ID"] is None:
            raise InputError("an empty ID: every example needs its own ID", path, line)
        if key in seen:
            raise InputError(f"duplicate ID {key!r} (first on row {seen[key]}): every example needs "
                             "its own ID", path, line)
        seen[key] = line


def read_gap_tsv(path: str | os.PathLike, skip_bad_rows: bool = False,
                 warn=None) -> tuple[list[dict], int]:
    """Read and validate a GAP TSV file. Returns (rows, number of bad rows skipped).

    Every column of the file is kept in the row dicts (Book, URL, ...); offsets are ints,
    A-coref/B-coref bools (None when empty).
    """
    got = read_gap_file(path, skip_bad_rows, warn)
    return got.rows, got.n_bad


# ------------------------------------------------------------------------------ writing

def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return gap_bool(bool(value))
    return str(value)


def write_tsv(rows: Iterable[dict], target: str | os.PathLike, columns: list[str],
              header: bool = True) -> None:
    """The project's one TSV writer: header ``columns`` (none when not ``header``), one line
    per row (missing keys are empty; bools TRUE/FALSE; None empty), csv.QUOTE_MINIMAL, tab,
    ``\n``, UTF-8, atomic.

    A field holding a tab, a double quote, ``\n`` or ``\r`` is quoted (the csv module alone
    would leave a bare ``\r`` unquoted with ``\n`` line ends, and every csv reader ends the
    record there): rows are formatted with ``\r\n`` as the line terminator, which makes
    both characters special, and the terminator is then written as ``\n``.
    """
    columns = list(columns)
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")

    def line(values: list[str]) -> str:
        for col, v in zip(columns, values):
            if "\x00" in v:
                raise InputError(f"a NUL byte in column {col!r}: not written", target)
        buf.seek(0)
        buf.truncate()
        w.writerow(values)
        return buf.getvalue()[:-2] + "\n"

    with atomic_path(target) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            if header:
                fh.write(line(columns))
            for r in rows:
                fh.write(line([_cell(r.get(c)) for c in columns]))


def write_gap_tsv(rows: list[dict], target: str | os.PathLike, extra_columns: Iterable[str] = ()) -> None:
    """GAP TSV (the GAP columns plus ``extra_columns`` such as Book), see :func:`write_tsv`."""
    write_tsv(rows, target, GAP_COLUMNS + [c for c in extra_columns if c not in GAP_COLUMNS])


def write_system_tsv(rows: Iterable[dict], target: str | os.PathLike,
                     columns: list[str] = SYSTEM_COLUMNS) -> None:
    """A GAP system output in the layout GAP's ``gap_scorer.py`` reads: NO header line (the
    scorer reads a system file with fixed field names ID, A-coref, B-coref and would take a
    header for a data row), columns ``columns`` (ID, A-coref, B-coref, then optional A-prob,
    B-prob, AB-prob, which the scorer ignores). :func:`pipeline.formats.system_outputs.read_gap_predictions`
    reads it back by position."""
    write_tsv(rows, target, columns, header=False)
