"""``--layout sentences``: one sentence per line (BookCorpus as distributed, the BERT
pre-training layout) -> books of paragraphs.

Books. A blank line ends a book (the BERT layout: "documents are delimited by empty lines").
A file without any blank line has no boundaries of its own: it is cut into pseudo-books of
``--book-sentences`` lines (default 10,000 lines, about one novel: BookCorpus averages about
6,700 sentences a book). A table read in this layout has one sentence per row and is cut into
pseudo-books of that many rows. Book ids: the file's id, ``#``, the book's number in the file
(1-based); ``row`` in books.parquet is the book's first line (row).

Paragraphs are rebuilt from the sentences: a sentence that opens with a quotation mark
(``"`` ``“`` ``‘`` ``'`` `````` ``«``), or follows one that closes with one, starts a new
paragraph (one paragraph per dialogue turn); other sentences join the current paragraph,
separated by one space.

What is lost: the real paragraph breaks of narration (only dialogue turns are rebuilt); the
file's own sentence boundaries inside a rebuilt paragraph (spaCy segments again); titles and
authors (there is no header); a pseudo-book may hold the end of one real book and the start of
the next, so a context may join them. A dump that is lowercased or tokenized (the original
BookCorpus release is both) is read as it is: without capitals, names are rarely recognised,
and such a dump yields few or no instances.

May import: the standard library, :mod:`.base`, :mod:`.archives`, :mod:`.text`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from pipeline.formats.corpus import archives
from pipeline.formats.corpus.base import SKIPPED, Book, BookSkipped, Skip, Unit, bounded_lines, compressed_inner
from pipeline.formats.corpus.text import decode

UNIT_LINES = 20_000
MAX_LINE_BYTES = archives.MAX_BOOK_BYTES      # a longer line is never held whole: its book is skipped

_WS = re.compile(r"\s+")
_OPEN = ('"', "\u201c", "\u2018", "'", "``", "\u00ab")
_CLOSE = ('"', "\u201d", "\u2019", "'", "''", "\u00bb")


def rebuild_paragraphs(lines: list[str]) -> list[str]:
    """Sentence lines -> paragraphs (see the module docstring)."""
    paragraphs, current, closed = [], [], False
    for line in lines:
        s = _WS.sub(" ", line).strip()
        if not s:
            continue
        if current and (s.startswith(_OPEN) or closed):
            paragraphs.append(" ".join(current))
            current = []
        current.append(s)
        closed = s.endswith(_CLOSE)
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


def plan_text(src: Unit, base_id: str, book_lines: int) -> list[Unit]:
    """Units of a one-sentence-per-line text (a file or zip member): the main process scans
    it once for blank lines."""
    books: list[tuple[int, int]] = []
    offsets: dict[int, int] = {}
    start, line, pos, blank = None, 0, 0, False
    with archives.open_lines(src.path, src.member) as f:
        for raw, size in bounded_lines(f, MAX_LINE_BYTES):
            if raw is None or raw.strip():       # an overlong line counts as a sentence (its book is skipped)
                if start is None:
                    start = line
                    offsets[line] = pos
                elif line % book_lines == 0:
                    offsets[line] = pos
            else:
                blank = True
                if start is not None:
                    books.append((start, line))
                    start = None
            pos += size
            line += 1
    if start is not None:
        books.append((start, line))
    if not blank:        # no boundaries of its own: pseudo-books
        books = [(cut, min(cut + book_lines, end)) for first, end in books for cut in range(first, end, book_lines)]
    total = line
    units, group = [], []
    for number, (s, e) in enumerate(books, 1):
        group.append((s, e, number))
        if group[-1][1] - group[0][0] >= UNIT_LINES or number == len(books):
            first, last = group[0][0], group[-1][1]
            units.append(Unit(key=f"{src.rel}#lines{first}-{last}of{total}", kind="sentences", path=src.path,
                              rel=src.rel, member=src.member, start=first, stop=last,
                              offset=offsets.get(first, 0), books=len(group), size=0, bounds=tuple(group),
                              inner=src.kind, base_id=base_id))
            group = []
    return units


def _book(unit: Unit, lines: list[str], first: int, number: int, encoding: str, source: str) -> Book:
    stem = Path(compressed_inner(unit.rel) or unit.rel).stem
    return Book(f"{unit.base_id}#{number}", f"{stem} #{number}", "", unit.rel, "sentences",
                rebuild_paragraphs(lines), encoding=encoding, encoding_source=source, row=first + 1)


def read_text_unit(unit: Unit) -> Iterator[Book | Skip]:
    seekable = unit.inner == "file" and compressed_inner(unit.path) is None
    bounds = list(unit.bounds)
    with archives.open_lines(unit.path, unit.member) as f:
        line = 0
        if seekable:
            f.seek(unit.offset)
            line = unit.start
        k, buf, too_long = 0, [], 0
        for raw, size in bounded_lines(f, MAX_LINE_BYTES):
            if k >= len(bounds):
                break
            first, end, number = bounds[k]
            if first <= line < end:
                if raw is None:
                    too_long, buf = max(too_long, size), []
                elif not too_long:
                    buf.append(raw)
            line += 1
            if line == end:
                if too_long:
                    yield Skip(unit.rel, f"{unit.base_id}#{number}", SKIPPED,
                               f"too large: a line of {too_long:,} bytes (more than {MAX_LINE_BYTES:,})",
                               format="sentences", row=first + 1)
                else:
                    yield _decoded(unit, b"".join(buf), first, number)
                buf, k, too_long = [], k + 1, 0
        if k < len(bounds):             # the file got shorter since it was planned
            first, end, number = bounds[k]
            yield Skip(unit.rel, f"{unit.base_id}#{number}", SKIPPED,
                       f"truncated: lines {first + 1}-{end} missing", row=first + 1)


def _decoded(unit: Unit, data: bytes, first: int, number: int) -> Book | Skip:
    try:
        text, encoding, source = decode(data)
    except BookSkipped as exc:
        return Skip(unit.rel, f"{unit.base_id}#{number}", exc.status, str(exc), format="sentences", row=first + 1)
    return _book(unit, text.splitlines(), first, number, encoding, source)


def read_rows_unit(unit: Unit, rows) -> Iterator[Book | Skip]:
    """A table in the sentences layout: the unit's rows (one sentence each) are one pseudo-book.
    ``rows`` yields (row number, row or None, reason) as :func:`.tables.iter_rows`."""
    lines = []
    for _number, row, _reason in rows:
        if row is not None and isinstance(row.get(unit.columns[0]), str):
            lines.append(row[unit.columns[0]])
    book = _book(unit, lines, unit.start, unit.bounds[0][2], "utf-8", "container")
    if not book.paragraphs:
        yield Skip.of(book, SKIPPED, "empty")
    else:
        yield book
