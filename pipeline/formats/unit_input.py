"""What a unit of the corpus was read from, so that a resumed run knows its input.

A resumed ``extract`` keeps the partitions of the units already done. That is right only
when their input is the same bytes: a book edited in place (same path, so same unit key) must
be extracted again. Each partition therefore holds ``input.json``: the size and sha256 of
every file its unit reads (a zip member's unit: the whole zip; a variants unit: each
alternative; a table's range of rows: the table file), written before the partition's done
marker. :func:`check_inputs` compares the files today with that record: a partition whose
record differs, or has none, is removed (the unit is to do again) and reported by its path.

Cost: every source file is hashed once per run (the hash of a table or zip shared by many
units is computed once: :class:`Hasher`), a streamed read at disk speed.

May import: the standard library, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Callable, Iterable

INPUT_FILE = "input.json"


class Hasher:
    """sha256 of files, each computed once per (path, size, mtime) in this process."""

    def __init__(self) -> None:
        self._cache: dict[tuple, str] = {}

    def entry(self, path: str) -> list:
        from pipeline.formats.files import sha256_file

        try:
            st = os.stat(path)
        except OSError:
            return [-1, ""]                          # gone: never equal to a record
        key = (path, st.st_size, st.st_mtime_ns)
        if key not in self._cache:
            try:
                self._cache[key] = sha256_file(path)
            except OSError:
                self._cache[key] = ""
        return [st.st_size, self._cache[key]]      # not the path: a corpus moved whole resumes


def unit_sources(unit) -> list[str]:
    """The files ``unit`` reads (absolute paths)."""
    if getattr(unit, "alternatives", ()):
        return [p for alt in unit.alternatives for p in unit_sources(alt)]
    return [unit.path]


def unit_input(unit, hasher: Hasher) -> dict:
    """The record of ``unit``'s input: its files' size and sha256, and which part of them it reads."""
    return {"files": [hasher.entry(p) for p in unit_sources(unit)],
            "member": getattr(unit, "member", ""), "rows": [unit.start, unit.stop]}


def read_record(part: Path) -> dict | None:
    try:
        data = json.loads((part / INPUT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def record_input(part: Path, record: dict) -> None:
    """Write ``part/input.json`` (atomically; before the partition's done marker)."""
    from pipeline.formats.files import write_text

    part.mkdir(parents=True, exist_ok=True)
    write_text(part / INPUT_FILE, json.dumps(record, sort_keys=True) + "\n")


def check_inputs(units: Iterable, part_dir: Callable[[str], Path],
                 is_done: Callable[[str], bool]) -> tuple[dict[str, dict], list[str]]:
    """Each unit's input record today, and the units (corpus-relative paths) whose done
    partition was made from other bytes (or has no record): their partitions are removed, so
    that they are extracted again."""
    hasher = Hasher()
    records, changed = {}, []
    for unit in units:
        records[unit.key] = rec = unit_input(unit, hasher)
        if is_done(unit.key):
            part = part_dir(unit.key)
            if read_record(part) != rec:
                changed.append(unit.rel)
                shutil.rmtree(part, ignore_errors=True)
    return records, changed
