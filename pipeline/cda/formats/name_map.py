"""Name-map files: gender-guesser's ``nam_dict.txt`` (read from the installed package) and
the n-CDA map written by ``namemap`` (``name_map.parquet`` + ``name_map.tsv``).

Source
------
gender-guesser's ``nam_dict.txt`` (Jörg Michael's first-name dictionary), read from the
installed package at run time (:func:`nam_dict_path`), never copied into the repository.
The layout, from the file's own header comments (0-based character positions):

* ``[0:2]``  gender code: ``M`` male, ``1M``/``?M`` mostly male, ``F`` female,
  ``1F``/``?F`` mostly female, ``?`` unisex; ``=`` lines list equivalent names (ignored);
* ``[3:29]`` the name; a ``+`` inside a name stands for ``-``, ``' '`` or nothing
  ("Jun+Wei" is "Jun-Wei", "Jun Wei" and "Junwei": the joined form lower-cases the letter
  after the ``+``, as the header's example shows);
* ``[29]``   sort marker: names with expandable umlauts are printed twice, the copy sorted
  with expanded umlauts carries ``+`` here; the header advises to ignore those lines, and we
  do (1,332 of the 1,335 are exact duplicates of another line; the other 3 are Miša and Saša);
* ``[30:85]`` one character per country (55 countries, Great Britain ... other countries):
  a hexadecimal frequency digit 1..D, blank = 0.

A name (after ``+`` expansion) with several entries keeps the entry with the largest total
frequency (sum of its 55 digits); on a tie the first entry in file order is kept.

May import: the standard library, pyarrow, :mod:`pipeline.errors`, :mod:`pipeline.formats`.
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from pipeline.errors import InputError

MAP_TSV_COLUMNS = ["name", "partner", "class", "weight"]
DEFAULT_MAP_DIR = Path("outputs/namemap")      # where ``namemap`` writes and ``cda`` caches
N_COUNTRIES = 55
NAME_START, NAME_END, MARKER_COL, VECTOR_START = 3, 29, 29, 30
VECTOR_END = VECTOR_START + N_COUNTRIES

CLASS_OF_CODE = {
    "M": "male", "1M": "mostly_male", "?M": "mostly_male",
    "F": "female", "1F": "mostly_female", "?F": "mostly_female",
    "?": "unisex",
}

# ----------------------------------------------------------------------------------------
# nam_dict.txt
# ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class NameEntry:
    name: str
    code: str                  # gender code as written (M, 1M, ?M, F, 1F, ?F, ?)
    cls: str                   # male | mostly_male | female | mostly_female | unisex
    vector: tuple[int, ...]    # 55 frequencies, 0..13
    line: int                  # 1-based line number in nam_dict.txt

    @property
    def total(self) -> int:
        return sum(self.vector)


def expand_plus(name: str) -> list[str]:
    """The spellings a '+' name stands for: hyphenated, spaced, joined ("Jun+Wei" ->
    "Jun-Wei", "Jun Wei", "Junwei")."""
    if "+" not in name:
        return [name]
    parts = name.split("+")
    joined = parts[0] + "".join(p[:1].lower() + p[1:] for p in parts[1:])
    out = []
    for form in ("-".join(parts), " ".join(parts), joined):
        if form not in out:
            out.append(form)
    return out


_HEX = " 123456789ABCDEF"
_VALID = frozenset(_HEX)
# byte -> value: blank = 0, '1'..'9' = 1..9, 'A'..'F' = 10..15
_TO_VALUE = bytes.maketrans(_HEX.encode("ascii"), bytes([0, *range(1, 16)]))


def parse_vector(field: str, path=None, lineno: int = 0) -> tuple[int, ...]:
    """The 55 frequencies of a country field (hexadecimal digits, blank = 0)."""
    field = field.ljust(N_COUNTRIES)
    if not _VALID.issuperset(field):
        bad = next(ch for ch in field if ch not in _VALID)
        raise InputError(f"frequency column holds {bad!r}, not a hexadecimal digit", path, lineno)
    return tuple(field.encode("ascii").translate(_TO_VALUE))


def parse_line(line: str, path=None, lineno: int = 0) -> list[NameEntry]:
    """Entries of one dictionary line (several for a '+' name); [] for comments, equivalence
    lines, blank lines and the expanded-umlaut duplicates ('+' in the sort-marker column)."""
    line = line.rstrip("\r\n")
    if not line.strip() or line.startswith("#") or line.startswith("="):
        return []
    code = line[:NAME_START].strip()
    if code not in CLASS_OF_CODE:
        raise InputError(f"unknown gender code {code!r}", path, lineno)
    if len(line) > MARKER_COL and line[MARKER_COL] == "+":
        return []
    name = line[NAME_START:NAME_END].strip()
    if not name or len(name.split()) != 1:
        raise InputError(f"bad name field {line[NAME_START:NAME_END]!r}", path, lineno)
    vector = parse_vector(line[VECTOR_START:VECTOR_END], path, lineno)
    return [NameEntry(form, code, CLASS_OF_CODE[code], vector, lineno) for form in expand_plus(name)]


def parse_nam_dict(lines: Iterable[str], path=None) -> dict[str, NameEntry]:
    """name -> its kept entry (largest total frequency; first in file order on ties)."""
    best: dict[str, NameEntry] = {}
    for lineno, line in enumerate(lines, start=1):
        for entry in parse_line(line, path, lineno):
            old = best.get(entry.name)
            if old is None or entry.total > old.total:
                best[entry.name] = entry
    return best





def nam_dict_path() -> Path:
    """The dictionary inside the installed gender-guesser package."""
    path = importlib.resources.files("gender_guesser") / "data" / "nam_dict.txt"
    return Path(str(path))


def load_nam_dict(path: str | Path | None = None) -> dict:
    """name -> :class:`NameEntry` of a nam_dict.txt (default: the installed one)."""
    path = Path(path) if path is not None else nam_dict_path()
    if not path.exists():
        raise InputError("file not found", path)
    try:
        with open(path, encoding="utf-8") as fh:
            return parse_nam_dict(fh, path)
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 ({exc})", path) from exc


def write_map(rows: list[dict], out_dir: str | Path, metadata: dict[str, str] | None = None) -> tuple[Path, Path]:
    """``name_map.parquet`` (schema NAME_MAP, ``metadata`` in the file's key-value metadata)
    and ``name_map.tsv`` (name, partner, class, weight) in ``out_dir``, each atomically."""
    import pyarrow as pa

    from pipeline.formats.gap_tsv import write_tsv
    from pipeline.formats.schemas import NAME_MAP
    from pipeline.formats.tables import write_table

    out_dir = Path(out_dir)
    table = pa.Table.from_pylist(rows, schema=NAME_MAP)
    if metadata:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               **{k.encode(): v.encode() for k, v in metadata.items()}})
    pq_path, tsv_path = out_dir / "name_map.parquet", out_dir / "name_map.tsv"
    write_table(table, pq_path)
    write_tsv(({**r, "weight": repr(r["weight"])} for r in rows), tsv_path, MAP_TSV_COLUMNS)
    return pq_path, tsv_path


def read_map(path: str | Path) -> dict[str, str]:
    """name -> partner from a name_map.parquet or name_map.tsv; checks symmetry."""
    from pipeline.formats.tables import read_table
    from pipeline.formats.gap_tsv import read_tsv

    path = Path(path)
    if path.suffix == ".parquet":
        table = read_table(path)
        missing = [c for c in ("name", "partner") if c not in table.column_names]
        if missing:
            raise InputError(f"missing column(s) {', '.join(missing)}", path)
        names = table.column("name").to_pylist()
        partners = table.column("partner").to_pylist()
        first_row = 0
    else:
        df = read_tsv(path, ["name", "partner"])
        names, partners = df["name"].tolist(), df["partner"].tolist()
        first_row = 2
    mapping: dict[str, str] = {}
    for i, (a, b) in enumerate(zip(names, partners)):
        if not a or not b:
            raise InputError("empty name or partner", path, i + first_row)
        if a == b:
            raise InputError(f"{a!r} is mapped to itself: a name map swaps a name with another", path,
                             i + first_row)
        if mapping.get(a, b) != b:
            raise InputError(f"{a!r} is mapped twice", path, i + first_row)
        mapping[a] = b
    for a, b in mapping.items():
        if mapping.get(b) != a:
            raise InputError(f"map is not symmetric: {a!r} -> {b!r} but {b!r} -> {mapping.get(b)!r}", path)
    return mapping



def map_metadata(path: str | Path) -> dict[str, str]:
    """The key-value metadata of a name_map.parquet (alpha, nam_dict_sha256)."""
    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    return {k.decode(): v.decode() for k, v in meta.items() if not k.startswith(b"ARROW")}
