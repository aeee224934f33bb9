"""Compressed books: ``.gz`` / ``.bz2`` / ``.xz`` files (one book each) and zip archives (every
text member a book), decompressed as a stream, never unpacked to disk.

A book larger than ``MAX_BOOK_BYTES`` once decompressed is skipped (``too large``): that bounds
the memory of a worker whatever the archive claims (a "zip bomb" stops at the limit). Broken
data (a corrupt zip, a truncated gzip stream, a CRC error) raises :class:`BookSkipped` with
the library's message.

May import: the standard library, :mod:`.base`.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import lzma
import stat
import zipfile
import zlib

from pipeline.formats.corpus.base import BookSkipped

MAX_BOOK_BYTES = 256 * 1024 * 1024
_BLOCK = 1 << 20
_OPENERS = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}
_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile, ValueError)


def read_limited(stream, limit: int = MAX_BOOK_BYTES) -> bytes:
    """All bytes of a binary stream, or :class:`BookSkipped` past ``limit``."""
    buf = io.BytesIO()
    while True:
        block = stream.read(_BLOCK)
        if not block:
            return buf.getvalue()
        buf.write(block)
        if buf.tell() > limit:
            raise BookSkipped("too large", f"more than {limit // (1024 * 1024)} MB of text")


def open_compressed(path: str):
    """A binary stream of the decompressed content of a .gz/.bz2/.xz file (else the file)."""
    low = path.lower()
    for suffix, opener in _OPENERS.items():
        if low.endswith(suffix):
            return opener(path, "rb")
    return open(path, "rb")


def read_file_bytes(path: str) -> bytes:
    """The (decompressed) bytes of one book file."""
    try:
        with open_compressed(path) as f:
            return read_limited(f)
    except BookSkipped:
        raise
    except _ERRORS as exc:
        if isinstance(exc, OSError) and not path.lower().endswith(tuple(_OPENERS)):
            raise
        raise BookSkipped("corrupt archive", f"{type(exc).__name__}: {exc}") from None


def zip_text_members(path: str) -> tuple[list[str], list[tuple[str, str]]]:
    """(text members, [(other member, reason)]) of a zip archive, in archive order. Folders are
    left out. Raises :class:`BookSkipped` when the archive cannot be opened."""
    texts, others = zip_text_entries(path)
    return [name for name, _ in texts], others


def zip_text_entries(path: str) -> tuple[list[tuple[str, int]], list[tuple[str, str]]]:
    """As :func:`zip_text_members`, each text member with the size its entry claims once
    decompressed (used to batch small members; reading still stops at ``MAX_BOOK_BYTES``)."""
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except _ERRORS as exc:
        raise BookSkipped("corrupt zip", f"{type(exc).__name__}: {exc}", status="not-read") from None
    texts, others, seen = [], [], set()
    for info in infos:
        if info.is_dir():
            continue
        name = info.filename
        if name in seen:
            others.append((name, "duplicate member name in the zip"))
        elif info.create_system == 3 and stat.S_ISLNK(info.external_attr >> 16):
            others.append((name, "zip member is a symbolic link: not followed, not read"))
        elif any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
            others.append((name.encode("unicode_escape").decode("ascii"),
                           "zip member name holds a control character (a line break, a tab...): not read"))
        elif name.lower().endswith(".txt"):
            texts.append((name, info.file_size))
        else:
            suffix = name.rsplit(".", 1)[-1].lower() if "." in name.rsplit("/", 1)[-1] else ""
            others.append((name, f"zip member is not a text file (.{suffix})" if suffix
                           else "zip member is not a text file (no .txt suffix)"))
        seen.add(name)
    return texts, others


def first_member(z: zipfile.ZipFile, member: str):
    """The FIRST entry named ``member`` (``ZipFile.open(name)`` gives the last one): the one
    the listing reads, a later entry of the same name being listed as a duplicate."""
    for info in z.infolist():
        if info.filename == member:
            return info
    raise KeyError(member)


def read_member(path: str, member: str) -> bytes:
    """The bytes of one zip member (CRC checked), at most ``MAX_BOOK_BYTES``."""
    try:
        with zipfile.ZipFile(path) as z, z.open(first_member(z, member)) as f:
            return read_limited(f)
    except BookSkipped:
        raise
    except KeyError:
        raise BookSkipped("corrupt zip", f"no member {member!r}") from None
    except (NotImplementedError, RuntimeError) as exc:     # unsupported compression, encrypted member
        raise BookSkipped("unreadable zip member", str(exc)) from None
    except _ERRORS as exc:
        raise BookSkipped("corrupt zip", f"{type(exc).__name__}: {exc}") from None


def read_members(path: str, members: list[str]):
    """(member, its bytes or the :class:`BookSkipped` why not) for each of ``members`` of one zip,
    in this order: the archive is opened and its directory read once for them all (a zip of
    5,000 small books was opened 5,000 times, each time reading the whole directory). Each
    member as :func:`read_member` reads it: the first entry of its name, CRC checked, at most
    ``MAX_BOOK_BYTES``."""
    try:
        z = zipfile.ZipFile(path)
    except _ERRORS as exc:
        why = BookSkipped("corrupt zip", f"{type(exc).__name__}: {exc}")
        for member in members:
            yield member, why
        return
    with z:
        first: dict = {}
        for info in z.infolist():
            first.setdefault(info.filename, info)
        for member in members:
            try:
                if member not in first:
                    raise BookSkipped("corrupt zip", f"no member {member!r}")
                with z.open(first[member]) as f:
                    data = read_limited(f)
            except BookSkipped as exc:
                yield member, exc
                continue
            except (NotImplementedError, RuntimeError) as exc:     # unsupported compression, encrypted member
                yield member, BookSkipped("unreadable zip member", str(exc))
                continue
            except _ERRORS as exc:
                yield member, BookSkipped("corrupt zip", f"{type(exc).__name__}: {exc}")
                continue
            yield member, data


@contextlib.contextmanager
def open_lines(path: str, member: str = ""):
    """A binary stream (to iterate by lines) of a (compressed) file or of a zip member."""
    try:
        if member:
            with zipfile.ZipFile(path) as z, z.open(first_member(z, member)) as f:
                yield f
        else:
            with open_compressed(path) as f:
                yield f
    except BookSkipped:
        raise
    except (KeyError, NotImplementedError, RuntimeError) + _ERRORS as exc:
        if isinstance(exc, OSError) and not member and not path.lower().endswith(tuple(_OPENERS)):
            raise
        raise BookSkipped("corrupt archive", f"{type(exc).__name__}: {exc}") from None
