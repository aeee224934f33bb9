"""Reading a GAP-style dataset for the diagnostics (``analyze``, ``weights``, ``baseline``): a
GAP TSV, a quadruples Parquet or an instances Parquet, as plain records; and the personal-name
spans JSON ``{"test-1": [[start, end, "Dehner"], ...]}``; and :func:`read_dataset_frame`, the
dataset of ``evaluate`` and ``predict`` as a DataFrame (validated by :mod:`pipeline.core.gold`).

Records have the keys id, text, pronoun, pronoun_offset, a, a_offset, b, b_offset, a_coref,
b_coref (bool or None) and names (a sorted list of (start, end, text) mention spans from a
Parquet ``names`` column, or None). :func:`pipeline.diagnostics.core.analysis.examples_from_records`
turns them into examples.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`,
:mod:`pipeline.formats.gap_tsv`, :mod:`pipeline.formats.tables`, :mod:`pipeline.formats.schemas`,
:mod:`pipeline.formats.benchmarks`, :mod:`pipeline.options`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

from pipeline.errors import InputError
from pipeline.formats.files import read_json
from pipeline.formats.gap_tsv import MAX_TEXT


def _names_column(names_col) -> list[tuple[int, int, str]] | None:
    if names_col is None:
        return None
    spans = set()
    for person in names_col:
        for m in person.get("mentions") or []:
            spans.add((int(m["start"]), int(m["end"]), m["text"]))
    return sorted(spans, key=lambda s: (s[0], s[1]))


def read_dataset(path: str | Path, originals_only: bool = True) -> tuple[list[dict], str]:
    """Records of a GAP TSV (kind "gap-tsv"), quadruples Parquet ("quadruples"; only the
    ``variant == "original"`` rows when ``originals_only``) or instances Parquet ("instances").
    Offsets are checked against the text; IDs must be unique."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    if path.suffix.lower() in (".tsv", ".txt"):
        from pipeline.formats.gap_tsv import read_gap_tsv

        rows, _ = read_gap_tsv(path)
        recs = [{"id": r["ID"], "text": r["Text"], "pronoun": r["Pronoun"],
                 "pronoun_offset": r["Pronoun-offset"], "a": r["A"], "a_offset": r["A-offset"],
                 "b": r["B"], "b_offset": r["B-offset"], "a_coref": r.get("A-coref"),
                 "b_coref": r.get("B-coref"), "names": None} for r in rows]
        kind = "gap-tsv"
    else:
        from pipeline.formats.tables import read_table

        table = read_table(path)
        cols = set(table.column_names)
        if {"quadruple_id", "variant", "id"} <= cols:
            kind, id_col = "quadruples", "id"
        elif "instance_id" in cols:
            kind, id_col = "instances", "instance_id"
        else:
            raise InputError("neither a quadruples nor an instances Parquet file (no id / instance_id column)", path)
        need = [id_col, "text", "pronoun", "pronoun_offset", "a", "a_offset", "b", "b_offset"]
        missing = [c for c in need if c not in cols]
        if missing:
            raise InputError(f"missing column(s) {', '.join(missing)}", path)
        recs = []
        for i, r in enumerate(table.to_pylist()):
            if kind == "quadruples" and originals_only and r.get("variant") != "original":
                continue
            try:
                rec = {"id": str(r[id_col]), "text": r["text"], "pronoun": r["pronoun"],
                       "pronoun_offset": int(r["pronoun_offset"]), "a": r["a"], "a_offset": int(r["a_offset"]),
                       "b": r["b"], "b_offset": int(r["b_offset"]), "a_coref": r.get("a_coref"),
                       "b_coref": r.get("b_coref"), "names": _names_column(r.get("names"))}
                if not all(isinstance(rec[k], str) for k in ("text", "pronoun", "a", "b")):
                    raise TypeError("text, pronoun, a and b must be strings")
            except (TypeError, ValueError) as exc:
                raise InputError(f"not a dataset row ({exc})", path, i) from None
            if len(rec["text"]) > MAX_TEXT:
                raise InputError(f"text of {len(rec['text']):,} characters is longer than {MAX_TEXT:,} "
                                 "(spaCy's max_length)", path, i)
            for which in ("pronoun", "a", "b"):
                s = rec[f"{which}_offset"]
                if rec["text"][s:s + len(rec[which])] != rec[which]:
                    raise InputError(f"{which}_offset {s} does not point at {which} {rec[which]!r}", path, i)
            recs.append(rec)
    ids = [r["id"] for r in recs]
    if len(set(ids)) != len(ids):
        seen, dup = set(), []
        for i in ids:
            if i in seen and i not in dup:
                dup.append(i)
            seen.add(i)
        raise InputError(f"duplicate example IDs: {', '.join(sorted(dup)[:5])}", path)
    return recs, kind


_VARIANT = re.compile(r"-(?:control|swap-\d+)$")       # a quadruple's variants share the original's spans file


def read_name_spans(path: str | Path, texts: Mapping[str, str]) -> dict[str, list[tuple[int, int, str]]]:
    """Read ``{"test-1": [[start, end, "Dehner"], ...]}`` for the examples ``texts`` (ID ->
    text) and check every span against its text."""
    path = Path(path)
    data = read_json(path)
    if not isinstance(data, dict):
        raise InputError("expected an object {example ID: [[start, end, text], ...]}", path)
    missing = [i for i in texts if i not in data]
    if missing:
        raise InputError(f"no name spans for {len(missing)} example(s), first: {', '.join(missing[:5])}", path)
    unknown = [i for i in data if i not in texts and _VARIANT.sub("", i) not in texts]
    if unknown:
        raise InputError(f"name spans for {len(unknown)} example(s) the dataset does not have, first: "
                         f"{', '.join(map(repr, unknown[:5]))} (another dataset's spans?)", path)
    out = {}
    for ex_id, text in texts.items():
        spans = []
        if not isinstance(data[ex_id], list):
            raise InputError(f"expected a list of [start, end, text], got {str(data[ex_id])[:60]!r}", path, ex_id)
        for item in data[ex_id]:
            if not isinstance(item, list) or len(item) != 3 or not isinstance(item[2], str) \
                    or any(isinstance(x, bool) or not isinstance(x, int) for x in item[:2]):
                raise InputError(f"bad span {str(item)[:80]} (expected [start, end, text], integer offsets)",
                                 path, ex_id)
            s, e, t = item
            if not 0 <= s < e <= len(text) or text[s:e] != t:
                raise InputError(f"span [{s}, {e}] is {text[s:e]!r}, not {t!r}", path, ex_id)
            spans.append((s, e, t))
        out[ex_id] = spans
    return out


def read_dataset_args(args, originals_only: bool) -> tuple[list[dict], str, dict | None]:
    """(records, kind, name spans or None) from the options of :func:`pipeline.options.dataset_options`."""
    records, kind = read_dataset(args.dataset, originals_only=originals_only)
    spans = (read_name_spans(args.name_spans, {r["id"]: r["text"] for r in records})
             if args.name_spans else None)
    return records, kind, spans


def read_dataset_frame(path: str | Path):
    """The dataset as a DataFrame: Parquet (by content or suffix); a GAP TSV with texts (its
    quoting decided by the offsets, :func:`pipeline.formats.gap_tsv.read_gap_file`: GAP's
    files and Counter-GAP's releases alike); else any TSV with a header, as strings."""
    return load_dataset(path).frame()


class DatasetFile:
    """A dataset of ``evaluate`` or ``predict`` read once (:func:`load_dataset`), its kind found
    once: a Parquet file is kept as its table (a benchmark when it has every ``BENCHMARK``
    column and the suffix ``.parquet``), a TSV as its DataFrame. An error while reading is kept
    and raised where the data is first asked for, where reading the file raised it before."""

    def __init__(self, path: Path, table=None, frame=None, error: Exception | None = None):
        from pipeline.formats.schemas import BENCHMARK

        self.path, self._table, self._frame, self._error = path, table, frame, error
        # a benchmark Parquet (as :func:`pipeline.formats.benchmarks.is_benchmark_file` says), found once
        self.is_benchmark = (error is None and table is not None and path.suffix.lower() == ".parquet"
                             and set(BENCHMARK.names) <= set(table.column_names))

    def frame(self):
        """The dataset as a DataFrame (a copy: the caller may change it), as
        :func:`read_dataset_frame` gives it."""
        if self._error is not None:
            raise self._error
        if self._frame is None:
            self._frame = _one_referent(self._table.to_pandas(), self.path, first_row=1)
        return self._frame.copy()

    def benchmark_items(self) -> list[dict]:
        """The items of a benchmark Parquet (:func:`pipeline.formats.benchmarks.read_benchmark`)."""
        from pipeline.formats.benchmarks import benchmark_items

        if self._error is not None:
            raise self._error
        if self._table is None:
            from pipeline.formats.benchmarks import read_benchmark

            return read_benchmark(self.path)        # a TSV: refused as read_benchmark refuses it
        return benchmark_items(self._table, self.path)


def load_dataset(path: str | Path) -> DatasetFile:
    """Read the dataset ``path`` once (one opening of the file: a Parquet's table, a TSV's
    bytes, its header line looked at to choose the reader) -> a :class:`DatasetFile`; never
    raises for a bad file (the error is raised when its data is asked for)."""
    path = Path(path)
    try:
        return _load(path)
    except (InputError, OSError) as exc:
        return DatasetFile(path, error=exc)


def _load(path: Path) -> DatasetFile:
    import pandas as pd

    from pipeline.formats.files import check_published
    from pipeline.formats.gap_tsv import GAP_REQUIRED, decode_text, read_gap_file, read_tsv

    if not path.exists():
        raise InputError("file not found", path)
    if path.is_dir():
        raise InputError("is a directory, expected a Parquet or TSV dataset", path)
    data = b"PAR1"
    if path.suffix.lower() not in (".parquet", ".pq"):
        with open(path, "rb") as fh:                # a TSV is read whole, once
            data = fh.read()
    if data[:4] == b"PAR1":
        from pipeline.formats.tables import read_table

        return DatasetFile(path, table=read_table(path))
    first = re.split(r"\r\n|\r|\n", data.decode("utf-8-sig", errors="replace"), maxsplit=1)[0]
    header = first.split("\t")
    check_published(path)
    text = decode_text(path, data)
    if set(GAP_REQUIRED) <= {h.strip('"') for h in header}:
        got = read_gap_file(path, text=text)        # refuses A and B both TRUE itself
        return DatasetFile(path, frame=pd.DataFrame(got.rows, columns=got.header))
    return DatasetFile(path, frame=_one_referent(read_tsv(path, [], text=text), path, first_row=2))


def _true(v) -> bool:
    """TRUE as the gold reader takes it: a bool (Python's or NumPy's) or the text TRUE, any case."""
    if isinstance(v, str):
        return v.strip().upper() == "TRUE"
    return type(v).__name__ in ("bool", "bool_") and bool(v)


def _one_referent(frame, path: Path, first_row: int):
    """Refuse a gold row with A and B both coreferent: the pronoun refers to
    one of them at most, and such a row was scored. ``first_row``: the row number of the first
    record as the dataset's other errors count it (a Parquet 1, a TSV under its header 2)."""
    for a, b in (("A-coref", "B-coref"), ("a_coref", "b_coref")):
        if a in frame.columns and b in frame.columns:
            both = [k for k, (x, y) in enumerate(zip(frame[a], frame[b])) if _true(x) and _true(y)]
            if both:
                raise InputError(f"{a} and {b} are both TRUE on {len(both)} row(s): the pronoun refers to one "
                                 "of A and B at most", path, both[0] + first_row)
    return frame
