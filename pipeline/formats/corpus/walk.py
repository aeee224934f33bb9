"""A directory tree -> units of work and the files that are not read, with their reasons.

Walk (:func:`walk_tree`): entries in name order, hidden files and folders (a name starting
with ``.``) left out and not listed. A symlinked folder is followed like a folder, under the
link's name; each real folder is walked once (loop guard on device and inode), so a link back
to an ancestor or a second link to a folder already walked is listed as not read ("symlink
loop" / "same folder as …"). A second name of a file already read (hard link, file symlink) is
listed as a duplicate. Dangling symlinks, FIFOs, sockets and devices are listed as not read
and never opened (opening a FIFO would block).

What is read:

* ``.txt`` and ``.epub`` files; ``.gz`` / ``.bz2`` / ``.xz`` files whose name without that
  suffix ends in ``.txt`` (``105.txt.gz``);
* every ``.txt`` member of a ``.zip`` (other members are listed as not read; a zip that
  cannot be opened is listed as not read with the library's message);
* everything else is listed as not read: other suffixes, tar archives, and table files
  (``.parquet`` / ``.jsonl`` / ``.csv``: give one with ``--corpus FILE``).

Gutenberg copies (:func:`gutenberg_groups`). Project Gutenberg publishes one ebook NNNN as
``NNNN.txt`` (7-bit ASCII, accents stripped), ``NNNN-8.txt`` (ISO-8859-1), ``NNNN-0.txt``
(UTF-8) and a zip of each. When a folder holds more than one of them, one copy is read, in
this order of preference: ``NNNN-0.txt``, ``NNNN-0.zip``, ``NNNN-8.txt``, ``NNNN-8.zip``,
``NNNN.txt``, ``NNNN.zip`` -- the most faithful characters first (names such as "Natásha"
survive only in the 8-bit and UTF-8 copies), and an uncompressed copy before the same copy
zipped. The next copy is read only when the preferred one cannot be (corrupt zip, undecodable);
the copies not read are listed as duplicates. ``--keep-duplicates`` reads every copy as a book
of its own.

May import: the standard library, :mod:`.base`, :mod:`.archives`.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.formats.corpus import archives
from pipeline.formats.corpus.base import (BOOK_SUFFIXES, DUPLICATE, NOT_READ, TABLE_SUFFIXES, BookSkipped, Skip,
                                          Unit, compressed_inner, file_book_id, member_book_id)

_VARIANT = re.compile(r"^(\d+)(-0|-8)?\.(txt|zip)$", re.IGNORECASE)
_PREFERENCE = {("-0", "txt"): 0, ("-0", "zip"): 1, ("-8", "txt"): 2, ("-8", "zip"): 3, ("", "txt"): 4, ("", "zip"): 5}
VARIANT_RULE = "-0.txt > -0.zip > -8.txt > -8.zip > .txt > .zip"


@dataclass
class Walk:
    units: list = field(default_factory=list)
    skips: list = field(default_factory=list)      # Skip records of files not read


def _not_read(rel: str, reason: str, book_id: str = "") -> Skip:
    return Skip(rel, book_id or rel, NOT_READ, reason)


def file_unit(path: str, rel: str, size: int = 0) -> Unit:
    return Unit(key=rel, kind="file", path=path, rel=rel, size=size)


def member_units(path: str, rel: str, size: int, walk: Walk) -> list[Unit]:
    """The units of a zip's text members; its other members (or the zip) go to ``walk.skips``."""
    try:
        texts, others = archives.zip_text_entries(path)
    except BookSkipped as exc:
        walk.skips.append(_not_read(rel, str(exc)))
        return []
    for member, reason in others:
        walk.skips.append(_not_read(f"{rel}/{member}", reason, member_book_id(rel, member)))
    if not texts and not others:
        walk.skips.append(_not_read(rel, "empty zip"))
    share = size // max(1, len(texts))
    return [Unit(key=f"{rel}/{m}", kind="member", path=path, rel=f"{rel}/{m}", member=m, size=share, claimed=n)
            for m, n in texts]


# Small zip members are read and written in batches: one task, one opening of the archive, one
# partition for up to BATCH_MEMBERS consecutive members claiming at most BATCH_BYTES together.
# A unit costs a fixed ~0.1 s (the zip's directory read, a partition of five files written,
# fsynced, merged) whatever its size; 256 KiB of text is ~45,000 words, tens of seconds of
# parsing, so a batch keeps that cost near 1 % of the work while a corpus of large members
# (novels) keeps one unit per book. A zip of 5,000 small members: 259 members/s, was 5.2 (docs/extract.md).
BATCH_BYTES = 256 * 1024
BATCH_MEMBERS = 200


def members_unit(batch: list[Unit]) -> Unit:
    """One unit for consecutive member units of one zip (a single member stays itself). Its key
    names the first member and the count (``a.zip/x/001.txt (+199 members)``): no file or member
    key ends that way (they end in a book suffix), and another composition is another key."""
    if len(batch) == 1:
        return batch[0]
    first = batch[0]
    return Unit(key=f"{first.rel} (+{len(batch) - 1} members)", kind="members", path=first.path, rel=first.rel,
                member=first.member, books=len(batch), size=sum(u.size for u in batch), batch=tuple(batch))


def batch_members(units: list[Unit]) -> list[Unit]:
    """``units`` with each run of consecutive small members of one zip batched (see
    :data:`BATCH_BYTES`); the order of the books, their ids and paths are unchanged."""
    out: list[Unit] = []
    run: list[Unit] = []
    total = 0

    def flush() -> None:
        nonlocal run, total
        if run:
            out.append(members_unit(run))
        run, total = [], 0

    for u in units:
        if u.kind != "member" or u.claimed > BATCH_BYTES:
            flush()
            out.append(u)
            continue
        if run and (u.path != run[0].path or total + u.claimed > BATCH_BYTES or len(run) >= BATCH_MEMBERS):
            flush()
        run.append(u)
        total += u.claimed
    flush()
    return out


def classify(name: str) -> str:
    """book | zip | table | other, from the file name."""
    low = name.lower()
    if low.endswith(BOOK_SUFFIXES):
        return "book"
    inner = compressed_inner(low)
    if inner is not None:
        if inner.endswith(".tar"):
            return "other"
        return "book" if inner.endswith(".txt") else ("table" if inner.endswith(TABLE_SUFFIXES) else "other")
    if low.endswith(".zip"):
        return "zip"
    if low.endswith(TABLE_SUFFIXES) or low.endswith(".arrow"):
        return "table"
    return "other"


def _other_reason(name: str) -> str:
    low = name.lower()
    if low.endswith((".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tar.xz")):
        return "tar archive: not read (unpack it, or repack it as a zip)"
    suffix = Path(name).suffix.lower()
    return f"not a book file ({suffix})" if suffix else "not a book file (no suffix)"


def walk_tree(root: Path, keep_duplicates: bool = False) -> Walk:
    """Units of every book below ``root`` and Skip records of every other file (see the module
    docstring), in path order."""
    walk = Walk()
    root = Path(os.path.abspath(root))
    try:
        st = root.stat()
    except OSError as exc:
        walk.skips.append(_not_read(root.name, f"unreadable folder: {exc.strerror}"))
        return walk
    seen_dirs = {(st.st_dev, st.st_ino): ""}
    seen_files: dict = {}
    _walk_dir(root, "", walk, seen_dirs, [(st.st_dev, st.st_ino)], seen_files, keep_duplicates)
    walk.units.sort(key=lambda u: u.rel)
    walk.skips.sort(key=lambda s: s.path)
    return walk


def _walk_dir(folder: Path, prefix: str, walk: Walk, seen_dirs: dict, ancestors: list, seen_files: dict,
              keep_duplicates: bool) -> None:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        walk.skips.append(_not_read(prefix.rstrip("/") or folder.name, f"unreadable folder: {exc.strerror}"))
        return
    books: list[tuple[str, str, int]] = []       # (name, path, size) of book files and zips in this folder
    for entry in entries:
        if entry.name.startswith("."):
            continue
        rel = prefix + entry.name
        try:
            is_link = entry.is_symlink()
            st = os.stat(entry.path)           # follows symlinks
        except OSError as exc:
            if is_link and not os.path.exists(entry.path):
                try:
                    target = os.readlink(entry.path)
                except OSError:
                    target = "?"
                reason = ("symlink loop" if exc.errno == 40 else f"dangling symlink -> {target}")
            else:
                reason = f"unreadable: {exc.strerror}"
            walk.skips.append(_not_read(rel, reason))
            continue
        mode = st.st_mode
        if stat.S_ISDIR(mode):
            ident = (st.st_dev, st.st_ino)
            if ident in ancestors:
                walk.skips.append(_not_read(rel, f"symlink loop: a folder containing it"
                                                 f" ({seen_dirs[ident] or '.'}), not followed"))
            elif ident in seen_dirs:
                walk.skips.append(_not_read(rel, f"same folder as {seen_dirs[ident] or '.'}, not walked again"))
            else:
                seen_dirs[ident] = rel
                _walk_dir(Path(entry.path), rel + "/", walk, seen_dirs, ancestors + [ident], seen_files,
                          keep_duplicates)
            continue
        if not stat.S_ISREG(mode):
            kind = ("FIFO (named pipe)" if stat.S_ISFIFO(mode) else "socket" if stat.S_ISSOCK(mode)
                    else "device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "special file")
            walk.skips.append(_not_read(rel, f"{kind}: not opened"))
            continue
        kind = classify(entry.name)
        if kind == "other":
            walk.skips.append(_not_read(rel, _other_reason(entry.name)))
            continue
        if kind == "table":
            walk.skips.append(_not_read(rel, "table file inside a folder: give it with --corpus FILE"))
            continue
        ident = (st.st_dev, st.st_ino)
        if ident in seen_files:
            walk.skips.append(Skip(rel, file_book_id(rel), DUPLICATE,
                                   f"same file as {seen_files[ident]} (link), read once"))
            continue
        seen_files[ident] = rel
        books.append((entry.name, entry.path, st.st_size))
    walk.units.extend(_folder_units(books, prefix, walk, keep_duplicates))


def _folder_units(books: list[tuple[str, str, int]], prefix: str, walk: Walk, keep_duplicates: bool) -> list[Unit]:
    """Units of one folder's book files and zips, Gutenberg copies grouped (unless kept)."""
    groups: dict[str, list] = {}
    if not keep_duplicates:
        for name, path, size in books:
            m = _VARIANT.match(name)
            if m:
                groups.setdefault(m.group(1), []).append((_PREFERENCE[((m.group(2) or ""), m.group(3).lower())],
                                                          name, path, size))
        groups = {k: sorted(v) for k, v in groups.items() if len(v) > 1}
    grouped = {name for members in groups.values() for _, name, _, _ in members}
    units: list[tuple[str, Unit]] = []
    for name, path, size in books:
        rel = prefix + name
        if name in grouped:
            continue
        if classify(name) == "zip":
            units.extend((u.rel, u) for u in member_units(path, rel, size, walk))
        else:
            units.append((rel, file_unit(path, rel, size)))
    for number, members in groups.items():
        alternatives = []
        for _, name, path, size in members:
            rel = prefix + name
            if classify(name) == "zip":
                sub = Walk()
                found = member_units(path, rel, size, sub)
                if len(found) == 1:
                    alternatives.append(found[0])
                    walk.skips.extend(sub.skips)
                    continue
                # not a one-book zip: read as a zip of its own, outside the group
                walk.skips.extend(sub.skips)
                units.extend((u.rel, u) for u in found)
            else:
                alternatives.append(file_unit(path, rel, size))
        if len(alternatives) == 1:
            units.append((alternatives[0].rel, alternatives[0]))
        elif alternatives:
            first = alternatives[0]
            units.append((first.rel, Unit(key=f"{prefix}{number} (gutenberg copies)", kind="variants",
                                          path=first.path, rel=first.rel, size=first.size,
                                          alternatives=tuple(alternatives))))
    return [u for _, u in sorted(units, key=lambda t: t[0])]


def unit_books(unit: Unit) -> list[tuple[str, str]]:
    """(path, book id) of each book of a unit whose books are known before reading (file,
    member, members: each; variants: the preferred copy); other units: (path, key)."""
    if unit.kind in ("file", "member"):
        return [(unit.rel, unit_book_id(unit))]
    if unit.kind == "members":
        return [(u.rel, unit_book_id(u)) for u in unit.batch]
    if unit.kind == "variants":
        return [(unit.rel, unit_book_id(unit.alternatives[0]))]
    return [(unit.rel, unit.key)]


def unit_book_id(unit: Unit) -> str:
    """The book id of a file or member unit."""
    if unit.kind == "member":
        return member_book_id(unit.rel[:-len(unit.member) - 1], unit.member)
    return file_book_id(unit.rel)


def duplicate_skip(unit: Unit, chosen: str) -> Skip:
    return Skip(unit.rel, unit_book_id(unit), DUPLICATE,
                f"another copy of the same Gutenberg ebook: {chosen} is read ({VARIANT_RULE})")

