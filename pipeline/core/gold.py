"""A gold dataset validated for scoring: IDs, pronoun genders, gold labels, texts and offsets,
and the quadruple structure (:class:`Gold`, :func:`normalise_dataset`).

Pure: a DataFrame read by :func:`pipeline.formats.dataset_files.read_dataset_frame` in, a
:class:`Gold` out. Used by ``evaluate`` and ``predict``.

May import: the standard library, numpy, pandas, :mod:`pipeline.errors`, :mod:`pipeline.vocab`,
:mod:`pipeline.lang.pronouns`, :mod:`pipeline.formats.system_outputs` (``rows_list`` only).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import InputError
from pipeline.formats.system_outputs import rows_list as _rows_list
from pipeline.vocab import ID_SUFFIX_RE as SUFFIX_RE, VARIANTS

MAX_LISTED = 5


@dataclass
class Gold:
    """A validated dataset. ``frame``: ID, Pronoun, A-coref, B-coref (bools), gender (+1/-1).

    ``positions``: (Q, 4) row indices of each quadruple's variants (VARIANTS order), or None
    for a GAP-style dataset.
    """
    path: Path
    frame: pd.DataFrame
    positions: np.ndarray | None
    quadruple_ids: list[str] = field(default_factory=list)
    spans: pd.DataFrame | None = None   # text, pronoun/a/b and their offsets, when the dataset has texts
    bases: np.ndarray | None = None      # per row: its quadruple id (the row's own id without quadruples)
    variants: np.ndarray | None = None   # per row: original / control / swap-1 / swap-2

    @property
    def quadruples(self) -> bool:
        return self.positions is not None

    def describe(self) -> str:
        if self.quadruples:
            return f"{len(self.quadruple_ids)} quadruples ({len(self.frame)} instances)"
        return f"GAP-style dataset, {len(self.frame)} instances"


def is_sowinobias(frame: pd.DataFrame) -> bool:
    if "set" not in frame.columns:
        return False
    values = set(frame["set"].astype(str).str.strip().str.lower())
    return bool(values) and values <= {"pro", "anti"}


def _parse_bools(values: pd.Series, column: str, rowno: np.ndarray, path) -> np.ndarray:
    """Vectorised TRUE/FALSE (any case) -> bool; error listing the first offending rows."""
    if values.dtype == bool:
        return values.to_numpy()
    if values.dtype.name == "boolean" or values.dtype == object and values.map(
            lambda v: isinstance(v, bool) or v is None).all():
        bad = values.isna().to_numpy()
        if bad.any():
            rows = [(int(r), f"{column} is empty") for r in rowno[bad]]
            raise InputError(f"{column} must be TRUE or FALSE: {_rows_list(rows)}", path, rows[0][0])
        return values.astype(bool).to_numpy()
    text = values.astype(str).str.strip().str.upper().to_numpy(dtype=object)
    true = text == "TRUE"
    ok = true | (text == "FALSE")
    if not ok.all():
        rows = [(int(r), f"{column}={v!r}") for r, v in zip(rowno[~ok], values[~ok])]
        raise InputError(f"{column} must be TRUE or FALSE: {_rows_list(rows)}", path, rows[0][0])
    return true


def normalise_dataset(raw: pd.DataFrame, path: Path) -> Gold:
    """Validate a dataset frame (Parquet columns or GAP TSV columns) into :class:`Gold`."""
    from pipeline.lang.pronouns import FEMININE, MASCULINE, target_pronoun_gender

    parquet = "id" in raw.columns and "ID" not in raw.columns
    first_row = 1 if parquet else 2          # TSV: the header is row 1
    rowno = np.arange(len(raw)) + first_row
    cols = ({"ID": "id", "A-coref": "a_coref", "B-coref": "b_coref", "Pronoun": "pronoun"}
            if parquet else {"ID": "ID", "A-coref": "A-coref", "B-coref": "B-coref", "Pronoun": "Pronoun"})
    need = [cols["ID"], cols["A-coref"], cols["B-coref"]]
    if not (parquet and "pronoun_gender" in raw.columns):
        need.append(cols["Pronoun"])
    missing = [c for c in need if c not in raw.columns]
    if missing:
        raise InputError(f"dataset lacks column(s) {', '.join(missing)}", path)
    if len(raw) == 0:
        raise InputError("dataset has no rows", path)

    ids = raw[cols["ID"]].astype(str).str.strip()
    dup = ids.duplicated(keep="first").to_numpy()
    if dup.any():
        rows = [(int(r), f"ID {i!r} again") for r, i in zip(rowno[dup], ids[dup])]
        raise InputError(f"duplicate ID(s) in the dataset: {_rows_list(rows)}", path, rows[0][0])

    gold_a = _parse_bools(raw[cols["A-coref"]], cols["A-coref"], rowno, path)
    gold_b = _parse_bools(raw[cols["B-coref"]], cols["B-coref"], rowno, path)

    sign = {MASCULINE: 1, FEMININE: -1}
    if parquet and "pronoun_gender" in raw.columns:
        gender_name = raw["pronoun_gender"].astype(str)
        pronoun = (raw["pronoun"].astype(str) if "pronoun" in raw.columns
                   else gender_name.map({MASCULINE: "he", FEMININE: "she"}))
        what = "pronoun_gender"
    else:
        pronoun = raw[cols["Pronoun"]].astype(str).str.strip()
        gender_name = pronoun.map(lambda p: target_pronoun_gender(p) or "")
        what = cols["Pronoun"]
    gender = gender_name.map(sign).fillna(0).astype(int).to_numpy()
    if (gender == 0).any():
        bad = gender == 0
        vals = (raw[what] if what in raw.columns else gender_name)[bad]
        rows = [(int(r), f"{what}={v!r}") for r, v in zip(rowno[bad], vals)]
        raise InputError(f"not a gendered pronoun: {_rows_list(rows)}", path, rows[0][0])

    frame = pd.DataFrame({"ID": ids.to_numpy(), "Pronoun": pronoun.to_numpy(),
                          "A-coref": gold_a, "B-coref": gold_b, "gender": gender})
    spans = _spans(raw, parquet)

    # quadruple structure: explicit Parquet columns, else the ID suffixes
    if parquet and {"quadruple_id", "variant"} <= set(raw.columns):
        base = raw["quadruple_id"].astype(str).to_numpy()
        variant = raw["variant"].astype(str).to_numpy()
    else:
        m = ids.str.extract(SUFFIX_RE)
        has = m["variant"].notna().to_numpy()
        base = np.where(has, m["base"].to_numpy(), ids.to_numpy())
        variant = np.where(has, m["variant"].to_numpy(), "original")
    variants = variant.astype(str)
    if (variant == "original").all():
        return Gold(path, frame, None, spans=spans, bases=base.astype(str), variants=variants)
    return Gold(path, frame, *_quadruple_positions(base, variant, gender, path), spans=spans,
                bases=base.astype(str), variants=variants)


SPAN_COLUMNS = {   # ours: (Parquet column, TSV column)
    "text": ("text", "Text"), "pronoun": ("pronoun", "Pronoun"),
    "pronoun_offset": ("pronoun_offset", "Pronoun-offset"), "a": ("a", "A"),
    "a_offset": ("a_offset", "A-offset"), "b": ("b", "B"), "b_offset": ("b_offset", "B-offset")}


def _spans(raw: pd.DataFrame, parquet: bool) -> pd.DataFrame | None:
    """The texts and mention offsets (needed to score cluster outputs), or None."""
    pick = 0 if parquet else 1
    cols = {ours: theirs[pick] for ours, theirs in SPAN_COLUMNS.items()}
    if not set(cols.values()) <= set(raw.columns):
        return None
    out = pd.DataFrame({ours: raw[theirs].to_numpy() for ours, theirs in cols.items()})
    if out.isna().to_numpy().any():
        return None
    for c in ("pronoun_offset", "a_offset", "b_offset"):
        out[c] = out[c].astype(int)
    return out


def _quadruple_positions(base: np.ndarray, variant: np.ndarray, gender: np.ndarray,
                         path) -> tuple[np.ndarray, list[str]]:
    df = pd.DataFrame({"q": base, "v": variant, "row": np.arange(len(base))})
    unknown = ~df["v"].isin(VARIANTS)
    if unknown.any():
        raise InputError(f"unknown variant(s) {sorted(set(df.v[unknown]))[:MAX_LISTED]}", path)
    order = pd.unique(df["q"])
    table = df.pivot(index="q", columns="v", values="row").reindex(index=order, columns=list(VARIANTS))
    incomplete = table.isna().any(axis=1).to_numpy()
    if incomplete.any():
        names = []
        for q, row in table[incomplete].iterrows():
            lacking = [v for v in VARIANTS if pd.isna(row[v])]
            names.append(f"{q} (no {'/'.join(lacking)})")
        more = f" and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else ""
        raise InputError(f"{len(names)} incomplete quadruple(s): {', '.join(names[:MAX_LISTED])}{more}",
                         path)
    positions = table.to_numpy(dtype=np.int64)
    g = gender[positions]
    bad = ~((g[:, 1] == g[:, 0]) & (g[:, 2] == -g[:, 0]) & (g[:, 3] == -g[:, 0]))
    if bad.any():
        names = list(order[bad])
        raise InputError(f"{len(names)} quadruple(s) whose control does not keep, or whose swaps "
                         f"do not flip, the original's pronoun gender: {', '.join(map(str, names[:MAX_LISTED]))}",
                         path)
    return positions, [str(q) for q in order]


def row_spans(sp) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    return ((sp.pronoun_offset, sp.pronoun_offset + len(sp.pronoun)),
            (sp.a_offset, sp.a_offset + len(sp.a)), (sp.b_offset, sp.b_offset + len(sp.b)))
