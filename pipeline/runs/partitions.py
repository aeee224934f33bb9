"""Units of a corpus, one partition each: what extract and persons share.

Generate uses the same layout for its books (one partition per book, under
``OUT/generate-parts``).

A corpus is cut into units (:func:`pipeline.formats.books.plan_corpus`); each unit's results
are written by this process alone into ``OUT/parts/<partition>/`` (a readable slug of the
unit's key and a hash of it, so no two units share one), and a unit whose partition holds its
marker file is done: a rerun skips it (resume). The engines (:mod:`pipeline.engines`) run the
per-unit function; the run merges the partitions of the current corpus at the end.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats`, :mod:`pipeline.lang.names`
(the titles' genders, for the cast file's alias clusters), :mod:`pipeline.lang.person_model` (the shipped
model, read before anything is written).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.formats.corpus.walk import unit_books  # noqa: F401 -- (path, book id) of a unit's books, for the runs


def partition_name(key: str) -> str:
    """Directory name of a unit's partition: a readable slug of its key (for a file, its
    corpus-relative path) and 12 hex digits of the key's sha256 (``a/b.txt`` ->
    ``a_b.txt-<hash>``, ``a__b.txt`` -> ``a__b.txt-<other hash>``)."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", key).strip("._")[:60] or "book"
    return f"{slug}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:12]}"


@dataclass(frozen=True)
class Partitions:
    """The partitions under ``out/<under>`` (extract and persons: ``parts``; generate:
    ``generate-parts``, so that it can write into the extract directory itself); a unit is
    done when its partition holds every file of ``done_files`` (the last one written marks it
    done)."""
    out: Path
    done_files: tuple[str, ...]
    under: str = "parts"

    def dir(self, key: str) -> Path:
        return self.out / self.under / partition_name(key)

    def is_done(self, key: str) -> bool:
        d = self.dir(key)
        return all((d / f).exists() for f in self.done_files)

    def done(self, keys) -> list[Path]:
        """The partitions of the done units among ``keys``, in this order."""
        return [self.dir(k) for k in keys if self.is_done(k)]


def unit_label(unit) -> tuple[str, str]:
    """(path, book id) to report a unit whose result never came back (a batch of zip members:
    its first; :func:`unit_books` lists each)."""
    return unit_books(unit)[0]


def read_run_cast(cast):
    """The researcher's ``--cast`` file read once for the run (its bytes hashed and parsed from
    one read, with the English layer's title genders: :func:`pipeline.formats.cast.read_cast_file`)
    -> a :class:`pipeline.formats.cast.CastFile`, or None without one. A
    :class:`~pipeline.formats.cast.CastFile` given (read by ``build`` for its two stages) is
    returned as it is: not read again."""
    if cast is None:
        return None
    from pipeline.formats.cast import CastFile, read_cast_file

    if isinstance(cast, CastFile):
        return cast

    from pipeline.lang.names import title_gender

    return read_cast_file(cast, title_gender)


def check_cast(cast, plan):
    """Read the researcher's ``--cast`` file, once per run and before anything is written (a
    bad file stops the run: :func:`read_run_cast`), and refuse books the corpus does not hold,
    when the units' book ids are known before reading; -> the
    :class:`pipeline.formats.cast.CastFile` (its ``sha256`` for the run's settings, its
    ``overrides``, ``{book_id or "*": {form: gender}}``, handed to the workers as data:
    :func:`unit_cast`), or None. The shipped person model is read here too: a missing or
    outdated file stops the run with one line naming its training command, instead of every
    book failing in a worker."""
    from pipeline.lang.person_model import shipped_model

    shipped_model()
    read = read_run_cast(cast)
    if read is not None and _ids_known(plan.units):
        from pipeline.formats.cast import check_books

        check_books(read.overrides, {book_id for u in plan.units for _, book_id in unit_books(u)}, read.path)
    return read


def _ids_known(units) -> bool:
    """Whether the book ids of ``units`` are known before reading them."""
    return all(u.kind in ("file", "member", "members", "variants") for u in units)


def unit_cast(overrides, unit) -> dict | None:
    """The part of a run's cast ``overrides`` (a dict, or the
    :class:`pipeline.formats.cast.CastFile` read by :func:`check_cast`) one unit needs (its
    books' entries and ``*``, when its book ids are known before reading; all of it
    otherwise), so a task sent to a worker does not carry the whole corpus's cast."""
    overrides = getattr(overrides, "overrides", overrides)
    if overrides is None or not _ids_known([unit]):
        return overrides
    from pipeline.formats.corpus.walk import unit_book_id

    ids = {book_id for _, book_id in unit_books(unit)} | {"*"}
    ids |= {unit_book_id(u) for u in unit.alternatives}       # variants: any copy may be the one read
    return {book: forms for book, forms in overrides.items() if book in ids}


def check_workers(workers: int) -> None:
    from pipeline.errors import InputError

    if workers < 1:
        raise InputError("--workers must be at least 1")
