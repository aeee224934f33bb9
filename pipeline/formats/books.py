"""Reading a corpus of books -- the one entry point that yields books, whatever the dump.

What ``--corpus`` may be (:func:`plan_corpus`):

* a folder, walked recursively (:mod:`.corpus.walk`): ``.txt`` (Project Gutenberg or plain),
  ``.epub``, ``.txt.gz`` / ``.txt.bz2`` / ``.txt.xz``, and every ``.txt`` member of a ``.zip``;
  symlinked folders followed once; Gutenberg copies of one ebook in one folder read once;
  every other file listed as not read, with its reason;
* one such file;
* a table: ``FILE.parquet``, ``FILE.jsonl``, ``FILE.csv`` or a Hugging Face dataset folder
  (``save_to_disk``), one book per row (:mod:`.corpus.tables`);
* with ``--layout sentences``, one-sentence-per-line text (BookCorpus style,
  :mod:`.corpus.sentences`).

Bytes -> text -> paragraphs, the encoding rule and the book formats: :mod:`.corpus.text`.
Book identity: :mod:`.corpus.base`. Selection (``--language``, ``--metadata`` + ``--where``,
``--min-words``): :mod:`.corpus.selection`.

Work is cut into :class:`Unit`\\ s (a file, a zip member or a batch of small ones, a group of
Gutenberg copies, a range of table rows or sentence lines): small picklable records that a worker reads itself
(:func:`read_unit`), so a table is never sent whole to every worker. A command uses:

* :class:`CorpusSpec` (what to read and how, checked when built; a command builds it from
  the options of :func:`pipeline.options.corpus_options` with
  :func:`pipeline.commands.corpus_spec`);
* :func:`iter_corpus` (every book, in order, in this process), or :func:`plan_corpus` +
  :func:`read_unit` per unit (extract: one task per unit on its engines).

Each yielded item is a :class:`Book` or a :class:`Skip` (status skipped / excluded /
duplicate / not-read, with its reason); a table row whose id repeats an earlier one is a
duplicate (:class:`IdGuard`).

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.corpus`.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator

from pipeline.errors import InputError
from pipeline.formats.corpus import archives, selection, sentences, tables, walk
from pipeline.formats.corpus.base import (BOOK_ID_RULE, BOOK_SUFFIXES, DUPLICATE, EXCLUDED, NOT_READ, OK, SKIPPED,
                                          Book, BookSkipped, CorpusSpec, Skip, Unit, book_id_for, compressed_inner,
                                          relative_path)
from pipeline.formats.corpus.text import WRAP_WIDTH, book_from_bytes, decode, parse_epub, unwrap

__all__ = ["Book", "BookSkipped", "CorpusSpec", "Skip", "Unit", "Plan", "IdGuard", "book_id_for", "relative_path",
           "read_book", "find_books", "plan_corpus", "read_unit", "iter_corpus",
           "decode", "unwrap", "WRAP_WIDTH", "BOOK_SUFFIXES", "BOOK_ID_RULE", "OK", "SKIPPED",
           "EXCLUDED", "DUPLICATE", "NOT_READ"]


@dataclass
class Plan:
    """The corpus cut into units, and the files that are not read."""
    spec: CorpusSpec
    units: list = field(default_factory=list)
    skips: list = field(default_factory=list)
    kind: str = "folder"            # folder | file | parquet | jsonl | csv | arrow

    @property
    def books(self) -> int:
        return sum(u.books for u in self.units)


class IdGuard:
    """Remembers the book ids seen; a repeated id (possible only in a table corpus) makes the
    later book a duplicate."""

    def __init__(self):
        self.first: dict[str, str] = {}

    def check(self, book_id: str, where: str) -> str | None:
        """None the first time; else the reason that names the first occurrence."""
        if book_id in self.first:
            return f"duplicate book id {book_id!r} (first at {self.first[book_id]})"
        self.first[book_id] = where
        return None


# ------------------------------------------------------------------ one file -------------

def _stem(rel: str) -> str:
    name = rel.rsplit("/", 1)[-1]
    return Path(compressed_inner(name) or name).stem


def _read_one(unit: Unit, data: bytes | BookSkipped | None = None) -> Book | Skip:
    """A file or zip-member unit -> its book, or a Skip with the reason. ``data``: a member's
    bytes (or why they could not be read) already taken from its open zip (a batch)."""
    book_id = walk.unit_book_id(unit)
    try:
        if isinstance(data, BookSkipped):
            raise data
        if unit.kind == "member":
            raw = data if data is not None else archives.read_member(unit.path, unit.member)
            book = book_from_bytes(raw, book_id, unit.rel, _stem(unit.member))
        elif unit.rel.lower().endswith(".epub"):
            book = parse_epub(unit.path, book_id, unit.rel, _stem(unit.rel))
        else:
            book = book_from_bytes(archives.read_file_bytes(unit.path), book_id, unit.rel, _stem(unit.rel))
        if not any(p.strip() for p in book.paragraphs):
            raise BookSkipped("no text")
        return book
    except BookSkipped as exc:
        return Skip(unit.rel, book_id, exc.status, str(exc))
    except OSError as exc:
        return Skip(unit.rel, book_id, SKIPPED, f"unreadable: {exc.strerror or exc}")


def read_book(path: Path, root: Path) -> Book:
    """Read one book file (.txt, .epub, .txt.gz/.bz2/.xz); raises :class:`BookSkipped` for
    files that are not usable books."""
    rel = relative_path(path, root)
    item = _read_one(walk.file_unit(str(path), rel))
    if isinstance(item, Skip):
        raise BookSkipped(item.reason.split(":", 1)[0], item.reason.split(":", 1)[1].strip()
                          if ":" in item.reason else "", status=item.status)
    return item


def find_books(root: Path) -> list[Path]:
    """Every book file directly readable below ``root`` (.txt, .epub and compressed .txt;
    zips, tables and symlink handling: :func:`plan_corpus`)."""
    return [Path(u.path) for u in walk.walk_tree(root, keep_duplicates=True).units if u.kind == "file"]


# ------------------------------------------------------------------ planning -------------

def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _check_selection(spec: CorpusSpec) -> CorpusSpec:
    for expr in spec.where:
        selection.parse_where(expr)
    if spec.where and not spec.metadata:
        raise InputError("--where filters the --metadata rows: give --metadata FILE")
    if spec.metadata:
        path = str(Path(spec.metadata).resolve())
        if not Path(path).is_file():
            raise InputError("metadata file not found", spec.metadata)
        columns = selection.metadata_columns(path)
        for expr in spec.where:
            where = selection.parse_where(expr)
            if where.column not in columns:
                raise InputError(f"--where {expr!r}: no column {where.column!r} in the metadata "
                                 f"(columns: {', '.join(sorted(columns))})", spec.metadata)
        spec = replace(spec, metadata=path, metadata_sha256=_sha256(path))
    return spec


def check_out_outside(corpus: str | os.PathLike, out: str | os.PathLike) -> None:
    """Refuse an output folder inside the corpus folder: the next run would walk its own
    outputs as corpus files."""
    c, o = Path(corpus).resolve(), Path(out).resolve()
    if c.is_dir() and (o == c or c in o.parents):
        raise InputError(f"--out is inside the corpus folder {c}: a later run would read its outputs as "
                         "books; choose an --out outside the corpus", out)


def plan_corpus(spec: CorpusSpec) -> Plan:
    """Cut the corpus into units (main process; cheap: directory listings, zip and Parquet
    directories, arrow batch headers, one scan of JSON-lines/CSV/sentence files). Raises
    InputError when nothing can be read."""
    path = Path(spec.path)
    if not path.exists():
        raise InputError("corpus path does not exist", path)
    if spec.layout not in ("auto", "sentences"):
        raise InputError(f"--layout {spec.layout!r}: auto or sentences")
    spec = _check_selection(replace(spec, path=str(path.resolve())))
    kind = tables.table_kind(path)
    if kind:
        plan = Plan(spec, kind=kind)
        row_cut = spec.book_sentences if spec.layout == "sentences" else None
        try:
            plan.units = tables.plan_table(path, kind, spec, path.name, row_cut)
        except OSError as exc:
            raise InputError(f"unreadable ({exc.strerror or exc})", exc.filename or path) from None
        if row_cut:
            plan.units = [replace(u, bounds=((u.start, u.stop, u.start // row_cut + 1),), base_id=u.rel, books=1)
                          for u in plan.units]
    elif path.is_dir():
        found = walk.walk_tree(path, keep_duplicates=spec.keep_duplicates or spec.layout == "sentences")
        plan = Plan(spec, found.units, found.skips, "folder")
    else:
        plan = Plan(spec, kind="file")
        rel = path.name
        cls = walk.classify(path.name)
        if cls == "book":
            plan.units = [walk.file_unit(str(path.resolve()), rel, path.stat().st_size)]
        elif cls == "zip":
            found = walk.Walk()
            plan.units = walk.member_units(str(path.resolve()), rel, path.stat().st_size, found)
            plan.skips = found.skips
        else:
            raise InputError("not a book file (.txt, .epub, .txt.gz/.bz2/.xz, .zip) nor a table "
                             "(.parquet, .jsonl, .csv, a Hugging Face dataset folder)", path)
    if spec.layout == "sentences" and plan.kind in ("folder", "file"):
        plan.units = _sentence_units(plan.units, spec)
    if spec.limit_books is not None:
        plan.units = _limit(plan.units, spec.limit_books)
    plan.units = walk.batch_members(plan.units)      # small zip members: one task and partition per batch
    if not plan.units and not plan.skips:
        raise InputError("no books found (.txt, .epub, .txt.gz/.bz2/.xz, .zip members; or a table)", path)
    if not plan.units and spec.limit_books != 0:
        reasons = sorted({s.reason for s in plan.skips})[:3]
        raise InputError(f"no books found (.txt, .epub, .txt.gz/.bz2/.xz, .zip members; or a table); "
                         f"{len(plan.skips)} file(s) not read: {'; '.join(reasons)}", path)
    return plan


def _sentence_units(units: list[Unit], spec: CorpusSpec) -> list[Unit]:
    out = []
    for u in units:
        if u.kind in ("file", "member") and not u.rel.lower().endswith(".epub"):
            base = walk.unit_book_id(u)
            try:
                out.extend(sentences.plan_text(u, base, spec.book_sentences))
            except (BookSkipped, OSError):
                out.append(u)          # unreadable source: read as a file, it reports why
        else:
            out.append(u)
    return out


def _limit(units: list[Unit], n: int) -> list[Unit]:
    out = []
    for u in units:
        if n <= 0:
            break
        cut = u.limited(n)
        out.append(cut)
        n -= cut.books
    return out


# ------------------------------------------------------------------ reading --------------

def _raw_items(unit: Unit, spec: CorpusSpec) -> Iterator[Book | Skip]:
    if unit.kind in ("file", "member"):
        yield _read_one(unit)
    elif unit.kind == "members":
        for member, (_, data) in zip(unit.batch, archives.read_members(unit.path, [u.member for u in unit.batch])):
            yield _read_one(member, data)
    elif unit.kind == "variants":
        for i, alt in enumerate(unit.alternatives):
            item = _read_one(alt)
            yield item
            if isinstance(item, Book):
                for other in unit.alternatives[i + 1:]:
                    yield walk.duplicate_skip(other, alt.rel)
                return
    elif unit.kind == "sentences":
        yield from sentences.read_text_unit(unit)
    elif unit.kind in tables.TABLE_KINDS:
        if unit.bounds:
            yield from sentences.read_rows_unit(unit, tables.iter_rows(unit))
        else:
            yield from tables.read_table_unit(unit)
    else:
        raise ValueError(f"unknown unit kind {unit.kind!r}")


def read_unit(unit: Unit, spec: CorpusSpec) -> Iterator[Book | Skip]:
    """The books of one unit, in order, with the selection applied (a book left out comes as
    a Skip with status excluded). Never raises for bad data in the unit: a bad book or row is
    a Skip with the reason."""
    try:
        for item in _raw_items(unit, spec):
            yield selection.select(item, spec) if isinstance(item, Book) else item
    except BookSkipped as exc:
        yield Skip(unit.rel, unit.key, exc.status, str(exc))
    except OSError as exc:
        yield Skip(unit.rel, unit.key, SKIPPED, f"unreadable: {exc.strerror or exc}")


def iter_corpus(spec: CorpusSpec, *, skips: bool = True, plan: Plan | None = None) -> Iterator[Book | Skip]:
    """Every book of the corpus in order (this process), then -- with ``skips`` -- Skip records
    for everything not read. Repeated ids are duplicates."""
    plan = plan or plan_corpus(spec)
    guard = IdGuard()
    for unit in plan.units:
        for item in read_unit(unit, plan.spec):
            if isinstance(item, Book):
                why = guard.check(item.book_id, f"{item.path}, row {item.row}" if item.row else item.path)
                if why:
                    item = Skip.of(item, DUPLICATE, why)
            if isinstance(item, Book) or skips:
                yield item
    if skips:
        yield from plan.skips
