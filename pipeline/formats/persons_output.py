"""The JSON files of a persons run (its tables are :mod:`pipeline.formats.tables` Parquet and
``cast.tsv`` is :mod:`pipeline.formats.cast`):

* ``OUT/manifest.json`` -- the run's settings (``"kind": "persons"``, model, components, cast
  file hash, corpus, fingerprint): :func:`write_persons_manifest`, :func:`read_persons_manifest`;
* ``OUT/parts/<partition>/books.json`` -- a partition's done marker, one row per book of the
  unit (:data:`BOOK_ROW`): :func:`write_done`, :func:`read_done`.

Both are written atomically (:func:`pipeline.formats.files.write_text`: a temporary file beside
the target, fsync, rename). Both readers refuse, with an :class:`InputError` naming the file in
one line, a file that is missing, not JSON (cut by a kill under an older, non-atomic writer;
invalid UTF-8) or JSON of another shape; the run decides what a refusal means (a refused
marker: the partition is done again; a refused manifest: the run stops, exit 2).

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from pipeline.errors import InputError
from pipeline.formats.files import read_json, write_text

KIND = "persons"
MANIFEST = "manifest.json"
DONE = "books.json"             # a unit's partition is done once this file is written

# a book row of the done marker: field -> the types it takes (None: JSON null)
BOOK_ROW: dict[str, tuple[type, ...]] = {
    "book_id": (str, type(None)), "path": (str, type(None)), "status": (str,), "skip_reason": (str, type(None)),
    "n_words": (int,), "n_mentions": (int,), "n_persons": (int,), "seconds": (int, float),
}


def _reason(exc: InputError, path: Path) -> str:
    """An InputError's message without the ``PATH: `` it starts with."""
    return str(exc).removeprefix(f"{path}: ")


def _read(path: Path, what: str):
    """The JSON of ``path``; InputError ("WHAT: why", naming it) when it cannot be read or parsed."""
    try:
        return read_json(path)
    except InputError as exc:
        raise InputError(f"{what}: {_reason(exc, path)}", path) from None
    except OSError as exc:
        raise InputError(f"{what}: {exc.strerror or exc}", path) from None


def write_persons_manifest(path: str | os.PathLike, settings: dict) -> None:
    """``settings`` (with ``"kind": "persons"``) as the run's manifest, atomically."""
    write_text(path, json.dumps(settings, indent=2) + "\n")


def read_persons_manifest(path: str | os.PathLike) -> dict:
    """The settings of the persons run whose manifest ``path`` is; InputError (one line naming
    it) when it is unreadable or not a persons run's."""
    path = Path(path)
    old = _read(path, "unreadable manifest")
    if not isinstance(old, dict) or old.get("kind") != KIND:
        other = (old.get("command") or old.get("kind")) if isinstance(old, dict) else None
        other = other if isinstance(other, str) and other else None
        raise InputError(f"the manifest of {other + ' run' if other else 'another command'}, not of a persons "
                         "run: --overwrite leaves another command's folder alone; choose another --out", path)
    return old


def write_done(path: str | os.PathLike, rows: list[dict]) -> None:
    """A partition's done marker: its book rows (:data:`BOOK_ROW`), atomically."""
    write_text(path, json.dumps(rows) + "\n")


def _book_row_problem(row) -> str | None:
    if not isinstance(row, dict):
        return f"{json.dumps(row)[:40]} is not a book row (an object)"
    for field, types in BOOK_ROW.items():
        if field not in row:
            return f"no {field!r}"
        value = row[field]
        if isinstance(value, bool) or not isinstance(value, types):
            wanted = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            return f"{field!r} is {json.dumps(value)[:40]}, not {wanted}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"{field!r} is not a finite number"
    return None


def read_done(path: str | os.PathLike) -> list[dict]:
    """The book rows of a partition's done marker; InputError (one line naming it) when the
    marker is missing, cut, not JSON, or not a list of book rows."""
    path = Path(path)
    rows = _read(path, "unreadable partition marker")
    if not isinstance(rows, list):
        raise InputError("partition marker is not a list of book rows", path)
    for i, row in enumerate(rows, 1):
        problem = _book_row_problem(row)
        if problem:
            raise InputError(f"partition marker row {i}: {problem}", path)
    return rows
