"""The records of corpus reading: books, the things that are not books, units of work, the
corpus specification, and book identity.

Identity (:func:`book_id_for` and the readers). A ``book_id`` depends only on where the book
is, so it is the same on every run, and distinct books of one corpus get distinct ids:

* a ``.txt`` / ``.epub`` file: its path relative to the corpus root, ``/`` separators, a final
  ``.txt`` dropped unless what remains itself ends in ``.txt`` or ``.epub`` (any case):
  ``105.txt`` -> ``105``, ``a/story.epub`` -> ``a/story.epub``, ``x.epub.txt`` -> ``x.epub.txt``;
* a compressed file: its whole relative path (``a/105.txt.gz``), which no other rule yields;
* a zip member: the zip's relative path, ``/``, the member's id by the first rule
  (``1/0/105/105-0.zip/105-0``); a file cannot share its name with a folder, so no file of
  the tree has that id;
* a table row: the row's id column as written (``--id-column``; default ``id``, else
  ``book_id``), or ``row-N`` (N = 1-based row number) when the table has no id column; a row
  whose id repeats an earlier one is not read twice (extract lists it as a duplicate);
* ``--layout sentences``: the file's id, ``#``, the 1-based number of the book in the file
  (``bookcorpus#17``).

May import: the standard library, :mod:`pipeline.errors`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from pipeline.errors import InputError

BOOK_SUFFIXES = (".txt", ".epub")
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz")
TABLE_SUFFIXES = (".parquet", ".jsonl", ".csv")
BOOK_ID_RULE = "path-v2"          # recorded in extract's manifest
# Statuses of a BOOKS row (see docs/extract.md): ok; skipped = a book that could not be read
# or processed; excluded = left out by the selection options; duplicate = another copy of a
# book that is read; not-read = a file that is not a book (or cannot be opened as one).
OK, SKIPPED, EXCLUDED, DUPLICATE, NOT_READ = "ok", "skipped", "excluded", "duplicate", "not-read"


class BookSkipped(Exception):
    """The file is not a readable book (empty, binary, undecodable, no text, ...)."""

    def __init__(self, reason: str, detail: str = "", status: str = SKIPPED):
        super().__init__(f"{reason}{': ' + detail if detail else ''}")
        self.reason = reason
        self.status = status


@dataclass
class Book:
    book_id: str                  # see the module docstring: unique within a corpus, stable
    title: str
    author: str
    path: str                     # relative to the corpus directory, "/" separators
    format: str                   # gutenberg | txt-paragraphs | txt-lines | epub | sentences
    paragraphs: list[str] = field(default_factory=list)
    ebook: str = ""               # Project Gutenberg ebook number from the header, else ""
    encoding: str = ""            # the codec the bytes were decoded with (utf-8, iso-8859-1, ...)
    encoding_source: str = ""     # bom | declared | default | detected | container (+ a note)
    language: str = ""            # "Language:" of the Gutenberg header or a metadata column
    row: int | None = None        # table corpora: the 1-based row; sentences: the first line
    metadata: dict = field(default_factory=dict)   # the --metadata row (or table columns) used for --where

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)

    @property
    def n_words(self) -> int:
        """Whitespace-separated words of the book text (what ``--min-words`` counts)."""
        return sum(len(p.split()) for p in self.paragraphs)


@dataclass
class Skip:
    """Something of the corpus that gives no book: a file not read, a book that could not be
    read, a copy not read because another one is, a book left out by the selection."""
    path: str
    book_id: str
    status: str
    reason: str
    title: str = ""
    author: str = ""
    format: str = ""
    ebook: str = ""
    encoding: str = ""
    encoding_source: str = ""
    language: str = ""
    row: int | None = None
    n_paragraphs: int = 0

    @classmethod
    def of(cls, book: Book, status: str, reason: str) -> "Skip":
        return cls(book.path, book.book_id, status, reason, title=book.title, author=book.author,
                   format=book.format, ebook=book.ebook, encoding=book.encoding,
                   encoding_source=book.encoding_source, language=book.language, row=book.row,
                   n_paragraphs=len(book.paragraphs))

    def row_values(self) -> dict:
        """The values of a BOOKS row (schemas.BOOKS) this record fills in."""
        return {"book_id": self.book_id, "path": self.path, "status": self.status,
                "skip_reason": " ".join(self.reason.split()), "title": self.title, "author": self.author,
                "format": self.format, "ebook": self.ebook, "encoding": self.encoding,
                "encoding_source": self.encoding_source, "language": self.language, "row": self.row,
                "n_paragraphs": self.n_paragraphs}


@dataclass(frozen=True)
class Unit:
    """One unit of work: what one task reads. Picklable and small, so that workers on other
    machines read the source themselves (at the same path) instead of being sent its text.

    kind: ``file`` (a .txt/.epub/.gz/.bz2/.xz file), ``member`` (a zip member), ``variants``
    (Gutenberg copies of one ebook, ``alternatives`` in preference order), ``parquet`` /
    ``jsonl`` / ``csv`` / ``arrow`` (rows ``start``..``stop`` of a table), ``sentences`` (lines
    ``start``..``stop`` of a one-sentence-per-line text, books given by ``bounds``), ``members``
    (consecutive small members of one zip, the ``member`` Units in ``batch``, read with one
    opening of the archive: :func:`pipeline.formats.corpus.walk.batch_members`)."""
    key: str                      # partition key, unique in the corpus
    kind: str
    path: str                     # absolute path of the file to open
    rel: str                      # corpus-relative path shown in books.parquet
    member: str = ""              # zip member name (kind member, or the source of sentences)
    start: int = 0                # tables: first row (0-based); sentences: first line (0-based)
    stop: int = 0                 # exclusive
    offset: int = 0               # byte offset of ``start`` (jsonl, csv, plain sentence files)
    group: int = -1               # parquet row group / arrow record batch index
    books: int = 1                # books (table rows) it holds
    size: int = 0                 # bytes, for largest-first ordering
    alternatives: tuple = ()      # variants: Units (file/member) in preference order
    bounds: tuple = ()            # sentences: ((first line, end line, book number), ...)
    columns: tuple = ()           # tables: (text, id, title, author, language) column names ("" = none)
    inner: str = ""               # sentences: the kind of the source (file | member)
    base_id: str = ""             # sentences: the id of the file the books are cut from
    claimed: int = 0              # member: the decompressed size its zip entry claims
    batch: tuple = ()             # members: the member Units, in archive path order

    def limited(self, n: int) -> "Unit":
        """The same unit with only its first ``n`` books (``--limit-books``)."""
        from dataclasses import replace

        if n >= self.books:
            return self
        if self.kind in ("parquet", "jsonl", "csv", "arrow"):
            return replace(self, stop=self.start + n, books=n)
        if self.kind == "sentences":
            bounds = self.bounds[:n]
            return replace(self, bounds=bounds, stop=bounds[-1][1], books=n)
        if self.kind == "members":        # another composition, another key (as walk.members_unit)
            batch = self.batch[:n]
            return batch[0] if n == 1 else replace(self, key=f"{self.rel} (+{n - 1} members)", books=n, batch=batch,
                                                   size=sum(u.size for u in batch))
        return self


@dataclass(frozen=True)
class CorpusSpec:
    """What to read and how: the ``--corpus`` options (:func:`pipeline.options.corpus_options`)."""
    path: str                                # --corpus: a directory, a book file, a table, an HF dataset dir
    layout: str = "auto"                     # auto | sentences
    text_column: str = "text"
    id_column: str = ""                      # "" = id, else book_id, else row-N
    title_column: str = ""                   # "" = title when the table has it
    book_sentences: int = 5000               # sentences layout without boundaries: lines per pseudo-book
    keep_duplicates: bool = False
    language: str = ""                       # "" = every language
    min_words: int = 0
    metadata: str = ""                       # CSV/Parquet with id, title, author, subjects, ...
    where: tuple = ()                        # COLUMN~REGEX / COLUMN!~REGEX / COLUMN=VALUE on the metadata
    limit_books: int | None = None           # not a setting: the first N books only
    metadata_sha256: str = ""                # filled in by plan_corpus (compared on resume)

    def __post_init__(self):
        """Checked when built (from the command's options or from Python): one InputError line."""
        if self.book_sentences < 1:
            raise InputError("--book-sentences must be at least 1")
        if self.min_words < 0:
            raise InputError("--min-words must not be negative")
        if self.limit_books is not None and self.limit_books < 0:
            raise InputError("--limit-books must not be negative")
        if not isinstance(self.path, str):
            object.__setattr__(self, "path", os.fspath(self.path))
        object.__setattr__(self, "where", tuple(self.where))

    def settings(self) -> dict:
        """The reader options that change results (extract compares them on a rerun). Not the
        corpus path (a corpus may move) nor ``limit_books`` (it selects, the books stay the same)."""
        return {"layout": self.layout, "text_column": self.text_column, "id_column": self.id_column,
                "title_column": self.title_column,
                "book_sentences": self.book_sentences if self.layout == "sentences" else None,
                "keep_duplicates": self.keep_duplicates, "language": self.language,
                "min_words": self.min_words, "metadata_sha256": self.metadata_sha256,
                "where": list(self.where)}


def relative_path(path: Path, root: Path) -> str:
    """``path`` relative to the corpus ``root`` with ``/`` separators (a file outside ``root``:
    its name). Lexical: a path under a symlinked folder keeps the link's name."""
    path, root = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name


def book_id_for(rel: str) -> str:
    """The ``book_id`` of the book at corpus-relative path ``rel`` (see the module docstring)."""
    if rel.endswith(".txt") and not rel[:-4].lower().endswith(BOOK_SUFFIXES):
        return rel[:-4]
    return rel


def compressed_inner(name: str) -> str | None:
    """``x.txt.gz`` -> ``x.txt``; None when ``name`` has no compression suffix."""
    low = name.lower()
    for suffix in COMPRESSED_SUFFIXES:
        if low.endswith(suffix):
            return name[:-len(suffix)]
    return None


def file_book_id(rel: str) -> str:
    """The id of the book in the (possibly compressed) file at ``rel``."""
    return rel if compressed_inner(rel) is not None else book_id_for(rel)


def member_book_id(zip_rel: str, member: str) -> str:
    return f"{zip_rel}/{book_id_for(member)}"


def bounded_lines(f, limit: int) -> Iterator[tuple[bytes | None, int]]:
    """(line, its length in bytes) for each line of the binary stream ``f``; a line longer than
    ``limit`` is ``(None, length)``, read in 1 MiB pieces and never held whole (a 1 GiB line
    without a newline in a 2.6 MB .gz)."""
    while True:
        raw = f.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            n = len(raw)
            del raw
            while True:
                piece = f.readline(1 << 20)
                n += len(piece)
                if not piece or piece.endswith(b"\n"):
                    break
            yield None, n
        else:
            yield raw, len(raw)
