"""Selection: ``--language``, ``--metadata`` with ``--where``, ``--min-words``. A book that does
not pass is not processed: it is listed in books.parquet with status ``excluded`` and the
reason.

* ``--language CODE`` (e.g. ``en``): the book's language is the ``Language:`` line of its
  Gutenberg header, else the ``language`` column of a table corpus, else the ``language``
  column of its ``--metadata`` row. Names and codes are both understood ("English", "en",
  "eng", "en-US"; several languages separated by commas or "and": any one may match). A book
  whose language is unknown is kept (most plain-text dumps say nothing): the summary counts them.
* ``--metadata FILE`` (CSV or Parquet): one row per book, matched on ``id`` (aliases
  ``book_id``, ``Text#`` as in Gutenberg's ``pg_catalog.csv``, ``ebook``) against, in turn, the
  book's Gutenberg ebook number, its ``book_id``, the last part of its ``book_id``, and that
  part without a Gutenberg ``-0``/``-8`` suffix. Column names are compared in lower case;
  ``authors`` and ``subject`` stand for ``author`` and ``subjects``. Its non-empty ``title``
  and ``author`` replace the book's (a catalogue knows better than a file name), its
  ``language`` fills in an unknown language.
* ``--where COLUMN~REGEX`` keeps a book whose metadata COLUMN matches the regular expression
  (case-insensitive search), ``COLUMN!~REGEX`` one whose COLUMN does not match, ``COLUMN=VALUE``
  one whose COLUMN equals VALUE (case-insensitive); repeat ``--where`` to require several (all
  must hold). List cells are joined with "; ". A book without a metadata row fails every
  ``--where``. Only fiction from Gutenberg's catalogue:
  ``--metadata pg_catalog.csv --where 'subjects~\\bfiction\\b'`` ("Fiction", "Juvenile fiction",
  "England -- Fiction", not "Nonfiction").
* ``--min-words N``: at least N whitespace-separated words in the book text as read (after
  the Gutenberg header and licence are stripped, before spaCy).

May import: the standard library, pyarrow (inside functions), :mod:`pipeline.errors`, :mod:`.base`.
"""

from __future__ import annotations

import csv
import functools
import os
import re
from dataclasses import dataclass

from pipeline.errors import InputError
from pipeline.formats.corpus.base import EXCLUDED, Book, Skip

_LANGUAGES = {
    "english": "en", "eng": "en", "french": "fr", "fre": "fr", "fra": "fr", "german": "de", "ger": "de",
    "deu": "de", "spanish": "es", "spa": "es", "italian": "it", "ita": "it", "portuguese": "pt", "por": "pt",
    "dutch": "nl", "dut": "nl", "nld": "nl", "finnish": "fi", "fin": "fi", "swedish": "sv", "swe": "sv",
    "danish": "da", "dan": "da", "norwegian": "no", "nor": "no", "latin": "la", "lat": "la", "greek": "el",
    "gre": "el", "ell": "el", "russian": "ru", "rus": "ru", "chinese": "zh", "chi": "zh", "zho": "zh",
    "japanese": "ja", "jpn": "ja", "polish": "pl", "pol": "pl", "hungarian": "hu", "hun": "hu", "czech": "cs",
    "cze": "cs", "ces": "cs", "esperanto": "eo", "epo": "eo", "tagalog": "tl", "tgl": "tl", "welsh": "cy",
    "wel": "cy", "cym": "cy", "irish": "ga", "gle": "ga", "catalan": "ca", "cat": "ca", "hebrew": "he",
    "heb": "he", "arabic": "ar", "ara": "ar", "icelandic": "is", "ice": "is", "isl": "is",
}
_ID_ALIASES = ("id", "book_id", "text#", "ebook", "etext")
_ALIASES = {"authors": "author", "subject": "subjects"}
_WHERE = re.compile(r"^\s*([^~=!]+?)\s*(!~|~|!=|=)(.*)$", re.S)


def language_codes(value: str) -> set[str]:
    """"English, French" -> {"en", "fr"}; "en-US" -> {"en"}; unknown names kept in lower case."""
    codes = set()
    for part in re.split(r"[,;/]|\band\b", value or ""):
        p = part.strip().lower()
        if not p:
            continue
        p = re.split(r"[-_ ]", p)[0] if re.match(r"^[a-z]{2,3}[-_]", p) else p
        codes.add(_LANGUAGES.get(p, p))
    return codes


@dataclass(frozen=True)
class Where:
    column: str
    op: str
    value: str

    def holds(self, meta: dict | None) -> bool:
        if meta is None:
            return False
        cell = meta.get(self.column)
        text = "; ".join(str(v) for v in cell) if isinstance(cell, (list, tuple)) else ("" if cell is None else str(cell))
        if self.op in ("~", "!~"):
            found = _search(self, text)
            return found if self.op == "~" else not found
        equal = text.strip().lower() == self.value.strip().lower()
        return equal if self.op == "=" else not equal

    def __str__(self) -> str:
        return f"{self.column}{self.op}{self.value}"


WHERE_TIMEOUT = 1.0          # seconds one --where regular expression may take on one cell


def _search(where: Where, text: str) -> bool:
    """``where``'s regular expression searched in ``text`` (case-insensitive) with a time limit
    (the ``regex`` module's timeout: ``(a+)+$`` on a long cell backtracks for ever in ``re``)."""
    import regex

    try:
        return regex.search(where.value, text, regex.IGNORECASE, timeout=WHERE_TIMEOUT) is not None
    except TimeoutError:
        raise InputError(f"--where {where}: the regular expression took more than {WHERE_TIMEOUT:g} s on "
                         f"one {where.column} value of {len(text):,} characters (catastrophic backtracking); "
                         "write it without nested repetition") from None


def parse_where(expr: str) -> Where:
    m = _WHERE.match(expr)
    if not m or not m.group(1).strip():
        raise InputError(f"--where {expr!r}: write COLUMN~REGEX, COLUMN!~REGEX, COLUMN=VALUE or COLUMN!=VALUE")
    column, op, value = m.group(1).strip().lower(), m.group(2), m.group(3)
    column = _ALIASES.get(column, column)
    if op in ("~", "!~"):
        import regex

        try:
            re.compile(value)
            regex.compile(value)
        except (re.error, regex.error) as exc:
            raise InputError(f"--where {expr!r}: bad regular expression ({exc})") from None
    return Where(column, op, value)


def _normal_columns(names: list[str]) -> list[str]:
    out = []
    for n in names:
        low = str(n).strip().lower()
        out.append(_ALIASES.get(low, low))
    return out


@functools.lru_cache(maxsize=4)
def _load_metadata(path: str, mtime_ns: int, size: int) -> dict[str, dict]:
    """id -> row (lower-case column names) of a CSV or Parquet metadata file."""
    if path.lower().endswith(".parquet"):
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except (pa.ArrowInvalid, OSError) as exc:
            raise InputError(f"not a readable Parquet file ({exc})", path) from None
        names = _normal_columns(table.column_names)
        rows = [dict(zip(names, r.values())) for r in table.to_pylist()]
    else:
        try:
            with open(path, encoding="utf-8-sig", newline="") as f:
                reader = csv.reader(f)
                header = next(reader, None)
                if not header:
                    raise InputError("empty metadata file (no header)", path)
                names = _normal_columns(header)
                rows = []
                for n, rec in enumerate(reader, 2):
                    if rec and len(rec) != len(names):
                        raise InputError(f"{len(rec)} fields, the header has {len(names)}", path, n)
                    if any("\x00" in v for v in rec):
                        raise InputError("a NUL byte in a field (binary data, not a CSV file)", path, n)
                    if rec:
                        rows.append(dict(zip(names, rec)))
        except UnicodeDecodeError:
            raise InputError("metadata file is not UTF-8", path) from None
        except csv.Error as exc:
            raise InputError(f"CSV error: {exc}", path) from None
    id_col = next((c for c in _ID_ALIASES if c in names), None)
    if id_col is None:
        raise InputError(f"metadata has no id column (one of {', '.join(_ID_ALIASES)}; "
                         f"columns: {', '.join(names)})", path)
    index = {}
    for row in rows:
        key = "" if row.get(id_col) is None else str(row[id_col]).strip()
        if key and key not in index:
            index[key] = row
    return index


def load_metadata(path: str) -> dict[str, dict]:
    try:
        st = os.stat(path)
    except OSError as exc:
        raise InputError(f"metadata file unreadable ({exc.strerror})", path) from None
    return _load_metadata(path, st.st_mtime_ns, st.st_size)


def metadata_columns(path: str) -> set[str]:
    index = load_metadata(path)
    first = next(iter(index.values()), {})
    return set(first)


def metadata_row(book: Book, index: dict[str, dict]) -> dict | None:
    last = book.book_id.rsplit("/", 1)[-1]
    for key in (book.ebook, book.book_id, last, re.sub(r"-[08]$", "", last)):
        if key and key in index:
            return index[key]
    return None


def select(book: Book, spec) -> Book | Skip:
    """The book, or a Skip (status excluded) saying which selection option left it out."""
    meta = None
    if spec.metadata:
        meta = metadata_row(book, load_metadata(spec.metadata))
        if meta is not None:
            book.metadata = meta
            book.title = _text(meta.get("title")) or book.title
            book.author = _text(meta.get("author")) or book.author
            book.language = book.language or _text(meta.get("language"))
    if spec.language and book.language:
        wanted, have = language_codes(spec.language), language_codes(book.language)
        if not wanted & have:
            return Skip.of(book, EXCLUDED, f"language {book.language} (--language {spec.language})")
    for expr in spec.where:
        where = parse_where(expr)
        if not where.holds(meta):
            why = "no metadata row" if meta is None else f"not {where}"
            return Skip.of(book, EXCLUDED, f"{why} (--where)")
    if spec.min_words:
        n = book.n_words
        if n < spec.min_words:
            return Skip.of(book, EXCLUDED, f"{n:,} words, fewer than --min-words {spec.min_words:,}")
    return book


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    return str(value).strip()
