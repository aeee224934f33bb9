"""The cast of a corpus: ``cast.tsv`` (written by ``persons``) and the overrides a researcher
gives back with ``--cast FILE``.

``cast.tsv`` has a header and one row per person per book: ``book_id``, ``person``, ``name``,
``forms`` (the forms seen, joined by `` | ``), ``mentions``, ``gender`` (``masculine``,
``feminine``, ``unknown``; a researcher may write ``not-a-person``), ``evidence``.

``--cast FILE`` reads either

* an edited ``cast.tsv`` (it has a ``forms`` column): every form of a row whose gender is
  ``masculine``, ``feminine`` or ``not-a-person`` gets that gender; ``unknown`` rows are left
  to the pipeline; or
* a small TSV of ``book_id<TAB>form<TAB>masculine|feminine|not-a-person`` (a header line
  ``book_id form gender`` is optional); ``*`` as book id applies to every book.

Read once per run (:func:`read_cast_file`: the bytes hashed for the run's ``cast_sha256`` and
parsed from one read), with :mod:`csv` (tab-separated, no quoting). Errors name the file and row: an unknown
gender word, a form given twice for one book (forms differing only in case are one form), a
book's entry giving a form another gender than a ``*`` entry does, a missing field; :func:`check_books` refuses a
book id the corpus does not have.

May import: :mod:`pipeline.errors`, :mod:`pipeline.formats.files`, the standard library.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import InputError

GENDERS = ("masculine", "feminine", "not-a-person")
CAST_COLUMNS = ("book_id", "person", "name", "forms", "mentions", "gender", "evidence")
FORM_SEPARATOR = " | "
ALL_BOOKS = "*"


@dataclass(frozen=True)
class CastFile:
    """A ``--cast`` file read once: its path, the sha256 of the bytes read (a run's
    ``cast_sha256`` setting) and the overrides parsed from the same bytes
    (``{book_id or "*": {form: gender}}``)."""
    path: Path
    sha256: str
    overrides: dict = field(hash=False)


def read_cast_file(path: Path, title_gender=None) -> CastFile:
    """Read a cast file once: its bytes hashed and parsed (:func:`parse_cast`) from one read."""
    import hashlib

    try:
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the cast file: {exc}", path) from exc
    return CastFile(Path(path), hashlib.sha256(data).hexdigest(), parse_cast(text, path, title_gender))


def read_cast_overrides(path: Path, title_gender=None) -> dict[str, dict[str, str]]:
    """``{book_id: {form: gender}}`` from a cast file (:func:`read_cast_file` without the hash)."""
    return read_cast_file(path, title_gender).overrides


def parse_cast(text: str, path: Path, title_gender=None) -> dict[str, dict[str, str]]:
    """``{book_id: {form: gender}}`` from the text of a cast file ``path`` (see the module
    docstring). In an edited ``cast.tsv`` each row is one person's alias cluster: a form in two
    clusters of one book is refused (naming both rows), and so is a cluster whose forms carry
    titles of two genders, or titles of the other gender than its own, when the caller passes
    ``title_gender`` (word -> ``masculine`` / ``feminine`` / None: the English layer's titles)."""
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows:
        raise InputError("empty cast file", path)
    header = [h.strip().lower() for h in rows[0]]
    out: dict[str, dict[str, str]] = {}
    where: dict[tuple[str, str], tuple[int, str, str]] = {}    # (book, case-folded form) -> (row, form, gender)

    def put(book: str, form: str, gender: str, row: int) -> None:
        form = " ".join(form.split())
        if not book or not form:
            raise InputError("book_id and form must not be empty", path, row)
        if "\x00" in form or "\x00" in book:
            raise InputError("NUL byte in the cast file", path, row)
        if gender not in GENDERS:
            raise InputError(f"gender must be one of {', '.join(GENDERS)}, got {gender!r}", path, row)
        forms = out.setdefault(book, {})
        first = where.get((book, form.casefold()))
        if first is not None and first[0] != row:
            raise InputError(f"form {form!r} is given twice for book {book!r} (as {first[1]!r} on row "
                             f"{first[0]}, forms differing in case only are one name): one row per form",
                             path, row)
        if first is not None and first[2] != gender:
            raise InputError(f"form {form!r} has two genders in one row ({first[2]} and {gender})", path, row)
        where.setdefault((book, form.casefold()), (row, form, gender))
        forms[form] = gender

    if "forms" in header:
        missing = [c for c in ("book_id", "forms", "gender") if c not in header]
        if missing:
            raise InputError(f"cast.tsv without column(s) {', '.join(missing)}", path, 1)
        ib, i_f, ig = header.index("book_id"), header.index("forms"), header.index("gender")
        cluster_of: dict[tuple[str, str], int] = {}
        for row, fields in enumerate(rows[1:], 2):
            if not any(x.strip() for x in fields):
                continue
            if len(fields) <= max(ib, i_f, ig):
                raise InputError(f"expected {len(header)} tab-separated fields, got {len(fields)}", path, row)
            gender = fields[ig].strip().lower()
            book = fields[ib].strip()
            forms = [" ".join(f.split()) for f in fields[i_f].split(FORM_SEPARATOR.strip()) if f.strip()]
            for form in forms:
                first = cluster_of.setdefault((book, form), row)
                if first != row:
                    raise InputError(f"form {form!r} is in two alias clusters of book {book!r} (rows {first} and "
                                     f"{row}): one person per form", path, row)
            if title_gender is not None:
                said = {g for f in forms if len(f.split()) > 1 for g in [title_gender(f.split()[0])] if g}
                if gender in ("masculine", "feminine"):
                    said.add(gender)
                if len(said) > 1:
                    raise InputError(f"alias cluster with two genders ({' | '.join(forms)}: "
                                     f"{' and '.join(sorted(said))}): split it into one row per person", path, row)
            if gender in ("unknown", ""):
                continue
            for form in forms:
                put(book, form, gender, row)
        _check_all_books(out, where, path)
        return out
    start = 1 if header[:2] == ["book_id", "form"] else 0
    for row, fields in enumerate(rows[start:], start + 1):
        if not any(x.strip() for x in fields) or fields[0].startswith("#"):
            continue
        if len(fields) != 3:
            raise InputError(f"expected book_id<TAB>form<TAB>gender, got {len(fields)} field(s)", path, row)
        put(fields[0].strip(), fields[1], fields[2].strip().lower(), row)
    _check_all_books(out, where, path)
    return out


def _check_all_books(out: dict[str, dict[str, str]], where: dict, path: Path) -> None:
    """Refuse a book's entry that contradicts a ``*`` entry for the same form (case-folded):
    which of the two holds would be a silent choice."""
    for (book, folded), (row, form, gender) in sorted(where.items(), key=lambda kv: kv[1][0]):
        if book == ALL_BOOKS:
            continue
        star = where.get((ALL_BOOKS, folded))
        if star is not None and star[2] != gender:
            raise InputError(f"form {form!r} is {gender} for book {book!r} but {star[2]} for every book "
                             f"('*', row {star[0]}): one gender per form; remove one of the rows", path, row)


def check_books(overrides: dict[str, dict[str, str]], known: set[str], path: Path) -> None:
    """Refuse overrides for a book the corpus does not hold."""
    unknown = sorted(b for b in overrides if b != ALL_BOOKS and b not in known)
    if unknown:
        raise InputError(f"the cast file names book(s) not in the corpus: {', '.join(unknown[:5])}", path)


def write_cast_tsv(rows: list[dict], path: Path) -> None:
    """``cast.tsv`` (see the module docstring); written atomically."""
    from pipeline.formats.files import atomic_path

    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\", lineterminator="\n")
        w.writerow(CAST_COLUMNS)
        for r in rows:
            w.writerow([r["book_id"], r["person"], r["name"], FORM_SEPARATOR.join(r["forms"]), r["mentions"],
                        r["gender"], r["evidence"]])


def cast_fingerprint(cast: CastFile | None) -> str:
    """sha256 of a cast file's bytes, as read once by the run ("" without one): part of a run's
    settings."""
    return "" if cast is None else cast.sha256
